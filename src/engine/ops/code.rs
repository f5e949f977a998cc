//! The operations on one Python file: an element's code (`get_function`,
//! `get_class`), the file's structure as a tree, and complexity figures —
//! computed from the analysis layer's outline and report, nothing
//! recomputed.

use ropey::Rope;

use crate::analysis::outline::{display_name, Outline, Symbol, SymbolKind};
use crate::analysis::Report;
use crate::edit::position;

use super::{BlockComplexity, ComplexityReport, Element, Span, StructureNode};

/// The element `symbol` of `outline` (of the file `path`): its code and where.
pub fn element(text: &Rope, outline: &Outline, symbol: &Symbol, path: &str) -> Element {
    Element {
        kind: symbol.kind.noun(),
        name: display_name(outline, symbol),
        path: path.to_owned(),
        span: Span {
            start: symbol.position,
            end: position::from_char(text, symbol.definition.end),
        },
        text: text
            .slice(symbol.definition.clone())
            .to_string()
            .replace('\r', ""),
    }
}

/// The structure under `subject` (a copy of one of `outline`'s symbols, as
/// reports hold), or of the whole file `path`: every element with its
/// members, in source order.
pub fn structure(outline: &Outline, subject: Option<&Symbol>, path: &str) -> StructureNode {
    let index = subject.and_then(|sym| index_of(outline, sym));
    let children = members(outline, index);
    match subject {
        Some(sym) => StructureNode {
            children,
            ..node(outline, index.map_or(sym, |i| &outline.symbols[i]))
        },
        None => StructureNode {
            kind: "file",
            name: path.to_owned(),
            form: path.to_owned(),
            is_async: false,
            span: None,
            children,
        },
    }
}

/// The complexity figures of a report.
pub fn complexity(outline: &Outline, report: &Report) -> ComplexityReport {
    ComplexityReport {
        subject: report.symbol.as_ref().map(|sym| {
            let found = index_of(outline, sym).map_or(sym, |i| &outline.symbols[i]);
            node(outline, found)
        }),
        total: report.complexity,
        blocks: report
            .complexities
            .iter()
            .map(|(name, complexity)| BlockComplexity {
                name: name.clone(),
                complexity: *complexity,
            })
            .collect(),
    }
}

fn index_of(outline: &Outline, copy: &Symbol) -> Option<usize> {
    outline
        .symbols
        .iter()
        .position(|s| s.position == copy.position && s.qualified_name == copy.qualified_name)
}

fn members(outline: &Outline, parent: Option<usize>) -> Vec<StructureNode> {
    outline
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.parent == parent)
        .map(|(i, s)| StructureNode {
            children: members(outline, Some(i)),
            ..node(outline, s)
        })
        .collect()
}

/// One element without its members.
fn node(outline: &Outline, s: &Symbol) -> StructureNode {
    let form = display_name(outline, s);
    StructureNode {
        kind: s.kind.noun(),
        // a name that alone is ambiguous is given in a form that works
        name: if form == s.qualified_name {
            s.name.clone()
        } else {
            form.clone()
        },
        form,
        is_async: s.is_async && matches!(s.kind, SymbolKind::Function | SymbolKind::Method),
        span: Some(Span {
            start: s.position,
            end: s.end,
        }),
        children: Vec::new(),
    }
}
