//! The project index on the `shop` fixture: every query with its exact
//! answer, rendered the way Eddi replies (`path:line:col`, zero-based).

use std::path::Path;

use eddi::analysis::index::{Callers, Dependency, ProjectIndex, References};

fn fixture() -> ProjectIndex {
    ProjectIndex::build(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/shop"))
}

fn refs(r: Result<References, eddi::analysis::index::IndexError>) -> String {
    match r {
        Ok(r) => {
            let certain: Vec<String> = r.certain.iter().map(|l| l.to_string()).collect();
            let possible: Vec<String> = r.possible.iter().map(|l| l.to_string()).collect();
            format!("{}; possible: {}", certain.join(", "), possible.join(", "))
        }
        Err(e) => format!("Fail: {e}"),
    }
}

fn callers(r: Result<Callers, eddi::analysis::index::IndexError>) -> String {
    match r {
        Ok(r) => {
            let show = |calls: &[eddi::analysis::index::Call]| {
                calls
                    .iter()
                    .map(|c| {
                        format!(
                            "{} in {}",
                            c.location,
                            c.caller.as_deref().unwrap_or("<module>")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!("{}; possible: {}", show(&r.certain), show(&r.possible))
        }
        Err(e) => format!("Fail: {e}"),
    }
}

fn deps(r: Result<Vec<Dependency>, eddi::analysis::index::IndexError>) -> String {
    match r {
        Ok(d) => d
            .iter()
            .map(|d| {
                format!(
                    "{} ({}) at {}",
                    d.module,
                    d.path.as_deref().unwrap_or("external"),
                    d.at
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        Err(e) => format!("Fail: {e}"),
    }
}

/// `Find References`: symbol → "certain; possible: …" (definition sites excluded).
const REFERENCES: &[(&str, &str)] = &[
    // a function used through a package re-export, `import x as y` + `y.f`,
    // and directly; the local `authenticate` in `cli.shadow` shadows it.
    ("shop.auth.authenticate", "shop/__init__.py:1:31, shop/auth.py:33:11, shop/cli.py:1:17, shop/cli.py:10:4, shop/cli.py:11:13; possible: "),
    // `m = UserManager(); m.authenticate()`, and `self.authenticate()` in a subclass
    ("UserManager.authenticate", "shop/cli.py:9:12, shop/plugins/base.py:6:13; possible: "),
    // `self.validate` in the base class resolves to the base; `obj.validate` is untyped
    ("BaseManager.validate", "shop/auth.py:19:13; possible: shop/cli.py:18:8"),
    // the override may be reached from the base's `self.validate` by dispatch
    ("UserManager.validate", "; possible: shop/auth.py:19:13, shop/cli.py:18:8"),
    // inherited methods called on `self` of subclasses and on a subclass
    ("BaseManager.save", "shop/auth.py:34:17, shop/plugins/base.py:5:13; possible: "),
    ("BaseManager.create", "shop/auth.py:47:27, shop/plugins/base.py:8:28; possible: "),
    // a class attribute through `self` and through a subclass
    ("registry", "shop/auth.py:20:13, shop/plugins/base.py:7:33; possible: "),
    // aliases (`as norm`), a star import re-exported by a package, a star
    // import at top level; the local `normalize` in `cli.run` is not it
    ("normalize", "app.py:9:24, shop/auth.py:1:23, shop/auth.py:7:11, shop/cli.py:2:28, shop/util/text.py:17:11; possible: "),
    ("slug", "app.py:9:19, shop/cli.py:2:22, shop/cli.py:13:14; possible: "),
    // `global counter; counter += 1`
    ("counter", "shop/util/text.py:15:11, shop/util/text.py:16:4; possible: "),
    // a nested function
    ("make_counter.bump", "shop/util/text.py:28:11; possible: "),
    // inside a comprehension; `from . import models` + `models.User`
    ("User", "shop/auth.py:35:26, shop/models.py:17:13; possible: "),
    // a dataclass field: `self.name` is certain, comprehension and lambda parameters are not
    ("User.name", "shop/models.py:9:20; possible: shop/models.py:18:17, shop/models.py:19:22"),
    // same-named unrelated functions, told apart by module
    ("models.log", "shop/cli.py:3:20, shop/cli.py:13:4; possible: "),
    ("auth.log", "shop/auth.py:21:15, shop/auth.py:43:19, shop/cli.py:12:13; possible: "),
    // an async function, imported only
    ("fetch_users", "shop/cli.py:3:38; possible: "),
    // a class in a namespace package (no __init__.py), whose module imports
    // its base with `from ..auth import UserManager`
    ("AdminManager", "app.py:0:30, app.py:7:12, shop/plugins/base.py:7:20, shop/plugins/base.py:8:15; possible: "),
    ("AdminManager.promote", "app.py:8:10; possible: "),
    // a decorator
    ("traced", "shop/auth.py:1:42, shop/auth.py:10:1; possible: "),
    ("cli.run()", "shop/cli.py:14:11; possible: "),
    ("UserManager.Policy.check", "; possible: "),
    ("PATTERN", "shop/util/text.py:11:11; possible: "),
    // instance attributes: the first `self.x = …` defines, the rest refer
    ("Cart.items", "shop/models.py:29:13, shop/models.py:30:30; possible: "),
    ("Cart.owner", "shop/models.py:31:20; possible: "),
    // a re-export path names the class where it is defined
    ("shop.UserManager", "shop/__init__.py:1:18, shop/auth.py:47:15, shop/cli.py:1:31, shop/cli.py:8:14, shop/plugins/base.py:0:19, shop/plugins/base.py:3:19; possible: "),
    ("authenticate", "Fail: Ambiguous symbol 'authenticate': shop.auth.UserManager.authenticate at shop/auth.py:32:4, shop.auth.authenticate at shop/auth.py:5:0; use a qualified name"),
    ("log", "Fail: Ambiguous symbol 'log': shop.auth.log at shop/auth.py:11:0, shop.models.log at shop/models.py:12:0; use a qualified name"),
    ("validate", "Fail: Ambiguous symbol 'validate': shop.auth.BaseManager.validate at shop/auth.py:23:4, shop.auth.UserManager.validate at shop/auth.py:38:4; use a qualified name"),
    ("authentcate", "Fail: Not found: symbol 'authentcate'. Closest: authenticate"),
    // files in hidden directories are not indexed
    ("hidden", "Fail: Not found: symbol 'hidden'. No similar name in the index"),
];

/// `Find Definition`: symbol → "qualified kind path:line:col".
const DEFINITIONS: &[(&str, &str)] = &[
    (
        "fetch_users",
        "shop.models.fetch_users function shop/models.py:16:0",
    ),
    (
        "Policy.check",
        "shop.auth.UserManager.Policy.check method shop/auth.py:42:8",
    ),
    (
        "UserManager.Policy",
        "shop.auth.UserManager.Policy class shop/auth.py:41:4",
    ),
    (
        "User.active",
        "shop.models.User.active attribute shop/models.py:6:4",
    ),
    (
        "shop.util.VERSION",
        "shop.util.VERSION variable shop/util/__init__.py:2:0",
    ),
    ("auth.log()", "shop.auth.log function shop/auth.py:11:0"),
    (
        "shop.util.normalize",
        "shop.util.text.normalize function shop/util/text.py:10:0",
    ),
    (
        "make_counter.bump",
        "shop.util.text.make_counter.bump function shop/util/text.py:23:4",
    ),
    (
        "shop.auth.UserManager.build",
        "shop.auth.UserManager.build method shop/auth.py:46:4",
    ),
];

/// `Find Callers`: symbol → "call in caller, …; possible: …".
const CALLERS: &[(&str, &str)] = &[
    ("shop.auth.authenticate", "shop/auth.py:33:11 in shop.auth.UserManager.authenticate, shop/cli.py:10:4 in shop.cli.main, shop/cli.py:11:13 in shop.cli.main; possible: "),
    ("UserManager", "shop/cli.py:8:14 in shop.cli.main; possible: "),
    ("slug", "app.py:9:19 in app.start, shop/cli.py:13:14 in shop.cli.main; possible: "),
    ("app.start", "app.py:14:4 in <module>; possible: "),
    ("BaseManager.validate", "shop/auth.py:19:13 in shop.auth.BaseManager.save; possible: shop/cli.py:18:8 in shop.cli.run"),
];

/// `Analyze … Dependencies`: (module, dependencies, dependents).
const DEPENDENCIES: &[(&str, &str, &str)] = &[
    (
        "shop.cli",
        "shop.auth (shop/auth.py) at shop/cli.py:0:7, shop (shop/__init__.py) at shop/cli.py:1:5, shop.util (shop/util/__init__.py) at shop/cli.py:2:5, shop.models (shop/models.py) at shop/cli.py:3:5, outside (external) at shop/cli.py:4:5",
        "app (app.py) at app.py:1:5",
    ),
    (
        "shop/auth.py",
        "hashlib (external) at shop/auth.py:0:7, shop.util.text (shop/util/text.py) at shop/auth.py:1:5, shop.models (shop/models.py) at shop/auth.py:2:5",
        "shop (shop/__init__.py) at shop/__init__.py:1:5, shop.cli (shop/cli.py) at shop/cli.py:0:7, shop.plugins.base (shop/plugins/base.py) at shop/plugins/base.py:0:5",
    ),
    ("shop.nope", "Fail: Not found: module 'shop.nope'. Modules: shop, shop.auth, shop.cli, shop.models, shop.plugins.base, shop.util, shop.util.text", "Fail: Not found: module 'shop.nope'. Modules: shop, shop.auth, shop.cli, shop.models, shop.plugins.base, shop.util, shop.util.text"),
];

#[test]
fn references() {
    let index = fixture();
    let mut failures = Vec::new();
    for (symbol, want) in REFERENCES {
        let got = refs(index.find_references(symbol));
        if got != *want {
            failures.push(format!("{symbol}\n  want: {want}\n  got:  {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn definitions() {
    let index = fixture();
    let mut failures = Vec::new();
    for (symbol, want) in DEFINITIONS {
        let got = match index.find_definition(symbol) {
            Ok(defs) => defs
                .iter()
                .map(|d| format!("{} {} {}", d.qualified_name, d.kind.noun(), d.location))
                .collect::<Vec<_>>()
                .join(", "),
            Err(e) => format!("Fail: {e}"),
        };
        if got != *want {
            failures.push(format!("{symbol}\n  want: {want}\n  got:  {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn callers_of() {
    let index = fixture();
    let mut failures = Vec::new();
    for (symbol, want) in CALLERS {
        let got = callers(index.find_callers(symbol));
        if got != *want {
            failures.push(format!("{symbol}\n  want: {want}\n  got:  {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Asked together with one memo (the Python API's callers of a whole
/// query), in any order and twice over, every answer is the one it gets
/// alone.
#[test]
fn callers_asked_together_are_the_callers_asked_alone() {
    let index = fixture();
    let mut memo = eddi::analysis::index::CallersMemo::default();
    let mut failures = Vec::new();
    let asked: Vec<&str> = CALLERS
        .iter()
        .chain(CALLERS.iter().rev())
        .map(|(symbol, _)| *symbol)
        .collect();
    for symbol in asked {
        let alone = callers(fixture().find_callers(symbol));
        let together = callers(index.find_callers_memo(symbol, &mut memo));
        if alone != together {
            failures.push(format!(
                "{symbol}\n  alone:    {alone}\n  together: {together}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn dependencies_both_ways() {
    let index = fixture();
    let mut failures = Vec::new();
    for (module, want_deps, want_dependents) in DEPENDENCIES {
        let got = (
            deps(index.dependencies(module)),
            deps(index.dependents(module)),
        );
        if got != (want_deps.to_string(), want_dependents.to_string()) {
            failures.push(format!(
                "{module}\n  want: {want_deps} / {want_dependents}\n  got:  {} / {}",
                got.0, got.1
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hidden_files_are_not_indexed() {
    let index = fixture();
    assert_eq!(
        index.paths(),
        [
            "app.py",
            "shop/__init__.py",
            "shop/auth.py",
            "shop/cli.py",
            "shop/models.py",
            "shop/plugins/base.py",
            "shop/util/__init__.py",
            "shop/util/text.py"
        ]
    );
    assert!(index.skipped().is_empty());
    assert_eq!(
        index.module_of("shop/plugins/base.py"),
        Some("shop.plugins.base")
    );
    assert_eq!(index.module_of("shop/util/__init__.py"), Some("shop.util"));
}
