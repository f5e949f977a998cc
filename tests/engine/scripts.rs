//! Scripts run (docs/SCRIPTING.md): every example of the spec's stage-2
//! section on a fixture project, asserting the files byte for byte and the
//! reply; one transaction per script; conflicts named; named changesets
//! collected, previewed, applied and rolled back, across a restart.

use std::collections::BTreeMap;
use std::path::Path;

use eddi::engine::{Engine, EngineConfig, Request};

/// The fixture project: an auth module and its callers, a class with
/// methods of several complexities, tests, an old and a new auth module.
const FILES: &[(&str, &str)] = &[
    (
        "auth.py",
        "def authenticate(user, password=None):\n    return user\n",
    ),
    (
        "app.py",
        "import os\nimport sys, json\nfrom auth import authenticate\nimport logging\n\n\ndef main(request):\n    authenticate(\"u\", password=\"p\")\n    request.user.authenticate(\"x\")\n    print(sys.argv)\n    return authenticate(request.user)\n",
    ),
    (
        "users.py",
        "class AccountManager:\n    @staticmethod\n    def new():\n        return AccountManager()\n\n\nclass UserManager:\n    @staticmethod\n    def new():\n        return UserManager()\n\n    def simple(self, a):\n        return a\n\n    def branchy(self, a, b):\n        if a:\n            return 1\n        elif b:\n            return 2\n        for x in a:\n            if x:\n                return x\n        while b:\n            if b > 3:\n                break\n            b -= 1\n        if a and b:\n            return 3\n        return 0\n",
    ),
    (
        "service.py",
        "from users import UserManager, AccountManager\n\n\ndef make():\n    return UserManager.new()\n\n\ndef other():\n    return AccountManager.new()\n",
    ),
    (
        "worker.py",
        "import logging\n\n\ndef work():\n    logging.info(\"working\")\n",
    ),
    (
        "tests/test_app.py",
        "import app\n\n\ndef test_main():\n    assert app\n",
    ),
    (
        "tests/test_users.py",
        "import logging\nimport users\n\n\ndef test_users():\n    assert users\n",
    ),
];

struct Fixture {
    dir: tempfile::TempDir,
    engine: Option<Engine>,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture::with(FILES)
    }

    fn with(files: &[(&str, &str)]) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let engine = Engine::open(EngineConfig::new(dir.path())).unwrap();
        let fixture = Fixture {
            dir,
            engine: Some(engine),
        };
        assert_eq!(fixture.send("Start s"), "Ok");
        fixture
    }

    fn send(&self, text: &str) -> String {
        self.engine
            .as_ref()
            .unwrap()
            .execute(&Request {
                sender: "agent",
                text,
                id: None,
            })
            .text
    }

    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(path)).unwrap()
    }

    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        collect(self.dir.path(), self.dir.path(), &mut out);
        out
    }

    fn restart(&mut self) {
        self.engine.take();
        self.engine = Some(Engine::open(EngineConfig::new(self.dir.path())).unwrap());
    }
}

fn collect(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if name.starts_with(".eddi") {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, out);
        } else {
            out.insert(name, std::fs::read(&path).unwrap());
        }
    }
}

fn original(path: &str) -> &'static str {
    FILES.iter().find(|(p, _)| *p == path).unwrap().1
}

// -- the spec's single-line forms --------------------------------------------

#[test]
fn foreach_caller_replaces_the_calls_the_index_resolves_and_not_same_named_methods() {
    let f = Fixture::new();
    let reply =
        f.send("foreach caller of authenticate() replace with authenticate($1, timeout=30)");
    assert_eq!(reply, "Ok, 2 calls replaced, 1 file changed (app.py)");
    assert_eq!(
        f.read("app.py"),
        original("app.py")
            .replace(
                "authenticate(\"u\", password=\"p\")",
                "authenticate(\"u\", timeout=30)"
            )
            .replace(
                "return authenticate(request.user)",
                "return authenticate(request.user, timeout=30)"
            )
    );
    // one undo step takes the whole script back
    assert!(f.send("Undo").starts_with("Ok"), "undo");
    assert_eq!(f.read("app.py"), original("app.py"));
}

#[test]
fn foreach_method_flags_each_with_its_location_and_writes_nothing() {
    let f = Fixture::new();
    let before = f.files();
    let reply = f.send("foreach method in UserManager flag \"Review complexity\"");
    assert_eq!(
        reply,
        "Ok, 3 methods flagged, Flagged: users.py:9: Review complexity; users.py:12: Review complexity; users.py:15: Review complexity"
    );
    assert_eq!(f.files(), before);
    // the review list stays with the session
    assert_eq!(
        f.send("Summary"),
        "Ok: No changes, Flagged 3: users.py:9: Review complexity; users.py:12: Review complexity; users.py:15: Review complexity"
    );
}

#[test]
fn foreach_file_matching_adds_an_import_once_after_the_imports() {
    let f = Fixture::new();
    let reply = f.send("foreach file matching \"test_*.py\" add import logging");
    assert_eq!(
        reply,
        "Ok, 1 import added, 1 file changed (tests/test_app.py)"
    );
    assert_eq!(
        f.read("tests/test_app.py"),
        "import app\nimport logging\n\n\ndef test_main():\n    assert app\n"
    );
    assert_eq!(
        f.read("tests/test_users.py"),
        original("tests/test_users.py")
    );
    // never twice
    assert_eq!(
        f.send("foreach file matching \"test_*.py\" add import logging"),
        "Ok, Script completed: nothing matched, nothing changed"
    );
}

#[test]
fn if_works_on_the_element_at_the_cursor() {
    let f = Fixture::new();
    f.send("Open users.py; Goto 16:8");
    assert_eq!(
        f.send("if complexity > 5 suggest extract_method"),
        "Ok, 1 method suggested, Flagged: users.py:15: suggest Extract_Method for branchy"
    );
    assert_eq!(
        f.send("if complexity > 50 suggest extract_method"),
        "Ok, Script completed: nothing matched, nothing changed"
    );
    f.send("Close users.py; Open app.py; Goto 1:12");
    assert_eq!(
        f.send("if unused remove import"),
        "Ok, 1 unused import removed, 1 file changed (app.py)"
    );
    assert_eq!(
        f.read("app.py"),
        original("app.py").replace("import sys, json\n", "import sys\n")
    );
}

#[test]
fn the_spec_s_if_else_without_its_replacement_is_refused_where_it_lost_it() {
    let f = Fixture::new();
    let reply = f.send("if params.count == 1 replace with else flag \"Manual review\"");
    assert!(
        reply.starts_with("Fail \"1:35: expected the replacement"),
        "{reply}"
    );
    // with its replacement, per call
    let reply = f.send(
        "foreach caller of authenticate() { if params.count == 1 replace with authenticate_one($1) else flag \"Manual review\" }",
    );
    assert!(
        reply.starts_with("Fail \"The script would break 1 place(s)"),
        "{reply}"
    );
    let reply = f.send(
        "foreach caller of authenticate() { if params.count == 1 replace with authenticate($1, None) else flag \"Manual review\" }",
    );
    assert_eq!(
        reply,
        "Ok, 1 call flagged, 1 call replaced, 1 file changed (app.py), Flagged: app.py:8: Manual review"
    );
}

#[test]
fn let_and_use_across_messages_run_the_query_again() {
    let f = Fixture::new();
    assert_eq!(
        f.send("let $complex_methods = methods in UserManager where complexity > 8"),
        "Ok, $complex_methods = 1 method"
    );
    assert_eq!(
        f.send("use $complex_methods suggest extract_method"),
        "Ok, 1 method suggested, Flagged: users.py:15: suggest Extract_Method for branchy"
    );
    assert_eq!(
        f.send("let $auth_callers = callers of authenticate()"),
        "Ok, $auth_callers = 2 calls"
    );
    assert_eq!(
        f.send("use $auth_callers replace authenticate() with authenticate(timeout=30)"),
        "Ok, 2 calls replaced, 1 file changed (app.py)"
    );
    assert_eq!(
        f.read("app.py"),
        original("app.py")
            .replace(
                "authenticate(\"u\", password=\"p\")",
                "authenticate(\"u\", password=\"p\", timeout=30)"
            )
            .replace(
                "return authenticate(request.user)",
                "return authenticate(request.user, timeout=30)"
            )
    );
    assert_eq!(
        f.send("let $test_files = files matching \"test_*.py\""),
        "Ok, $test_files = 2 files"
    );
    // an undefined one is refused before anything runs
    let reply = f.send("use $test_file flag \"x\"");
    assert!(
        reply.starts_with("Fail \"1:5: undefined variable $test_file"),
        "{reply}"
    );
    assert!(reply.contains("did you mean '$test_files'"), "{reply}");
}

// -- blocks -------------------------------------------------------------------

/// The refactoring examples' project: a class with a complex method whose
/// body extracts, its instantiations and a test.
const REFACTORED: &[(&str, &str)] = &[
    (
        "users.py",
        "class AccountManager:\n    @staticmethod\n    def new():\n        return AccountManager()\n\n\nclass UserManager:\n    @staticmethod\n    def new():\n        return UserManager()\n\n    def score(self, a, b, c):\n        \"\"\"How much.\"\"\"\n        total = 0\n        if a:\n            total += 1\n        if b:\n            total += 2\n        if c:\n            total += 3\n        for x in a:\n            if x and b:\n                total += x\n        while c:\n            c -= 1\n        if a or b:\n            total += 4\n        return total\n",
    ),
    (
        "service.py",
        "from users import UserManager, AccountManager\n\n\ndef make():\n    return UserManager.new()\n",
    ),
    (
        "tests/test_users.py",
        "from users import UserManager\n\n\ndef test_new():\n    assert UserManager()\n",
    ),
];

/// `users.py` after `score`'s body is extracted as `<name>`.
fn extracted(class: &str, name: &str, new_returns: &str) -> String {
    format!(
        "class AccountManager:\n    @staticmethod\n    def new():\n        return AccountManager()\n\n\nclass {class}:\n    @staticmethod\n    def new():\n        return {new_returns}()\n\n    def score(self, a, b, c):\n        \"\"\"How much.\"\"\"\n        total = self.{name}(a, b, c)\n        return total\n\n    def {name}(self, a, b, c):\n        total = 0\n        if a:\n            total += 1\n        if b:\n            total += 2\n        if c:\n            total += 3\n        for x in a:\n            if x and b:\n                total += x\n        while c:\n            c -= 1\n        if a or b:\n            total += 4\n        return total\n"
    )
}

#[test]
fn the_block_script_extracts_updates_callers_and_renames_in_one_step() {
    let f = Fixture::with(REFACTORED);
    let reply = f.send(
        "{ let $old_methods = methods in UserManager where complexity > 8 foreach $method in $old_methods { extract_method($method, \"Extracted\" + $method.name) } foreach caller of users.UserManager.new() { replace with AccountManager.new() } rename_class UserManager LegacyUserManager }",
    );
    assert_eq!(
        reply,
        "Ok, Extract_Method applied, 1 call replaced, Rename_Class applied, 3 files changed (service.py, tests/test_users.py, users.py), $old_methods = 1 method"
    );
    assert_eq!(
        f.read("users.py"),
        extracted("LegacyUserManager", "Extractedscore", "LegacyUserManager")
    );
    assert_eq!(
        f.read("service.py"),
        "from users import LegacyUserManager, AccountManager\n\n\ndef make():\n    return AccountManager.new()\n"
    );
    assert_eq!(
        f.read("tests/test_users.py"),
        "from users import LegacyUserManager\n\n\ndef test_new():\n    assert LegacyUserManager()\n"
    );
    // one undo step
    assert!(f.send("Undo").starts_with("Ok"));
    for (path, text) in REFACTORED {
        assert_eq!(&f.read(path), text, "{path}");
    }
}

#[test]
fn the_refactoring_workflow_is_collected_then_applied() {
    let f = Fixture::with(REFACTORED);
    let reply = f.send(
        "{ let $target_class = class UserManager let $complex_methods = methods in $target_class where complexity > 8 try { foreach $method in $complex_methods { extract_method($method, $method.name + \"_extracted\") } foreach caller of $target_class { if file.path contains \"test_\" { flag \"Update test: \" + caller.location } else { replace UserManager with AccountManager } } rename_class UserManager LegacyUserManager collect changes as \"user_manager_refactor\" } catch { rollback all flag \"Refactoring failed, manual intervention needed\" } }",
    );
    assert_eq!(
        reply,
        "Ok, Changeset user_manager_refactor prepared: 3 files affected, use 'apply changeset user_manager_refactor', Extract_Method applied, 1 call flagged, 1 name replaced, Rename_Class applied, $target_class = 1 class, $complex_methods = 1 method, Flagged: tests/test_users.py:5: Update test: tests/test_users.py:5"
    );
    for (path, text) in REFACTORED {
        assert_eq!(&f.read(path), text, "collecting wrote {path}");
    }
    assert!(f
        .send("apply changeset user_manager_refactor")
        .starts_with("Ok"));
    assert_eq!(
        f.read("users.py"),
        extracted("LegacyUserManager", "score_extracted", "AccountManager")
    );
    // the catch: a failing try is rolled back whole, and flagged
    let reply = f.send(
        "{ try { foreach class AccountManager { add line \"x = 1\" } foreach class NoSuch { remove } } catch { rollback all flag \"Refactoring failed, manual intervention needed\" } }",
    );
    assert!(reply.contains("Rolled back all"), "{reply}");
    assert!(
        reply.ends_with("Flagged: Refactoring failed, manual intervention needed"),
        "{reply}"
    );
}

#[test]
fn a_refactoring_that_refuses_fails_the_script_and_writes_nothing() {
    let f = Fixture::new();
    let before = f.files();
    let reply = f.send(
        "foreach method in UserManager where complexity > 8 { extract_method($method, \"part\") }",
    );
    assert!(reply.starts_with("Fail"), "{reply}");
    let reply = f.send("foreach $m in methods in UserManager where complexity > 8 { extract_method($m, \"part\") }");
    assert!(
        reply.starts_with("Fail \"1:61: Cannot extract - the return at line 16 would return from the new function instead"),
        "{reply}"
    );
    assert_eq!(f.files(), before);
}

#[test]
fn the_code_quality_cleanup() {
    let f = Fixture::new();
    let reply = f.send(
        "{ foreach file matching \"*.py\" { foreach function where line_count > 10 { flag \"Consider splitting: \" + function.name } foreach import where unused { remove import } if imports logging and not contains \"logger =\" { add line \"logger = logging.getLogger(__name__)\" } } }",
    );
    assert_eq!(
        reply,
        "Ok, 4 unused imports removed, 1 function flagged, 1 line added, 3 files changed (app.py, tests/test_users.py, worker.py), Flagged: users.py:15: Consider splitting: branchy"
    );
    assert_eq!(
        f.read("app.py"),
        "import sys\nfrom auth import authenticate\n\n\ndef main(request):\n    authenticate(\"u\", password=\"p\")\n    request.user.authenticate(\"x\")\n    print(sys.argv)\n    return authenticate(request.user)\n"
    );
    assert_eq!(
        f.read("tests/test_users.py"),
        "import users\n\n\ndef test_users():\n    assert users\n"
    );
    assert_eq!(
        f.read("worker.py"),
        "import logging\nlogger = logging.getLogger(__name__)\n\n\ndef work():\n    logging.info(\"working\")\n"
    );
}

#[test]
fn the_migration_is_collected_previewed_applied_and_rolled_back_across_a_restart() {
    let mut f = Fixture::with(&[
        ("src/old_auth.py", "def login(user):\n    return user\n"),
        ("src/new_auth.py", "def authenticate(user):\n    return user\n"),
        (
            "src/views.py",
            "import old_auth\nimport new_auth\n\n\ndef view(user):\n    return old_auth.login(user)\n",
        ),
        (
            "src/more.py",
            "from old_auth import login\nimport new_auth\n\n\ndef more(user):\n    return login(user)\n",
        ),
    ]);
    let before = f.files();
    let reply = f.send(
        "{ foreach file matching \"src/**/*.py\" { replace \"from old_auth import\" with \"from new_auth import\" foreach call to old_auth.login { replace with new_auth.authenticate } } collect changes as \"auth_migration\" }",
    );
    assert_eq!(
        reply,
        "Ok, Changeset auth_migration prepared: 2 files affected, use 'apply changeset auth_migration', 1 occurrence replaced, 2 calls replaced"
    );
    assert_eq!(f.files(), before, "collecting writes nothing");
    assert_eq!(
        f.send("Status"),
        "Ok: Session s, No file, 1 changeset not applied (auth_migration): apply changeset <name> writes one"
    );
    f.restart();
    assert_eq!(
        f.send("List Changesets"),
        "Ok: 1 changeset: auth_migration (not applied, 2 files)"
    );
    assert_eq!(
        f.send("preview changeset auth_migration"),
        "Ok: Changeset auth_migration (not applied): 2 files (src/more.py, src/views.py)"
    );
    assert_eq!(
        f.send("apply changeset auth_migration"),
        "Ok, Changeset auth_migration applied: 2 files written as one undo step (rollback changeset auth_migration takes it back)"
    );
    assert_eq!(
        f.read("src/more.py"),
        "from new_auth import login\nimport new_auth\n\n\ndef more(user):\n    return new_auth.authenticate(user)\n"
    );
    assert_eq!(
        f.read("src/views.py"),
        "import old_auth\nimport new_auth\n\n\ndef view(user):\n    return new_auth.authenticate(user)\n"
    );
    let reply = f.send("apply changeset auth_migration");
    assert!(
        reply.starts_with("Fail \"Changeset 'auth_migration' is applied already"),
        "{reply}"
    );
    f.restart();
    assert_eq!(
        f.send("rollback changeset auth_migration"),
        "Ok, Changeset auth_migration rolled back: 2 files restored"
    );
    assert_eq!(f.files(), before);
    assert_eq!(
        f.send("List Changesets"),
        "Ok: 1 changeset: auth_migration (rolled back, 2 files)"
    );
}

#[test]
fn a_changeset_whose_files_changed_since_is_refused_naming_them() {
    let f = Fixture::new();
    f.send("foreach file matching \"test_*.py\" { add line \"x = 1\" } collect changes as c1");
    std::fs::write(f.dir.path().join("tests/test_app.py"), "changed = True\n").unwrap();
    let reply = f.send("apply changeset c1");
    assert!(reply.starts_with("Fail"), "{reply}");
    assert!(reply.contains("tests/test_app.py"), "{reply}");
    assert_eq!(f.read("tests/test_app.py"), "changed = True\n");
    assert_eq!(
        f.read("tests/test_users.py"),
        original("tests/test_users.py")
    );
}

// -- one transaction ----------------------------------------------------------

#[test]
fn an_uncaught_failure_leaves_every_file_byte_for_byte() {
    let f = Fixture::new();
    let before = f.files();
    let reply = f.send("{ foreach file matching \"*.py\" { add line \"x = 1\" } foreach class NoSuchClass { remove } }");
    assert_eq!(
        reply,
        "Fail \"1:61: no class named 'NoSuchClass' in the files the script reads\""
    );
    assert_eq!(f.files(), before);
}

#[test]
fn an_edit_that_can_no_longer_apply_names_both_statements() {
    let f = Fixture::new();
    let before = f.files();
    let reply = f.send("{ let $c = class AccountManager foreach class AccountManager { remove } use $c replace \"new\" with \"make\" }");
    assert!(
        reply.starts_with("Fail \"1:80: class AccountManager (users.py:1) can no longer be edited: the statement at 1:64 removed or replaced it (chars 0..86 of users.py as found)\""),
        "{reply}"
    );
    assert_eq!(f.files(), before);
}

#[test]
fn try_catch_undoes_the_try_and_rollback_all_everything() {
    let f = Fixture::new();
    let reply = f.send(
        "{ foreach file matching \"test_app.py\" { add line \"x = 1\" } try { foreach class UserManager { remove } foreach class NoSuchClass { remove } } catch { flag \"Refactoring failed, manual intervention needed\" } }",
    );
    assert_eq!(
        reply,
        "Ok, 1 line added, 1 note flagged, 1 file changed (tests/test_app.py), Caught: 1:111: no class named 'NoSuchClass' in the files the script reads, Flagged: Refactoring failed, manual intervention needed"
    );
    assert_eq!(f.read("users.py"), original("users.py"));
    let reply = f.send(
        "{ foreach file matching \"test_users.py\" { add line \"y = 1\" } try { foreach class NoSuchClass { remove } } catch { rollback all flag \"failed\" } }",
    );
    assert!(reply.contains("Rolled back all"), "{reply}");
    assert_eq!(
        f.read("tests/test_users.py"),
        original("tests/test_users.py")
    );
}

#[test]
fn on_error_continue_skips_the_failing_element_and_stop_keeps_what_ran() {
    let f = Fixture::new();
    let reply = f.send("{ on_error continue foreach caller of authenticate() { remove } }");
    assert!(reply.starts_with("Ok, 1 call removed"), "{reply}");
    assert!(
        reply.contains("1 element failed and skipped (on_error continue)"),
        "{reply}"
    );
    assert_eq!(
        f.read("app.py"),
        original("app.py").replace("    authenticate(\"u\", password=\"p\")\n", "")
    );
    // stop: what ran before the failure is written, and the reply says where it stopped
    let g = Fixture::new();
    let reply = g.send("{ on_error stop foreach caller of authenticate() { remove } }");
    assert!(reply.starts_with("Ok, 1 call removed, 1 file changed (app.py), Stopped (on_error stop) at 1:52: call authenticate (app.py:11) is part of a larger statement; remove deletes a call only when it is a statement of its own (replace it instead); what ran before it is kept"), "{reply}");
    assert_eq!(g.read("app.py"), f.read("app.py"));
}

#[test]
fn a_script_that_does_not_parse_is_refused_with_line_and_column() {
    let f = Fixture::new();
    let reply = f.send("Set Format json");
    assert!(reply.contains("\"ok\":true"), "{reply}");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("foreach function where complexty > 10 flag \"x\"")).unwrap();
    assert_eq!(reply["ok"], false);
    assert_eq!(reply["failure"]["code"], "invalid_command");
    assert!(reply["error"]
        .as_str()
        .unwrap()
        .starts_with("1:24: unknown condition 'complexty'"));
    assert_eq!(reply["failure"]["candidates"][0], "complexity");
    let reply: serde_json::Value = serde_json::from_str(
        &f.send("foreach method in UserManager where complexity > 8 flag \"Review\""),
    )
    .unwrap();
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["script"]["counts"][0]["verb"], "flagged");
    assert_eq!(reply["script"]["counts"][0]["n"], 1);
    assert_eq!(reply["script"]["flagged"][0]["path"], "users.py");
    assert_eq!(reply["script"]["flagged"][0]["line"], 15);
}

#[test]
fn class_implementing_follows_aliases() {
    let f = Fixture::with(&[(
        "base.py",
        "class Base:\n    pass\n\n\nclass A(Base):\n    pass\n\n\nAlias = Base\n\n\nclass B(Alias):\n    pass\n",
    )]);
    assert_eq!(
        f.send("foreach class implementing Base flag \"sub \" + class.name"),
        "Ok, 2 classes flagged, Flagged: base.py:5: sub A; base.py:12: sub B"
    );
}

// -- eddi run, faults, properties ----------------------------------------------

/// A project of `n` modules, each calling `util.helper`.
fn many_files(n: usize) -> Vec<(String, String)> {
    let mut files = vec![(
        "util.py".to_owned(),
        "def helper(x):\n    return x\n".to_owned(),
    )];
    for i in 0..n {
        files.push((
            format!("pkg/m{i:02}.py"),
            format!("from util import helper\n\n\ndef f{i}():\n    return helper({i})\n"),
        ));
    }
    files
}

fn write_files(root: &Path, files: &[(String, String)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn eddi_run_sends_a_script_over_many_lines_as_one_message() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &many_files(3));
    let script = "Start s\nforeach caller of util.helper() {\n    replace with helper($1, strict=True)\n}\nStatus\n";
    let output = crate::support::cli::run(dir.path(), &[], script);
    let lines = crate::support::cli::lines(&output);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        lines[1],
        "Ok, 3 calls replaced, 3 files changed (pkg/m00.py, pkg/m01.py, pkg/m02.py)"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("pkg/m01.py")).unwrap(),
        "from util import helper\n\n\ndef f1():\n    return helper(1, strict=True)\n"
    );
}

#[test]
fn a_write_failure_at_the_kth_file_of_a_50_file_script_leaves_every_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let files = many_files(50);
    write_files(dir.path(), &files);
    let script = "Start s\nforeach caller of util.helper() replace with helper($1, strict=True)\n";
    let output = crate::support::cli::run_script(
        crate::support::cli::eddi_in(dir.path())
            .env("EDDI_FAULT_COMMIT", "fail-apply:25")
            .args(["run", "--root"])
            .arg(dir.path()),
        script,
    );
    let lines = crate::support::cli::lines(&output);
    assert!(lines[1].starts_with("Fail"), "{lines:?}");
    assert_eq!(crate::support::cli::code(&output), 1);
    for (path, text) in &files {
        assert_eq!(
            &std::fs::read_to_string(dir.path().join(path)).unwrap(),
            text,
            "{path}"
        );
    }
}

/// The statements a random script is made of, each valid on the fixture.
const STATEMENTS: &[&str] = &[
    "foreach file matching \"*.py\" add line \"marker = 1\"",
    "foreach import where unused { remove import }",
    "foreach caller of authenticate() replace with authenticate($1, timeout=30)",
    "foreach function replace \"return\" with \"return  \"",
    "foreach file matching \"test_*.py\" add import json",
    "foreach method in UserManager flag \"m\"",
    "foreach class AccountManager { replace AccountManager with AccountManager }",
    "foreach file matching \"worker.py\" { if imports logging and not contains \"logger =\" { add line \"logger = logging.getLogger(__name__)\" } }",
];

fn script_of(picks: &[usize]) -> String {
    let body: Vec<&str> = picks.iter().map(|&i| STATEMENTS[i]).collect();
    format!("{{ {} }}", body.join(" "))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    #[test]
    fn a_collected_changeset_applied_then_rolled_back_restores_every_file_and_running_equals_collecting_then_applying(
        picks in proptest::collection::vec(0..STATEMENTS.len(), 1..5)
    ) {
        let script = script_of(&picks);
        // run directly
        let ran = Fixture::new();
        let reply = ran.send(&script);
        proptest::prop_assert!(reply.starts_with("Ok"), "{}: {}", script, reply);
        // collected, then applied
        let collected = Fixture::new();
        let before = collected.files();
        let reply = collected.send(&format!("{} collect changes as c }}", &script[..script.len() - 1]));
        proptest::prop_assert!(reply.starts_with("Ok"), "{}: {}", script, reply);
        proptest::prop_assert_eq!(collected.files(), before.clone());
        let changed = ran.files() != before;
        if changed {
            let reply = collected.send("apply changeset c");
            proptest::prop_assert!(reply.starts_with("Ok"), "{}", reply);
        }
        proptest::prop_assert_eq!(collected.files(), ran.files());
        if changed {
            let reply = collected.send("rollback changeset c");
            proptest::prop_assert!(reply.starts_with("Ok"), "{}", reply);
        }
        proptest::prop_assert_eq!(collected.files(), before);
    }
}

#[test]
fn an_import_another_module_imports_from_this_one_is_not_unused() {
    let f = Fixture::with(&[
        ("lib/__init__.py", ""),
        (
            "lib/impl.py",
            "def helper():\n    return 1\n\n\ndef other():\n    return 2\n",
        ),
        ("lib/api.py", "from lib.impl import helper, other\n"),
        ("use.py", "from lib.api import helper\n\nhelper()\n"),
    ]);
    assert_eq!(
        f.send(
            "foreach file matching \"api.py\" { foreach import where unused { remove import } }"
        ),
        "Ok, 1 unused import removed, 1 file changed (lib/api.py)"
    );
    assert_eq!(f.read("lib/api.py"), "from lib.impl import helper\n");
}

// -- code patterns -------------------------------------------------------------

const CALC: &str = "import math as m\nfrom math import sqrt\n\n\ndef area(r):\n    return pow(r + 1, 2) * m.pi\n\n\ndef nested(x):\n    return pow(pow(x, 2), 3)\n\n\ndef shadow(pow, x):\n    return pow(x, 2)\n\n\ndef roots(a):\n    print(a, sep='')\n    return m.sqrt(a) + sqrt(a)\n";

fn calc() -> Fixture {
    Fixture::with(&[
        ("calc.py", CALC),
        ("app.py", original("app.py")),
        ("auth.py", original("auth.py")),
    ])
}

#[test]
fn a_code_pattern_rewrites_what_it_matches_inner_first_and_parenthesized() {
    let f = calc();
    assert_eq!(
        f.send("foreach match `pow($a, $b)` where $b.type is number replace with `$a ** $b`"),
        "Ok, 3 matches replaced, 1 file changed (calc.py)"
    );
    // the builtin only: the parameter named pow is left alone; the inner
    // match is replaced first, and the outer one sees its result
    assert_eq!(
        f.read("calc.py"),
        CALC.replace("pow(r + 1, 2) * m.pi", "(r + 1) ** 2 * m.pi")
            .replace("pow(pow(x, 2), 3)", "(x ** 2) ** 3")
    );
    assert_eq!(f.send("Undo"), "Ok, Undid 1, At 0:0");
    assert_eq!(f.read("calc.py"), CALC);
}

#[test]
fn a_dotted_pattern_matches_however_the_file_imports_it() {
    let f = calc();
    assert_eq!(
        f.send("foreach match `math.sqrt($x)` flag \"sqrt of \" + $x + \" (\" + $x.type + \")\""),
        "Ok, 2 matches flagged, Flagged: calc.py:19: sqrt of a (name); calc.py:19: sqrt of a (name)"
    );
}

#[test]
fn replace_a_pattern_or_a_call_with_arguments_inside_an_element() {
    let f = calc();
    assert_eq!(
        f.send("foreach function roots replace `print($$$args)` with `print($$$args, flush=True)`"),
        "Ok, 1 match replaced, 1 file changed (calc.py)"
    );
    assert!(f
        .read("calc.py")
        .contains("    print(a, sep='', flush=True)\n"));
    // a call pattern with arguments matches those calls only; $1 … are
    // their arguments
    assert_eq!(
        f.send("foreach function main replace authenticate(request.user) with authenticate($1, password=None)"),
        "Ok, 1 call replaced, 1 file changed (app.py)"
    );
    assert_eq!(
        f.read("app.py"),
        original("app.py").replace(
            "return authenticate(request.user)",
            "return authenticate(request.user, password=None)"
        )
    );
}

#[test]
fn code_pattern_mistakes_are_refused_before_anything_runs() {
    let f = calc();
    for (script, reply) in [
        (
            "foreach match `pow($a,` flag \"x\"",
            "Fail \"1:15: the code pattern `pow($a,`: the pattern is not valid Python (each $a standing for an expression)\"",
        ),
        (
            "foreach match `pow($a, $b)` where $b.type is numbr flag \"x\"",
            "Fail \"1:46: unknown type 'numbr'; expected one of: number, string, name, attribute, call, subscript, list, tuple, dict, set, … (10 more); did you mean 'number'?\"",
        ),
        (
            "foreach match `pow($a, $b)` replace with `$c ** $b`",
            "Fail \"1:42: undefined variable $c; expected a variable defined before it (let $c = <query>, or foreach $c in …); defined here: $b, $a\"",
        ),
    ] {
        assert_eq!(f.send(script), reply, "{script}");
    }
    assert_eq!(f.read("calc.py"), CALC);
}

#[test]
fn a_watcher_sees_how_far_a_script_is_and_the_watch_ends_when_dropped() {
    use std::sync::{Arc, Mutex};
    let f = Fixture::new();
    let engine = f.engine.as_ref().unwrap();
    let seen: Arc<Mutex<Vec<(String, usize, usize)>>> = Default::default();
    let into = seen.clone();
    let watch = engine.watch_progress(
        "agent",
        Arc::new(move |p: &eddi::progress::Progress| {
            into.lock()
                .unwrap()
                .push((p.stage.clone(), p.done, p.total))
        }),
    );
    assert_eq!(
        f.send("foreach method in UserManager flag \"look\""),
        "Ok, 3 methods flagged, Flagged: users.py:9: look; users.py:12: look; users.py:15: look"
    );
    let events = seen.lock().unwrap().clone();
    let foreach: Vec<_> = events.iter().filter(|e| e.0 == "foreach method").collect();
    assert_eq!(
        foreach.iter().map(|e| (e.1, e.2)).collect::<Vec<_>>(),
        [(0, 3), (1, 3), (2, 3), (3, 3)],
        "{events:?}"
    );
    drop(watch);
    seen.lock().unwrap().clear();
    f.send("foreach method in UserManager flag \"look\"");
    assert!(seen.lock().unwrap().is_empty());
}

#[test]
fn a_replacement_gets_parentheses_where_its_place_binds_tighter() {
    let f = Fixture::with(&[(
        "p.py",
        "def f(a, b, c):\n    return pow(a, b).real + -pow(c, 2) + pow(a - 1, b) * 2\n",
    )]);
    assert_eq!(
        f.send("foreach match `pow($a, $b)` replace with `$a ** $b`"),
        "Ok, 3 matches replaced, 1 file changed (p.py)"
    );
    assert_eq!(
        f.read("p.py"),
        "def f(a, b, c):\n    return (a ** b).real + -c ** 2 + (a - 1) ** b * 2\n"
    );
}

// -- phase-1 commands, the script's cursor, positions and contexts ----------

#[test]
fn phase_1_commands_run_at_each_element_as_one_undo_step() {
    let f = Fixture::new();
    f.send("Open users.py; Goto 3:4");
    assert_eq!(
        f.send("foreach method in UserManager where complexity > 5 { Goto StartOfLine; Insert Line \"    # review: complex\" }"),
        "Ok, 2 commands run, 1 file changed (users.py)"
    );
    let expected = original("users.py").replace(
        "    def branchy(",
        "    # review: complex\n    def branchy(",
    );
    assert_eq!(f.read("users.py"), expected);
    assert_eq!(f.send("Undo"), "Ok, Undid 1, At 3:4");
    assert_eq!(f.read("users.py"), original("users.py"));
}

#[test]
fn stored_positions_and_contexts_follow_the_edits_made_since() {
    let f = Fixture::new();
    f.send("Open worker.py");
    let script = "{ Goto 3:0; store current_position as work; push context; Goto 0:0; Insert Line \"# head\"; Goto EndOfFile; Insert Line \"# tail\"; pop context; Insert Line \"# before work\"; Goto 0:0; goto work; Insert Line \"# again\" }";
    // goto <stored name>, store, push and pop are the script's own: not counted
    assert_eq!(
        f.send(script),
        "Ok, 8 commands run, 1 file changed (worker.py)"
    );
    assert_eq!(
        f.read("worker.py"),
        "# head\nimport logging\n\n\n# before work\n# again\ndef work():\n    logging.info(\"working\")\n# tail\n"
    );
}

#[test]
fn a_session_bookmark_is_where_goto_goes_when_the_script_stored_none() {
    let f = Fixture::new();
    f.send("Open worker.py; Goto 3:0; Bookmark work; Goto 0:0");
    assert_eq!(
        f.send("{ Goto EndOfFile; Insert Line \"# tail\"; goto work; Insert Line \"# work\" }"),
        "Ok, 3 commands run, 1 file changed (worker.py)"
    );
    assert_eq!(
        f.read("worker.py"),
        "import logging\n\n\n# work\ndef work():\n    logging.info(\"working\")\n# tail\n"
    );
    let refused = f.send("{ goto nowhere }");
    assert_eq!(
        refused,
        "Fail \"1:3: no position named 'nowhere': store current_position as nowhere stores the cursor under that name, and the session has no bookmark of it\""
    );
}

#[test]
fn an_answering_command_inside_a_script_answers_in_the_reply() {
    let f = Fixture::new();
    assert_eq!(
        f.send("foreach function work { Show Function work }"),
        "Ok, 1 command run, Txt 1:25: Show Function work: Ok: At 3:0\\ndef work():\\n    logging.info(\"working\")"
    );
    f.send("Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("foreach function work { Show Function work }")).unwrap();
    assert_eq!(
        reply["script"]["answers"][0],
        "1:25: Show Function work: Ok: At 3:0\ndef work():\n    logging.info(\"working\")"
    );
    assert_eq!(reply["script"]["counts"][0]["verb"], "run");
}

#[test]
fn open_inside_a_script_moves_its_cursor() {
    let f = Fixture::new();
    assert_eq!(
        f.send("{ Open worker.py; Goto EndOfFile; Insert Line \"# tail\" }"),
        "Ok, 2 commands run, 1 file changed (worker.py)"
    );
    assert_eq!(
        f.read("worker.py"),
        format!("{}# tail\n", original("worker.py"))
    );
}

#[test]
fn phase_1_commands_that_do_not_fit_a_script_are_refused_before_anything_runs() {
    let f = Fixture::new();
    f.send("Open worker.py");
    let before = f.files();
    for (script, why) in [
        ("{ Insert Line \"# x\"; Save }", "1:22: 'Save' does not run inside a script: a script writes once, at its end, all or nothing; it needs no Save"),
        ("{ Insert Line \"# x\"; Undo }", "1:22: 'Undo 1' does not run inside a script: a script is one undo step: use try { … } catch { rollback all } inside it, or send Undo after it"),
        ("{ Insert Line \"# x\"; Open Create new.py }", "1:22: 'Open Create new.py' does not run inside a script: a script does not create files; create it first (Open Create …, Save), then run the script"),
        ("foreach function { Find All \"x\" In Files \"*.py\" }", "1:20: 'Find All \"x\" In Files \"*.py\"' does not run inside a script: it works on the whole project: in a script, write foreach file matching \"<glob>\" { replace \"a\" with \"b\" } or foreach caller of f() …"),
        ("{ Status }", "1:3: 'Status' does not run inside a script: it answers about the session, not the script's files; send it as a message of its own"),
    ] {
        assert_eq!(f.send(script), format!("Fail \"{}\"", why.replace('"', "\\\"")), "{script}");
    }
    assert_eq!(f.files(), before);
}

#[test]
fn a_phase_1_command_that_fails_fails_the_script_naming_it_and_writes_nothing() {
    let f = Fixture::new();
    let before = f.files();
    let reply = f.send("foreach function { Insert Line \"# x\"; Find \"no such text\" }");
    assert_eq!(
        reply,
        "Fail \"1:39: Not found: 'no such text' (at function main (app.py:7))\""
    );
    assert_eq!(f.files(), before);
    // outside any foreach and with no file open there is no cursor
    assert_eq!(
        f.send("{ Insert Line \"# x\" }"),
        "Fail \"1:3: no cursor to run 'Insert Line \\\"# x\\\"' at: outside a foreach the script's cursor is the sender's, and no file is open (Open <file> inside the script, or write foreach <query> { … })\""
    );
}

#[test]
fn preview_changeset_answers_inside_a_script_and_apply_among_others_is_refused() {
    let f = Fixture::new();
    f.send("foreach file matching \"worker.py\" add line \"# tail\" collect changes as \"tail\"");
    assert_eq!(
        f.send("{ preview changeset tail; foreach function work flag \"seen\" }"),
        "Ok, 1 function flagged, Flagged: worker.py:4: seen, Txt 1:3: preview changeset tail: Ok: Changeset tail (not applied): 1 file (worker.py)"
    );
    let before = f.files();
    assert_eq!(
        f.send("{ apply changeset tail; foreach function work flag \"seen\" }"),
        "Fail \"1:3: apply and rollback changeset run as a message of their own: a changeset is applied as its own undo step, so that rollback changeset restores exactly what it changed\""
    );
    assert_eq!(f.files(), before);
}

#[test]
fn phase_1_commands_edit_any_file_checked_by_its_own_language() {
    let f = Fixture::with(&[("notes.txt", "notes\n"), ("web/x.js", "const a = 1;\n")]);
    assert_eq!(
        f.send("{ Open notes.txt; Goto EndOfFile; Insert Line \"hello (world\" }"),
        "Ok, 2 commands run, 1 file changed (notes.txt)"
    );
    assert_eq!(f.read("notes.txt"), "notes\nhello (world\n");
    assert_eq!(
        f.send("{ Open web/x.js; Goto EndOfFile; Insert Line \"function f() { return 1 }\" }"),
        "Ok, 2 commands run, 1 file changed (web/x.js)"
    );
    let before = f.files();
    assert_eq!(
        f.send("{ Open web/x.js; Goto EndOfFile; Insert Line \"function g( {\" }"),
        "Fail \"The script would break 1 place(s), so nothing was written: web/x.js:3: a JavaScript syntax error (unclosed '(')\""
    );
    assert_eq!(f.files(), before);
}

// -- every language's functions, classes and methods ---------------------------

const POLYGLOT: &[(&str, &str)] = &[
    ("m.py", "def py(a, b):\n    return a or b\n"),
    (
        "web/a.js",
        "export function pick(x, y) {\n  if (x && y) {\n    return x;\n  }\n  return y ? y : 0;\n}\n\nconst twice = (n) => n * 2;\n\nclass Box {\n  size(n) {\n    for (const i of [1, 2]) {\n      if (i > n) return i;\n    }\n    return 0;\n  }\n}\n",
    ),
    (
        "web/b.ts",
        "export class Shape {\n  area(w: number, h: number): number { return w * h; }\n}\n",
    ),
    (
        "go/main.go",
        "package main\n\nimport \"fmt\"\n\n// Point is a point.\ntype Point struct{ X, Y int }\n\n// Norm says how far.\nfunc (p Point) Norm() int {\n\tif p.X > 0 && p.Y > 0 {\n\t\treturn p.X + p.Y\n\t}\n\treturn 0\n}\n\nfunc main() {\n\tfmt.Println(Point{1, 2}.Norm())\n}\n",
    ),
    (
        "rs/lib.rs",
        "pub struct Counter {\n    n: u32,\n}\n\nimpl Counter {\n    /// Adds some.\n    pub fn bump(&mut self, by: u32) -> u32 {\n        if by > 0 {\n            self.n += by;\n        }\n        self.n\n    }\n}\n\n/// Adds.\npub fn helper(a: u32, b: u32) -> u32 {\n    a + b\n}\n",
    ),
    (
        "java/Shop.java",
        "public class Shop {\n    /** Price with tax. */\n    public int price(int base, int tax) {\n        if (base > 100 || tax > 10) {\n            return base + tax;\n        }\n        return base;\n    }\n\n    public int zero() {\n        return 0;\n    }\n}\n",
    ),
];

#[test]
fn queries_and_conditions_read_every_language_with_lizard_s_complexity() {
    let f = Fixture::with(POLYGLOT);
    assert_eq!(
        f.send("foreach function where complexity > 1 flag function.name + \" \" + function.complexity"),
        "Ok, 6 functions flagged, Flagged: go/main.go:9: Norm 3; java/Shop.java:3: price 3; m.py:1: py 2; rs/lib.rs:7: bump 2; web/a.js:1: pick 4; web/a.js:11: size 3"
    );
    assert_eq!(
        f.send("foreach class flag class.name"),
        "Ok, 5 classes flagged, Flagged: go/main.go:6: Point; java/Shop.java:1: Shop; rs/lib.rs:1: Counter; web/a.js:10: Box; web/b.ts:1: Shape"
    );
    assert_eq!(
        f.send("foreach method in Point flag method.name"),
        "Ok, 1 method flagged, Flagged: go/main.go:9: Norm"
    );
    assert_eq!(
        f.send("foreach function where params.count == 2 flag function.name"),
        "Ok, 5 functions flagged, Flagged: java/Shop.java:3: price; m.py:1: py; rs/lib.rs:16: helper; web/a.js:1: pick; web/b.ts:2: area"
    );
    assert_eq!(
        f.send("foreach file matching \"*.go\" { foreach function where line_count > 3 flag file.path }"),
        "Ok, 1 function flagged, Flagged: go/main.go:9: go/main.go"
    );
}

#[test]
fn edits_of_every_language_keep_it_valid_as_its_grammar_reads_it() {
    let f = Fixture::with(POLYGLOT);
    assert_eq!(
        f.send("{ foreach function helper remove foreach function zero remove foreach file matching \"*.go\" { foreach function Norm { replace \"p.X\" with \"p.Y\" } } }"),
        "Ok, 2 functions removed, 2 occurrences replaced, 3 files changed (go/main.go, java/Shop.java, rs/lib.rs)"
    );
    assert_eq!(
        f.read("rs/lib.rs"),
        "pub struct Counter {\n    n: u32,\n}\n\nimpl Counter {\n    /// Adds some.\n    pub fn bump(&mut self, by: u32) -> u32 {\n        if by > 0 {\n            self.n += by;\n        }\n        self.n\n    }\n}\n"
    );
    assert_eq!(
        f.read("java/Shop.java"),
        "public class Shop {\n    /** Price with tax. */\n    public int price(int base, int tax) {\n        if (base > 100 || tax > 10) {\n            return base + tax;\n        }\n        return base;\n    }\n}\n"
    );
    assert_eq!(
        f.read("go/main.go"),
        POLYGLOT[3]
            .1
            .replace("p.X > 0", "p.Y > 0")
            .replace("p.X + p.Y", "p.Y + p.Y")
    );
    let before = f.files();
    assert_eq!(
        f.send("foreach method in Box { replace \"return 0;\" with \"return (0;\" }"),
        "Fail \"The script would break 1 place(s), so nothing was written: web/a.js:15: a JavaScript syntax error (missing ')')\""
    );
    assert_eq!(f.files(), before);
}

/// A brace languages' project: calls across files through each module
/// system, a same-named method beside a function, a JSX element.
const CALLERS: &[(&str, &str)] = &[
    ("web/util.js", "export function fmt(x, y) {\n  return x + y;\n}\n"),
    (
        "web/app.ts",
        "import { fmt } from \"./util.js\";\n\nclass Log {\n  fmt(x: string): string {\n    return x;\n  }\n}\n\nexport function show(log: Log): string {\n  return fmt(\"a\", \"b\") + log.fmt(\"c\") + new Log().fmt(fmt(\"d\", \"e\"));\n}\n",
    ),
    ("web/view.jsx", "export function Badge() {\n  return <b>x</b>;\n}\n\nexport function Page() {\n  return <Badge />;\n}\n"),
    ("go.mod", "module example.com/shop\n\ngo 1.19\n"),
    ("calc/calc.go", "package calc\n\n// Mix mixes.\nfunc Mix(a, b int) int {\n\treturn a + b\n}\n"),
    (
        "main.go",
        "package main\n\nimport \"example.com/shop/calc\"\n\nfunc main() {\n\tprintln(calc.Mix(1, 2), calc.Mix(3, 4))\n}\n",
    ),
    (
        "rs/lib.rs",
        "pub fn helper(a: u32, b: u32) -> u32 {\n    a + b\n}\n\npub fn twice(a: u32) -> u32 {\n    helper(a, a)\n}\n\npub fn listed() -> Vec<u32> {\n    vec![helper(1, 2)]\n}\n",
    ),
    (
        "java/Shop.java",
        "public class Shop {\n    public int price(int base, int tax) {\n        return base + tax;\n    }\n\n    public int total() {\n        return price(1, 2) + this.price(3, 4);\n    }\n}\n",
    ),
];

#[test]
fn callers_of_every_language_through_its_index() {
    let f = Fixture::with(CALLERS);
    // a name two definitions have: the candidates, by their full names
    assert_eq!(
        f.send("foreach caller of fmt() flag \"x\""),
        "Fail \"1:9: Ambiguous symbol 'fmt': web.app.Log.fmt at web/app.ts:3:2, web.util.fmt at web/util.js:0:7; use a qualified name\""
    );
    // a JavaScript function called from TypeScript, not the same-named method
    assert_eq!(
        f.send("foreach caller of web.util.fmt() flag call.function + \"(\" + call.args + \")\""),
        "Ok, 2 calls flagged, Flagged: web/app.ts:10: fmt(\"a\", \"b\"); web/app.ts:10: fmt(\"d\", \"e\")"
    );
    // a full name quoted: the subject a module label with a '-' needs
    assert_eq!(
        f.send("foreach caller of \"web.util.fmt\" flag call.function"),
        "Ok, 2 calls flagged, Flagged: web/app.ts:10: fmt; web/app.ts:10: fmt"
    );
    assert_eq!(
        f.send("foreach caller of Mix() flag call.function + \" \" + call.args.count"),
        "Ok, 2 calls flagged, Flagged: main.go:6: calc.Mix 2; main.go:6: calc.Mix 2"
    );
    assert_eq!(
        f.send("foreach caller of price() flag call.function"),
        "Ok, 2 calls flagged, Flagged: java/Shop.java:7: price; java/Shop.java:7: this.price"
    );
    assert_eq!(
        f.send("let $m = function Mix\nforeach caller of $m flag call.args"),
        "Ok, 2 calls flagged, $m = 1 function, Flagged: main.go:6: 1, 2; main.go:6: 3, 4"
    );
    // a definition a variable holds: its file's, its language's index;
    // a call in a macro's tokens is no call expression: refused, never
    // left out
    let before = f.files();
    assert_eq!(
        f.send("let $h = function helper\nforeach caller of $h flag call.args"),
        "Fail \"2:9: rs/lib.rs:10: the index finds a use of helper there that a script does not read as a call (a JSX element, a macro, a tagged template): change it by hand, or leave helper as it is\""
    );
    assert_eq!(
        f.send("foreach caller of Badge() replace with Chip()"),
        "Fail \"1:9: web/view.jsx:6: the index finds a use of Badge there that a script does not read as a call (a JSX element, a macro, a tagged template): change it by hand, or leave Badge as it is\""
    );
    assert_eq!(f.files(), before);
    // the calls changed, each file checked in its own language; a call
    // of the function by its name keeps the qualifier it is reached by
    assert_eq!(
        f.send("foreach caller of Mix() replace with Mix($2, $1)"),
        "Ok, 2 calls replaced, 1 file changed (main.go)"
    );
    assert!(f
        .read("main.go")
        .contains("println(calc.Mix(2, 1), calc.Mix(4, 3))"));
    assert_eq!(
        f.send("foreach caller of price() replace with price($2, $1)"),
        "Ok, 2 calls replaced, 1 file changed (java/Shop.java)"
    );
    assert!(f
        .read("java/Shop.java")
        .contains("return price(2, 1) + this.price(4, 3);"));
    assert!(f.send("Undo").starts_with("Ok") && f.send("Undo").starts_with("Ok"));
    // a function of another package, which the package does not define
    assert_eq!(
        f.send("foreach caller of Mix() replace with calc.Blend($2, $1)"),
        "Fail \"The script would break 1 place(s), so nothing was written: main.go:6: 'calc.Blend' is not defined: calc/calc.go defines no Blend (define it, or change the replacement)\""
    );
    assert_eq!(
        f.read("main.go"),
        "package main\n\nimport \"example.com/shop/calc\"\n\nfunc main() {\n\tprintln(calc.Mix(1, 2), calc.Mix(3, 4))\n}\n"
    );
    assert_eq!(
        f.send("foreach caller of web.util.fmt() replace with show2($*)"),
        "Fail \"The script would break 1 place(s), so nothing was written: web/app.ts:10: 'show2' is not defined: no scope, import or file of the project defines it (define or import it, or change the replacement)\""
    );
    assert_eq!(
        f.send("foreach caller of web.util.fmt() replace with show($*)"),
        "Ok, 2 calls replaced, 1 file changed (web/app.ts)"
    );
    assert!(f.read("web/app.ts").contains(
        "return show(\"a\", \"b\") + log.fmt(\"c\") + new Log().fmt(show(\"d\", \"e\"));"
    ));
}

/// What a script writes in a brace-language file names what exists: a
/// bare call the file does not bind and no file of the project defines
/// (the replacement's typo, a function the script removed while calls of
/// it stay), and a call through a project module that the module does not
/// define (a Rust path, an ES namespace import), refuse the script, each
/// place named; a function another file of the package defines, one of
/// the language's own, one the module defines, and a call the file had
/// before are the project's as they were.
#[test]
fn a_script_calling_what_no_file_defines_writes_nothing() {
    let mut files = CALLERS.to_vec();
    files.push((
        "util.go",
        "package main\n\nfunc twice(x int) int {\n\treturn 2 * x\n}\n",
    ));
    files.push(("rs/old.rs", "pub fn uses_gone() -> u32 {\n    gone(1)\n}\n"));
    files.extend([
        ("shop/Cargo.toml", "[package]\nname = \"shop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        ("shop/src/lib.rs", "mod calc;\nmod user;\n"),
        (
            "shop/src/calc.rs",
            "pub fn mix(a: u32) -> u32 {\n    a\n}\n\npub fn blend(a: u32) -> u32 {\n    a\n}\n",
        ),
        ("shop/src/user.rs", "pub fn use_it() -> u32 {\n    crate::calc::mix(1)\n}\n"),
        (
            "web/ns.ts",
            "import * as util from \"./util.js\";\n\nexport function g(): string {\n  return util.fmt(\"a\", \"b\");\n}\n",
        ),
    ]);
    let f = Fixture::with(&files);
    let before = f.files();
    for (script, broken) in [
        (
            "foreach function where function.name == \"use_it\" replace \"mix\" with \"mixed\"",
            "shop/src/user.rs:2: 'crate::calc::mixed' is not defined: shop/src/calc.rs defines no mixed",
        ),
        (
            "foreach function where function.name == \"g\" replace \"fmt\" with \"format\"",
            "web/ns.ts:4: 'util.format' is not defined: web/util.js defines no format",
        ),
        (
            "foreach caller of Mix() replace with mix($2, $1)",
            "main.go:6: 'mix' is not defined",
        ),
        (
            "foreach caller of Mix() replace with len(strings.Repeat(\"a\", $1))",
            "main.go:6: 'strings' is not defined",
        ),
        (
            "foreach caller of price() replace with cost($2, $1)",
            "java/Shop.java:7: 'cost' is not defined",
        ),
        (
            "foreach function where function.name == \"helper\" remove",
            "rs/lib.rs:2: 'helper' is not defined",
        ),
    ] {
        let answer = f.send(script);
        assert!(
            answer
                .starts_with("Fail \"The script would break 1 place(s), so nothing was written: ")
                && answer.contains(broken),
            "{script}: {answer}"
        );
        assert_eq!(f.files(), before, "{script}");
    }
    // another file of the package, the language's own, the file's own
    assert_eq!(
        f.send("foreach caller of Mix() replace with twice(len(\"ab\") + $1)"),
        "Ok, 2 calls replaced, 1 file changed (main.go)"
    );
    assert_eq!(
        f.send("foreach function where function.name == \"use_it\" replace \"mix\" with \"blend\""),
        "Ok, 1 occurrence replaced, 1 file changed (shop/src/user.rs)"
    );
    assert_eq!(
        f.send("foreach function where function.name == \"uses_gone\" replace \"1\" with \"2\""),
        "Ok, 1 occurrence replaced, 1 file changed (rs/old.rs)"
    );
}

#[test]
fn what_reads_python_code_says_so_on_another_language() {
    let f = Fixture::with(POLYGLOT);
    let before = f.files();
    for (script, why) in [
        ("foreach file matching \"*.ts\" add import os", "1:30: add import reads Python code; web/b.ts is TypeScript: a script reads its functions, classes, methods, lines and text (at file web/b.ts)"),
        ("foreach file matching \"*.js\" { foreach import flag \"x\" }", "1:40: import reads Python code; web/a.js is JavaScript: a script reads its functions, classes, methods, lines and text (at file web/a.js)"),
        ("foreach function pick where unused flag \"x\"", "1:29: unused reads Python code; web/a.js is JavaScript: a script reads its functions, classes, methods, lines and text"),
        ("foreach file matching \"*.rs\" where imports std flag \"x\"", "1:36: imports reads Python code; rs/lib.rs is Rust: a script reads its functions, classes, methods, lines and text"),
    ] {
        assert_eq!(f.send(script), format!("Fail \"{}\"", why), "{script}");
    }
    // a project-wide query of Python code reads the Python files
    assert_eq!(
        f.send("foreach match `a or $b` flag match.text"),
        "Ok, 1 match flagged, Flagged: m.py:2: a or b"
    );
    assert_eq!(f.files(), before);
}
