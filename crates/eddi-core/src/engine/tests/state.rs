//! Engine conversations: state — one engine per state directory, and
//! replies kept within a transport's room.

use super::*;

fn within(f: &Fixture, text: &str, id: Option<&str>, bytes: usize) -> Response {
    f.engine.execute_within(
        &Request {
            sender: "u",
            text,
            id,
        },
        Some(ReplyRoom {
            bytes,
            json_escaped: false,
        }),
    )
}

#[test]
fn a_second_engine_on_one_state_dir_is_refused_naming_this_process() {
    let f = Fixture::new();
    let Err(err) = Engine::open(EngineConfig::new(f.dir.path())) else {
        panic!("a second engine opened the same state directory");
    };
    let message = err.to_string();
    assert!(
        message.contains(&format!(
            "is in use by another Eddi (pid {}, ",
            std::process::id()
        )),
        "{message}"
    );
    // Its own state directory is fine, and the first one is released on drop.
    let other = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(f.dir.path());
    config.state_dir = Some(other.path().to_path_buf());
    assert!(Engine::open(config).is_ok());
    drop(f.restart());
}

#[test]
fn commands_past_a_full_room_do_not_run() {
    let f = Fixture::new();
    f.send("u", "Start s; Open Create a.py");
    let message = vec!["Insert Line \"x = 1\""; 100].join("\n");
    let reply = within(&f, &message, None, 2000);
    assert!(!reply.ok);
    assert!(reply.text.len() <= 2000, "{}", reply.text.len());
    let lines: Vec<&str> = reply.text.lines().collect();
    let ran = lines.len() - 1;
    assert_eq!(
        lines[ran],
        format!(
            "Fail \"Not run: the replies before it fill the room (this connection's replies \
             hold at most 2000 bytes). Send this command and the rest again in another \
             message\", Skipped {} commands",
            100 - ran - 1
        )
    );
    // Exactly the answered commands changed the buffer.
    assert_eq!(
        f.send("u", "Status"),
        format!("Ok: Session s, File a.py, At {ran}:0, Modified")
    );
}

#[test]
fn set_limit_is_capped_to_the_room_and_says_so() {
    let f = Fixture::new();
    f.send("u", "Start s");
    assert_eq!(
        within(&f, "Set Limit 100000", None, 4096).text,
        "Ok, Limit capped at 3840 chars: this connection's replies hold at most 4096 bytes"
    );
    // Where it fits, it is taken as asked; without a room, too.
    assert_eq!(within(&f, "Set Limit 3000", None, 4096).text, "Ok");
    assert_eq!(f.send("u", "Set Limit 100000"), "Ok");
}

#[test]
fn a_long_show_is_shortened_to_the_room() {
    let f = Fixture::new();
    let text: String = (0..400).map(|i| format!("line_{i:03} = {i}\n")).collect();
    f.write("a.py", &text);
    f.send("u", "Start s; Set Limit 100000; Open a.py");
    let reply = within(&f, "Show Block 0:399", None, 3000);
    assert!(reply.ok);
    assert!(reply.text.len() <= 3000 - 256, "{}", reply.text.len());
    assert!(
        reply
            .text
            .starts_with("Ok: At 0:0, Shortened to fit: 1") && reply.text.contains(" of 400 lines; show a smaller part (Show Block a:b), Txt line_000 = 0\\nline_001 = 1"),
        "{}",
        &reply.text[..150]
    );
}

#[test]
fn a_repeated_id_is_given_again_within_a_smaller_room() {
    let f = Fixture::new();
    let text: String = (0..400).map(|i| format!("line_{i:03} = {i}\n")).collect();
    f.write("a.py", &text);
    f.send("u", "Start s; Set Limit 100000; Open a.py");
    let first = within(&f, "Show Block 0:399", Some("m1"), 100_000);
    assert!(first.ok && !first.duplicate);
    let again = within(&f, "Show Block 0:399", Some("m1"), 100_000);
    assert_eq!(
        (again.text.as_str(), again.duplicate),
        (first.text.as_str(), true)
    );
    let smaller = within(&f, "Show Block 0:399", Some("m1"), 1000);
    assert!(smaller.duplicate && !smaller.ok);
    assert!(
        smaller
            .text
            .starts_with("Fail \"Reply too large: the first 0 of 1 reply lines fit (this connection's replies hold at most 1000 bytes)"),
        "{}",
        smaller.text
    );
}
