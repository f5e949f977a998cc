//! The JSON rendering of the operations' results: the fields a reply
//! object gets (`"references": […]`, `"structure": {…}`), documented by
//! `protocol/schemas/reply.json`. Field names are the wire contract:
//! extend, never rename.

use serde_json::{json, Map, Value};

use crate::analysis::dependencies::Dependencies;
use crate::analysis::issues::{Issue, IssueKind};
use crate::analysis::validate::SyntaxError;
use crate::reply::{Clause, Reply};

use super::{
    ComplexityReport, DefinitionSite, Element, ErrorKind, Location, OpError, StructureNode,
};

/// A failed operation as a `Fail` reply: the message, and for JSON its
/// code and candidates (`"failure": {"code", "message", "candidates"}`).
pub fn failure(error: OpError) -> Reply {
    Reply::Fail(error, Vec::new())
}

/// A failure of `kind` (shorthand for [`OpError::new`]).
pub fn typed(kind: ErrorKind, message: impl Into<String>) -> OpError {
    OpError::new(kind, message)
}

/// A line or column the file does not have.
pub fn out_of_range(error: crate::edit::PositionError) -> OpError {
    error.into()
}

/// One JSON field as a reply clause.
/// A script's report: `protocol/schemas/reply.json`, `script`.
pub fn script(report: &crate::script::run::ScriptReport) -> Value {
    json!({
        "counts": report.counts.iter().map(|c| json!({
            "verb": c.verb.word(),
            "noun": c.noun,
            "n": c.n,
        })).collect::<Vec<_>>(),
        "flagged": report.flagged.iter().map(|f| json!({
            "path": f.path,
            "line": f.line,
            "message": f.message,
        })).collect::<Vec<_>>(),
        "files": report.files,
        "changeset": report.collected,
        "failed": report.failed,
        "stopped": report.stopped,
        "caught": report.caught,
        "rolled_back": report.rolled_back,
        "previewed": report.previewed,
        "bound": report.bound.iter().map(|(name, n, kind)| json!({
            "name": name,
            "n": n,
            "kind": kind,
        })).collect::<Vec<_>>(),
        "answers": report.answers,
    })
}

pub fn data(key: &str, value: Value) -> Clause {
    let mut fields = Map::new();
    fields.insert(key.to_owned(), value);
    Clause::Data(fields)
}

/// `{path, line, col, end_line, end_col, certain, in_symbol?, context?}`.
pub fn location(site: &Location) -> Value {
    let mut object = json!({
        "path": site.path,
        "line": site.span.start.line,
        "col": site.span.start.col,
        "end_line": site.span.end.line,
        "end_col": site.span.end.col,
        "certain": site.certain,
    });
    if let Some(in_symbol) = &site.in_symbol {
        object["in_symbol"] = json!(in_symbol);
    }
    if let Some(context) = &site.context {
        object["context"] = json!(context);
    }
    object
}

pub fn locations<'a>(sites: impl IntoIterator<Item = &'a Location>) -> Value {
    Value::Array(sites.into_iter().map(location).collect())
}

/// A definition: its location with `name` and `kind`.
pub fn definition(site: &DefinitionSite) -> Value {
    let mut object = location(&site.location);
    object["name"] = json!(site.qualified_name);
    object["kind"] = json!(site.kind);
    object
}

/// `{kind, name, path, line, col, end_line, end_col}` (the text is the
/// reply's `"text"`).
pub fn element(element: &Element) -> Value {
    json!({
        "kind": element.kind,
        "name": element.name,
        "path": element.path,
        "line": element.span.start.line,
        "col": element.span.start.col,
        "end_line": element.span.end.line,
        "end_col": element.span.end.col,
    })
}

/// `{kind, name, qualified_name, async, line?, col?, end_line?, end_col?, children}`.
pub fn structure(node: &StructureNode) -> Value {
    let mut object = json!({
        "kind": node.kind,
        "name": node.name,
        "qualified_name": node.form,
        "async": node.is_async,
        "children": node.children.iter().map(structure).collect::<Vec<_>>(),
    });
    if let Some(span) = node.span {
        object["line"] = json!(span.start.line);
        object["col"] = json!(span.start.col);
        object["end_line"] = json!(span.end.line);
        object["end_col"] = json!(span.end.col);
    }
    object
}

/// `{subject?, total?, average?, blocks: [{name, complexity}]}`, most complex first.
pub fn complexity(report: &ComplexityReport) -> Value {
    let blocks: Vec<Value> = report
        .ranked()
        .into_iter()
        .map(|b| json!({"name": b.name, "complexity": b.complexity}))
        .collect();
    let mut object = json!({ "blocks": blocks });
    if let Some(subject) = &report.subject {
        object["subject"] = json!({"kind": subject.kind, "name": subject.name});
    }
    if let Some(total) = report.total {
        object["total"] = json!(total);
    }
    if !report.blocks.is_empty() {
        let sum: u32 = report.blocks.iter().map(|b| b.complexity).sum();
        object["average"] = json!(f64::from(sum) / report.blocks.len() as f64);
    }
    object
}

/// `{external, imports: [{module, name?, alias?, level, line, col}], internal, builtins, unresolved}`.
pub fn dependencies(deps: &Dependencies) -> Value {
    let imports: Vec<Value> = deps
        .imports
        .iter()
        .map(|i| {
            let mut import = json!({
                "module": i.module,
                "level": i.level,
                "line": i.position.line,
                "col": i.position.col,
            });
            if let Some(name) = &i.name {
                import["name"] = json!(name);
            }
            if let Some(alias) = &i.alias {
                import["alias"] = json!(alias);
            }
            import
        })
        .collect();
    json!({
        "external": deps.external_count(),
        "imports": imports,
        "internal": deps.internal,
        "builtins": deps.builtins,
        "unresolved": deps.unresolved,
    })
}

/// `{external, sources: [{source, names}], internal, builtins,
/// unresolved}`: `Analyze … Dependencies` of an element of a brace
/// language's file.
pub fn element_uses(uses: &crate::analysis::brace_dependencies::ElementUses) -> Value {
    let sources: Vec<Value> = uses
        .external
        .iter()
        .map(|s| json!({"source": s.source, "names": s.names}))
        .collect();
    json!({
        "external": uses.external.len(),
        "sources": sources,
        "internal": uses.internal,
        "builtins": uses.builtins,
        "unresolved": uses.unresolved,
    })
}

/// `{module, imports: [{source, kind, names, files, module?}]}`: `Analyze
/// File Dependencies` and `get_dependencies` of a brace language's file.
pub fn module_imports(imports: &crate::analysis::index::tags::FileImports) -> Value {
    let list: Vec<Value> = imports
        .imports
        .iter()
        .map(|i| {
            let mut import = json!({
                "source": i.source,
                "kind": i.kind.word(),
                "names": i.names,
                "files": i.files,
            });
            if let Some(module) = &i.module {
                import["module"] = json!(module);
            }
            import
        })
        .collect();
    json!({"module": imports.module, "imports": list})
}

/// `[{kind, line, col, message}]`: `Analyze … Issues` (and `Analyze` alone).
pub fn issues(issues: &[Issue]) -> Value {
    let kind = |kind: IssueKind| match kind {
        IssueKind::SyntaxError => "syntax_error",
        IssueKind::UnusedImport => "unused_import",
        IssueKind::UnusedVariable => "unused_variable",
        IssueKind::UndefinedName => "undefined_name",
        IssueKind::MutableDefault => "mutable_default",
        IssueKind::BareExcept => "bare_except",
        IssueKind::LongFunction => "long_function",
        IssueKind::Todo => "todo",
        IssueKind::LooseEquality => "loose_equality",
    };
    issues
        .iter()
        .map(|i| {
            json!({"kind": kind(i.kind), "line": i.position.line, "col": i.position.col,
                   "message": i.message})
        })
        .collect()
}

/// `[{line, col, message}]`: `Validate`.
pub fn syntax_errors(errors: &[SyntaxError]) -> Value {
    errors
        .iter()
        .map(|e| json!({"line": e.position.line, "col": e.position.col, "message": e.message}))
        .collect()
}

/// One element a query alone found (`Selected`): `{kind, name,
/// qualified_name, path, line, col, end_line, language, text}` and, per kind,
/// `indexed_name` (a definition's name in the index), `complexity`, `line_count`, `params`, `decorators`, `class`,
/// `bases`, `methods` (a class), `imports` (a file), `function`, `args`
/// (a call), `module`, `names`, `unused` (an import). Without `texts`,
/// definitions, variables and files come without their `text`.
pub fn selected(selected: &crate::script::run::Selected, texts: bool) -> Value {
    use crate::script::run::Detail;
    let element = &selected.element;
    let mut object = json!({
        "kind": element.kind.word(),
        "name": element.name,
        "qualified_name": element.qualified_name,
        "path": element.path,
        "line": element.line,
        "col": selected.col,
        "end_line": selected.end_line,
        // as the query engine reads it: Python unless its path names another
        "language": crate::language::language_of(&element.path).map_or("python", |l| l.id()),
    });
    let long = matches!(
        element.detail,
        Detail::File { .. } | Detail::Definition { .. } | Detail::Variable { .. }
    );
    if texts || !long {
        object["text"] = json!(selected.text);
    }
    let each = |all: &[crate::script::run::Selected]| {
        all.iter()
            .map(|s| self::selected(s, texts))
            .collect::<Vec<_>>()
    };
    let extra = match &element.detail {
        Detail::File {
            line_count,
            complexity,
        } => json!({
            "line_count": line_count,
            "complexity": complexity,
            "imports": each(&selected.imports),
        }),
        Detail::Definition {
            decorators,
            class,
            bases,
            complexity,
            line_count,
            ..
        } => json!({
            "indexed_name": selected.indexed_name,
            "params": selected.params,
            "decorators": decorators,
            "class": class,
            "bases": bases,
            "complexity": complexity,
            "line_count": line_count,
            "methods": each(&selected.methods),
        }),
        Detail::Call {
            function,
            arguments,
        } => json!({ "function": function, "args": arguments }),
        Detail::Line { number } => json!({ "number": number }),
        Detail::Variable { .. } => json!({}),
        Detail::Import {
            module,
            names,
            unused,
            top_level,
            ..
        } => json!({
            "module": module,
            "names": names,
            "unused": unused,
            "top_level": top_level,
        }),
        Detail::Match { captures, .. } => json!({
            "captures": captures
                .iter()
                .map(|c| (c.name.clone(), json!({ "text": c.text, "line": c.line })))
                .collect::<serde_json::Map<String, Value>>(),
        }),
        Detail::Capture { type_word } => json!({ "type": type_word }),
    };
    if let (Some(object), Value::Object(extra)) = (object.as_object_mut(), extra) {
        object.extend(extra);
    }
    object
}

/// What a `select` found as its JSON field: `("elements", […])` or
/// `("answers", […])`. Each element's JSON on its own, in parallel (a
/// walk of a project has thousands).
pub fn selections(found: &crate::script::run::Selections, texts: bool) -> (&'static str, Value) {
    use crate::script::run::Selections;
    use rayon::prelude::*;
    match found {
        Selections::Elements(all) => (
            "elements",
            Value::Array(all.par_iter().map(|s| selected(s, texts)).collect()),
        ),
        Selections::Answers(all) => (
            "answers",
            Value::Array(all.par_iter().map(|a| answer(a, texts)).collect()),
        ),
    }
}

/// One query's answer among many (`SelectedEach`): `{"elements": […]}`,
/// or `{"failure": {code, message, candidates}}`.
pub fn answer(answer: &crate::script::run::Answer, texts: bool) -> Value {
    match answer {
        Ok(found) => json!({
            "elements": found.iter().map(|s| selected(s, texts)).collect::<Vec<_>>(),
        }),
        Err(error) => json!({
            "failure": {
                "code": error.kind.code(),
                "message": error.message,
                "candidates": error.candidates,
            },
        }),
    }
}
