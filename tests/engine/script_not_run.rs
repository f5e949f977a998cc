//! The scripting language's front end parses scripts, but nothing runs
//! them yet: a script sent to Eddi today must still get a typed `Fail`
//! (an unknown command), never `Ok`, and leave every file as it was.

use eddi::engine::{Engine, EngineConfig, Request};
use eddi_core::script;

/// Scripts from the spec's stage-2 section, single-line forms and a block.
const SCRIPTS: &[&str] = &[
    "foreach caller of authenticate() replace with authenticate($1, timeout=30)",
    "foreach file matching \"*.py\" add import logging",
    "if unused remove import",
    "let $auth_callers = callers of authenticate()",
    "{ foreach file matching \"*.py\" { foreach import where unused { remove import } } collect changes as \"cleanup\" }",
];

#[test]
fn a_valid_script_is_refused_as_an_unknown_command_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let source = "import logging\nimport os\n\ndef authenticate(user):\n    return user\n\nauthenticate('u')\n";
    std::fs::write(dir.path().join("a.py"), source).unwrap();
    let engine = Engine::open(EngineConfig::new(dir.path())).unwrap();
    let send = |text: &str| {
        engine
            .execute(&Request {
                sender: "u",
                text,
                id: None,
            })
            .text
    };
    send("Start s; Set Format json; Open a.py");
    for text in SCRIPTS {
        // the front end reads it as a script …
        script::parse(text, &[]).unwrap_or_else(|e| panic!("{text}: {e}"));
        // … and the engine, which cannot run it yet, refuses it typed
        let reply: serde_json::Value = serde_json::from_str(&send(text)).unwrap();
        assert_eq!(reply["ok"], false, "{text}: {reply}");
        assert_eq!(
            reply["failure"]["code"], "invalid_command",
            "{text}: {reply}"
        );
    }
    let written = std::fs::read_to_string(dir.path().join("a.py")).unwrap();
    assert_eq!(written, source);
}
