//! Engine conversations: code addressing — local variables, property
//! accessors, overloads and platform branches, names printed by the index
//! accepted back, and the lists offered when a name is not found.

use super::*;

const LOCALS: &str = "def total(items):
    count = 0
    for item in items:
        count += item
    return count


class Cart:
    def add(self, item):
        price = item.price

        def inner():
            tax = price / 5
            return tax

        return inner() + price


COUNTER = 0


def bump():
    global COUNTER
    COUNTER += 1
";

const SHAPES: &str = "import sys
from typing import overload


class Text:
    @property
    def plain(self):
        return self._text

    @plain.setter
    def plain(self, new_text):
        self._text = new_text

    @overload
    def get(self, key: int) -> int: ...
    @overload
    def get(self, key: str) -> str: ...
    def get(self, key):
        return key


if sys.platform == \"win32\":
    def home():
        return \"C:\"
else:
    def home():
        return \"/\"


def area(w, h):
    return w * h


def area(r):
    return r * r
";

/// Every form an ambiguity lists, sent back after `command`, must land on
/// the position listed with it.
fn listed_forms_are_accepted(f: &Fixture, sender: &str, command: &str) -> usize {
    let reply = f.send(sender, command);
    let re = regex::Regex::new(
        r"(\d+:\d+) \(((?:Function|Method|Class|Variable) [^ ,()]+(?:\([^)]*\))?)\)",
    )
    .unwrap();
    assert!(reply.contains("Ambiguous match"), "{command}: {reply}");
    let mut n = 0;
    for c in re.captures_iter(&reply) {
        let (at, form) = (&c[1], &c[2]);
        assert_eq!(
            f.send(sender, &format!("Goto {form}")),
            format!("Ok, At {at}"),
            "form {form} listed by {command}: {reply}"
        );
        let name = form.split_once(' ').map_or(form, |(_, name)| name);
        let found = f.send(sender, &format!("Find Definition {name}"));
        assert!(found.starts_with("Ok: Found"), "{name}: {found}");
        n += 1;
    }
    n
}

#[test]
fn locals_are_addressed_as_function_dot_name() {
    let f = Fixture::new();
    f.write("a.py", LOCALS);
    f.check(
        "a",
        r#"
        > Start s; Open a.py
        Ok
        Ok, At 0:0, Length 24
        > Show Variable Cart.add.inner.tax
        Ok: At 12:12, Txt tax = price / 5
        > Show Variable bump.COUNTER
        Fail "Not found: variable 'bump.COUNTER'. Available: COUNTER"
        > Show Variable total.count
        Ok: At 1:4, Txt count = 0
        > Goto Variable total.item
        Ok, At 2:8
        > Goto Variable total.items
        Ok, At 0:10
        > Show Variable Cart.add.price
        Ok: At 9:8, Txt price = item.price
        > Show Variable total.nosuch
        Fail "Not found: variable 'total.nosuch'. Available: total.items, total.count, total.item"
        > Comment Variable total.count "why"
        Fail "Comment works on definitions; total.count is a local variable (at 1:4): use Goto and Insert Line"
        > Modify Variable Cart.add.price Rename cost
        Ok, Modified local variable Cart.add.price (3 edits), At 9:8
        > Show Method Cart.add
        Ok: At 8:4, Txt def add(self, item):\n        cost = item.price\n\n        def inner():\n            tax = cost / 5\n            return tax\n\n        return inner() + cost
        > Modify Variable total.count Rename n
        Ok, Modified local variable total.count (3 edits), At 1:4
        > Show Function total
        Ok: At 0:0, Txt def total(items):\n    n = 0\n    for item in items:\n        n += item\n    return n
        "#,
    );
}

/// The issue's case: renaming one local of requests'
/// `SessionRedirectMixin.resolve_redirects` is one command and misses
/// nothing (the same name in the other methods stays).
#[test]
fn a_local_of_requests_resolve_redirects_is_renamed_in_one_command() {
    let f = Fixture::new();
    let source = include_str!("../../../../../tests/fixtures/requests/sessions_redirect.py");
    f.write("sessions.py", source);
    let method = |text: &str| -> String {
        let start = text.find("    def resolve_redirects(").unwrap();
        let end = start + text[start..].find("    def rebuild_auth(").unwrap();
        text[start..end].to_string()
    };
    let count = |text: &str, word: &str| {
        regex::Regex::new(&format!(r"\b{word}\b"))
            .unwrap()
            .find_iter(text)
            .count()
    };
    assert_eq!(count(&method(source), "prepared_request"), 16);
    let elsewhere = count(source, "prepared_request") - 16;
    f.check(
        "a",
        r#"
        > Start s; Open sessions.py
        Ok
        Ok, At 0:0, Length 356
        > Modify Variable SessionRedirectMixin.resolve_redirects.prepared_request Rename new_request
        Ok, Modified local variable SessionRedirectMixin.resolve_redirects.prepared_request (16 edits), At 178:12
        > Save
        Ok, Bytes 13271
        "#,
    );
    let after = f.read("sessions.py");
    assert_eq!(count(&method(&after), "prepared_request"), 0);
    assert_eq!(count(&method(&after), "new_request"), 16);
    assert_eq!(count(&after, "prepared_request"), elsewhere);
}

#[test]
fn property_accessors_overloads_and_branches_have_forms_that_work() {
    let f = Fixture::new();
    f.write("s.py", SHAPES);
    f.check(
        "a",
        r#"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 35
        > Goto Method Text.plain
        Fail "Ambiguous match: 'Text.plain' at 6:4 (Method Text.plain.getter), 10:4 (Method Text.plain.setter); name one of them as listed"
        > Goto Method Text.get
        Fail "Ambiguous match: 'Text.get' at 14:4 (Method Text.get(key: int)), 16:4 (Method Text.get(key: str)), 17:4 (Method Text.get#3); name one of them as listed"
        > Goto Function home
        Fail "Ambiguous match: 'home' at 22:4 (Function home#1), 25:4 (Function home#2); name one of them as listed"
        > Goto Function area
        Fail "Ambiguous match: 'area' at 29:0 (Function area(w, h)), 33:0 (Function area(r)); name one of them as listed"
        > Goto Function Text.plain.getter
        Ok, At 6:4
        > Goto Method Text.plain(new_text)
        Ok, At 10:4
        > Goto Function home#3
        Fail "Not found: function 'home#3'. Available: home#1, home#2"
        > Goto Method Text.plain.deleter
        Fail "Not found: method 'Text.plain.deleter'. Available: Text.plain, Text.get"
        "#,
    );
    for command in [
        "Goto Method Text.plain",
        "Goto Function plain",
        "Goto Function Text.plain",
        "Goto Method Text.get",
        "Goto Function get",
        "Goto Function home",
        "Goto Function area",
    ] {
        assert!(
            listed_forms_are_accepted(&f, "a", command) >= 2,
            "{command}"
        );
    }
    // every command taking a code target accepts the forms
    f.check(
        "a",
        r#"
        > Show Method Text.plain.setter
        Ok: At 10:4, Txt def plain(self, new_text):\n        self._text = new_text
        > Modify Method Text.plain.setter Rename text
        Ok, Modified method Text.plain.setter (3 edits), At 10:4
        > Goto Method Text.text.setter
        Ok, At 10:4
        > Modify Method Text.get(key: str) AddDecorator "@cache"
        Ok, Modified method Text.get(key: str) (1 edit), At 17:4
        > Delete Function area(r)
        Ok, Deleted 4 lines at 32, At 32:0
        > Goto Function area
        Ok, At 30:0
        "#,
    );
    // (the wording of Comment's reply is not this test's business)
    let commented = f.send("a", "Comment Function home#2 \"POSIX\" Line");
    assert!(
        commented.starts_with("Ok, Comment added to function home"),
        "{commented}"
    );
    assert!(f.send("a", "Save").starts_with("Ok"));
    assert!(f
        .read("s.py")
        .contains("else:\n    # POSIX\n    def home():"));
}

/// Two projects side by side under the workspace root (a `src/` layout
/// with `pyproject.toml`, a flat one with `setup.py`).
fn two_projects(f: &Fixture) {
    f.write(
        "requests/pyproject.toml",
        "[project]\nname = \"requests\"\n",
    );
    f.write(
        "requests/src/requests/__init__.py",
        "from .models import PreparedRequest\n",
    );
    f.write(
        "requests/src/requests/models.py",
        "class PreparedRequest:\n    def prepare(self, method=None):\n        return method\n",
    );
    f.write(
        "requests/src/requests/sessions.py",
        "from requests.models import PreparedRequest\n\n\nclass Session:\n    def request(self, method):\n        return PreparedRequest().prepare(method)\n",
    );
    f.write(
        "requests/src/requests/api.py",
        "import requests.models\n\n\ndef get():\n    return requests.models.PreparedRequest().prepare(\"GET\")\n",
    );
    f.write("rich/setup.py", "");
    f.write("rich/rich/__init__.py", "");
    f.write(
        "rich/rich/text.py",
        "class Text:\n    def render(self):\n        return ''\n\n\ndef prepare():\n    pass\n",
    );
    f.write(
        "rich/rich/console.py",
        "from rich.text import Text\n\n\ndef show():\n    return Text().render()\n",
    );
}

#[test]
fn module_names_follow_the_projects_import_roots() {
    let f = Fixture::new();
    two_projects(&f);
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find Definition requests.models.PreparedRequest
        Ok: Found 1 definition, with lines, Txt requests/src/requests/models.py:0:0 class requests.models.PreparedRequest: class PreparedRequest:
        > Find Callers requests.models.PreparedRequest.prepare
        Ok: Found 2 callers, with lines, Txt requests/src/requests/api.py:4:45 in requests.api.get: return requests.models.PreparedRequest().prepare("GET")\nrequests/src/requests/sessions.py:5:33 in requests.sessions.Session.request: return PreparedRequest().prepare(method)
        > Find Callers rich.text.Text.render
        Ok: Found 1 caller, with lines, Txt rich/rich/console.py:4:18 in rich.console.show: return Text().render()
        > Find Definition requests.sessions
        Ok: Found 1 definition: module requests.sessions at requests/src/requests/sessions.py:0:0
        > Open requests/src/requests/models.py
        Ok, At 0:0, Length 3
        > Goto Method requests.models.PreparedRequest.prepare
        Ok, At 1:4
        > Goto Function requests.api.get
        Fail "Not found: function 'requests.api.get'. Available: PreparedRequest.prepare; requests.api.get is defined in requests/src/requests/api.py: Open requests/src/requests/api.py first"
        "#,
    );
}

/// Two projects with the same module names are not one symbol.
#[test]
fn same_module_names_in_two_projects_stay_apart() {
    let f = Fixture::new();
    two_projects(&f);
    f.write("requests/tests/test_a.py", "def test_x():\n    pass\n");
    f.write("rich/tests/test_a.py", "\n\ndef test_x():\n    pass\n");
    f.check(
        "a",
        r#"
        > Start s
        Ok
        > Find Definition tests.test_a.test_x
        Fail "Ambiguous symbol 'tests.test_a.test_x': tests.test_a.test_x at requests/tests/test_a.py:0:0, tests.test_a.test_x at rich/tests/test_a.py:2:0; defined in the projects requests, rich: name one as requests.tests.test_a.test_x or rich.tests.test_a.test_x, or ask with a current file in its project"
        > Find Definition rich.tests.test_a.test_x
        Ok: Found 1 definition, with lines, Txt rich/tests/test_a.py:2:0 function tests.test_a.test_x: def test_x():
        > Open rich/tests/test_a.py
        Ok, At 0:0, Length 4
        > Goto Function tests.test_a.test_x
        Ok, At 2:0
        > Find Definition tests.test_a.test_x
        Ok: Found 1 definition, with lines, Txt rich/tests/test_a.py:2:0 function tests.test_a.test_x: def test_x():
        "#,
    );
}

/// Every name the index prints is accepted back: by the index's own
/// queries, and (in the file it names) by Show and Goto.
#[test]
fn names_printed_by_the_index_are_accepted_back() {
    let f = Fixture::new();
    two_projects(&f);
    f.send("a", "Start s");
    let name = regex::Regex::new(r"(?:^|[ :,])((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*)").unwrap();
    let definition = regex::Regex::new(
        r"Found 1 definition, with lines, Txt ([\w/.]+\.py):(\d+:\d+) (\w+) (\S+?): ",
    )
    .unwrap();
    // The names a site prints are in its label, not in the line's text.
    let label = regex::Regex::new(r"[\w/.]+\.py:\d+:\d+(?:,\d+)* ([^:]+): ").unwrap();
    let mut checked = 0;
    for query in [
        "Find Definition PreparedRequest.prepare",
        "Find Callers requests.models.PreparedRequest.prepare",
        "Find References PreparedRequest",
        "Find Callers Text.render",
        "Find Definition Session.request",
        "Find Definition prepare",
    ] {
        let reply = f.send("a", query);
        assert!(
            reply.starts_with("Ok") || reply.starts_with("Fail \"Ambiguous"),
            "{query}: {reply}"
        );
        let named: String = if reply.starts_with("Fail") {
            reply.clone()
        } else {
            let labels = label.captures_iter(&reply).map(|c| c[1].to_owned());
            labels.collect::<Vec<_>>().join(" ")
        };
        for c in name.captures_iter(&named) {
            let printed = &c[1];
            if printed.ends_with(".py") {
                continue;
            }
            let back = f.send("a", &format!("Find Definition {printed}"));
            let d = definition
                .captures(&back)
                .unwrap_or_else(|| panic!("{printed} from {query}: {back}"));
            assert_eq!(&d[4], printed);
            let kind = match &d[3] {
                "method" => "Method",
                "class" => "Class",
                "variable" | "attribute" => "Variable",
                _ => "Function",
            };
            assert!(f.send("a", &format!("Open {}", &d[1])).starts_with("Ok"));
            assert_eq!(
                f.send("a", &format!("Goto {kind} {printed}")),
                format!("Ok, At {}", &d[2]),
                "{printed} from {query}"
            );
            assert!(f
                .send("a", &format!("Show {kind} {printed}"))
                .starts_with("Ok: At"));
            checked += 1;
        }
    }
    assert!(checked >= 7, "{checked}");
    // the modules Analyze names
    f.send("a", "Open requests/src/requests/models.py");
    let deps = f.send("a", "Analyze File Dependencies");
    let importers = deps
        .split("imported by ")
        .nth(1)
        .unwrap_or_else(|| panic!("{deps}"));
    let mut modules = 0;
    for module in importers.split(", ") {
        let found = f.send("a", &format!("Find Definition {module}"));
        assert!(
            found.starts_with("Ok: Found 1 definition: module"),
            "{module}: {found}"
        );
        modules += 1;
    }
    assert!(modules >= 2, "{deps}");
}
#[test]
fn names_listed_by_analyze_are_accepted_back() {
    let f = Fixture::new();
    f.write("s.py", SHAPES);
    f.send("a", "Start s; Open s.py");
    let listed = regex::Regex::new(
        r"(?:method|function|class) (\S+(?: \w+\))?|\S+\([^)]*\)|\S+) at (\d+:\d+)",
    )
    .unwrap();
    let mut n = 0;
    for command in ["Analyze File Structure", "Analyze Class Text Structure"] {
        let reply = f.send("a", command);
        for c in listed.captures_iter(&reply) {
            let (name, at) = (&c[1], &c[2]);
            let kind = if name == "Text" { "Class" } else { "Function" };
            assert_eq!(
                f.send("a", &format!("Goto {kind} {name}")),
                format!("Ok, At {at}"),
                "{name} listed by {command}: {reply}"
            );
            // the project index takes the same names
            let found = f.send("a", &format!("Find Definition {name}"));
            assert!(found.starts_with("Ok: Found"), "{name}: {found}");
            n += 1;
        }
    }
    assert_eq!(n, 10);
    f.check(
        "a",
        r#"
        > Analyze Class Text Complexity
        Ok: Class Text has complexity 2; Text 2, Text.plain.getter 1, Text.plain.setter 1, Text.get(key: int) 1, Text.get(key: str) 1, Text.get#3 1
        > Analyze Method Text.plain.setter Complexity
        Ok: Method Text.plain.setter has complexity 1
        > Analyze Function home#2 Structure
        Ok: Function home#2 has no members
        "#,
    );
}

#[test]
fn not_found_lists_are_ordered_cut_with_a_count_and_only_close_names_are_suggested() {
    let f = Fixture::new();
    let mut many = String::new();
    for i in 0..13 {
        many.push_str(&format!("def step{i}():\n    pass\n\n\n"));
    }
    many.push_str("def total():\n    pass\n\n\nclass Session:\n    def send(self):\n        pass\n\n    def mount(self, prefix):\n        pass\n");
    f.write("m.py", &many);
    f.check(
        "a",
        r#"
        > Start s; Open m.py
        Ok
        Ok, At 0:0, Length 62
        > Goto Function nosuchsym
        Fail "Not found: function 'nosuchsym'. Available: step0, step1, step2, step3, step4, step5, step6, step7, step8, step9, … (6 more)"
        > Goto Function totl
        Fail "Not found: function 'totl'. Available: total, step0, step1, step2, step3, step4, step5, step6, step7, step8, … (6 more)"
        > Goto Method Session.mont
        Fail "Not found: method 'Session.mont'. Available: Session.mount, Session.send"
        > Find Definition nosuchsym
        Fail "Not found: symbol 'nosuchsym'. No similar name in the index"
        > Find Definition totl
        Fail "Not found: symbol 'totl'. Closest: total"
        > Find Definition Session.nosuch
        Fail "Not found: symbol 'Session.nosuch'. Members of m.Session: send, mount"
        > Find Definition m.nosuch
        Fail "Not found: symbol 'm.nosuch'. Names in module m: step0, step1, step2, step3, step4, step5, step6, step7, step8, step9, … (5 more)"
        "#,
    );
}

/// A module used by two others: `helper` is imported by name, `Store.load`
/// called on an instance and through the class.
fn used_elsewhere(f: &Fixture) {
    f.write("pkg/__init__.py", "");
    f.write(
        "pkg/core.py",
        "def helper(x):\n    return x\n\n\nclass Store:\n    def load(self):\n        return helper(1)\n\n\ndef local_use():\n    return helper(2)\n",
    );
    f.write(
        "pkg/a.py",
        "from pkg.core import helper, Store\n\n\ndef run():\n    helper(3)\n    return Store().load()\n",
    );
    f.write(
        "b.py",
        "from pkg import core\nfrom pkg.core import helper as h\n\n\ndef main():\n    core.helper(4)\n    h(5)\n    return core.Store.load\n",
    );
}

#[test]
fn an_in_file_rename_says_what_it_left_in_other_files() {
    let f = Fixture::new();
    used_elsewhere(&f);
    f.check(
        "a",
        r#"
        > Start s; Open pkg/core.py
        Ok
        Ok, At 0:0, Length 11
        > Find References pkg.core.helper
        Ok: Found 7 references, with lines, Txt b.py:1:21: from pkg.core import helper as h\nb.py:5:9: core.helper(4)\nb.py:6:4: h(5)\npkg/a.py:0:21: from pkg.core import helper, Store\npkg/a.py:4:4: helper(3)\npkg/core.py:6:15: return helper(1)\npkg/core.py:10:11: return helper(2)
        > Modify Function helper Rename assist
        Ok, Modified function helper (3 edits), At 0:0, not changed: 5 references in other files (b.py:1, b.py:5, b.py:6, …); cross-file rename: Refactor RenameSymbol pkg.core.helper assist
        > Find References pkg.core.helper
        Ok: Found 0 references (no definition of 'pkg.core.helper' in the project); 5 unresolved, with lines, Txt b.py:1:21: from pkg.core import helper as h\nb.py:5:9: core.helper(4)\nb.py:6:4: h(5)\npkg/a.py:0:21: from pkg.core import helper, Store\npkg/a.py:4:4: helper(3)
        > Find Callers helper
        Ok: Found 0 callers (no definition of 'helper' in the project); 3 unresolved, with lines, Txt b.py:5:9: core.helper(4)\nb.py:6:4: h(5)\npkg/a.py:4:4: helper(3)
        > Find References pkg.core.assist
        Ok: Found 2 references, with lines, Txt pkg/core.py:6:15: return assist(1)\npkg/core.py:10:11: return assist(2)
        > Modify Method Store.load Rename fetch
        Ok, Modified method Store.load (1 edit), At 5:4, not changed: 2 references in other files (b.py:7, pkg/a.py:5); cross-file rename: Refactor RenameSymbol pkg.core.Store.load fetch
        > Find References Store.load
        Ok: Found 0 references (no definition of 'Store.load' in the project); 2 unresolved, with lines, Txt b.py:7:22: return core.Store.load\npkg/a.py:5:19: return Store().load()
        > Modify Function local_use SetVisibility Protected
        Ok, Modified function local_use (1 edit), At 9:0
        "#,
    );
}

#[test]
fn deleting_or_resigning_a_function_says_what_it_leaves() {
    let f = Fixture::new();
    used_elsewhere(&f);
    f.check(
        "a",
        r#"
        > Start s; Open pkg/core.py
        Ok
        Ok, At 0:0, Length 11
        > Modify Function helper AddParam "y=0"
        Ok, Modified function helper (1 edit), At 0:0
        > Modify Function helper AddParam "z"
        Ok, Modified function helper (1 edit), z placed at 1 instead of 2: a parameter without a default cannot follow one with a default, At 0:0, calls not updated: 5 (b.py:5, b.py:6, pkg/a.py:4, …)
        > Modify Function helper RemoveParam z
        Ok, Modified function helper (1 edit), At 0:0, calls not updated: 5 (b.py:5, b.py:6, pkg/a.py:4, …)
        > Modify Variable helper.x Rename value
        Ok, Modified local variable helper.x (2 edits), At 0:11, calls not updated: 5 (b.py:5, b.py:6, pkg/a.py:4, …)
        > Modify Method Store.load AddDecorator "@staticmethod"
        Ok, Modified method Store.load (1 edit), At 6:4
        > Delete Function helper
        Ok, Deleted 4 lines at 0, At 0:0, still used: 7 references (b.py:1, b.py:5, b.py:6, …)
        > Find References helper
        Ok: Found 0 references (no definition of 'helper' in the project); 7 unresolved, with lines, Txt b.py:1:21: from pkg.core import helper as h\nb.py:5:9: core.helper(4)\nb.py:6:4: h(5)\npkg/a.py:0:21: from pkg.core import helper, Store\npkg/a.py:4:4: helper(3)\npkg/core.py:3:15: return helper(1)\npkg/core.py:7:11: return helper(2)
        "#,
    );
}

/// The other lists offered by errors (bookmarks, open files) are cut the
/// same way, close names first.
#[test]
fn bookmark_and_open_file_lists_are_cut_with_a_count() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.write("main.py", "y = 2\n");
    let mut marks = String::from("Start s; Open a.py; Open main.py");
    for i in 0..12 {
        marks.push_str(&format!("; Bookmark m{i:02} 0:0"));
    }
    assert!(!f.send("a", &marks).contains("Fail"));
    f.check(
        "a",
        r#"
        > Goto m11x
        Fail "Unknown Goto target 'm11x'. Did you mean: m11? Bookmarks: m11, m00, m01, m02, m03, m04, m05, m06, m07, m08, … (2 more). Targets: <line>:<col>, <line>, StartOfFile, EndOfFile, StartOfLine, EndOfLine, StartOfFunction, EndOfFunction, StartOfClass, EndOfClass, Function <f>, Class <C>, Method <C>.<m>, Variable <v>"
        > Close man.py
        Fail "File not open: man.py. Open files: main.py, a.py"
        "#,
    );
}
