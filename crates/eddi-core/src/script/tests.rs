//! The script front end: every example script of the spec's stage-2
//! section parses to the tree it means (the tree as an S-expression), and
//! each class of mistake is refused with `line:col`, what was expected and
//! the closest valid word.

use super::ast::*;
use super::*;

/// The checked tree of `text`, printed; panics with the error.
fn tree(text: &str) -> String {
    tree_with(text, &[])
}

fn tree_with(text: &str, known: &[Variable]) -> String {
    match parse(text, known) {
        Ok(script) => script.to_string(),
        Err(e) => panic!("{text}\n  refused: {e}"),
    }
}

/// The error `text` is refused with.
fn refused(text: &str) -> ScriptError {
    refused_with(text, &[])
}

fn refused_with(text: &str, known: &[Variable]) -> ScriptError {
    match parse(text, known) {
        Ok(script) => panic!("{text}\n  parsed: {script}"),
        Err(e) => e,
    }
}

fn var(name: &str, kind: ElementKind) -> Variable {
    (name.to_string(), kind)
}

// -- the spec's examples (Stage 2) ----------------------------------------------

#[test]
fn spec_foreach_examples() {
    assert_eq!(
        tree("foreach caller of authenticate() replace with authenticate($1, timeout=30)"),
        "(foreach (callers authenticate) (replace_with `authenticate($1, timeout=30)`))"
    );
    assert_eq!(
        tree("foreach method in UserManager flag \"Review complexity\""),
        "(foreach (methods UserManager) (flag \"Review complexity\"))"
    );
    assert_eq!(
        tree("foreach file matching \"test_*.py\" add import logging"),
        "(foreach (files \"test_*.py\") (add_import logging))"
    );
}

#[test]
fn spec_if_examples() {
    assert_eq!(
        tree("if complexity > 10 suggest extract_method"),
        "(if (> complexity 10) (suggest Extract_Method))"
    );
    // The spec's `if params.count == 1 replace with else flag "Manual
    // review"` lost its placeholder: `replace with <replacement> else …`.
    assert_eq!(
        tree("if params.count == 1 replace with process_single($1) else flag \"Manual review\""),
        "(if (== params.count 1) (replace_with `process_single($1)`) (else (flag \"Manual review\")))"
    );
    assert_eq!(
        tree("if unused remove import"),
        "(if (unused) (remove_import))"
    );
}

#[test]
fn spec_let_and_use_examples() {
    assert_eq!(
        tree("let $complex_methods = methods in UserManager where complexity > 8"),
        "(let $complex_methods (methods UserManager (where (> complexity 8))))"
    );
    assert_eq!(
        tree("let $auth_callers = callers of authenticate()"),
        "(let $auth_callers (callers authenticate))"
    );
    assert_eq!(
        tree("let $test_files = files matching \"test_*.py\""),
        "(let $test_files (files \"test_*.py\"))"
    );
    // `use` reads variables an earlier message defined: check returns them.
    let defined = check(
        &parse_script("let $complex_methods = methods in UserManager where complexity > 8")
            .unwrap(),
        &[],
    )
    .unwrap();
    assert_eq!(defined, [var("complex_methods", ElementKind::Method)]);
    assert_eq!(
        tree_with("use $complex_methods suggest extract_method", &defined),
        "(use $complex_methods (suggest Extract_Method))"
    );
    assert_eq!(
        tree_with(
            "use $auth_callers replace authenticate() with authenticate(timeout=30)",
            &[var("auth_callers", ElementKind::Call)]
        ),
        "(use $auth_callers (replace `authenticate()` `authenticate(timeout=30)`))"
    );
}

#[test]
fn spec_block_script() {
    let script = "{ let $old_methods = methods in UserManager where complexity > 8 foreach $method in $old_methods { extract_method($method, \"Extracted\" + $method.name) } foreach caller of UserManager.new() { replace with AccountManager.new() } rename_class UserManager LegacyUserManager }";
    assert_eq!(
        tree(script),
        r#"(block
  (let $old_methods (methods UserManager (where (> complexity 8))))
  (foreach $method (var $old_methods) (block
    (refactor Extract_Method $method (+ "Extracted" $method.name))))
  (foreach (callers UserManager.new) (block
    (replace_with `AccountManager.new()`)))
  (command Refactor Rename_Class UserManager LegacyUserManager))"#
    );
}

#[test]
fn spec_systematic_code_migration() {
    let script = "{ foreach file matching \"src/**/*.py\" { replace \"from old_auth import\" with \"from new_auth import\" foreach call to old_auth.login { replace with new_auth.authenticate } } collect changes as \"auth_migration\" }";
    assert_eq!(
        tree(script),
        r#"(block
  (foreach (files "src/**/*.py") (block
    (replace "from old_auth import" "from new_auth import")
    (foreach (calls old_auth.login) (block
      (replace_with `new_auth.authenticate`)))))
  (collect auth_migration))"#
    );
}

#[test]
fn spec_code_quality_cleanup() {
    let script = "{ foreach file matching \"*.py\" { foreach function where line_count > 50 { flag \"Consider splitting: \" + function.name } foreach import where unused { remove import } if imports logging and not contains \"logger =\" { add line \"logger = logging.getLogger(__name__)\" } } }";
    assert_eq!(
        tree(script),
        r#"(block
  (foreach (files "*.py") (block
    (foreach (functions (where (> line_count 50))) (block
      (flag (+ "Consider splitting: " function.name))))
    (foreach (imports (where (unused))) (block
      (remove_import)))
    (if (and (imports logging) (not (contains "logger ="))) (block
      (add_line "logger = logging.getLogger(__name__)"))))))"#
    );
}

#[test]
fn spec_refactoring_workflow() {
    let script = "{ let $target_class = class UserManager let $complex_methods = methods in $target_class where complexity > 10 try { foreach $method in $complex_methods { extract_method($method, $method.name + \"_extracted\") } foreach caller of $target_class { if file.path contains \"test_\" { flag \"Update test: \" + caller.location } else { replace UserManager with AccountManager } } rename_class UserManager LegacyUserManager collect changes as \"user_manager_refactor\" } catch { rollback all flag \"Refactoring failed, manual intervention needed\" } }";
    assert_eq!(
        tree(script),
        r#"(block
  (let $target_class (class UserManager))
  (let $complex_methods (methods $target_class (where (> complexity 10))))
  (try (block
    (foreach $method (var $complex_methods) (block
      (refactor Extract_Method $method (+ $method.name "_extracted"))))
    (foreach (callers $target_class) (block
      (if (contains file.path "test_") (block
        (flag (+ "Update test: " call.location))) (else (block
        (replace `UserManager` `AccountManager`))))))
    (command Refactor Rename_Class UserManager LegacyUserManager)
    (collect user_manager_refactor)) (catch (block
    (rollback_all)
    (flag "Refactoring failed, manual intervention needed")))))"#
    );
}

/// The same examples written over lines, as a person would, read the same.
#[test]
fn a_script_over_many_lines_reads_as_its_one_line_form() {
    let one_line = "{ foreach file matching \"*.py\" { foreach function where line_count > 50 { flag \"Consider splitting: \" + function.name } foreach import where unused { remove import } if imports logging and not contains \"logger =\" { add line \"logger = logging.getLogger(__name__)\" } } }";
    let lines = r#"
# the spec's code quality cleanup
{
    foreach file matching "*.py" {
        foreach function
            where line_count > 50 {
            flag "Consider splitting: " + function.name
        }
        foreach import where unused { remove import }
        if imports logging
           and not contains "logger =" {
            add line "logger = logging.getLogger(__name__)"
        }
    }
}
"#;
    assert_eq!(tree(lines), tree(one_line));
}

// -- the tree: spans, structure, keywords --------------------------------------

#[test]
fn every_node_has_its_line_and_column() {
    let script = parse(
        "{\n  foreach function where complexity > 10 {\n    flag \"big: \" + function.name\n  }\n}",
        &[],
    )
    .unwrap();
    let StatementKind::Block(block) = &script.statements[0].kind else {
        panic!("{script}");
    };
    assert_eq!((block.span.line, block.span.col), (1, 1));
    let foreach = &block.statements[0];
    assert_eq!(foreach.span.to_string(), "2:3");
    let StatementKind::Foreach { query, body, .. } = &foreach.kind else {
        panic!("{script}");
    };
    assert_eq!(query.span.to_string(), "2:11");
    let filter = query.filter.as_ref().unwrap();
    assert_eq!(filter.span.to_string(), "2:26");
    assert_eq!(filter.span.end - filter.span.start, "complexity > 10".len());
    let StatementKind::Block(inner) = &body.kind else {
        panic!("{script}");
    };
    let flag = &inner.statements[0];
    assert_eq!(flag.span.to_string(), "3:5");
    let StatementKind::Action(Action {
        kind: ActionKind::Flag(message),
        ..
    }) = &flag.kind
    else {
        panic!("{script}");
    };
    let ExprKind::Concat(parts) = &message.kind else {
        panic!("{message}");
    };
    assert_eq!(parts[1].span.to_string(), "3:20");
    assert_eq!(
        parts[1].kind,
        ExprKind::Attribute(Attribute {
            object: Object::Element(ElementKind::Function),
            path: vec!["name".into()],
            span: parts[1].span,
        })
    );
}

#[test]
fn keywords_are_case_insensitive_names_keep_their_case() {
    assert_eq!(
        tree("FOREACH Method IN UserManager WHERE Complexity > 8 FLAG \"x\""),
        tree("foreach method in UserManager where complexity > 8 flag \"x\"")
    );
    assert_eq!(
        tree("Let $M = Class UserManager"),
        "(let $M (class UserManager))"
    );
}

#[test]
fn conditions_bind_not_then_and_then_or() {
    assert_eq!(
        tree("foreach function where not unused and (complexity > 3 or line_count >= 10) or has_annotation @login_required flag \"x\""),
        "(foreach (functions (where (or (and (not (unused)) (or (> complexity 3) (>= line_count 10))) (has_annotation @login_required)))) (flag \"x\"))"
    );
    assert_eq!(
        tree("{ let $all = methods in C foreach $m in $all where $m.name == \"run\" and not $m.decorators contains \"cached\" remove }"),
        "(block\n  (let $all (methods C))\n  (foreach $m (var $all (where (and (== $m.name \"run\") (not (contains $m.decorators \"cached\"))))) (remove)))"
    );
}

#[test]
fn every_query_form() {
    let cases = [
        (
            "foreach class implementing Base flag \"x\"",
            "(foreach (classes_implementing Base) (flag \"x\"))",
        ),
        (
            "foreach classes flag \"x\"",
            "(foreach (classes) (flag \"x\"))",
        ),
        (
            "foreach line in range 3:9 remove",
            "(foreach (lines 3:9) (remove))",
        ),
        (
            "foreach symbol of type variable where unused remove",
            "(foreach (symbols variable (where (unused))) (remove))",
        ),
        (
            "foreach calls to mod.f where params.count == 2 flag \"two\"",
            "(foreach (calls mod.f (where (== params.count 2))) (flag \"two\"))",
        ),
        (
            "let $f = function parse_args",
            "(let $f (function parse_args))",
        ),
        (
            "foreach import where unused remove import",
            "(foreach (imports (where (unused))) (remove_import))",
        ),
    ];
    for (script, expected) in cases {
        assert_eq!(tree(script), expected, "{script}");
    }
}

#[test]
fn replace_templates_keep_arguments_as_written() {
    assert_eq!(
        tree("foreach caller of f() replace with g($*, key=$key, note=\"a, b\", price=$$5)"),
        "(foreach (callers f) (replace_with `g($*, key=$key, note=\"a, b\", price=$$5)`))"
    );
    let script = parse("foreach caller of f() replace with g($2, x=h(1, 2))", &[]).unwrap();
    let StatementKind::Foreach { body, .. } = &script.statements[0].kind else {
        panic!()
    };
    let StatementKind::Action(Action {
        kind: ActionKind::ReplaceWith(Replacement::Code(code)),
        ..
    }) = &body.kind
    else {
        panic!("{script}")
    };
    let arguments = code.arguments.as_ref().unwrap();
    assert_eq!(arguments.len(), 2);
    assert_eq!(arguments[0].value.parts, [TemplatePart::Argument(2)]);
    assert_eq!(arguments[1].keyword.as_deref(), Some("x"));
    assert_eq!(
        arguments[1].value.parts,
        [TemplatePart::Text("h(1, 2)".into())]
    );
    // a quoted replacement is text, and may be computed
    assert_eq!(
        tree("foreach method in C replace \"old\" with \"new_\" + method.name"),
        "(foreach (methods C) (replace \"old\" (+ \"new_\" method.name)))"
    );
}

#[test]
fn changesets_context_and_error_policy() {
    let script = "on_error continue\nstore current_position as start\npush context\nGoto 12:4\npop context\ngoto start\npreview changeset auth_migration\npreview diff changeset auth_migration\napply changeset auth_migration\nrollback changeset auth_migration";
    assert_eq!(
        tree(script),
        "(on_error continue)\n(store_position start)\n(push_context)\n(command Goto 12:4)\n(pop_context)\n(command Goto start)\n(preview_changeset auth_migration)\n(preview_changeset auth_migration diff)\n(apply_changeset auth_migration)\n(rollback_changeset auth_migration)"
    );
}

#[test]
fn phase_one_commands_end_at_a_line_a_semicolon_a_brace_or_a_script_keyword() {
    assert_eq!(
        tree("foreach file matching \"*.py\" { Find \"TODO\"; Insert Line \"# checked\" }"),
        "(foreach (files \"*.py\") (block\n  (command Find \"TODO\")\n  (command Insert Line \"# checked\")))"
    );
    assert_eq!(
        tree("Apply\nPreview Refactor Rename_Class A B\nrename_class A B collect changes as x"),
        "(command Apply)\n(command Preview Refactor Rename_Class A B)\n(command Refactor Rename_Class A B)\n(collect x)"
    );
    // `replace all …` is the phase-1 Replace
    assert_eq!(
        tree("Replace All \"a\" With \"b\""),
        "(command Replace All \"a\" With \"b\")"
    );
}

// -- refusals: each class, with line:col, what was expected, the closest word --

#[test]
fn a_malformed_string_is_refused_where_it_starts() {
    let e = refused("foreach method in C\n  flag \"abc");
    assert_eq!(e.kind, ScriptErrorKind::Syntax);
    assert_eq!(e.to_string(), "2:8: unterminated string; close it with \"");
    let e = refused("flag \"a\\qb\"");
    assert_eq!(e.span.to_string(), "1:8");
    assert!(
        e.message.starts_with("unknown escape '\\q' in a string"),
        "{e}"
    );
}

#[test]
fn an_unknown_statement_offers_the_closest() {
    let e = refused("foreahc function flag \"x\"");
    assert_eq!(e.kind, ScriptErrorKind::UnknownWord);
    assert!(
        e.to_string()
            .starts_with("1:1: unknown statement 'foreahc'; expected one of: foreach"),
        "{e}"
    );
    assert!(e.message.ends_with("did you mean 'foreach'?"), "{e}");
    assert_eq!(e.candidates[0], "foreach");
}

#[test]
fn an_unknown_condition_offers_the_closest() {
    let e = refused("foreach function where complexty > 10 flag \"x\"");
    assert_eq!(e.kind, ScriptErrorKind::UnknownWord);
    assert_eq!(
        e.to_string(),
        "1:24: unknown condition 'complexty'; expected one of: complexity, params.count, line_count, has_annotation, imports, contains, unused, not; did you mean 'complexity'?"
    );
    assert_eq!(e.candidates[0], "complexity");
}

#[test]
fn an_unknown_attribute_offers_the_closest() {
    let e = refused("{ let $ms = methods in C\nforeach $m in $ms { flag $m.nme } }");
    assert_eq!(e.kind, ScriptErrorKind::UnknownWord);
    assert!(
        e.to_string()
            .starts_with("2:26: unknown method attribute 'nme'; expected one of: name"),
        "{e}"
    );
    assert!(e.message.ends_with("did you mean 'name'?"), "{e}");
    let e = refused("foreach file matching \"*.py\" flag file.pth");
    assert!(e.message.ends_with("did you mean 'path'?"), "{e}");
    let e = refused("foreach function flag fucntion.name");
    assert_eq!(e.kind, ScriptErrorKind::UnknownWord);
    assert!(e.message.starts_with("unknown element 'fucntion'"), "{e}");
    assert!(e.message.ends_with("did you mean 'function'?"), "{e}");
}

#[test]
fn an_undefined_variable_is_refused_with_the_defined_ones() {
    let e = refused("use $complex_methods suggest extract_method");
    assert_eq!(e.kind, ScriptErrorKind::UndefinedVariable);
    assert_eq!(
        e.to_string(),
        "1:5: undefined variable $complex_methods; expected a variable defined before it (let $complex_methods = <query>, or foreach $complex_methods in …)"
    );
    let e = refused("{ let $methods = methods in C foreach $m in $method { flag $m.name } }");
    assert_eq!(e.kind, ScriptErrorKind::UndefinedVariable);
    assert_eq!(e.span.to_string(), "1:45");
    assert!(e.message.ends_with("did you mean '$methods'?"), "{e}");
    assert_eq!(e.candidates, ["$methods"]);
    // a let ends with its block; a foreach's variable with its body
    let e = refused("{ { let $a = class C } use $a remove }");
    assert_eq!(e.kind, ScriptErrorKind::UndefinedVariable);
    let e = refused("{ foreach $m in methods in C remove flag $m.name }");
    assert_eq!(e.kind, ScriptErrorKind::UndefinedVariable);
    assert_eq!(e.span.to_string(), "1:42");
}

#[test]
fn a_word_where_it_cannot_apply_is_refused() {
    let e = refused("foreach import flag method.name");
    assert_eq!(e.kind, ScriptErrorKind::WrongContext);
    assert_eq!(
        e.to_string(),
        "1:21: 'method.name' names the current method, but no enclosing foreach visits methods; expected an element visited here (imports) or a $variable"
    );
    let e = refused("foreach import where complexity > 3 remove");
    assert_eq!(e.kind, ScriptErrorKind::WrongContext);
    assert_eq!(
        e.to_string(),
        "1:22: complexity applies to files, functions, methods, classes; the elements here are imports"
    );
    let e = refused("foreach file matching \"*.py\" replace with f($1)");
    assert_eq!(e.kind, ScriptErrorKind::WrongContext);
    assert!(e.message.contains("the elements here are files"), "{e}");
    let e = refused_with(
        "foreach method in $fs remove",
        &[var("fs", ElementKind::Function)],
    );
    assert_eq!(
        e.to_string(),
        "1:19: $fs holds functions; expected a class here"
    );
    let e = refused("foreach file matching \"*.py\" { remove import }");
    assert_eq!(e.kind, ScriptErrorKind::WrongContext);
    let e = refused("flag \"x\" + $1");
    assert_eq!(e.kind, ScriptErrorKind::WrongContext);
    // file is every element's file; at the top level the element is the
    // one at the cursor, known when it runs
    tree("foreach caller of f() if file.path contains \"test_\" flag \"t\"");
    tree("flag function.name");
}

#[test]
fn a_missing_or_misplaced_word_says_what_was_expected() {
    let cases = [
        (
            "replace \"a\" \"b\"",
            "1:13: expected 'with' (replace <what> with <replacement>), found '\"b\"'",
        ),
        (
            // the spec's example as printed, its placeholder lost
            "if params.count == 1 replace with else flag \"Manual review\"",
            "1:35: expected the replacement: \"text\" or code like f($1, timeout=30), found 'else'",
        ),
        (
            "{ foreach function { flag \"x\" }",
            "1:32: expected '}' to close the '{' opened at 1:1, found the end of the script",
        ),
        (
            "flag \"x\" }",
            "1:10: unmatched '}'; expected a statement (every '}' closes a '{' before it)",
        ),
        (
            "else flag \"x\"",
            "1:1: 'else' without an 'if' before it; expected a statement",
        ),
        (
            "let $x == class C",
            "1:8: expected '=' after the variable (let $name = <query>), found '=='",
        ),
        (
            "foreach function where complexity = 3 remove",
            "1:35: expected a comparison after complexity (==, !=, >, >=, <, <=), found '='; write == to compare",
        ),
        (
            "foreach caller of f(x) remove",
            "1:21: expected ')' right after '(' (f() names the function; a query takes no arguments), found 'x'",
        ),
        (
            "let $1 = class C",
            "1:5: expected a variable after let, as let $name = <query> ($ and a name), found '$1'",
        ),
        (
            "try { remove }",
            "1:15: expected 'catch { … }' after the try block, found the end of the script",
        ),
        (
            "foreach function",
            "1:17: expected an action or a { block } for foreach, found the end of the script",
        ),
        ("", "1:1: expected a statement (foreach, if, let, use, { … }, an action or a command), found the end of the script"),
        (
            "foreach line in range 9:3 remove",
            "1:23: invalid line range 9:3; expected a:b with 1 <= a <= b",
        ),
    ];
    for (script, expected) in cases {
        let e = refused(script);
        assert_eq!(e.kind, ScriptErrorKind::Syntax, "{script}: {e}");
        assert_eq!(e.to_string(), expected, "{script}");
    }
}

#[test]
fn unknown_options_refactorings_and_policies_offer_the_closest() {
    let e = refused("on_error contine");
    assert_eq!(e.kind, ScriptErrorKind::UnknownWord);
    assert!(e.message.ends_with("did you mean 'continue'?"), "{e}");
    let e = refused("if complexity > 10 suggest extract_methd");
    assert_eq!(e.span.to_string(), "1:28");
    assert!(
        e.message.starts_with("unknown refactoring 'extract_methd'"),
        "{e}"
    );
    assert!(e.message.ends_with("did you mean 'Extract_Method'?"), "{e}");
    let e = refused("foreach symbol of type fuction remove");
    assert!(e.message.ends_with("did you mean 'function'?"), "{e}");
    let e = refused("add imprt os");
    assert!(e.message.ends_with("did you mean 'import'?"), "{e}");
    let e = refused("foreach methds in C remove");
    assert!(
        e.message.starts_with("unknown statement") || e.message.starts_with("unknown query"),
        "{e}"
    );
}

#[test]
fn a_refactoring_called_with_the_wrong_arguments_is_refused() {
    let e = refused("foreach method in C extract_method($method)");
    assert_eq!(e.kind, ScriptErrorKind::Syntax);
    assert_eq!(
        e.to_string(),
        "1:21: Extract_Method takes 2 arguments (the element, the new name), found 1"
    );
    let e = refused("signature(f, g)");
    assert!(e.message.starts_with("Signature has no call form"), "{e}");
}

/// A phase-1 command's mistake comes from the command language, placed in
/// the script.
#[test]
fn a_phase_one_command_mistake_is_placed_in_the_script() {
    let e = refused("foreach file matching \"*.py\" {\n  Insert Functon \"def g(): pass\"\n}");
    assert_eq!(e.kind, ScriptErrorKind::Syntax);
    assert_eq!(e.span.to_string(), "2:10");
    assert!(
        e.message.starts_with("Unknown Insert kind 'Functon'"),
        "{e}"
    );
    assert_eq!(e.candidates[0], "Function");
    let e = refused("{ rename_class UserManager }");
    assert_eq!(e.span.to_string(), "1:27");
    assert!(e.message.contains("Usage: Refactor"), "{e}");
}

// -- never a panic ---------------------------------------------------------------

/// Pieces of scripts, to build near-valid scripts the parser must answer
/// without panicking (arbitrary text seldom gets past the first word).
const PIECES: &[&str] = &[
    "foreach",
    "if",
    "else",
    "let",
    "use",
    "try",
    "catch",
    "{",
    "}",
    "(",
    ")",
    "$m",
    "$1",
    "$*",
    "$",
    "$$",
    "=",
    "==",
    ">",
    "in",
    "of",
    "to",
    "where",
    "and",
    "or",
    "not",
    "method",
    "methods",
    "caller",
    "call",
    "class",
    "implementing",
    "file",
    "matching",
    "line",
    "range",
    "3:9",
    "9:3",
    "0:0",
    "symbol",
    "type",
    "import",
    "function",
    "complexity",
    "params.count",
    "unused",
    "contains",
    "has_annotation",
    "@x",
    "imports",
    "replace",
    "with",
    "flag",
    "suggest",
    "remove",
    "add",
    "extract_method",
    "rename_class",
    "f()",
    "f($1, k=$k)",
    "f(",
    "\"s\"",
    "\"a\\q\"",
    "'x'",
    "+",
    ",",
    ";",
    "\n",
    "# c",
    "file.path",
    "$m.name",
    "function.name",
    "collect",
    "changes",
    "as",
    "rollback",
    "all",
    "changeset",
    "preview",
    "diff",
    "apply",
    "on_error",
    "continue",
    "store",
    "current_position",
    "push",
    "pop",
    "context",
    "Goto",
    "12:4",
    "Save",
    "Insert",
    "Line",
    "Refactor",
    "é",
    "\u{feff}",
    "99999999999999999999999",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    #[test]
    fn any_script_is_answered_without_a_panic(
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..24),
        noise in "\\PC{0,12}",
    ) {
        let text = format!("{} {noise}", pieces.join(" "));
        let glued = pieces.concat();
        for text in [text, glued, noise] {
            if let Err(e) = parse(&text, &[var("ms", ElementKind::Method)]) {
                proptest::prop_assert!(!e.message.contains('\n'), "{text:?}: {e}");
                proptest::prop_assert!(e.span.line >= 1 && e.span.col >= 1, "{text:?}: {e}");
            }
        }
    }
}

#[test]
fn a_query_alone_parses_and_modules_may_start_with_a_digit() {
    let query = crate::script::parse_query(
        "caller of contrib.auth.migrations.0011_update_proxy_permissions.migrate()",
    )
    .unwrap();
    assert_eq!(
        query.to_string(),
        "(callers contrib.auth.migrations.0011_update_proxy_permissions.migrate)"
    );
    // the first name is still a name, and a query is one query
    assert!(crate::script::parse_query("caller of 0011_x.f()").is_err());
    let more = crate::script::parse_query("functions flag \"x\"").unwrap_err();
    assert!(
        more.message.starts_with("expected the end of the query"),
        "{more}"
    );
    let (_, kind) =
        crate::script::parse_checked_query("methods in C where complexity > 3", &[]).unwrap();
    assert_eq!(kind, ElementKind::Method);
}
