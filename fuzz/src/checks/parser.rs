//! The command parser on arbitrary text.
//!
//! - `parse_message`, `parse_command` and `parse_answer` never panic;
//! - statement and error spans lie inside the message, error messages are
//!   one line (they become `Fail "…"` replies);
//! - a message of exactly one statement parses to the same command with
//!   `parse_command`;
//! - every parsed command prints (`Display`) as canonical text that parses
//!   back to the same command and prints the same again, alone and joined
//!   with the others into one message.

use eddi::commands::{parse_answer, parse_command, parse_message, Command};

pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let chars = text.chars().count();
    let statements = parse_message(text);
    let mut commands = Vec::new();
    for statement in &statements {
        let span = statement.span;
        assert!(
            span.start <= span.end && span.end <= chars,
            "statement span {span:?} outside a message of {chars} chars"
        );
        match &statement.parsed {
            Ok(command) => {
                round_trip(command);
                commands.push(command.clone());
            }
            Err(error) => {
                assert!(
                    !error.message.contains('\n') && !error.message.contains('\r'),
                    "multi-line error message {:?}",
                    error.message
                );
                assert!(
                    error.span.start <= error.span.end && error.span.end <= chars,
                    "error span {:?} outside a message of {chars} chars: {:?}",
                    error.span,
                    error.message
                );
            }
        }
    }
    let single = parse_command(text);
    if let [only] = statements.as_slice() {
        if let Ok(command) = &only.parsed {
            assert_eq!(
                single.as_ref(),
                Ok(command),
                "parse_command disagrees with parse_message"
            );
        }
    }
    if let Ok(command) = &single {
        round_trip(command);
    }
    if !commands.is_empty() {
        let joined: Vec<String> = commands.iter().map(ToString::to_string).collect();
        let message = joined.join("; ");
        let again: Vec<Command> = parse_message(&message)
            .into_iter()
            .map(|s| {
                s.parsed
                    .unwrap_or_else(|e| panic!("{message:?} does not parse back: {e}"))
            })
            .collect();
        assert_eq!(again, commands, "printed message {message:?}");
    }
    let _ = parse_answer(text);
}

/// `Display` is canonical text that parses back to the same command.
fn round_trip(command: &Command) {
    let printed = command.to_string();
    match parse_command(&printed) {
        Ok(back) => {
            assert_eq!(&back, command, "printed as {printed:?}");
            assert_eq!(back.to_string(), printed, "printing is not canonical");
        }
        Err(e) => panic!("{command:?} prints as {printed:?}, which does not parse: {e}"),
    }
}
