//! The specification's example workflow: each command and Eddi's exact
//! reply, and the file it leaves. Shared by the tests that run it through
//! the library, `eddi run` and NATS.

pub const WORKFLOW: &[(&str, &str)] = &[
    ("Start refactor_session \"Refactoring user authentication module\"", "Ok"),
    ("Open Create src/auth user_manager.py", "Ok, At 0:0, Length 0"),
    (
        r#"Insert Block "class UserManager:\n    def __init__(self):\n        self.users = {}\n""#,
        "Ok, Inserted 3 lines at 0, At 3:0",
    ),
    ("Show Function __init__()", r"Ok: At 1:4, Txt def __init__(self):\n        self.users = {}"),
    ("Goto EndOfClass", "Ok, At 3:0"),
    // As in the spec, the snippet's indentation is lost; Eddi re-indents it
    // into the class and separates the methods by one blank line (PEP 8).
    (
        r#"Insert Method "def authenticate(self, username, password):\n # TODO: Implement authentication\n return False\n""#,
        "Ok, Inserted 4 lines at 3, At 7:0",
    ),
    ("Save Close user_manager.py", "Ok, Bytes 178"),
    (
        "Summary refactor_session",
        "Ok: Created src/auth/user_manager.py (178 bytes), Added 7 lines, Deleted 0 lines, 1 class created (UserManager), 2 methods created (UserManager.__init__, UserManager.authenticate)",
    ),
    ("End refactor_session", "Ok, Session saved"),
];

pub const EXPECTED_FILE: &str = "class UserManager:
    def __init__(self):
        self.users = {}

    def authenticate(self, username, password):
        # TODO: Implement authentication
        return False
";
