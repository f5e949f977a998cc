//! Engine conversations: `Refactor`, `Preview`, `Apply`, `Discard` — the
//! engine's side (lookup, checks, commit, undo step, replies). The
//! refactors' own results are tested in `crates/eddi-core/src/refactor/tests/`.

use super::*;

#[test]
fn apply_and_discard_need_a_waiting_refactor() {
    let f = Fixture::new();
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Apply
        Fail "No refactor is waiting for Apply or Discard: in preview mode (Set Preview on) a Refactor shows its preview and waits"
        > Discard
        Fail "No refactor is waiting for Apply or Discard: in preview mode (Set Preview on) a Refactor shows its preview and waits"
        > Set Preview on
        Ok
        > Set Preview off
        Ok
        "#,
    );
}

#[test]
fn a_read_only_sender_may_preview_but_not_refactor() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "def f():\n    pass\n").unwrap();
    let mut config = EngineConfig::new(dir.path());
    config.permissions = Permissions {
        read_only: ["ro".to_string()].into(),
        ..Permissions::default()
    };
    let engine = Engine::open(config).unwrap();
    let send = |text: &str| {
        engine
            .execute(&Request {
                sender: "ro",
                text,
                id: None,
            })
            .text
    };
    assert_eq!(send("Start s"), "Ok");
    assert_eq!(
        send("Refactor RenameSymbol f g"),
        "Fail \"Permission denied: ro is read-only; Refactor changes files\""
    );
    assert!(!send("Preview Refactor RenameSymbol f g").contains("Permission denied"));
}

fn project(f: &Fixture) {
    f.write(
        "pkg/util.py",
        "def chunked(items, n):\n    return [items[i:i + n] for i in range(0, len(items), n)]\n",
    );
    f.write(
        "pkg/app.py",
        "from pkg.util import chunked\n\n\ndef run(xs):\n    # chunked in a comment\n    return chunked(xs, 2)\n",
    );
    f.write(
        "main.py",
        "import pkg.util\n\nprint(pkg.util.chunked([1, 2, 3], 2))\n",
    );
}

#[test]
fn a_rename_is_one_commit_and_one_undo_step() {
    let f = Fixture::new();
    project(&f);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol pkg.util.chunked batched
        Ok, Renamed in 3 files (main.py, pkg/app.py, pkg/util.py), 4 references updated, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        "#,
    );
    assert_eq!(
        f.read("pkg/app.py"),
        "from pkg.util import batched\n\n\ndef run(xs):\n    # chunked in a comment\n    return batched(xs, 2)\n"
    );
    assert_eq!(
        f.read("main.py"),
        "import pkg.util\n\nprint(pkg.util.batched([1, 2, 3], 2))\n"
    );
    assert!(f.read("pkg/util.py").starts_with("def batched(items, n):"));
    f.check(
        "a",
        r#"
        > Undo
        Ok, Undid 1, At 0:0, Also in main.py, pkg/app.py
        "#,
    );
    assert_eq!(
        f.read("main.py"),
        "import pkg.util\n\nprint(pkg.util.chunked([1, 2, 3], 2))\n"
    );
    assert!(f.read("pkg/util.py").starts_with("def chunked(items, n):"));
    assert!(f.read("pkg/app.py").contains("return chunked(xs, 2)"));
}

#[test]
fn undo_right_after_a_refactor_that_left_the_current_file_alone_reverts_it() {
    let f = Fixture::new();
    project(&f);
    f.write("notes.py", "x = 1\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open notes.py
        Ok, At 0:0, Length 1
        > Refactor RenameSymbol pkg.util.chunked batched
        Ok, Renamed in 3 files (main.py, pkg/app.py, pkg/util.py), 4 references updated, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        > Undo
        Ok, Undid 1, At 0:0, Also in main.py, pkg/app.py, pkg/util.py
        > Undo
        Fail "Nothing to undo in notes.py"
        > Redo
        Ok, Redid 1, At 0:0, Also in main.py, pkg/app.py, pkg/util.py
        "#,
    );
    assert!(f.read("pkg/util.py").starts_with("def batched(items, n):"));
    assert_eq!(f.read("notes.py"), "x = 1\n");
}

#[test]
fn undo_right_after_a_refactor_undoes_it_when_it_did_not_change_the_current_file() {
    let f = Fixture::new();
    project(&f);
    f.write("pkg/other.py", "def lonely():\n    pass\n\n\nlonely()\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor RenameSymbol pkg.util.chunked batched
        Ok, Renamed in 3 files (main.py, pkg/app.py, pkg/util.py), 4 references updated, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        > Undo
        Ok, Undid 1, At 0:0, Also in main.py, pkg/app.py
        > Refactor RenameSymbol pkg.other.lonely alone
        Ok, Renamed in 1 file (pkg/other.py), 2 references updated
        > Undo
        Ok, Undid 1, At 0:0, Also in pkg/other.py
        "#,
    );
    assert_eq!(
        f.read("pkg/other.py"),
        "def lonely():\n    pass\n\n\nlonely()\n"
    );
    assert!(f.read("pkg/util.py").starts_with("def chunked(items, n):"));
}

#[test]
fn a_preview_changes_nothing_and_preview_mode_waits_for_apply() {
    let f = Fixture::new();
    project(&f);
    let before = f.read("pkg/app.py");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor RenameSymbol chunked batched
        Ok, Preview: Would modify 3 files: main.py, pkg/app.py, pkg/util.py, 4 references, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        > Set Preview on
        Ok
        > Refactor RenameSymbol chunked batched
        Ok, Preview: Would modify 3 files: main.py, pkg/app.py, pkg/util.py, 4 references, Apply or Discard, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        > Discard
        Ok, Discarded Refactor RenameSymbol chunked batched
        > Refactor RenameSymbol chunked batched
        Ok, Preview: Would modify 3 files: main.py, pkg/app.py, pkg/util.py, 4 references, Apply or Discard, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        "#,
    );
    assert_eq!(f.read("pkg/app.py"), before);
    // Another program changes a file the refactor would change.
    f.write(
        "main.py",
        "import pkg.util\n\nprint(pkg.util.chunked([4], 1))\n",
    );
    f.check(
        "a",
        r#"
        > Apply
        Fail "main.py changed since the preview, so nothing was applied; preview it again: Refactor RenameSymbol chunked batched"
        > Refactor RenameSymbol chunked batched
        Ok, Preview: Would modify 3 files: main.py, pkg/app.py, pkg/util.py, 4 references, Apply or Discard, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        > Apply
        Ok, Renamed in 3 files (main.py, pkg/app.py, pkg/util.py), 4 references updated, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them
        "#,
    );
    assert_eq!(
        f.read("main.py"),
        "import pkg.util\n\nprint(pkg.util.batched([4], 1))\n"
    );
}

#[test]
fn unsaved_edits_anywhere_refuse_the_refactor_and_nothing_changes() {
    let f = Fixture::new();
    project(&f);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Open main.py
        Ok, At 0:0, Length 3
        > Insert Line "x = 1"
        Ok, Inserted 1 line at 0, At 1:0
        > Refactor RenameSymbol chunked batched
        Fail "The refactor must change main.py, which has unsaved edits: Save or Undo them first; nothing was changed"
        > Undo
        Ok, Undid 1, At 0:0
        "#,
    );
    f.check(
        "b",
        r#"
        > Start t
        Ok
        > Open pkg/app.py
        Ok, At 0:0, Length 6
        > Insert Line "y = 2"
        Ok, Inserted 1 line at 0, At 1:0
        "#,
    );
    f.check(
        "a",
        r#"
        > Refactor RenameSymbol chunked batched
        Fail "The refactor changes lines other sessions have unsaved edits on: pkg/app.py line 1 (session t); nothing was written. They save or close them first (edits on other lines do not stand in the way: they are carried over)"
        "#,
    );
    assert!(f.read("pkg/util.py").starts_with("def chunked"));
}

#[test]
fn an_extracted_interface_is_previewed_applied_and_undone_in_one_step() {
    let f = Fixture::new();
    let shop = "import logging\n\n\nclass Processor:\n    def pay(self, amount):\n        return amount\n\n    def refund(self, amount):\n        return -amount\n";
    f.write("shop.py", shop);
    f.write(
        "app.py",
        "from shop import Processor\n\nprint(Processor().pay(1))\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor Extract_Interface Processor Payable
        Ok, Preview: Would modify 1 file: shop.py, 2 methods
        > Refactor Extract_Interface Processor Payable
        Ok, Interface extracted, Processor now implements Payable (2 methods: pay, refund)
        > Refactor Extract_Interface Processor Payable
        Fail "Interface already exists: Payable is bound in shop.py at 4:6; choose another name"
        "#,
    );
    assert_eq!(
        f.read("shop.py"),
        "import logging\nfrom abc import ABC, abstractmethod\n\n\nclass Payable(ABC):\n    @abstractmethod\n    def pay(self, amount): ...\n\n    @abstractmethod\n    def refund(self, amount): ...\n\n\nclass Processor(Payable):\n    def pay(self, amount):\n        return amount\n\n    def refund(self, amount):\n        return -amount\n"
    );
    f.send("a", "Undo");
    assert_eq!(f.read("shop.py"), shop);
    f.send("a", "Set Format json");
    let reply: serde_json::Value = serde_json::from_str(&f.send(
        "a",
        "Preview Refactor Extract_Interface shop.Processor Payable Protocol",
    ))
    .unwrap();
    let refactor = &reply["refactor"];
    assert_eq!(refactor["kind"], "Extract_Interface");
    assert_eq!(
        refactor["summary"],
        serde_json::json!({"class": "shop.Processor", "interface": "Payable", "protocol": true, "methods": ["pay", "refund"]})
    );
}

#[test]
fn a_changed_base_is_previewed_applied_and_undone_in_one_step() {
    let f = Fixture::new();
    let base = "class Base:\n    def run(self):\n        return 'base'\n\n\nclass Fast(Base):\n    def run(self):\n        return 'fast'\n";
    let job = "from base import Base\n\n\nclass Job(Base):\n    def start(self):\n        return self.run()\n";
    f.write("base.py", base);
    f.write("job.py", job);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor Change_Inheritance Job Base Fast
        Ok, Preview: Would modify 1 file: job.py, 1 base, 0 explicit calls
        > Refactor Change_Inheritance Job Base Fast
        Ok, Inheritance changed, Job now derives from Fast (was Base), 0 explicit calls rewritten, now found elsewhere: self.run in Job: Fast.run (was Base.run)
        > Refactor Change_Inheritance Job Base Fast
        Fail "Cannot change inheritance - Base is not a base of Job (its bases: Fast)"
        "#,
    );
    assert_eq!(
        f.read("job.py"),
        "from base import Fast\n\n\nclass Job(Fast):\n    def start(self):\n        return self.run()\n"
    );
    f.send("a", "Undo");
    assert_eq!(f.read("job.py"), job);
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor Change_Inheritance job.Job Base Fast"))
            .unwrap();
    assert_reply_schema(&reply);
    let refactor = &reply["refactor"];
    assert_eq!(refactor["kind"], "Change_Inheritance");
    assert_eq!(
        refactor["summary"],
        serde_json::json!({"class": "job.Job", "old_parent": "Base", "new_parent": "Fast", "calls": 0, "rerouted": [{"class": "Job", "name": "run", "via_super": false, "before": {"class": "Base"}, "after": {"class": "Fast"}}], "type_tests": []})
    );
}

#[test]
fn members_pulled_up_and_pushed_down_are_each_one_undo_step() {
    let f = Fixture::new();
    let base = "class Base:\n    pass\n\n\nclass Other(Base):\n    pass\n";
    let job = "import json\n\nfrom base import Base\n\n\nclass Job(Base):\n    def dump(self):\n        return json.dumps(self.__dict__)\n\n    def start(self):\n        return self.dump()\n";
    f.write("base.py", base);
    f.write("job.py", job);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor Pull_Up Job.dump
        Ok, Preview: Would modify 2 files: base.py, job.py, 1 member
        > Refactor Pull_Up Job.dump
        Ok, Pulled up 1 member (dump) from Job to Base, now inherited too by: Other
        "#,
    );
    let pulled = "import json\n\n\nclass Base:\n    def dump(self):\n        return json.dumps(self.__dict__)\n\n\nclass Other(Base):\n    pass\n";
    assert_eq!(f.read("base.py"), pulled);
    assert_eq!(
        f.read("job.py"),
        "from base import Base\n\n\nclass Job(Base):\n    def start(self):\n        return self.dump()\n"
    );
    // and back down, to each subclass, the import with it
    assert_eq!(
        f.send("a", "Refactor Push_Down Base.dump"),
        "Ok, Pushed down 1 member (dump) from Base to Other, Job"
    );
    assert_eq!(
        f.read("base.py"),
        "import json\n\n\nclass Base:\n    pass\n\n\nclass Other(Base):\n    def dump(self):\n        return json.dumps(self.__dict__)\n"
    );
    assert_eq!(
        f.read("job.py"),
        "from base import Base\nimport json\n\n\nclass Job(Base):\n    def start(self):\n        return self.dump()\n\n    def dump(self):\n        return json.dumps(self.__dict__)\n"
    );
    f.send("a", "Undo");
    assert_eq!(f.read("base.py"), pulled);
    f.send("a", "Undo");
    assert_eq!(
        (f.read("base.py"), f.read("job.py")),
        (base.to_string(), job.to_string())
    );
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor Pull_Up job.Job.dump")).unwrap();
    assert_reply_schema(&reply);
    assert_eq!(
        reply["refactor"]["summary"],
        serde_json::json!({"class": "job.Job", "direction": "up", "to": ["Base"], "members": ["dump"], "inherited_by": ["Other"], "kept_own": []})
    );
}

#[test]
fn merged_classes_are_previewed_applied_and_undone_in_one_step() {
    let f = Fixture::new();
    let models = "class User:\n    def greet(self):\n        return 'hi'\n\n\nclass Profile:\n    def bio(self):\n        return 'bio'\n";
    let app = "from models import Profile, User\n\nprint(User().greet(), Profile().bio())\n";
    f.write("models.py", models);
    f.write("app.py", app);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor Merge_Classes User Profile Account
        Ok, Preview: Would modify 2 files: app.py, models.py, 4 references
        > Refactor Merge_Classes User Profile Account
        Ok, Classes merged into Account (User, Profile), 2 files (app.py, models.py), 4 references updated
        > Refactor Merge_Classes Account Profile Both
        Fail "Not found: symbol 'Profile'. No similar name in the index"
        "#,
    );
    assert_eq!(
        f.read("models.py"),
        "class Account:\n    def greet(self):\n        return 'hi'\n\n    def bio(self):\n        return 'bio'\n"
    );
    assert_eq!(
        f.read("app.py"),
        "from models import Account\n\nprint(Account().greet(), Account().bio())\n"
    );
    f.send("a", "Undo");
    assert_eq!(
        (f.read("models.py"), f.read("app.py")),
        (models.to_string(), app.to_string())
    );
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor Merge_Classes User Profile Account"))
            .unwrap();
    assert_reply_schema(&reply);
    assert_eq!(
        reply["refactor"]["summary"],
        serde_json::json!({"first": "models.User", "second": "models.Profile", "target": "Account", "files": 2, "references": 4})
    );
}

#[test]
fn json_replies_carry_the_refactor_as_data() {
    let f = Fixture::new();
    project(&f);
    f.send("a", "Start s; Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor RenameSymbol chunked batched"))
            .unwrap();
    let refactor = &reply["refactor"];
    assert_eq!(refactor["kind"], "RenameSymbol");
    assert_eq!(refactor["applied"], false);
    assert_eq!(refactor["summary"]["references"], 4);
    assert_eq!(refactor["files"].as_array().unwrap().len(), 3);
    assert!(refactor["files"][0]["diff"]
        .as_str()
        .unwrap()
        .contains("+print(pkg.util.batched([1, 2, 3], 2))"));
    assert_eq!(refactor["mentions"][0]["path"], "pkg/app.py");
    let failed: serde_json::Value =
        serde_json::from_str(&f.send("a", "Refactor RenameSymbol nothing_like_it x")).unwrap();
    assert_eq!(failed["ok"], false);
    assert_eq!(failed["failure"]["code"], "not_found");
}

#[test]
fn a_signature_change_updates_every_caller_and_undoes_in_one_step() {
    let f = Fixture::new();
    f.write(
        "auth.py",
        "def authenticate(username):\n    return username\n",
    );
    f.write(
        "app.py",
        "from auth import authenticate\n\nauthenticate(\"ann\")\nauthenticate(username=\"bob\")\n",
    );
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Refactor Signature authenticate(username) authenticate(username, timeout:=30)
        Ok, Signature updated, 2 callers replaced
        "#,
    );
    assert_eq!(
        f.read("app.py"),
        "from auth import authenticate\n\nauthenticate(\"ann\", timeout=30)\nauthenticate(username=\"bob\", timeout=30)\n"
    );
    assert_eq!(
        f.read("auth.py"),
        "def authenticate(username, timeout):\n    return username\n"
    );
    f.check(
        "a",
        r#"
        > Refactor Signature authenticate(user) authenticate(user, x=1)
        Fail "Signature conflict detected: current signature is authenticate(username, timeout)"
        > Refactor Rename_Param authenticate username user
        Ok, Signature updated, 1 caller replaced
        > Undo
        Ok, Undid 1, At 0:0, Also in app.py
        "#,
    );
    assert_eq!(
        f.read("auth.py"),
        "def authenticate(username, timeout):\n    return username\n"
    );
}

#[test]
fn senders_refactoring_at_once_never_wait_for_each_other() {
    // Each refactor checks the other sessions for unsaved edits in the
    // files it changes; a turn that held its own session while locking
    // another's would deadlock with a second sender doing the same.
    let f = Fixture::new();
    f.write("shared.py", "def helper():\n    return 1\n");
    for n in 0..4 {
        f.write(
            &format!("own{n}.py"),
            "from shared import helper\n\nhelper()\n",
        );
    }
    // Threads of their own, not scoped: a stuck sender must fail the test,
    // not hang it.
    let f = std::sync::Arc::new(f);
    let (done, finished) = std::sync::mpsc::channel();
    // every session exists before any sender asks for another's summary
    let started = std::sync::Arc::new(std::sync::Barrier::new(4));
    for n in 0..4 {
        let (f, done, all_started) = (f.clone(), done.clone(), started.clone());
        std::thread::spawn(move || {
            let sender = format!("agent{n}");
            let started = f.send(
                &sender,
                &format!("Start s{n}; Open Create note{n}.txt; Insert Line \"x\""),
            );
            assert!(started.starts_with("Ok\nOk"), "{started}");
            all_started.wait();
            for _ in 0..20 {
                let preview = f.send(
                    &sender,
                    "Preview Refactor RenameSymbol shared.helper assist",
                );
                assert!(
                    preview.starts_with("Ok, Preview: Would modify 5 files"),
                    "{preview}"
                );
                let other = format!("Summary s{}", (n + 1) % 4);
                let summary = f.send(&sender, &other);
                assert!(summary.starts_with("Ok"), "{summary}");
            }
            done.send(()).unwrap();
        });
    }
    for _ in 0..4 {
        finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("a sender is stuck or failed: two turns waited for each other's session");
    }
}

#[test]
fn a_rename_right_after_another_program_moved_the_lines_edits_the_right_places() {
    // The index may not have seen the write yet (its watch reports it a
    // little later): positions are checked against the file as read.
    let f = Fixture::new();
    f.write("lib.py", "def helper():\n    return 1\n");
    f.write("use.py", "from lib import helper\n\nhelper()\n");
    assert_eq!(f.send("a", "Start s"), "Ok");
    assert!(f
        .send("a", "Find References helper")
        .starts_with("Ok: Found 2 references"));
    for round in 0..20 {
        let (old, new) = if round % 2 == 0 {
            ("helper", "assist")
        } else {
            ("assist", "helper")
        };
        let padding = "# moved\n".repeat(round + 1);
        f.write(
            "use.py",
            &format!("{padding}from lib import {old}\n\n{old}()\n"),
        );
        let reply = f.send("a", &format!("Refactor RenameSymbol lib.{old} {new}"));
        assert!(
            reply.starts_with("Ok, Renamed in 2 files"),
            "round {round}: {reply}: {}",
            f.read("use.py")
        );
        assert_eq!(
            f.read("use.py"),
            format!("{padding}from lib import {new}\n\n{new}()\n")
        );
    }
}

#[test]
fn the_index_takes_a_refactors_files_as_the_check_parsed_them_and_stays_true() {
    // The committed files the check parsed are scanned from its trees, the
    // ones where names were only swapped (not parsed) are read again, both
    // after the reply: what the index says next must be what a fresh read
    // says.
    let f = Fixture::new();
    project(&f);
    // parsed by the check: it declares a global
    f.write(
        "pkg/state.py",
        "from pkg.util import chunked\n\nLAST = None\n\n\ndef remember(xs):\n    global LAST\n    LAST = chunked(xs, 1)\n",
    );
    assert_eq!(f.send("a", "Start s"), "Ok");
    let renames = [
        ("pkg.util.chunked", "batched"),
        ("pkg.util.batched", "in_groups"),
        ("pkg.app.run", "start"),
        ("pkg.util.in_groups", "chunked"),
    ];
    for (symbol, new) in renames {
        let reply = f.send("a", &format!("Refactor RenameSymbol {symbol} {new}"));
        assert!(reply.starts_with("Ok, Renamed in"), "{symbol}: {reply}");
        let after = f.send("a", &format!("Find References {new}"));
        let state = tempfile::tempdir().unwrap();
        let mut config = EngineConfig::new(f.dir.path());
        config.state_dir = Some(state.path().to_path_buf());
        let fresh = Engine::open(config).unwrap();
        let send = |text: &str| {
            fresh
                .execute(&Request {
                    sender: "b",
                    text,
                    id: None,
                })
                .text
        };
        assert_eq!(send("Start t"), "Ok");
        assert_eq!(
            after,
            send(&format!("Find References {new}")),
            "after renaming {symbol} to {new}"
        );
    }
    assert!(f.read("pkg/app.py").contains("def start(xs):"));
    assert!(f.read("pkg/app.py").contains("return chunked(xs, 2)"));
    assert!(f.read("pkg/state.py").contains("LAST = chunked(xs, 1)"));
}

/// `Status` says which refactor waits in preview mode and what `Apply` and
/// `Discard` do; once answered, it says nothing of it.
#[test]
fn status_shows_the_refactor_waiting_for_apply() {
    let f = Fixture::new();
    project(&f);
    assert_eq!(f.send("a", "Start s; Set Preview on"), "Ok\nOk");
    let preview = f.send("a", "Refactor RenameSymbol chunked batched");
    assert!(preview.starts_with("Ok, Preview: "), "{preview}");
    let waiting = "Refactor RenameSymbol chunked batched waiting for Apply (writes it if its files have not changed since the preview) or Discard (drops it)";
    assert_eq!(
        f.send("a", "Status"),
        format!("Ok: Session s, No file, {waiting}")
    );
    assert_eq!(
        f.send("a", "Discard; Status"),
        "Ok, Discarded Refactor RenameSymbol chunked batched\nOk: Session s, No file"
    );
}

// ---------------------------------------------------------------------
// Name-based dispatch and data strings (issue 26).
// ---------------------------------------------------------------------

#[test]
fn a_class_rename_says_what_dispatch_renamed_along_and_which_strings_are_data() {
    let f = Fixture::new();
    f.write(
        "nodes.py",
        "class Name:\n    pass\n\n\nKINDS = {\"Name\": 1}\n",
    );
    f.write(
        "visitor.py",
        "class V:\n    def visit(self, node):\n        return getattr(self, f\"visit_{type(node).__name__}\")(node)\n\n\nclass Gen(V):\n    def visit_Name(self, node):\n        return 1\n",
    );
    assert_eq!(f.send("a", "Start s"), "Ok");
    let reply = f.send("a", "Refactor Rename_Class nodes.Name NameNode");
    assert!(
        reply.starts_with("Ok, Renamed in 2 files (nodes.py, visitor.py), 2 references updated, also renamed: visitor.Gen.visit_Name → visit_NameNode (dispatch by the class's name at visitor.py:2), data strings: 1 string naming it as data, never changed (not even with Include Text): nodes.py:4:10 (a dict key)"),
        "{reply}"
    );
    assert!(f
        .read("visitor.py")
        .contains("def visit_NameNode(self, node):"));
    f.send("a", "Undo");
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor Rename_Class nodes.Name NameNode"))
            .unwrap();
    let refactor = &reply["refactor"];
    assert_eq!(
        refactor["also_renamed"][0]["symbol"],
        "visitor.Gen.visit_Name"
    );
    assert_eq!(refactor["also_renamed"][0]["new_name"], "visit_NameNode");
    assert_eq!(refactor["also_renamed"][0]["dispatch"]["line"], 2);
    assert_eq!(refactor["data_strings"][0]["why"], "a dict key");
}

// ---------------------------------------------------------------------
// A waiting refactor keeps the change its preview computed (issue 27).
// ---------------------------------------------------------------------

const RENAMED: &str = "Ok, Renamed in 3 files (main.py, pkg/app.py, pkg/util.py), 4 references updated, not changed: 1 mention in strings and comments (pkg/app.py:4:6); Include Text changes them";

/// `Preview` then `Apply` computes the refactor once: `Apply` checks the
/// texts the preview computed against and applies its change.
#[test]
fn preview_then_apply_computes_the_refactor_once() {
    let f = Fixture::new();
    project(&f);
    let computed = crate::refactor::computed_on_this_thread;
    assert_eq!(f.send("a", "Start s; Set Preview on"), "Ok\nOk");
    let before = computed();
    let preview = f.send("a", "Refactor RenameSymbol chunked batched");
    assert!(preview.starts_with("Ok, Preview: "), "{preview}");
    assert_eq!(computed() - before, 1, "the preview computes it");
    assert_eq!(f.send("a", "Apply"), RENAMED);
    assert_eq!(
        computed() - before,
        1,
        "Apply applies what the preview computed"
    );
    assert_eq!(
        f.read("main.py"),
        "import pkg.util\n\nprint(pkg.util.batched([1, 2, 3], 2))\n"
    );
    assert!(f.read("pkg/util.py").starts_with("def batched(items, n):"));
    // one undo step, as a refactor applied at once
    assert_eq!(
        f.send("a", "Undo"),
        "Ok, Undid 1, At 0:0, Also in main.py, pkg/app.py"
    );
    assert!(f.read("pkg/util.py").starts_with("def chunked(items, n):"));
}

/// A file the change edits that moved on since the preview refuses the
/// change as it is, without computing anything.
#[test]
fn a_changed_file_refuses_the_kept_change_without_computing_it_again() {
    let f = Fixture::new();
    project(&f);
    let computed = crate::refactor::computed_on_this_thread;
    assert_eq!(f.send("a", "Start s; Set Preview on"), "Ok\nOk");
    f.send("a", "Refactor RenameSymbol chunked batched");
    f.write(
        "main.py",
        "import pkg.util\n\nprint(pkg.util.chunked([4], 1))\n",
    );
    let before = computed();
    assert_eq!(
        f.send("a", "Apply"),
        "Fail \"main.py changed since the preview, so nothing was applied; preview it again: Refactor RenameSymbol chunked batched\""
    );
    assert_eq!(computed(), before);
    assert!(f.read("pkg/util.py").starts_with("def chunked(items, n):"));
}

/// When another file of the project moved on since the preview (here: the
/// sender's unsaved edits), a use may have come or gone: `Apply` computes
/// the refactor once more and applies it only if it changes the same files.
#[test]
fn apply_computes_again_once_when_the_rest_of_the_project_moved_on() {
    let f = Fixture::new();
    project(&f);
    f.write("other.py", "x = 1\n");
    let computed = crate::refactor::computed_on_this_thread;
    assert_eq!(f.send("a", "Start s; Set Preview on"), "Ok\nOk");
    f.send("a", "Refactor RenameSymbol chunked batched");
    f.send("a", "Open other.py; Insert Line \"y = 2\"");
    let before = computed();
    assert_eq!(f.send("a", "Apply"), RENAMED);
    assert_eq!(computed() - before, 1);
    assert!(f.read("pkg/util.py").starts_with("def batched(items, n):"));
    assert_eq!(
        f.read("other.py"),
        "x = 1\n",
        "its unsaved edit stays unsaved"
    );
    // A new use since the preview: the kept change would miss it.
    let f = Fixture::new();
    project(&f);
    f.write("other.py", "x = 1\n");
    assert_eq!(f.send("a", "Start s; Set Preview on"), "Ok\nOk");
    f.send("a", "Refactor RenameSymbol chunked batched");
    f.send(
        "a",
        "Open other.py; Insert Line \"from pkg.util import chunked\"",
    );
    assert_eq!(
        f.send("a", "Apply"),
        "Fail \"The refactor must change other.py, which has unsaved edits: Save or Undo them first; nothing was changed\""
    );
    assert!(f.read("pkg/util.py").starts_with("def chunked(items, n):"));
}

/// The kept change lives in memory: after a restart the journal's request
/// is computed once more (not twice) and applied.
#[test]
fn after_a_restart_apply_computes_the_waiting_refactor_once() {
    let f = Fixture::new();
    project(&f);
    assert_eq!(f.send("a", "Start s; Set Preview on"), "Ok\nOk");
    f.send("a", "Refactor RenameSymbol chunked batched");
    let f = f.restart();
    let computed = crate::refactor::computed_on_this_thread;
    let before = computed();
    assert_eq!(f.send("a", "Apply"), RENAMED);
    assert_eq!(computed() - before, 1);
    assert!(f.read("pkg/util.py").starts_with("def batched(items, n):"));
}

#[test]
fn a_moved_method_is_previewed_applied_and_undone_in_one_step() {
    let f = Fixture::new();
    let models = "class Rules:\n    def ok(self, name):\n        return bool(name)\n\n\nclass User:\n    def __init__(self, name):\n        self.name = name\n        self.rules = Rules()\n\n    def valid(self):\n        return self.rules.ok(self.name)\n";
    let app = "from models import User\n\n\ndef check(u: User):\n    return u.valid()\n\n\ndef any_valid(things):\n    return [t.valid() for t in things]\n";
    f.write("models.py", models);
    f.write("app.py", app);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor Move_Method User.valid Rules
        Ok, Preview: Would modify 2 files: app.py, models.py, 1 caller, left alone: 1 use it cannot prove: app.py:8:14 (an attribute of a value of unknown type)
        > Refactor Move_Method User.valid Rules
        Ok, Moved method User.valid to Rules.valid (through self.rules, new parameter user), 1 caller rewritten, User.valid kept as a delegate, left alone: 1 use it cannot prove: app.py:8:14 (an attribute of a value of unknown type)
        > Refactor Move_Method User.valid Rules
        Fail "Name conflict exists: Rules has valid already: models.Rules.valid (models.py:4:8)"
        "#,
    );
    assert_eq!(
        f.read("models.py"),
        "class Rules:\n    def ok(self, name):\n        return bool(name)\n\n    def valid(self, user):\n        return self.ok(user.name)\n\n\nclass User:\n    def __init__(self, name):\n        self.name = name\n        self.rules = Rules()\n\n    def valid(self):\n        return self.rules.valid(self)\n"
    );
    assert_eq!(
        f.read("app.py"),
        app.replace("return u.valid()", "return u.rules.valid(u)")
    );
    f.send("a", "Undo");
    assert_eq!(
        (f.read("models.py"), f.read("app.py")),
        (models.to_string(), app.to_string())
    );
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor Move_Method User.valid Rules"))
            .unwrap();
    assert_reply_schema(&reply);
    assert_eq!(
        reply["refactor"]["summary"],
        serde_json::json!({"method": "models.User.valid", "target": "models.Rules", "name": "valid", "via": "self.rules", "parameters": ["user"], "callers": 1, "delegate": true})
    );
    assert_eq!(
        reply["refactor"]["left_alone"][0]["why"],
        "an attribute of a value of unknown type"
    );
}

#[test]
fn a_split_class_is_previewed_applied_and_undone_in_one_step() {
    let f = Fixture::new();
    let models = "class User:\n    LIMIT = 3\n\n    def __init__(self, name):\n        self.name = name[: self.LIMIT]\n";
    let app = "from models import User\n\nprint(User.LIMIT)\n";
    f.write("models.py", models);
    f.write("app.py", app);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor Split_Class User Limits LIMIT
        Ok, Preview: Would modify 2 files: app.py, models.py, 2 references
        > Refactor Split_Class User Limits LIMIT
        Ok, Class split: LIMIT moved from User to Limits, 2 references updated
        "#,
    );
    assert_eq!(
        f.read("models.py"),
        "class User:\n    def __init__(self, name):\n        self.name = name[: Limits.LIMIT]\n\n\nclass Limits:\n    LIMIT = 3\n"
    );
    assert_eq!(
        f.read("app.py"),
        "from models import User, Limits\n\nprint(Limits.LIMIT)\n"
    );
    f.send("a", "Undo");
    assert_eq!(
        (f.read("models.py"), f.read("app.py")),
        (models.to_string(), app.to_string())
    );
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor Split_Class User Limits LIMIT"))
            .unwrap();
    assert_reply_schema(&reply);
    assert_eq!(
        reply["refactor"]["summary"],
        serde_json::json!({"class": "models.User", "new_class": "Limits", "members": ["LIMIT"], "references": 2})
    );
}

#[test]
fn an_extracted_class_is_previewed_applied_and_undone_in_one_step() {
    let f = Fixture::new();
    let models = "class User:\n    def __init__(self, name):\n        self.name = name\n\n    def greet(self):\n        return 'hi ' + self.name\n";
    f.write("models.py", models);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Preview Refactor ExtractClass User Greeter greet
        Ok, Preview: Would modify 1 file: models.py, 1 method
        > Refactor ExtractClass User Greeter greet
        Ok, Class extracted: greet moved from User to Greeter, which User holds as self._greeter and delegates to
        "#,
    );
    assert_eq!(
        f.read("models.py"),
        "class User:\n    def __init__(self, name):\n        self._greeter = Greeter(self)\n        self.name = name\n\n    def greet(self):\n        return self._greeter.greet()\n\n\nclass Greeter:\n    def __init__(self, user):\n        self.user = user\n\n    def greet(self):\n        return 'hi ' + self.user.name\n"
    );
    f.send("a", "Undo");
    assert_eq!(f.read("models.py"), models);
    f.send("a", "Set Format json");
    let reply: serde_json::Value =
        serde_json::from_str(&f.send("a", "Preview Refactor ExtractClass User Greeter greet"))
            .unwrap();
    assert_reply_schema(&reply);
    assert_eq!(
        reply["refactor"]["summary"],
        serde_json::json!({"class": "models.User", "new_class": "Greeter", "members": ["greet"], "attribute": "_greeter"})
    );
}
