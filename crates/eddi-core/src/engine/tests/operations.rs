//! The typed operations under the code and index commands: with `Set
//! Format json` their replies carry the results as data (locations,
//! trees, numbers, typed failures), and every JSON reply of a conversation
//! validates against `protocol/schemas/reply.json`.

use super::*;

use serde_json::{json, Value};

const SHOP: &str = "\
class Cart:
    def add(self, item):
        self.items.append(item)

    def total(self):
        if self.items:
            return sum(self.items)
        return 0


async def checkout(cart):
    return cart.total()
";

const APP: &str = "\
from shop import Cart, checkout

cart = Cart()
cart.add(1)
checkout(cart)
";

fn shop() -> Fixture {
    let f = Fixture::new();
    f.write("shop.py", SHOP);
    f.write("app.py", APP);
    f.send("u", "Start s; Set Format json; Open shop.py");
    f
}

/// The one JSON object a single command answers.
fn ask(f: &Fixture, command: &str) -> Value {
    let reply = f.send("u", command);
    serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{command}: not JSON: {reply} ({e})"))
}

fn reply_schema() -> jsonschema::Validator {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/schemas/reply.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options().build(&schema).unwrap()
}

fn assert_valid(validator: &jsonschema::Validator, command: &str, reply: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(reply)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{command}: {reply}: {errors:?}");
}

#[test]
fn references_and_callers_are_arrays_of_locations() {
    let f = shop();
    let refs = ask(&f, "Find References shop.Cart");
    assert_eq!(refs["ok"], json!(true));
    // the terse facts stay in `message`
    assert!(refs["message"].as_str().unwrap().starts_with("Found "));
    let sites = refs["references"].as_array().unwrap();
    let in_app: Vec<&Value> = sites.iter().filter(|s| s["path"] == "app.py").collect();
    assert_eq!(
        in_app[0],
        &json!({"path": "app.py", "line": 0, "col": 17, "end_line": 0, "end_col": 21,
                "certain": true, "context": "from shop import Cart, checkout"})
    );
    assert!(in_app
        .iter()
        .any(|s| s["line"] == 2 && s["col"] == 7 && s["end_col"] == 11));

    let callers = ask(&f, "Find Callers shop.Cart.total");
    let calls = callers["callers"].as_array().unwrap();
    assert_eq!(calls.len(), 1, "{callers}");
    assert_eq!(calls[0]["path"], "shop.py");
    assert_eq!(calls[0]["in_symbol"], "shop.checkout");
    // `cart.total()`: the range is the name `total`
    assert_eq!(
        (&calls[0]["line"], &calls[0]["col"], &calls[0]["end_col"]),
        (&json!(11), &json!(16), &json!(21)),
        "{callers}"
    );
}

#[test]
fn definitions_say_kind_name_and_place() {
    let f = shop();
    let found = ask(&f, "Find Definition checkout");
    assert_eq!(
        found["definitions"],
        json!([{"path": "shop.py", "line": 10, "col": 0, "end_line": 10, "end_col": 18,
                "certain": true, "context": "async def checkout(cart):",
                "name": "shop.checkout", "kind": "function"}])
    );
    let module = ask(&f, "Find Definition shop");
    assert_eq!(module["definitions"][0]["kind"], "module");
    assert_eq!(module["definitions"][0]["path"], "shop.py");
}

#[test]
fn show_gives_the_element_and_its_range() {
    let f = shop();
    let shown = ask(&f, "Show Method Cart.total");
    assert_eq!(
        shown["element"],
        json!({"kind": "method", "name": "Cart.total", "path": "shop.py",
               "line": 4, "col": 4, "end_line": 7, "end_col": 16})
    );
    assert!(shown["text"]
        .as_str()
        .unwrap()
        .starts_with("def total(self):"));
}

#[test]
fn structure_is_a_tree_and_complexity_numbers() {
    let f = shop();
    let tree = ask(&f, "Analyze File Structure");
    let structure = &tree["structure"];
    assert_eq!(structure["kind"], "file");
    assert_eq!(structure["name"], "shop.py");
    let names = |node: &Value| -> Vec<String> {
        node["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{} {}",
                    c["kind"].as_str().unwrap(),
                    c["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(names(structure), ["class Cart", "function checkout"]);
    assert_eq!(
        names(&structure["children"][0]),
        ["method add", "method total"]
    );
    assert_eq!(structure["children"][1]["async"], json!(true));
    assert_eq!(
        structure["children"][0]["children"][1]["qualified_name"],
        "Cart.total"
    );

    let complexity = ask(&f, "Analyze File Complexity");
    let blocks = complexity["complexity"]["blocks"].as_array().unwrap();
    let figures: Vec<(String, u64)> = blocks
        .iter()
        .map(|b| {
            (
                b["name"].as_str().unwrap().to_owned(),
                b["complexity"].as_u64().unwrap(),
            )
        })
        .collect();
    // most complex first; equals in source order
    assert_eq!(figures[0], ("Cart".to_owned(), 3));
    assert!(figures.windows(2).all(|w| w[0].1 >= w[1].1), "{figures:?}");
    let method = ask(&f, "Analyze Method Cart.total Complexity");
    assert_eq!(method["complexity"]["total"], json!(2));
    assert_eq!(
        method["complexity"]["subject"],
        json!({"kind": "method", "name": "total"})
    );
}

#[test]
fn dependencies_are_data_with_the_modules_that_import_the_file() {
    let f = shop();
    let deps = ask(&f, "Analyze File Dependencies");
    assert_eq!(deps["dependencies"]["external"], json!(0));
    assert_eq!(deps["dependencies"]["builtins"], json!(["sum"]));
    assert_eq!(
        deps["imported_by"],
        json!({"module": "shop", "modules": ["app"]})
    );
    f.send("u", "Open app.py");
    let deps = ask(&f, "Analyze File Dependencies");
    assert_eq!(
        deps["dependencies"]["imports"][0],
        json!({"module": "shop", "level": 0, "name": "Cart", "line": 0, "col": 0})
    );
}

#[test]
fn failures_carry_a_code_and_the_valid_choices() {
    let f = shop();
    let missing = ask(&f, "Show Method Cart.totl");
    assert_eq!(missing["ok"], json!(false));
    assert_eq!(missing["failure"]["code"], "not_found");
    assert_eq!(missing["failure"]["message"], missing["error"]);
    assert_eq!(missing["failure"]["candidates"][0], "Cart.total");

    let unknown = ask(&f, "Find References Crat");
    assert_eq!(unknown["failure"]["code"], "not_found");
    assert!(unknown["failure"]["candidates"]
        .as_array()
        .unwrap()
        .contains(&json!("Cart")));

    // the terse reply is unchanged
    f.send("u", "Set Format terse");
    assert!(f
        .send("u", "Find References Crat")
        .starts_with("Fail \"Not found: symbol 'Crat'"));
}

#[test]
fn every_json_reply_of_a_conversation_validates_against_the_schema() {
    let f = shop();
    let validator = reply_schema();
    let conversation = [
        "Status",
        "Goto 2:0",
        "Insert Line \"    # note\"",
        "Show Block 0:3",
        "Show Function checkout",
        "Show Class Cart 1",
        "Show Method Cart.nosuch",
        "Find \"items\"",
        "Find All \"items\"",
        "Find References Cart",
        "Find References shop.Cart.total",
        "Find Callers shop.Cart.add",
        "Find Definition checkout",
        "Find Definition shop",
        "Find Definition nosuch",
        "Analyze File",
        "Analyze File Structure",
        "Analyze Class Cart Structure",
        "Analyze File Complexity",
        "Analyze Method Cart.total Complexity",
        "Analyze File Dependencies",
        "Analyze File Issues",
        "Validate",
        "Save",
        "Undo",
        "Goto 99:0",
        "Opn x.py",
        "Diff",
        "Summary",
        // scripts: a review list, a collected changeset, a refusal
        "foreach method in Cart flag \"Review\"",
        "foreach function where complexty > 1 flag \"x\"",
        "Save",
        "foreach import where unused { remove import } collect changes as c",
        "List Changesets",
        "preview changeset c",
    ];
    for command in conversation {
        let reply = ask(&f, command);
        assert_valid(&validator, command, &reply);
    }
    // a message that fails in its middle: the failure and the skipped count
    let lines = f.send("u", "Goto 0:0\nShow Function nosuch\nStatus");
    for line in lines.lines() {
        let reply: Value = serde_json::from_str(line).unwrap();
        assert_valid(&validator, line, &reply);
    }
}

#[test]
fn the_engine_words_the_hint_for_a_missing_file() {
    let f = Fixture::new();
    f.check(
        "u",
        r#"
        > Start s
        Ok
        > Open missing.py
        Fail "File not found: missing.py. Use: Open Create missing.py"
        > Open Create missing.py
        Ok, At 0:0, Length 0
        "#,
    );
}

#[test]
fn issues_and_syntax_errors_are_lists_of_positions() {
    let f = Fixture::new();
    f.write("m.py", "import os\n\n\ndef load(cache=[]):\n    try:\n        return 1\n    except:\n        return None\n");
    f.write("broken.py", "def f(:\n    pass\n");
    f.send("u", "Start s; Set Format json; Open m.py");
    let analyzed = ask(&f, "Analyze File Issues");
    let kinds: Vec<(&str, u64)> = analyzed["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["kind"].as_str().unwrap(), i["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("unused_import", 0),
            ("mutable_default", 3),
            ("bare_except", 6)
        ],
        "{analyzed}"
    );
    // `Analyze` alone: the three figures as data
    let summary = ask(&f, "Analyze File");
    assert_eq!(summary["complexity"]["blocks"][0]["name"], "load");
    assert_eq!(summary["issues"].as_array().unwrap().len(), 3);
    assert_eq!(summary["dependencies"]["imports"][0]["module"], "os");

    assert_eq!(ask(&f, "Validate")["syntax_errors"], json!([]));
    f.send("u", "Open broken.py");
    let invalid = ask(&f, "Validate");
    assert_eq!(invalid["syntax_errors"][0]["line"], json!(0), "{invalid}");
    let validator = reply_schema();
    for (command, reply) in [
        ("Analyze File", &summary),
        ("Analyze File Issues", &analyzed),
        ("Validate", &invalid),
    ] {
        assert_valid(&validator, command, reply);
    }
}

#[test]
fn an_ambiguous_symbol_lists_its_candidates_as_data() {
    let f = Fixture::new();
    f.write("a.py", "def helper():\n    pass\n");
    f.write("b.py", "def helper():\n    pass\n");
    f.send("u", "Start s; Set Format json");
    let found = ask(&f, "Find References helper");
    assert_eq!(found["failure"]["code"], "ambiguous", "{found}");
    assert_eq!(
        found["failure"]["candidates"],
        json!(["a.helper", "b.helper"])
    );
    assert_valid(&reply_schema(), "Find References helper", &found);
}

#[test]
fn an_ambiguous_element_lists_names_that_resolve() {
    let f = Fixture::new();
    f.write("m.py", "def f(a):\n    pass\n\n\ndef f(a, b):\n    pass\n");
    f.send("u", "Start s; Set Format json; Open m.py");
    let shown = ask(&f, "Show Function f");
    assert_eq!(shown["failure"]["code"], "ambiguous", "{shown}");
    assert_eq!(shown["failure"]["candidates"], json!(["f(a)", "f(a, b)"]));
    // each candidate works as the name of the element
    for name in ["f(a)", "f(a, b)"] {
        assert_eq!(ask(&f, &format!("Show Function {name}"))["ok"], json!(true));
    }
}

#[test]
fn code_edits_fail_typed_too_and_change_nothing() {
    let f = shop();
    let codes: Vec<(String, String)> = [
        "Modify Function nosuch Rename x",
        "Modify Method Cart.add AddParam \"x=\"",
        "Modify Method Cart.add Rename total",
        "Delete Class Crt",
    ]
    .iter()
    .map(|command| {
        let reply = ask(&f, command);
        (
            command.to_string(),
            reply["failure"]["code"].as_str().unwrap_or("-").to_owned(),
        )
    })
    .collect();
    let codes: Vec<&str> = codes.iter().map(|(_, c)| c.as_str()).collect();
    assert_eq!(
        codes,
        ["not_found", "invalid_argument", "conflict", "not_found"]
    );
    assert_eq!(
        ask(&f, "Status")["message"],
        json!("Session s, File shop.py")
    );
}
