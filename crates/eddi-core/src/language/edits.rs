//! The edits of code elements in brace languages — `Insert Function|
//! Method|Class`, `Delete` of a code target, `Comment` — computed from a
//! language's symbol sites ([`crate::analysis::Outline`]) and its syntax
//! tree, for the languages that are not Python (whose own edits, in
//! `analysis/`, know its layout rules). A language opts in with its
//! [`BraceEdits`]: its default indentation unit and its comment syntax.
//!
//! * `Delete`: the element's whole lines — its attached comments, its
//!   decorators or annotations, its definition — with the blank lines above
//!   it when there are any (else those below). Refused, changing nothing,
//!   when another element shares those lines (`const a = 1, b = 2`).
//! * `Insert Method`: into the class around the cursor, after the member
//!   containing or preceding the cursor (with the cursor on the class's
//!   first line, at the end of the class), just inside the closing brace
//!   when the class is empty. `Insert Function|Class`: at the top level,
//!   after the statement containing or preceding the cursor. One blank line
//!   separates the new element from its neighbours; the code is
//!   re-indented to where it goes, in the file's unit.
//! * `Comment`: `Line` and `Block` put line comments (`// text`; `Block`
//!   wraps at 72 columns) directly above the element, below comments
//!   already attached (or instead of them with `replace`). `Docstring`
//!   puts the language's doc comment above the element (`/** … */`, `///`)
//!   and refuses to overwrite one that is there unless `replace` is given.

use ropey::Rope;
use tree_sitter::Node;

use crate::analysis::comment::Commented;
use crate::analysis::error::{AnalysisError, Result};
use crate::analysis::lines;
use crate::analysis::outline::{enclosing, Enclosing, Outline, Symbol, SymbolKind};
use crate::analysis::syntax::{byte_to_char, node_start, SyntaxTree};
use crate::analysis::target::{CommentStyle, InsertKind};
use crate::analysis::textedit::{apply, EditResult};
use crate::change::Indel;
use crate::edit::position::from_char;
use crate::edit::Position;

/// What a brace language's element edits need to know of it.
#[derive(Debug, Clone, Copy)]
pub struct BraceEdits {
    /// The indentation unit when the file shows none (`"  "` for
    /// JavaScript, `"\t"` for Go).
    pub unit: &'static str,
    /// Its line comment (`//`).
    pub line_comment: &'static str,
    /// Its doc comment.
    pub doc: DocComment,
    /// `Insert Import`, when the language has imports Eddi merges.
    pub imports: Option<InsertImport>,
    /// Whether functions may stand at the top level of a file (Java's
    /// live in classes: `Insert Function` is refused there).
    pub top_level_functions: bool,
    /// Where `Insert Method` puts a method.
    pub methods: MethodPlace,
    /// Whether a function's overload signatures stand before its
    /// implementation (TypeScript's): `Delete` of the implementation takes
    /// them too, since signatures without it do not compile.
    pub overloads: bool,
}

/// Where a language keeps a type's methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodPlace {
    /// Inside the class's braces (JavaScript, TypeScript, Java).
    InClass,
    /// At the top level, after the type's last method (Go's methods name
    /// their receiver).
    AfterType,
    /// In an `impl` block: the one around the cursor, else the type's
    /// inherent one, else a new one after the type (Rust).
    InImpl,
}

/// A language's `Insert Import`: the statement `code` merged into or
/// added to a file's imports.
pub type InsertImport = fn(&Rope, &SyntaxTree, &str) -> Result<EditResult>;

/// How a language writes a doc comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocComment {
    /// `/** text */`, or `/**`, ` * line`…, ` */` (JSDoc, Javadoc).
    Block,
    /// Each line starts with this (`///` in Rust, `//` in Go).
    Lines(&'static str),
}

/// The deletion of `symbol`, its attached comments and decorators (and,
/// where the language has them, the overload signatures of an
/// implementation).
pub fn delete(
    text: &Rope,
    outline: &Outline,
    symbol: &Symbol,
    style: BraceEdits,
) -> Result<EditResult> {
    let signatures = match style.overloads {
        true => overload_signatures(outline, symbol),
        false => Vec::new(),
    };
    let first = signatures
        .first()
        .map_or(symbol.full_lines.first, |s| s.full_lines.first);
    let last = symbol.full_lines.last;
    refuse_shared_lines(text, outline, symbol)?;
    for signature in &signatures {
        refuse_shared_lines(text, outline, signature)?;
    }
    let n = lines::count(text);
    let mut above = first;
    while above > 0 && lines::is_blank(text, above - 1) {
        above -= 1;
    }
    let edit = if above < first && above > 0 {
        // the blank lines above go with it; the ones below stay
        Indel::delete(lines::start(text, above)..lines::end_with_newline(text, last))
    } else {
        let mut after = last + 1;
        while after < n && lines::is_blank(text, after) {
            after += 1;
        }
        let start = lines::start(text, first);
        if after >= n && first > 0 {
            Indel::delete(start..text.len_chars())
        } else {
            Indel::delete(start..lines::start(text, after))
        }
    };
    let edits = vec![edit];
    let new = apply(text, &edits)?;
    let cursor = from_char(&new, edits[0].range.start.min(new.len_chars()));
    Ok(EditResult {
        edits,
        cursor,
        element: None,
        note: None,
    })
}

/// The overload signatures right before `symbol`, an implementation: the
/// body-less definitions of its name and owner that precede it with
/// nothing else between (TypeScript's `function f(a: string): string;`).
fn overload_signatures<'o>(outline: &'o Outline, symbol: &Symbol) -> Vec<&'o Symbol> {
    if symbol.body.is_none() || !matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method) {
        return Vec::new();
    }
    let Some(at) = outline.symbols.iter().position(|s| std::ptr::eq(s, symbol)) else {
        return Vec::new();
    };
    let siblings = outline.symbols[..at]
        .iter()
        .rev()
        .filter(|s| s.parent == symbol.parent && s.kind != SymbolKind::Local);
    let mut signatures: Vec<&Symbol> = siblings
        .take_while(|s| s.kind == symbol.kind && s.name == symbol.name && s.body.is_none())
        .collect();
    signatures.reverse();
    signatures
}

/// Refuses a deletion whose lines hold another element that is neither
/// inside `symbol` nor around it: deleting the lines would delete it too.
fn refuse_shared_lines(text: &Rope, outline: &Outline, symbol: &Symbol) -> Result<()> {
    let lines_of = symbol.full.clone();
    let inside = |s: &Symbol| {
        s.definition.start >= symbol.definition.start && s.definition.end <= symbol.definition.end
    };
    let around = |s: &Symbol| {
        s.definition.start <= symbol.definition.start && s.definition.end >= symbol.definition.end
    };
    // (an element around it whose start or end is on its lines: a class
    // written on one line, `class A { m() {} }`)
    let sharing = outline.symbols.iter().find(|s| {
        !std::ptr::eq(*s, symbol)
            && s.kind != SymbolKind::Local
            && !inside(s)
            && s.definition.start < lines_of.end
            && s.definition.end > lines_of.start
            && (!around(s)
                || s.definition.start >= lines_of.start
                || s.definition.end <= lines_of.end)
    });
    match sharing {
        Some(other) => Err(AnalysisError::InvalidCode(format!(
            "{} {} shares its lines with {} {} (at {}): deleting the lines would delete both; edit the lines instead (Show Block, Delete Block or Replace)",
            symbol.kind.noun(),
            symbol.qualified_name,
            other.kind.noun(),
            other.qualified_name,
            from_char(text, other.definition.start)
        ))),
        None => Ok(()),
    }
}

/// The insertion of a function, method or class definition (`code`, as
/// the agent wrote it) where [`self`](self) says it goes.
pub fn insert(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    cursor: Position,
    kind: InsertKind,
    code: &str,
    style: BraceEdits,
) -> Result<EditResult> {
    if code.trim().is_empty() {
        return Err(AnalysisError::InvalidCode("no code to insert".into()));
    }
    let unit = indent_unit(text, style.unit);
    let nl = lines::ending(text);
    if kind == InsertKind::Function && !style.top_level_functions {
        return Err(AnalysisError::InvalidCode(
            "this language has no functions outside classes: Goto a class and use Insert Method"
                .into(),
        ));
    }
    let (range, indent, before, after) = match (kind, style.methods) {
        (InsertKind::Method, MethodPlace::InClass) => method_place(text, outline, cursor, &unit)?,
        (InsertKind::Method, MethodPlace::AfterType) => {
            after_type_place(text, tree, outline, cursor, &unit, code)?
        }
        (InsertKind::Method, MethodPlace::InImpl) => {
            impl_place(text, tree, outline, cursor, &unit, code)?
        }
        (InsertKind::Function | InsertKind::Class, _) => top_level_place(text, tree, cursor),
        _ => {
            return Err(AnalysisError::InvalidCode(
                "only functions, methods and classes are inserted as definitions".into(),
            ))
        }
    };
    let body = reindent(code, &indent, &unit).replace('\n', nl);
    let inserted = format!("{before}{body}{after}");
    let mut edits = Vec::new();
    // a Java enum's methods follow its constants' `;`, written when absent
    let separator = match (kind, style.methods) {
        (InsertKind::Method, MethodPlace::InClass) => enum_separator(text, tree, outline, cursor),
        _ => None,
    };
    // the `;` takes the place of a comma or none: the method's place moves
    // by what it adds
    let mut at = range.start;
    if let Some(replaced) = separator.filter(|r| r.end <= range.start) {
        at = at + 1 - replaced.len();
        edits.push(Indel::new(replaced, ";".to_owned()));
    }
    edits.push(Indel::new(range, inserted.clone()));
    let new = apply(text, &edits)?;
    let element_char = at + before.chars().count() + indent.chars().count();
    let end_char = at + before.chars().count() + body.chars().count();
    Ok(EditResult {
        edits,
        cursor: from_char(&new, end_char.min(new.len_chars())),
        element: Some(from_char(&new, element_char.min(new.len_chars()))),
        note: None,
    })
}

/// The owner a JavaScript method is written on (`Route` of
/// `Route.prototype.dispatch = function …`, whose statement starts with
/// it); `None`: not such a method (a Go or Rust method apart from its type
/// starts with its keyword).
fn written_on<'s>(text: &Rope, method: &'s Symbol) -> Option<&'s str> {
    let owner = method
        .qualified_name
        .strip_suffix(method.name.as_str())?
        .strip_suffix('.')?;
    let start = method.definition.start;
    let written = text.get_slice(start..(start + owner.len() + 1).min(text.len_chars()))?;
    (written == format!("{owner}.").as_str()).then_some(owner)
}

/// Where a method goes: (the chars it replaces — spaces before a closing
/// brace, or none —, its indentation, the text before it, the text after
/// it).
fn method_place(
    text: &Rope,
    outline: &Outline,
    cursor: Position,
    unit: &str,
) -> Result<(std::ops::Range<usize>, String, String, String)> {
    let Some(class) = enclosing(outline, text, cursor, Enclosing::Class) else {
        // in a method written on its owner, apart from any class
        let apart = enclosing(outline, text, cursor, Enclosing::Function)
            .filter(|f| f.kind == SymbolKind::Method && f.parent.is_none());
        return Err(match apart.and_then(|m| Some((m, written_on(text, m)?))) {
            Some((method, owner)) => AnalysisError::NotInClassWrittenOn {
                method: method.qualified_name.clone(),
                owner: owner.to_owned(),
            },
            None => AnalysisError::NotIn("class"),
        });
    };
    let nl = lines::ending(text);
    let class_index = outline
        .symbols
        .iter()
        .position(|s| std::ptr::eq(s, class))
        .expect("the class is in the outline");
    let mut members: Vec<&Symbol> = outline
        .symbols
        .iter()
        .filter(|s| s.parent == Some(class_index) && s.kind != SymbolKind::Local)
        .collect();
    // a member written in another (a TypeScript parameter property, in
    // its constructor) is the other's place
    let within = |s: &Symbol, m: &Symbol| {
        !std::ptr::eq(s, m)
            && m.definition.start <= s.definition.start
            && s.definition.end <= m.definition.end
    };
    let all = members.clone();
    members.retain(|s| !all.iter().any(|m| within(s, m)));
    let class_indent = lines::indent_str(&lines::text_of(text, class.position.line)).to_owned();
    // the members' indentation, from one on a line of its own
    let member_indent = members
        .iter()
        .find(|m| m.position.line > class.position.line)
        .map_or_else(
            || format!("{class_indent}{unit}"),
            |m| lines::indent_str(&lines::text_of(text, m.position.line)).to_owned(),
        );
    let on_header = cursor.line <= class.position.line;
    let anchor = if on_header {
        members.last().copied()
    } else {
        members
            .iter()
            .rev()
            .find(|m| m.full_lines.first <= cursor.line)
            .or(members.last())
            .copied()
    };
    let brace = text.line_to_char(class.end.line) + class.end.col;
    // the spaces before the closing brace go when it moves to its own line
    let mut brace_spaces = brace;
    while brace_spaces > lines::start(text, class.end.line)
        && matches!(text.char(brace_spaces - 1), ' ' | '\t')
    {
        brace_spaces -= 1;
    }
    match anchor {
        // the class closes on the member's last line: just inside it
        Some(member) if class.end.line <= member.full_lines.last => Ok((
            brace_spaces..brace,
            member_indent,
            nl.to_owned(),
            class_indent.clone(),
        )),
        Some(member) => {
            let last = member.full_lines.last;
            let at = lines::end_with_newline(text, last);
            // members written one after the other stay so; else one
            // blank line before the new one
            let next = last + 1;
            let tight =
                next < class.end.line && next < lines::count(text) && !lines::is_blank(text, next);
            let lead = if tight { String::new() } else { nl.to_owned() };
            let lead = if at > 0 && text.char(at - 1) == '\n' {
                lead
            } else {
                format!("{nl}{lead}")
            };
            Ok((at..at, member_indent, lead, String::new()))
        }
        None => {
            // an empty class: just inside its closing brace
            let brace_line_start = lines::start(text, class.end.line);
            let only_indent_before = text
                .slice(brace_line_start..brace)
                .chars()
                .all(char::is_whitespace);
            if only_indent_before && class.end.line > class.position.line {
                Ok((
                    brace_line_start..brace_line_start,
                    member_indent,
                    String::new(),
                    String::new(),
                ))
            } else {
                Ok((
                    brace_spaces..brace,
                    member_indent,
                    nl.to_owned(),
                    class_indent,
                ))
            }
        }
    }
}

/// Where a method of a language whose methods stand at the top level goes
/// (Go): after the last method of the type the cursor is in — in its
/// declaration or in one of its methods — else after the type.
fn after_type_place(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    cursor: Position,
    unit: &str,
    code: &str,
) -> Result<(std::ops::Range<usize>, String, String, String)> {
    let index_of = |s: &Symbol| outline.symbols.iter().position(|o| std::ptr::eq(o, s));
    // the method's own receiver type, when the file declares it (`func
    // (d Weekday) Prev()` goes after Weekday's methods wherever the
    // cursor is); else the type around the cursor
    let written = go_receiver_type(code);
    let receiver = written.and_then(|t| {
        outline
            .symbols
            .iter()
            .position(|s| s.kind == SymbolKind::Class && s.parent.is_none() && s.name == t)
    });
    if let (Some(written), None) = (written, receiver) {
        return after_methods_of_type_elsewhere(text, outline, written);
    }
    let class = match (receiver, enclosing(outline, text, cursor, Enclosing::Class)) {
        (Some(receiver), _) => Some(receiver),
        (None, Some(class)) => index_of(class),
        (None, None) => enclosing(outline, text, cursor, Enclosing::Function)
            .and_then(|f| f.parent)
            .filter(|&p| outline.symbols[p].kind == SymbolKind::Class),
    }
    .ok_or(AnalysisError::NotIn("type or one of its methods"))?;
    let spec = node_around_name(
        text,
        tree,
        &outline.symbols[class],
        &["type_spec", "type_alias"],
    );
    if let Some(alias) = spec.filter(|spec| spec.kind() == "type_alias") {
        // methods on `A = B` are B's, and B may be another package's
        return Err(alias_refused(text, alias, &outline.symbols[class].name));
    }
    if spec
        .and_then(|spec| spec.child_by_field_name("type"))
        .is_some_and(|t| t.kind() == "interface_type")
    {
        // an interface's methods are written in it; gofmt writes the
        // `interface{}` that gets one as `interface {`
        let (range, indent, before, after) = method_place(text, outline, cursor, unit)?;
        let open = range
            .start
            .checked_sub(1)
            .filter(|&at| at > 0 && text.char(at) == '{' && !text.char(at - 1).is_whitespace());
        return Ok(match open {
            Some(at) => (at..range.end, indent, format!(" {{{before}"), after),
            None => (range, indent, before, after),
        });
    }
    // a type of a `type ( … )` group: after the group
    let group_last = spec
        .and_then(|spec| spec.parent())
        .filter(|decl| decl.kind() == "type_declaration")
        .map_or(0, |decl| decl.end_position().row);
    let nl = lines::ending(text);
    // the last line of the type or of a method of it in this file
    let last = outline
        .symbols
        .iter()
        .enumerate()
        .filter(|(i, s)| *i == class || (s.parent == Some(class) && s.kind == SymbolKind::Method))
        .map(|(_, s)| s.full_lines.last)
        .chain([group_last])
        .max()
        .expect("the type itself");
    let at = lines::end_with_newline(text, last);
    let lead = if at > 0 && text.char(at - 1) == '\n' {
        nl.to_owned()
    } else {
        format!("{nl}{nl}")
    };
    let next = last + 1;
    let trail = if next < lines::count(text) && !lines::is_blank(text, next) {
        nl.to_owned()
    } else {
        String::new()
    };
    Ok((at..at, String::new(), lead, trail))
}

/// Where a Go method of a type this file does not declare goes: after
/// the file's last method of that type, else at its end (a package's
/// type may have methods in any of its files). Another package's type
/// (`func (t pkg.T) …`) takes none.
fn after_methods_of_type_elsewhere(
    text: &Rope,
    outline: &Outline,
    ty: &str,
) -> Result<(std::ops::Range<usize>, String, String, String)> {
    if let Some((package, _)) = ty.split_once('.') {
        return Err(AnalysisError::InvalidCode(format!(
            "{ty} is a type of the package {package}: Go defines methods only on its own package's types (cannot define new methods on non-local type); write a function, or a type of this package that embeds it"
        )));
    }
    let nl = lines::ending(text);
    let prefix = format!("{ty}.");
    let last = outline
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Method && s.qualified_name.starts_with(&prefix))
        .map(|s| s.full_lines.last)
        .max();
    let (at, next) = match last {
        Some(last) => (lines::end_with_newline(text, last), last + 1),
        None => (text.len_chars(), lines::count(text)),
    };
    let lead = if at == 0 {
        String::new()
    } else if text.char(at - 1) == '\n' {
        nl.to_owned()
    } else {
        format!("{nl}{nl}")
    };
    let trail = if next < lines::count(text) && !lines::is_blank(text, next) {
        nl.to_owned()
    } else {
        String::new()
    };
    Ok((at..at, String::new(), lead, trail))
}

/// The receiver's type of a Go method's code (`func (d *Set[T]) Add(…)`:
/// `Set`), its comments before it skipped.
fn go_receiver_type(code: &str) -> Option<&str> {
    let head = code
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with("//"))?;
    let receiver = head.strip_prefix("func")?.trim_start().strip_prefix('(')?;
    let receiver = &receiver[..receiver.find(')')?];
    // `d *Set[T]`, `*Set`, `Weekday`: the last word, without `*` and
    // type arguments
    let ty = receiver.split_whitespace().last()?.trim_start_matches('*');
    let ty = ty.split('[').next()?;
    (!ty.is_empty()).then_some(ty)
}

/// The `impl` block around `cursor`, nearer than any type (Rust's
/// methods are written there, apart from their type): what `Goto
/// StartOfClass|EndOfClass` answer in it — its first token, and just
/// inside its closing brace, where `Insert Method` puts a method.
pub fn impl_block_around(
    text: &Rope,
    tree: &SyntaxTree,
    cursor: Position,
) -> Option<(Position, Position)> {
    let at_cursor = byte_at(text, cursor);
    let kinds = [
        "impl_item",
        "struct_item",
        "enum_item",
        "union_item",
        "trait_item",
    ];
    let block =
        around_of_kind(tree.root(), at_cursor, &kinds).filter(|n| n.kind() == "impl_item")?;
    let brace = block
        .child_by_field_name("body")
        .and_then(super::braces::closing_brace)?;
    Some((node_start(text, block), node_start(text, brace)))
}

/// Where a method goes in a language with `impl` blocks (Rust): at the
/// end of the block around the cursor; else, the cursor being in a type,
/// at the end of its inherent block (`impl T`, not `impl Trait for T`),
/// or in a new `impl T { … }` after the type.
fn impl_place(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    cursor: Position,
    unit: &str,
    code: &str,
) -> Result<(std::ops::Range<usize>, String, String, String)> {
    let nl = lines::ending(text);
    let at_cursor = byte_at(text, cursor);
    let root = tree.root();
    // (a type declared in a function of an `impl` is not that block's:
    // `struct PanicGuard` in `SmallVec::retain` gets a block of its own)
    let types = ["struct_item", "enum_item", "union_item", "trait_item"];
    let around = around_of_kind(root, at_cursor, &[&["impl_item"][..], &types].concat())
        .filter(|n| n.kind() == "impl_item");
    let block = match around {
        Some(block) => {
            refuse_foreign_to_trait_impl(text, root, block, code)?;
            block
        }
        None => {
            let class = enclosing(outline, text, cursor, Enclosing::Class)
                .ok_or(AnalysisError::NotIn("impl block or type"))?;
            let item = node_around_name(
                text,
                tree,
                class,
                &[
                    "struct_item",
                    "enum_item",
                    "union_item",
                    "trait_item",
                    "type_item",
                    "mod_item",
                ],
            );
            match item.map(|item| (item.kind(), item)) {
                // a trait's methods are written in it
                Some(("trait_item", _)) => return method_place(text, outline, cursor, unit),
                Some(("mod_item", _)) => {
                    return Err(AnalysisError::InvalidCode(format!(
                        "{} is a module: it has no methods; Goto a type or an impl block, or use Insert Function",
                        class.name
                    )))
                }
                // `impl Alias` is an error unless this crate defines the type
                // it names, which one file does not tell
                Some(("type_item", alias)) => return Err(alias_refused(text, alias, &class.name)),
                _ => {}
            }
            // the type's inherent block, among the items beside it: the
            // first after it (of a type declared twice under `cfg`, the
            // one written for it), else the last before it
            let scope = item.and_then(|item| item.parent()).unwrap_or(root);
            let mut walk = scope.walk();
            let inherent: Vec<Node<'_>> = scope
                .named_children(&mut walk)
                .filter(|block| {
                    block.kind() == "impl_item"
                        && block.child_by_field_name("trait").is_none()
                        && block
                            .child_by_field_name("type")
                            .is_some_and(|t| type_name(text, t) == class.name)
                })
                .collect();
            let declared = item.map_or(0, |item| item.end_byte());
            let inherent = inherent
                .iter()
                .find(|block| block.start_byte() >= declared)
                .or(inherent.last())
                .copied();
            match inherent {
                Some(block) => block,
                None => {
                    // a new inherent block after the type, at its indentation
                    let at = lines::end_with_newline(text, class.full_lines.last);
                    let lead = if at > 0 && text.char(at - 1) == '\n' {
                        nl.to_owned()
                    } else {
                        format!("{nl}{nl}")
                    };
                    let indent =
                        lines::indent_str(&lines::text_of(text, class.position.line)).to_owned();
                    let header = item.map_or_else(
                        || format!("impl {} {{", class.name),
                        |item| {
                            // (an impl of a type that exists only under a
                            // `cfg` exists only under it too: E0412 else)
                            let cfg: String = cfg_attributes(text, item)
                                .iter()
                                .map(|cfg| format!("{cfg}{nl}{indent}"))
                                .collect();
                            cfg + &impl_header(text, item, &class.name, &indent, nl)
                        },
                    );
                    let open = format!("{lead}{indent}{header}{nl}");
                    return Ok((
                        at..at,
                        format!("{indent}{unit}"),
                        open,
                        format!("{indent}}}{nl}"),
                    ));
                }
            }
        }
    };
    let body = block
        .child_by_field_name("body")
        .ok_or(AnalysisError::NotIn("impl block"))?;
    let block_indent =
        lines::indent_str(&lines::text_of(text, block.start_position().row)).to_owned();
    let mut walk = body.walk();
    let items: Vec<Node<'_>> = body.named_children(&mut walk).collect();
    let close = byte_to_char(text, body.end_byte()) - 1;
    match items.last() {
        Some(last) if last.end_position().row < body.end_position().row => {
            let indent =
                lines::indent_str(&lines::text_of(text, last.start_position().row)).to_owned();
            let at = lines::end_with_newline(text, last.end_position().row);
            Ok((at..at, indent, nl.to_owned(), String::new()))
        }
        _ => Ok((
            close..close,
            format!("{block_indent}{unit}"),
            nl.to_owned(),
            block_indent,
        )),
    }
}

/// Refuses a method that cannot be in the trait impl `block` around the
/// cursor (`impl Area for P`): a `pub` one (a trait impl's items take
/// the trait's visibility: E0449), or one the trait, declared in this
/// file, does not declare (E0407).
fn refuse_foreign_to_trait_impl(
    text: &Rope,
    root: Node<'_>,
    block: Node<'_>,
    code: &str,
) -> Result<()> {
    let Some(trait_path) = block.child_by_field_name("trait") else {
        return Ok(());
    };
    let written = |n: Node<'_>| text.byte_slice(n.byte_range()).to_string();
    let trait_written = written(trait_path);
    let trait_name = trait_written
        .split('<')
        .next()
        .unwrap_or_default()
        .rsplit("::")
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    let ty = block
        .child_by_field_name("type")
        .map(written)
        .unwrap_or_default();
    let head = code
        .lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#["))
        .unwrap_or_default();
    let name = head
        .split("fn ")
        .nth(1)
        .and_then(|rest| {
            rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
        })
        .unwrap_or_default();
    let why = if head.starts_with("pub") {
        Some("a pub method cannot be in it (its items take the trait's visibility)".to_string())
    } else {
        // the trait's own items, when this file declares it
        let mut walk = root.walk();
        let declared = root
            .named_children(&mut walk)
            .filter(|n| n.kind() == "trait_item")
            .find(|n| {
                n.child_by_field_name("name")
                    .is_some_and(|t| written(t) == trait_name)
            });
        declared.and_then(|item| {
            let body = item.child_by_field_name("body")?;
            let mut walk = body.walk();
            let has = body.named_children(&mut walk).any(|m| {
                matches!(m.kind(), "function_item" | "function_signature_item")
                    && m.child_by_field_name("name")
                        .is_some_and(|n| written(n) == name)
            });
            (!has && !name.is_empty())
                .then(|| format!("the trait {trait_name} declares no method {name}"))
        })
    };
    match why {
        Some(why) => Err(AnalysisError::InvalidCode(format!(
            "the cursor is in impl {trait_written} for {ty}, a trait's impl: {why}; Goto Class {ty} first (its inherent impl block, or a new one)"
        ))),
        None => Ok(()),
    }
}

/// The `#[cfg(…)]` attributes written on the item `item`, in order.
fn cfg_attributes(text: &Rope, item: Node<'_>) -> Vec<String> {
    let mut found = Vec::new();
    let mut before = item.prev_named_sibling();
    while let Some(node) = before.filter(|n| {
        matches!(
            n.kind(),
            "attribute_item" | "line_comment" | "block_comment"
        )
    }) {
        let written = crate::analysis::syntax::node_text(text, node);
        if node.kind() == "attribute_item" && written.replace(' ', "").starts_with("#[cfg(") {
            found.push(written);
        }
        before = node.prev_named_sibling();
    }
    found.reverse();
    found
}

/// The first line of a new inherent `impl` block of the type `item`
/// (`name`): its generic parameters without their defaults, as arguments
/// by name, and its `where` clause — `impl<'a, T: Clone> Wrap<'a, T> {`.
fn impl_header(text: &Rope, item: Node<'_>, name: &str, indent: &str, nl: &str) -> String {
    let node_text = |n: Node<'_>| crate::analysis::syntax::node_text(text, n);
    let (mut params, mut args) = (Vec::new(), Vec::new());
    if let Some(list) = item.child_by_field_name("type_parameters") {
        let mut walk = list.walk();
        for param in list.named_children(&mut walk) {
            let Some(param_name) = param.child_by_field_name("name").map(node_text) else {
                continue; // an attribute on a parameter
            };
            let written = match param.kind() {
                "const_parameter" => param
                    .child_by_field_name("type")
                    .map(|t| format!("const {param_name}: {}", node_text(t))),
                _ => Some(match param.child_by_field_name("bounds") {
                    Some(bounds) => format!("{param_name}{}", node_text(bounds)),
                    None => param_name.clone(),
                }),
            };
            params.extend(written);
            args.push(param_name);
        }
    }
    let generics = |items: &[String]| match items {
        [] => String::new(),
        _ => format!("<{}>", items.join(", ")),
    };
    let mut walk = item.walk();
    let clause = item
        .children(&mut walk)
        .find(|c| c.kind() == "where_clause")
        .map(node_text);
    let head = format!("impl{} {name}{}", generics(&params), generics(&args));
    match clause {
        // rustfmt's layout: `where` and its bounds on their own lines
        Some(clause) if clause.contains('\n') => format!("{head}{nl}{clause}{nl}{indent}{{"),
        Some(clause) => format!("{head} {clause} {{"),
        None => format!("{head} {{"),
    }
}

/// `Insert Method` on the type alias `alias` (`name`): its methods are the
/// named type's, which may be another package's or crate's.
fn alias_refused(text: &Rope, alias: Node<'_>, name: &str) -> AnalysisError {
    let named = alias
        .child_by_field_name("type")
        .map(|t| crate::analysis::syntax::node_text(text, t))
        .unwrap_or_default();
    AnalysisError::InvalidCode(format!(
        "{name} is a type alias of {named}: Goto that type, which takes the methods"
    ))
}

/// The node of `symbol`: the nearest one around its name of one of `kinds`.
fn node_around_name<'t>(
    text: &Rope,
    tree: &'t SyntaxTree,
    symbol: &Symbol,
    kinds: &[&str],
) -> Option<Node<'t>> {
    let at = crate::edit::position::to_char(text, symbol.name_position).ok()?;
    around_of_kind(tree.root(), text.char_to_byte(at), kinds)
}

/// The nearest node around `byte` of one of `kinds`.
/// The byte offset of a cursor position.
fn byte_at(text: &Rope, cursor: Position) -> usize {
    text.char_to_byte(text.line_to_char(cursor.line) + cursor.col)
}

fn around_of_kind<'t>(root: Node<'t>, byte: usize, kinds: &[&str]) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(byte, byte);
    while let Some(n) = node.filter(|n| !kinds.contains(&n.kind())) {
        node = n.parent();
    }
    node
}

/// What becomes `;` before a method goes into the Java enum around the
/// cursor: its constants' trailing comma, else the empty range after its
/// last constant, or just inside its `{` when it has none; `None` when the
/// enum has its `;` or the class is no Java enum (TypeScript's enums hold
/// no methods).
fn enum_separator(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    cursor: Position,
) -> Option<std::ops::Range<usize>> {
    if tree.language().id() != "java" {
        return None;
    }
    let class = enclosing(outline, text, cursor, Enclosing::Class)?;
    let body = node_around_name(text, tree, class, &["enum_declaration"])?
        .child_by_field_name("body")
        .filter(|body| body.kind() == "enum_body")?;
    let mut walk = body.walk();
    let children: Vec<Node<'_>> = body.children(&mut walk).collect();
    if children
        .iter()
        .any(|c| c.kind() == "enum_body_declarations")
    {
        return None;
    }
    let last_constant = children.iter().rposition(|c| c.kind() == "enum_constant");
    let char_at = |byte| byte_to_char(text, byte);
    match last_constant {
        Some(i) => match children.get(i + 1) {
            Some(comma) if comma.kind() == "," => {
                Some(char_at(comma.start_byte())..char_at(comma.end_byte()))
            }
            _ => {
                let end = char_at(children[i].end_byte());
                Some(end..end)
            }
        },
        None => {
            let end = char_at(children.first()?.end_byte()); // after the `{`
            Some(end..end)
        }
    }
}

/// The name of a type as written, without its generic arguments or path
/// (`Point` for `geo::Point<T>`).
fn type_name(text: &Rope, node: Node<'_>) -> String {
    let written = crate::analysis::syntax::node_text(text, node);
    let base = written.split('<').next().unwrap_or(&written);
    base.rsplit("::").next().unwrap_or(base).trim().to_owned()
}

/// Where a top-level definition goes: after the top-level statement that
/// contains or precedes the cursor (before the first one when the cursor
/// is above them all).
fn top_level_place(
    text: &Rope,
    tree: &SyntaxTree,
    cursor: Position,
) -> (std::ops::Range<usize>, String, String, String) {
    let nl = lines::ending(text);
    let root = tree.root();
    let mut walk = root.walk();
    let statements: Vec<Node<'_>> = root.named_children(&mut walk).collect();
    let mut anchor = statements
        .iter()
        .rposition(|s| s.start_position().row <= cursor.line);
    // an attribute or a comment attached to the item below it (`#[derive]`,
    // `///`, `//`) is that item's: the code goes after the item, not
    // between them
    while let Some(i) = anchor {
        let (here, next) = (statements[i], statements.get(i + 1));
        let attached = matches!(here.kind(), "attribute_item" | "inner_attribute_item")
            || here.kind().contains("comment");
        match next {
            Some(next) if attached && next.start_position().row <= here.end_position().row + 1 => {
                anchor = Some(i + 1)
            }
            _ => break,
        }
    }
    let anchor = anchor.map(|i| &statements[i]);
    match anchor {
        Some(statement) => {
            let last = statement.end_position().row;
            let at = lines::end_with_newline(text, last);
            let ends_line = at > 0 && text.char(at - 1) == '\n';
            let lead = if ends_line {
                nl.to_owned()
            } else {
                format!("{nl}{nl}")
            };
            let follows = statements.iter().any(|s| s.start_position().row > last);
            // a blank line before the code that follows, if none is there
            let next_blank = last + 1 < lines::count(text) && lines::is_blank(text, last + 1);
            let trail = if follows && !next_blank {
                nl.to_owned()
            } else {
                String::new()
            };
            (at..at, String::new(), lead, trail)
        }
        None => {
            let at = statements.first().map_or(text.len_chars(), |s| {
                lines::start(text, s.start_position().row)
            });
            let trail = if statements.is_empty() {
                String::new()
            } else {
                nl.to_owned()
            };
            (at..at, String::new(), String::new(), trail)
        }
    }
}

/// The indentation unit of a brace-language file: the most common step
/// from a line ending in `{` to the line after it; `default` when none.
fn indent_unit(text: &Rope, default: &str) -> String {
    use std::collections::HashMap;
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut previous: Option<String> = None;
    for line in 0..lines::count(text) {
        let current = lines::text_of(text, line);
        if current.trim().is_empty() {
            continue;
        }
        if let Some(p) = &previous {
            if p.trim_end().ends_with('{') {
                let outer = lines::indent_str(p);
                let inner = lines::indent_str(&current);
                if inner.len() > outer.len() && inner.starts_with(outer) {
                    *counts.entry(inner[outer.len()..].to_owned()).or_default() += 1;
                }
            }
        }
        previous = Some(current);
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
        .map_or_else(|| default.to_owned(), |(unit, _)| unit)
}

/// Re-indents brace code to start at `base`, one `unit` per level: the
/// lines keep their indentation relative to the code's first line, read
/// in the code's own unit (its smallest step) and written in `unit`; code
/// sent with its indentation lost (every line at the margin) is indented
/// by its braces. Ends with `\n`.
fn reindent(code: &str, base: &str, unit: &str) -> String {
    let normalized = code.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = normalized
        .trim_matches('\n')
        .trim_end()
        .split('\n')
        .collect();
    let width = |line: &str| -> usize {
        line.chars()
            .take_while(|c| c.is_whitespace())
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum()
    };
    let first = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map_or(0, |l| width(l));
    let relative: Vec<usize> = lines
        .iter()
        .map(|l| width(l).saturating_sub(first))
        .collect();
    let step = relative.iter().copied().filter(|&w| w > 0).min();
    let depths: Vec<usize> = match step {
        Some(step) => relative.iter().map(|w| w / step).collect(),
        None => brace_depths(&lines),
    };
    let mut out = String::new();
    for (line, depth) in lines.iter().zip(depths) {
        let content = line.trim();
        if !content.is_empty() {
            out.push_str(base);
            out.push_str(&unit.repeat(depth));
            out.push_str(content);
        }
        out.push('\n');
    }
    out
}

/// The depth of each line of flat code from its brackets: a line starting
/// with a closing bracket is one level out. Brackets inside strings and
/// comments are not told apart (code sent flat is rare and short).
fn brace_depths(lines: &[&str]) -> Vec<usize> {
    let mut depth: usize = 0;
    lines
        .iter()
        .map(|line| {
            let content = line.trim();
            let closes_first = content.starts_with(['}', ')', ']']);
            let this = if closes_first {
                depth.saturating_sub(1)
            } else {
                depth
            };
            for c in content.chars() {
                match c {
                    '{' | '(' | '[' => depth += 1,
                    '}' | ')' | ']' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            this
        })
        .collect()
}

/// A comment or doc comment on `symbol`; what happened to the comments
/// there comes back with it.
pub fn comment(
    text: &Rope,
    symbol: &Symbol,
    body: &str,
    style: CommentStyle,
    replace: bool,
    edits_of: BraceEdits,
) -> Result<(EditResult, Commented)> {
    if body.trim().is_empty() {
        return Err(AnalysisError::InvalidCode("no comment text".into()));
    }
    if symbol.kind == SymbolKind::Local {
        return Err(AnalysisError::InvalidCode(format!(
            "{} is a local variable: comment the lines instead (Goto and Insert Line)",
            symbol.qualified_name
        )));
    }
    // code before the element on its line (`class A { m() {} }`): a
    // comment above the line would be the other element's
    let start_line = text.char_to_line(symbol.definition.start);
    let before: String = text
        .slice(text.line_to_char(start_line)..symbol.definition.start)
        .to_string();
    if before.contains(['{', '}', ';', ',', '(', '=']) {
        return Err(AnalysisError::InvalidCode(format!(
            "{} {} shares line {start_line} with the code before it (`{}`): a comment above the line would be that code's; put it on a line of its own first",
            symbol.kind.noun(),
            symbol.qualified_name,
            before.trim()
        )));
    }
    let nl = lines::ending(text);
    let indent = lines::indent_str(&lines::text_of(text, symbol.position.line)).to_owned();
    // the comment lines attached above the element's decorators
    let first = symbol.full_lines.first;
    let mut comments_end = first;
    while comments_end < symbol.position.line
        && is_comment_line(&lines::text_of(text, comments_end))
    {
        comments_end += 1;
    }
    let attached = comments_end - first;
    let doc_there = attached > 0 && is_doc_comment(text, first, comments_end, edits_of.doc);
    let new_lines = match style {
        CommentStyle::Docstring => doc_comment(body, &indent, edits_of.doc),
        CommentStyle::Line => line_comments(body, &indent, edits_of.line_comment, None),
        CommentStyle::Block => line_comments(body, &indent, edits_of.line_comment, Some(72)),
    };
    let mut new_lines = new_lines;
    // a replaced doc keeps its directives (`//go:embed f`, `//go:noinline`),
    // which are no doc text: Go's tools read them there
    let directives: Vec<String> = (first..comments_end)
        .map(|l| lines::text_of(text, l).trim_end().to_string())
        .filter(|l| is_directive(l))
        .collect();
    if replace && !directives.is_empty() {
        new_lines.push(format!("{indent}//"));
        new_lines.extend(directives);
    }
    let inserted = new_lines.join(nl) + nl;
    let (range, commented) = if replace && attached > 0 {
        (
            lines::start(text, first)..lines::start(text, comments_end),
            Commented::Replaced(attached),
        )
    } else if style == CommentStyle::Docstring && doc_there {
        return Err(AnalysisError::InvalidCode(format!(
            "{} {} has a doc comment already (lines {}-{}): add Replace to replace it",
            symbol.kind.noun(),
            symbol.qualified_name,
            first,
            comments_end - 1
        )));
    } else if style == CommentStyle::Docstring {
        // a doc comment goes above the line comments too: next to the
        // element is where tools read it
        let at = lines::start(text, comments_end);
        (at..at, Commented::Added)
    } else {
        let at = lines::start(text, comments_end);
        let how = if attached > 0 {
            Commented::AddedBelow(attached)
        } else {
            Commented::Added
        };
        (at..at, how)
    };
    let start = range.start;
    let edits = vec![Indel::new(range, inserted.clone())];
    let new = apply(text, &edits)?;
    let after = start + inserted.chars().count();
    Ok((
        EditResult {
            edits,
            cursor: from_char(&new, after.min(new.len_chars())),
            element: None,
            note: None,
        },
        commented,
    ))
}

/// Whether a comment line is a directive, as Go's tools read them:
/// `//go:embed`, `//lint:ignore`, `//line f:1`, `//export f`, `//extern f`,
/// `// +build` (no space after `//`, but in the last).
fn is_directive(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("//") else {
        return false;
    };
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect();
    let after = &rest[word.len()..];
    (!word.is_empty()
        && after.starts_with(':')
        && after[1..].starts_with(|c: char| c.is_ascii_alphanumeric()))
        || (matches!(word.as_str(), "line" | "export" | "extern") && after.starts_with(' '))
        || rest.starts_with(" +build ")
}

/// A line that is a comment (or inside a block comment).
fn is_comment_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
}

/// Whether lines `first..end` are the language's doc comment.
fn is_doc_comment(text: &Rope, first: usize, end: usize, doc: DocComment) -> bool {
    let head = lines::text_of(text, first);
    let head = head.trim_start();
    match doc {
        DocComment::Block => head.starts_with("/**"),
        // (Rust's block form `/** … */` is a doc comment too)
        DocComment::Lines(prefix) => {
            head.starts_with("/**")
                || (first..end).all(|l| lines::text_of(text, l).trim_start().starts_with(prefix))
        }
    }
}

/// `body` as the language's doc comment at `indent`.
fn doc_comment(body: &str, indent: &str, doc: DocComment) -> Vec<String> {
    let text_lines: Vec<&str> = body.trim().lines().map(str::trim_end).collect();
    match doc {
        DocComment::Block if text_lines.len() == 1 => {
            vec![format!(
                "{indent}/** {} */",
                text_lines[0].replace("*/", "*\\/")
            )]
        }
        DocComment::Block => {
            let mut out = vec![format!("{indent}/**")];
            for line in text_lines {
                let line = line.replace("*/", "*\\/");
                if line.trim().is_empty() {
                    out.push(format!("{indent} *"));
                } else {
                    out.push(format!("{indent} * {line}"));
                }
            }
            out.push(format!("{indent} */"));
            out
        }
        DocComment::Lines(prefix) => text_lines
            .iter()
            .map(|line| {
                if line.trim().is_empty() {
                    format!("{indent}{prefix}")
                } else {
                    format!("{indent}{prefix} {line}")
                }
            })
            .collect(),
    }
}

/// `body` as line comments at `indent`, wrapped at `wrap` columns when
/// given (paragraphs kept; an empty line is a bare comment marker).
fn line_comments(body: &str, indent: &str, marker: &str, wrap: Option<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for line in body.trim().lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            out.push(format!("{indent}{marker}"));
            continue;
        }
        let Some(width) = wrap else {
            out.push(format!("{indent}{marker} {line}"));
            continue;
        };
        let room = width
            .saturating_sub(indent.len() + marker.len() + 1)
            .max(20);
        let mut current = String::new();
        for word in line.split_whitespace() {
            if !current.is_empty() && current.len() + 1 + word.len() > room {
                out.push(format!("{indent}{marker} {current}"));
                current.clear();
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        if !current.is_empty() {
            out.push(format!("{indent}{marker} {current}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::outline::lookup;
    use crate::analysis::target::CodeTarget;
    use crate::language::javascript::JavaScript;
    use crate::language::Language;

    fn deleted(src: &str, target: CodeTarget) -> Result<String> {
        let text = Rope::from_str(src);
        let tree = SyntaxTree::parse_language(&JavaScript, &text).unwrap();
        let outline = (JavaScript.symbol_sites().unwrap())(&text, &tree);
        let symbol = lookup(&outline, &target).unwrap();
        let result = delete(&text, &outline, symbol, crate::language::javascript::EDITS)?;
        Ok(apply(&text, &result.edits).unwrap().to_string())
    }

    fn function(name: &str) -> CodeTarget {
        CodeTarget::Function {
            name: name.into(),
            params: None,
        }
    }

    #[test]
    fn a_deleted_element_takes_its_doc_comment_and_the_blank_lines_above() {
        let src = "const a = 1;\n\n/** B. */\nfunction b() {\n  return 2;\n}\n\nfunction c() {}\n";
        assert_eq!(
            deleted(src, function("b")).unwrap(),
            "const a = 1;\n\nfunction c() {}\n"
        );
        // the first element: the blank lines below go instead
        let src = "function b() {}\n\nfunction c() {}\n";
        assert_eq!(deleted(src, function("b")).unwrap(), "function c() {}\n");
    }

    #[test]
    fn an_element_sharing_its_lines_with_another_is_not_deleted() {
        let src = "function a() {} function b() {}\n";
        let refused = deleted(src, function("a")).unwrap_err().to_string();
        assert!(
            refused.contains("function a shares its lines with function b (at 0:16)"),
            "{refused}"
        );
        let src = "class A { m() {} n() {} }\n";
        let method = CodeTarget::Method {
            class: "A".into(),
            name: "m".into(),
            params: None,
        };
        assert!(deleted(src, method).is_err());
        // its own members and the class around it are not in the way
        let src = "class A {\n  m() { const f = () => 1; }\n}\nclass B {}\n";
        assert_eq!(
            deleted(src, CodeTarget::Class { name: "A".into() }).unwrap(),
            "class B {}\n"
        );
    }

    #[test]
    fn code_keeps_its_relative_indentation_in_the_files_unit() {
        // four spaces in the code, a tab in the file
        assert_eq!(
            reindent("f() {\n    if (x) {\n        g();\n    }\n}", "\t", "\t"),
            "\tf() {\n\t\tif (x) {\n\t\t\tg();\n\t\t}\n\t}\n"
        );
        // indentation lost: rebuilt from the braces
        assert_eq!(
            reindent("f() {\nif (x) {\ng();\n}\n}", "  ", "  "),
            "  f() {\n    if (x) {\n      g();\n    }\n  }\n"
        );
    }

    #[test]
    fn a_files_unit_is_its_most_common_step_after_an_opening_brace() {
        let text = Rope::from_str("class A {\n    m() {\n        x();\n    }\n}\n");
        assert_eq!(indent_unit(&text, "  "), "    ");
        assert_eq!(indent_unit(&Rope::from_str("x();\n"), "\t"), "\t");
    }

    #[test]
    fn block_comments_wrap_at_72_columns_and_doc_comments_take_the_languages_form() {
        let long = "word ".repeat(30);
        let wrapped = line_comments(&long, "  ", "//", Some(72));
        assert!(wrapped.len() > 1);
        assert!(wrapped
            .iter()
            .all(|l| l.len() <= 72 && l.starts_with("  // ")));
        assert_eq!(
            doc_comment("One.\n\nTwo.", "", DocComment::Block),
            ["/**", " * One.", " *", " * Two.", " */"]
        );
        assert_eq!(
            doc_comment("One.", "    ", DocComment::Lines("///")),
            ["    /// One."]
        );
        // a comment's end inside the text cannot end it early
        assert_eq!(
            doc_comment("a */ b", "", DocComment::Block),
            ["/** a *\\/ b */"]
        );
    }
}
