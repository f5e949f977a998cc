//! The one door: every command's result is `Result<Outcome, OpError>`,
//! with the changes it applied and the project's completions as data, and
//! a turn renders each reply once.

use super::*;
use crate::edit::Position;
use crate::outcome::{Completion, DefinitionEdit, Shape};

fn command(text: &str) -> Command {
    let mut statements = commands::parse_message(text);
    assert_eq!(statements.len(), 1, "{text}");
    statements.remove(0).parsed.unwrap()
}

#[test]
fn an_edit_outcome_carries_the_change_it_applied_and_a_read_none() {
    let f = Fixture::new();
    f.write("a.py", "def f():\n    return 1\n");
    f.send("u", "Start s; Open a.py");

    let inserted = f
        .engine
        .command("u", &command("Insert Line \"x = 2\""))
        .unwrap();
    assert_eq!(inserted.shape, Shape::Effect);
    let [change] = inserted.changes.as_slice() else {
        panic!("one change: {inserted:?}");
    };
    let touched: Vec<String> = change.touched().iter().map(|p| p.to_string()).collect();
    assert_eq!(touched, ["a.py"]);

    // a code command's edit is a change like any other
    let renamed = f
        .engine
        .command("u", &command("Modify Function f Rename g"))
        .unwrap();
    assert_eq!(renamed.changes.len(), 1, "{renamed:?}");

    let moved = f.engine.command("u", &command("Goto 0:0")).unwrap();
    assert!(moved.changes.is_empty());
    assert_eq!(moved.cursor(), Some(Position::new(0, 0)));
    let shown = f.engine.command("u", &command("Show Line 0")).unwrap();
    assert_eq!(shown.shape, Shape::Answer);
}

#[test]
fn a_failure_is_an_error_with_its_kind_never_an_outcome() {
    let f = Fixture::new();
    f.write("a.py", "def f():\n    return 1\n");
    let no_session = f.engine.command("u", &command("Goto 0:0")).unwrap_err();
    assert_eq!(no_session.kind, ErrorKind::NoSession);
    f.send("u", "Start s; Open a.py");
    let missing = f
        .engine
        .command("u", &command("Show Function nosuch"))
        .unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
    assert_eq!(missing.candidates, ["f"]);
    let nothing = f.engine.command("u", &command("Save")).unwrap_err();
    assert_eq!(nothing.kind, ErrorKind::NotApplicable);
}

#[test]
fn what_an_edit_of_a_definition_leaves_elsewhere_is_data() {
    let f = Fixture::new();
    f.write("a.py", "def f():\n    return 1\n");
    f.write("b.py", "from a import f\n\nf()\n");
    f.send("u", "Start s; Open a.py");
    let renamed = f
        .engine
        .command("u", &command("Modify Function f Rename g"))
        .unwrap();
    let [Completion::LeftUnchanged { edit, sites }] = renamed.completions.as_slice() else {
        panic!("one completion: {renamed:?}");
    };
    assert_eq!(
        *edit,
        DefinitionEdit::Renamed {
            old: "a.f".into(),
            new: "g".into()
        }
    );
    let places: Vec<(&str, usize)> = sites
        .iter()
        .map(|s| (s.path.as_str(), s.position.line))
        .collect();
    assert_eq!(places, [("b.py", 0), ("b.py", 2)]);
    // and the renderer words it
    assert!(Reply::from(renamed)
        .terse()
        .contains("not changed: 2 references in other files (b.py:0, b.py:2)"));
}

#[test]
fn a_turn_renders_each_reply_once_with_or_without_a_room() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.send("u", "Start s");
    let room = ReplyRoom {
        bytes: 1 << 20,
        json_escaped: false,
    };
    for room in [None, Some(room)] {
        crate::reply::RENDERED.with(|count| count.set(0));
        let response = f.engine.execute_within(
            &Request {
                sender: "u",
                text: "Open a.py; Goto 0:0; Show Line 0",
                id: None,
            },
            room,
        );
        assert_eq!(response.text.lines().count(), 3, "{}", response.text);
        assert_eq!(response.fitted_in, room);
        assert_eq!(crate::reply::RENDERED.with(|count| count.get()), 3);
        f.send("u", "Close a.py");
    }
}
