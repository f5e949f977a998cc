//! The change spine's seams: one session lock per turn, typed failures,
//! a proposed change laid over the index.

use super::*;

impl Fixture {
    /// How often the sender's session has been locked so far.
    fn locks_of(&self, sender: &str) -> u64 {
        let live = self.engine.live_of(sender).expect("a session");
        let locked = live.lock().locked;
        locked
    }
}

/// A message locks its session once, however many of its commands use
/// the session and the project index (which takes the held session, never
/// locks it again — a second lock would deadlock on the held one).
#[test]
fn a_message_locks_its_session_once() {
    let f = Fixture::new();
    f.write("pkg/__init__.py", "");
    f.write(
        "pkg/core.py",
        "def helper(x):\n    return x\n\n\ndef other():\n    return helper(1)\n",
    );
    f.write("pkg/use.py", "from pkg.core import helper\n\nhelper(2)\n");
    f.send("a", "Start s; Open pkg/core.py");
    let messages = [
        // the index queries, with an unsaved buffer laid over the index
        "Goto 0:0; Insert Line \"# top\"; Find References pkg.core.helper; Find Callers pkg.core.helper; Find Definition helper",
        // an edit of a definition asks the index what it leaves elsewhere
        "Modify Function helper Rename helper2",
        "Delete Function other",
        // a code target not found here asks the index where it is defined
        "Goto Function pkg.use.nothing",
        // the index's side of a file's dependencies
        "Analyze File Dependencies",
        // rendering in the preferences set by the same message
        "Set Format json; Status; Set Format terse",
        "Undo; Undo; Undo; Save",
    ];
    for message in messages {
        let before = f.locks_of("a");
        let reply = f.engine.execute(&Request {
            sender: "a",
            text: message,
            id: Some(message),
        });
        assert!(!reply.text.is_empty());
        assert_eq!(
            f.locks_of("a") - before,
            1,
            "locks of: {message}\n{}",
            reply.text
        );
    }
    // a retried message id is answered from the same single lock
    let before = f.locks_of("a");
    let again = f.engine.execute(&Request {
        sender: "a",
        text: messages[1],
        id: Some(messages[1]),
    });
    assert!(again.duplicate);
    assert_eq!(f.locks_of("a") - before, 1);
}

/// `End` ends the session the turn holds; `Start` in the same message
/// holds the new one; `Summary` of another session reads it with the own
/// one unlocked (two senders summarising each other never deadlock).
#[test]
fn start_end_and_summary_of_another_session_within_one_message() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start s1; Open Create a.txt; Insert Line "x"; End; Start s2; Status
        Ok
        Ok, At 0:0, Length 0
        Ok, Inserted 1 line at 0, At 1:0
        Ok, Session saved, Unsaved changes discarded: a.txt
        Ok
        Ok: Session s2, No file
        "#,
    );
    f.send("b", "Start t");
    let threads: Vec<_> = (0..2)
        .map(|i| {
            let engine = &f.engine;
            let (me, other) = if i == 0 { ("a", "t") } else { ("b", "s2") };
            (me, other, engine)
        })
        .collect();
    std::thread::scope(|scope| {
        for (me, other, engine) in threads {
            scope.spawn(move || {
                for _ in 0..200 {
                    let text = format!("Summary {other}; Status");
                    let reply = engine.execute(&Request {
                        sender: me,
                        text: &text,
                        id: None,
                    });
                    assert!(reply.ok, "{}", reply.text);
                }
            });
        }
    });
}
