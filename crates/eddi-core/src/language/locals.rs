//! The local variables of a brace-language file's functions (`Variable
//! f.x`): each name a scope inside a function binds — parameters,
//! variables, a function declared in a block —, read with the index's scan
//! ([`scan`]: the names its walk finds bound in a scope), listed once per
//! function at its first
//! binding, like Python's ([`crate::analysis::Outline::add_locals`]).

use ropey::Rope;

use super::Language;
use crate::analysis::index::tags::scan::scan;
use crate::analysis::lines;
use crate::analysis::outline::{Outline, Symbol, SymbolKind};
use crate::edit::Position;

/// Adds the locals of `outline`'s functions (read from `text` as
/// `language`'s) to [`Outline::locals`].
pub fn add_locals(language: &'static dyn Language, outline: &mut Outline, text: &Rope) {
    let file = scan(language, &text.to_string());
    let mut locals: Vec<Symbol> = Vec::new();
    for local in &file.locals {
        // the innermost function around it
        let function = outline
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind.is_callable() && s.definition.contains(&local.offset))
            .min_by_key(|(_, s)| s.definition.end - s.definition.start);
        let Some((i, function)) = function else {
            continue;
        };
        // `_` binds nothing; a nested function is a symbol of its own
        if local.name == "_"
            || outline
                .symbols
                .iter()
                .any(|s| s.name_position == local.start)
        {
            continue;
        }
        let qualified_name = format!("{}.{}", function.qualified_name, local.name);
        if locals.iter().any(|l| l.qualified_name == qualified_name) {
            continue;
        }
        let line = local.start.line;
        let end = lines::end_with_newline(text, line);
        locals.push(Symbol {
            kind: SymbolKind::Local,
            name: local.name.clone(),
            qualified_name,
            params: None,
            param_names: Vec::new(),
            is_async: false,
            decorators: Vec::new(),
            accessor: None,
            via_trait: None,
            position: local.start,
            name_position: local.start,
            indent: first_column(text, line),
            definition: local.offset..local.offset + local.name.chars().count(),
            full_lines: crate::edit::LineRange::new(line, line),
            full: lines::start(text, line)..end,
            body: None,
            body_lines: None,
            end: {
                let line = text.char_to_line(end);
                Position::new(line, end - text.line_to_char(line))
            },
            parent: Some(i),
        });
    }
    locals.sort_by_key(|l| l.definition.start);
    outline.locals = locals;
}

/// The column of a line's first non-blank char.
fn first_column(text: &Rope, line: usize) -> usize {
    text.line(line)
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .count()
}
