//! Edits computed by the analysis layer, applied and compared byte-exactly.

use eddi::analysis::comment::comment;
use eddi::analysis::delete::delete_symbol;
use eddi::analysis::insert::{insert_definition, insert_import};
use eddi::analysis::modify::modify;
use eddi::analysis::textedit::apply;
use eddi::analysis::{Analysis, CharEdit, EditResult, SyntaxTree};
use eddi::commands::command::{CodeTarget, CommentStyle, InsertKind, Modification, Visibility};
use eddi::edit::Position;
use ropey::Rope;

const SHADOWING: &str = include_str!("../fixtures/python/shadowing.py");

fn setup(src: &str) -> (Rope, SyntaxTree, Analysis) {
    let text = Rope::from_str(src);
    let tree = SyntaxTree::parse(&text).unwrap();
    let a = Analysis::new(&text, &tree);
    (text, tree, a)
}

fn applied(text: &Rope, r: &EditResult) -> String {
    apply(text, &r.edits).unwrap().to_string()
}

fn function(name: &str) -> CodeTarget {
    CodeTarget::Function {
        name: name.into(),
        params: None,
    }
}

fn method(class: &str, name: &str) -> CodeTarget {
    CodeTarget::Method {
        class: class.into(),
        name: name.into(),
        params: None,
    }
}

#[test]
fn spec_workflow() {
    let (text, tree, a) =
        setup("class UserManager:\n    def __init__(self):\n        self.users = {}\n");
    let init = a
        .lookup(&CodeTarget::Function {
            name: "__init__".into(),
            params: Some(String::new()),
        })
        .unwrap();
    assert_eq!(init.position, Position::new(1, 4));
    let body = text.slice(init.definition.clone()).to_string();
    assert_eq!(body, "def __init__(self):\n        self.users = {}");
    let class = a
        .lookup(&CodeTarget::Class {
            name: "UserManager".into(),
        })
        .unwrap();
    assert_eq!(class.end, Position::new(3, 0)); // Goto EndOfClass
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        class.end,
        InsertKind::Method,
        "def authenticate(self, username, password):\n # TODO: Implement authentication\n return False\n",
    )
    .unwrap();
    let out = applied(&text, &r);
    assert_eq!(
        out,
        "class UserManager:\n    def __init__(self):\n        self.users = {}\n\n    def authenticate(self, username, password):\n        # TODO: Implement authentication\n        return False\n"
    );
    assert_eq!(out.len(), 178);
    assert_eq!(
        (r.element, r.cursor),
        (Some(Position::new(4, 4)), Position::new(7, 0))
    );
    assert_eq!(r.lines_added(&text), 4);
    // the session's tree follows the edit incrementally
    let new = apply(&text, &r.edits).unwrap();
    let mut tree = tree;
    let change = r
        .text_edits()
        .unwrap()
        .to_change_set(text.len_chars(), eddi::edit::LineEnding::Lf)
        .unwrap();
    tree.edit(&text, &new, &CharEdit::of_change(&change))
        .unwrap();
    assert_eq!(tree.to_sexp(), SyntaxTree::parse(&new).unwrap().to_sexp());
}

#[test]
fn method_between_methods_and_function_after_class() {
    let src = "import os\n\n\nclass A:\n    def one(self):\n        return 1\n\n    def two(self):\n        return 2\n\n\ndef tail():\n    pass\n";
    let (text, tree, a) = setup(src);
    // cursor inside `one`: the method goes right after it
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(5, 8),
        InsertKind::Method,
        "def mid(self):\n    return 1.5",
    )
    .unwrap();
    assert_eq!(
        applied(&text, &r),
        "import os\n\n\nclass A:\n    def one(self):\n        return 1\n\n    def mid(self):\n        return 1.5\n\n    def two(self):\n        return 2\n\n\ndef tail():\n    pass\n"
    );
    assert_eq!(r.element, Some(Position::new(7, 4)));
    // a function with the cursor in a method goes after the class
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(5, 8),
        InsertKind::Function,
        "  async def helper(x):\n      return x\n",
    )
    .unwrap();
    assert_eq!(
        applied(&text, &r),
        "import os\n\n\nclass A:\n    def one(self):\n        return 1\n\n    def two(self):\n        return 2\n\n\nasync def helper(x):\n    return x\n\n\ndef tail():\n    pass\n"
    );
    assert_eq!(
        (r.element, r.cursor),
        (Some(Position::new(11, 0)), Position::new(13, 0))
    );
    // a method outside any class
    let err = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(12, 0),
        InsertKind::Method,
        "def m(self): pass",
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "Not in class");
    let err = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(5, 0),
        InsertKind::Class,
        "def m(self): pass",
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid code: expected a class definition ('class …')"
    );
}

#[test]
fn insert_into_empty_file_and_after_last_line_without_newline() {
    let (text, tree, a) = setup("");
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::ZERO,
        InsertKind::Class,
        "class A:\npass",
    )
    .unwrap();
    assert_eq!(applied(&text, &r), "class A:\n    pass\n");
    let (text, tree, a) = setup("x = 1");
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(0, 5),
        InsertKind::Function,
        "def f():\n\treturn x",
    )
    .unwrap();
    assert_eq!(applied(&text, &r), "x = 1\n\n\ndef f():\n    return x\n");
}

#[test]
fn functions_never_split_the_import_block_and_pass_bodies_are_replaced() {
    let (text, tree, a) =
        setup("\"\"\"Doc.\"\"\"\nimport os\nimport sys\n\n\ndef main():\n    pass\n");
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::ZERO,
        InsertKind::Function,
        "def first():\n    pass",
    )
    .unwrap();
    assert_eq!(
        applied(&text, &r),
        "\"\"\"Doc.\"\"\"\nimport os\nimport sys\n\n\ndef first():\n    pass\n\n\ndef main():\n    pass\n"
    );
    let (text, tree, a) = setup("class Empty:\n    pass\n\n\nx = 1\n");
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(1, 4),
        InsertKind::Method,
        "def m(self):\n    return 0",
    )
    .unwrap();
    assert_eq!(
        applied(&text, &r),
        "class Empty:\n    def m(self):\n        return 0\n\n\nx = 1\n"
    );
    assert_eq!(
        (r.element, r.cursor),
        (Some(Position::new(1, 4)), Position::new(3, 0))
    );
}

#[test]
fn crlf_source_keeps_positions_in_chars() {
    let (text, tree, a) = setup("class Ä:\r\n    def ö(self):\r\n        pass\r\n");
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(3, 0),
        InsertKind::Method,
        "def ü(self):\n    pass",
    )
    .unwrap();
    assert_eq!(
        applied(&text, &r),
        "class Ä:\r\n    def ö(self):\r\n        pass\r\n\n    def ü(self):\n        pass\n"
    );
    assert_eq!(r.element, Some(Position::new(4, 4)));
    let o = a.lookup(&method("Ä", "ö")).unwrap();
    assert_eq!(
        (o.position, o.name_position),
        (Position::new(1, 4), Position::new(1, 8))
    );
}

#[test]
fn imports_go_into_the_import_block() {
    let (text, tree, _) = setup(SHADOWING);
    let r = insert_import(&text, &tree, "from .base import Mixin").unwrap();
    assert!(applied(&text, &r).starts_with(
        "import json as js\nfrom .base import Base, Mixin\nfrom . import sibling\n\n\n"
    ));
    assert_eq!(r.element, Some(Position::new(1, 0)));
    let r = insert_import(&text, &tree, "import json as js").unwrap();
    assert!(r.edits.is_empty());
    assert_eq!(r.note.as_deref(), Some("already imported"));
    let r = insert_import(&text, &tree, "import re").unwrap();
    assert!(applied(&text, &r).starts_with("import json as js\nfrom .base import Base\nfrom . import sibling\nimport re\n\n\ndef parse"));
    assert_eq!(r.element, Some(Position::new(3, 0)));
}

#[test]
fn rename_function_follows_scopes() {
    let (text, tree, a) = setup(SHADOWING);
    let r = modify(
        &text,
        &tree,
        &a.outline,
        &function("parse"),
        &Modification::Rename {
            new_name: "decode".into(),
        },
    )
    .unwrap();
    let expected = SHADOWING
        .replacen("def parse(data)", "def decode(data)", 1)
        .replacen("self.parse, parse(text)", "self.parse, decode(text)", 1)
        .replacen("return parse(\"{}\")", "return decode(\"{}\")", 1);
    assert_eq!(applied(&text, &r), expected);
    assert_eq!(r.edits.len(), 3);
}

#[test]
fn rename_method_follows_self_only() {
    let (text, tree, a) = setup(SHADOWING);
    let r = modify(
        &text,
        &tree,
        &a.outline,
        &method("Parser", "parse"),
        &Modification::Rename {
            new_name: "read".into(),
        },
    )
    .unwrap();
    let expected = SHADOWING.replacen(
        "    def parse(self, text):\n        return self.parse,",
        "    def read(self, text):\n        return self.read,",
        1,
    );
    assert_eq!(applied(&text, &r), expected);
    let r = modify(
        &text,
        &tree,
        &a.outline,
        &method("Parser", "other"),
        &Modification::SetVisibility {
            visibility: Visibility::Private,
        },
    )
    .unwrap();
    assert_eq!(
        applied(&text, &r),
        SHADOWING.replacen("def other(self)", "def __other(self)", 1)
    );
    assert_eq!(r.element, Some(Position::new(19, 4)));
}

#[test]
fn parameters_and_decorators() {
    let src = "class K:\n    # note\n    @staticmethod\n    def go(self, a, b=1, **kw):\n        return a\n";
    let (text, tree, a) = setup(src);
    let go = method("K", "go");
    let run = |m: Modification| applied(&text, &modify(&text, &tree, &a.outline, &go, &m).unwrap());
    assert_eq!(
        run(Modification::AddParam {
            param: "x".into(),
            at: Some(0)
        }),
        src.replace("(self, a,", "(self, x, a,")
    );
    assert_eq!(
        run(Modification::AddParam {
            param: "c=2".into(),
            at: None
        }),
        src.replace("b=1, **kw", "b=1, c=2, **kw")
    );
    assert_eq!(
        run(Modification::AddParam {
            param: "z".into(),
            at: Some(9)
        }),
        // nothing may follow **kw, and a plain parameter no default: the
        // nearest place Python accepts
        src.replace("a, b=1", "a, z, b=1")
    );
    assert_eq!(
        run(Modification::RemoveParam { name: "b".into() }),
        src.replace("b=1, ", "")
    );
    assert_eq!(
        run(Modification::RemoveParam { name: "kw".into() }),
        src.replace(", **kw", "")
    );
    assert_eq!(
        modify(
            &text,
            &tree,
            &a.outline,
            &go,
            &Modification::RemoveParam { name: "q".into() }
        )
        .unwrap_err()
        .to_string(),
        "Not found: parameter 'q' of 'K.go'. Available: self, a, b, kw"
    );
    assert_eq!(
        run(Modification::ChangeSignature {
            params: "(self, *args)".into()
        }),
        src.replace("self, a, b=1, **kw", "self, *args")
    );
    assert!(modify(
        &text,
        &tree,
        &a.outline,
        &go,
        &Modification::ChangeSignature {
            params: "a b".into()
        }
    )
    .is_err());
    assert_eq!(
        run(Modification::AddDecorator {
            decorator: "cache(3)".into()
        }),
        src.replace("    @staticmethod", "    @cache(3)\n    @staticmethod")
    );
    assert_eq!(
        run(Modification::AddDecorator {
            decorator: "@staticmethod".into()
        }),
        src
    );
    assert!(modify(
        &text,
        &tree,
        &a.outline,
        &go,
        &Modification::AddParam {
            param: "a".into(),
            at: None
        }
    )
    .is_err());
}

#[test]
fn delete_and_comment_on_fixture() {
    let src = include_str!("../fixtures/python/inventory.py");
    let (text, tree, a) = setup(src);
    let register = a.lookup(&function("register")).unwrap();
    let r = delete_symbol(&text, &a.outline, register).unwrap();
    let out = applied(&text, &r);
    assert!(
        out.contains("    print(message % args, level)\n\n\nclass Warehouse(Base):\n"),
        "{out}"
    );
    assert!(!out.contains("Registry of handlers"));
    assert_eq!(r.cursor, Position::new(16, 0));

    let class = a
        .lookup(&CodeTarget::Class {
            name: "Warehouse".into(),
        })
        .unwrap();
    let r = comment(
        &text,
        &tree,
        class,
        "Stock in one place.",
        CommentStyle::Docstring,
        true,
    )
    .unwrap()
    .0;
    assert!(applied(&text, &r).contains(
        "class Warehouse(Base):\n    \"\"\"Stock in one place.\"\"\"\n\n    capacity = 10\n"
    ));
    let (r, _) = comment(
        &text,
        &tree,
        class,
        "first\nsecond",
        CommentStyle::Line,
        false,
    )
    .unwrap();
    assert!(applied(&text, &r).contains("\n\n# first\n# second\nclass Warehouse(Base):\n"));
}

#[test]
fn rename_non_ascii_function() {
    let src = include_str!("../fixtures/python/inventory.py");
    let (text, tree, a) = setup(src);
    let r = modify(
        &text,
        &tree,
        &a.outline,
        &function("naïve_sum"),
        &Modification::Rename {
            new_name: "sum_all".into(),
        },
    )
    .unwrap();
    assert_eq!(r.edits.len(), 1);
    assert_eq!(
        eddi::edit::position::from_char(&text, r.edits[0].range.start),
        Position::new(68, 4)
    );
    assert_eq!(r.element, Some(Position::new(68, 0)));
    assert_eq!(
        modify(
            &text,
            &tree,
            &a.outline,
            &function("naïve_sum"),
            &Modification::Rename {
                new_name: "log".into()
            }
        )
        .unwrap_err()
        .to_string(),
        "Name conflict: 'log' already exists in this scope"
    );
}

#[test]
fn nested_class_insert_and_delete() {
    let src = include_str!("../fixtures/python/inventory.py");
    let (text, tree, a) = setup(src);
    // cursor inside Warehouse.Shelf.run: the method goes into Shelf, at its indentation
    let r = insert_definition(
        &text,
        &tree,
        &a.outline,
        Position::new(34, 12),
        InsertKind::Method,
        "@staticmethod\nasync def size():\n    return 3\n",
    )
    .unwrap();
    let out = applied(&text, &r);
    assert!(
        out.contains("            return [x for x in range(3) if x]\n\n        @staticmethod\n        async def size():\n            return 3\n\n    def __init__(self, items=None):\n"),
        "{out}"
    );
    assert_eq!(r.element, Some(Position::new(37, 8)));
    let (new_text, new_tree, new_a) = setup(&out);
    let size = new_a.lookup(&method("Shelf", "size")).unwrap();
    assert_eq!(
        (size.position, size.is_async, size.qualified_name.as_str()),
        (Position::new(37, 8), true, "Warehouse.Shelf.size")
    );
    let _ = new_tree;
    // deleting the nested class keeps one blank line between the members around it
    let shelf = new_a
        .lookup(&CodeTarget::Class {
            name: "Shelf".into(),
        })
        .unwrap();
    let r = delete_symbol(&new_text, &new_a.outline, shelf).unwrap();
    assert!(applied(&new_text, &r)
        .contains("    name: str = \"main\"\n\n    def __init__(self, items=None):\n"));
}
