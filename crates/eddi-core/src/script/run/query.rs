//! Queries: a [`Query`] to the elements it names, sorted by file and
//! place, each data ([`Element`]).
//!
//! Where they look: `function`, `class`, `import`, `symbol` and `line`
//! inside a `foreach` of files look in that file; inside a `foreach` of
//! functions or classes, within that element; elsewhere in every Python
//! file the sender may read (`line in range` outside any: the current
//! file). `caller of`/`call to` and `class implementing` ask the index
//! (call sites it resolves to the function — not same-named methods —
//! and subclasses through aliases); `methods in C` and `class C` look a
//! class up by name or qualified name.

use std::ops::Range;
use std::rc::Rc;

use tree_sitter::Node;

use crate::analysis::index::tags;
use crate::analysis::outline::{Symbol, SymbolKind as OutlineKind};
use crate::analysis::syntax::{byte_to_char, char_to_byte, node_text};
use crate::edit::position::{from_char, line_of, to_char};
use crate::edit::Position;
use crate::failure::{ErrorKind, OpError};

use super::super::ast::{ElementKind, Query, Source, Span, Subject, SymbolKind, Var};
use super::element::{Detail, Element};
use super::parsed::{call_parts, CallParts, CallSite, Parsed};
use super::{Failed, Interpreter, Result};

/// Where a query looks.
enum Scope {
    Project,
    File(String),
    Within(String, Range<usize>),
}

/// The kind of elements a source yields (for an empty result).
pub(super) fn kind_of(source: &Source, interpreter: &Interpreter<'_>) -> ElementKind {
    match source {
        Source::Callers(_) | Source::Calls(_) => ElementKind::Call,
        Source::Methods(_) => ElementKind::Method,
        Source::Functions(_) => ElementKind::Function,
        Source::Classes(_) | Source::ClassesImplementing(_) => ElementKind::Class,
        Source::Files { .. } => ElementKind::File,
        Source::Lines { .. } => ElementKind::Line,
        Source::Symbols(_) => ElementKind::Symbol,
        Source::Imports => ElementKind::Import,
        Source::Match(_) => ElementKind::Match,
        Source::Variable(var) => interpreter
            .earlier
            .iter()
            .find(|d| d.name == var.name)
            .and_then(|d| super::super::words::element(&d.kind))
            .unwrap_or(ElementKind::Function),
    }
}

impl Interpreter<'_> {
    pub(super) fn query(&mut self, query: &Query, binding: Option<&Var>) -> Result<Vec<Element>> {
        let at = query.span;
        let fail = |error: OpError| Failed {
            at,
            error,
            stop: false,
            named: false,
        };
        let found = match &query.source {
            Source::Files { glob } => self.files(&glob.text).map_err(fail)?,
            Source::Functions(name) => self
                .definitions(
                    name.as_ref().map(|n| n.text.as_str()),
                    &[OutlineKind::Function, OutlineKind::Method],
                    ElementKind::Function,
                )
                .map_err(fail)?,
            Source::Classes(name) => self
                .definitions(
                    name.as_ref().map(|n| n.text.as_str()),
                    &[OutlineKind::Class],
                    ElementKind::Class,
                )
                .map_err(fail)?,
            Source::Symbols(kind) => match kind {
                SymbolKind::Function => self.definitions(
                    None,
                    &[OutlineKind::Function, OutlineKind::Method],
                    ElementKind::Symbol,
                ),
                SymbolKind::Class => {
                    self.definitions(None, &[OutlineKind::Class], ElementKind::Symbol)
                }
                SymbolKind::Variable => {
                    self.definitions(None, &[OutlineKind::Variable], ElementKind::Symbol)
                }
            }
            .map_err(fail)?,
            Source::Methods(subject) => {
                let classes = self.subject_classes(subject).map_err(fail)?;
                let mut methods = Vec::new();
                for class in classes {
                    methods.extend(self.methods_of(&class, at)?);
                }
                methods
            }
            Source::ClassesImplementing(subject) => {
                let names: Vec<String> = match subject {
                    Subject::Name(name) => vec![name.text.clone()],
                    Subject::Var(var) => {
                        let held = self.variable(var)?;
                        held.iter().map(|c| self.indexed_name(c)).collect()
                    }
                };
                let mut classes = Vec::new();
                for name in names {
                    for (path, position) in self.project.subclasses_of(&name).map_err(fail)? {
                        let parsed = self.parse(&path).map_err(fail)?;
                        let version = self.version(&path);
                        let Some(position) = self.position_now(&path, position) else {
                            continue;
                        };
                        if let Some(symbol) = parsed
                            .outline
                            .symbols
                            .iter()
                            .find(|s| s.kind == OutlineKind::Class && s.position == position)
                        {
                            classes.push(definition(
                                &path,
                                &parsed,
                                symbol,
                                version,
                                ElementKind::Class,
                            ));
                        }
                    }
                }
                classes
            }
            Source::Callers(subject) | Source::Calls(subject) => {
                self.calls(subject).map_err(|mut f| {
                    f.at = at;
                    f
                })?
            }
            Source::Imports => self.imports().map_err(fail)?,
            Source::Lines { first, last } => self.lines(*first, *last).map_err(fail)?,
            Source::Variable(var) => self.variable(var)?.as_ref().clone(),
            Source::Match(code) => self.matches(code)?,
        };
        let mut found = found;
        if matches!(query.source, Source::Match(_)) {
            // inner matches first: an outer one's replacement sees theirs
            found.sort_by(|a, b| {
                (&a.path, a.span.end, std::cmp::Reverse(a.span.start)).cmp(&(
                    &b.path,
                    b.span.end,
                    std::cmp::Reverse(b.span.start),
                ))
            });
        } else {
            found.sort_by(|a, b| {
                (&a.path, a.span.start, a.span.end).cmp(&(&b.path, b.span.start, b.span.end))
            });
        }
        found.dedup();
        let Some(filter) = &query.filter else {
            return Ok(found);
        };
        let mut kept = Vec::new();
        for element in found {
            self.current.push(element.clone());
            let mut bound = Self::capture_scope(&element);
            if let Some(var) = binding {
                bound.push((var.name.clone(), Rc::new(vec![element.clone()])));
            }
            self.scopes.push(bound);
            let holds = self.condition(filter, &element);
            self.scopes.pop();
            self.current.pop();
            if holds? {
                kept.push(element);
            }
        }
        Ok(kept)
    }

    /// The methods of a class, in source order.
    pub(super) fn methods_of(&mut self, class: &Element, at: Span) -> Result<Vec<Element>> {
        let fail = |error: OpError| Failed {
            at,
            error,
            stop: false,
            named: false,
        };
        let parsed = self.parse(&class.path).map_err(fail)?;
        let span = self.span_now(class, at)?;
        let version = self.version(&class.path);
        let mut methods = Vec::new();
        for symbol in &parsed.outline.symbols {
            let in_class = parsed
                .outline
                .parent(symbol)
                .is_some_and(|p| p.kind == OutlineKind::Class && p.definition.start == span.start);
            if symbol.kind == OutlineKind::Method && in_class {
                methods.push(definition(
                    &class.path,
                    &parsed,
                    symbol,
                    version,
                    ElementKind::Method,
                ));
            }
        }
        Ok(methods)
    }

    /// The imports of a file, one element per name bound.
    pub(super) fn imports_of(&mut self, path: &str) -> std::result::Result<Vec<Element>, OpError> {
        let parsed = self.parse(path)?;
        Ok(import_elements(path, &parsed, self.version(path)))
    }

    /// Where `function`, `class`, `import`, `symbol` and `line` look.
    fn scope(&self) -> std::result::Result<Scope, OpError> {
        let Some(element) = self.current.last() else {
            return Ok(Scope::Project);
        };
        match element.kind {
            ElementKind::File => Ok(Scope::File(element.path.clone())),
            ElementKind::Function | ElementKind::Method | ElementKind::Class => {
                let span = self
                    .snapshot
                    .map(&element.path, element.version, element.span.clone())
                    .unwrap_or(element.span.clone());
                Ok(Scope::Within(element.path.clone(), span))
            }
            _ => Ok(Scope::File(element.path.clone())),
        }
    }

    pub(super) fn scoped_files(
        &self,
    ) -> std::result::Result<(Vec<String>, Option<Range<usize>>), OpError> {
        Ok(match self.scope()? {
            Scope::Project => (self.project.files()?, None),
            Scope::File(path) => (vec![path], None),
            Scope::Within(path, span) => (vec![path], Some(span)),
        })
    }

    fn files(&mut self, glob: &str) -> std::result::Result<Vec<Element>, OpError> {
        // A glob without `/` is matched against the file's name, anywhere
        // in the tree (`test_*.py`); with one, against its path.
        let on_name = !glob.contains('/');
        let matcher = globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map_err(|e| {
                OpError::new(
                    ErrorKind::InvalidArgument,
                    format!("invalid glob '{glob}': {}", e.kind()),
                )
            })?
            .compile_matcher();
        let matching: Vec<String> = self
            .project
            .files()?
            .into_iter()
            .filter(|path| {
                let name = path.rsplit('/').next().unwrap_or(path);
                matcher.is_match(if on_name { name } else { path.as_str() })
            })
            .collect();
        self.parse_all(&matching)?;
        let mut found = Vec::new();
        for path in matching {
            let parsed = self.parse(&path)?;
            found.push(file_element(&path, &parsed, self.version(&path)));
        }
        Ok(found)
    }

    /// Functions, methods, classes or variables (`kinds`) named `name`
    /// (its name or qualified name), or all, where the query looks.
    fn definitions(
        &mut self,
        name: Option<&str>,
        kinds: &[OutlineKind],
        as_kind: ElementKind,
    ) -> std::result::Result<Vec<Element>, OpError> {
        let (files, within) = self.scoped_files()?;
        self.parse_all(&files)?;
        let mut found = Vec::new();
        for path in files {
            let parsed = self.parse(&path)?;
            let version = self.version(&path);
            for symbol in &parsed.outline.symbols {
                if !kinds.contains(&symbol.kind) {
                    continue;
                }
                if let Some(name) = name {
                    if symbol.name != name && symbol.qualified_name != name {
                        continue;
                    }
                }
                if let Some(span) = &within {
                    let inside =
                        symbol.definition.start > span.start && symbol.definition.end <= span.end;
                    if !inside {
                        continue;
                    }
                }
                found.push(definition(&path, &parsed, symbol, version, as_kind));
            }
        }
        if found.is_empty() {
            if let Some(name) = name {
                return Err(OpError::new(
                    ErrorKind::NotFound,
                    format!(
                        "no {} named '{name}' in the files the script reads",
                        as_kind.word()
                    ),
                ));
            }
        }
        Ok(found)
    }

    /// The classes a subject names.
    fn subject_classes(&mut self, subject: &Subject) -> std::result::Result<Vec<Element>, OpError> {
        match subject {
            Subject::Var(var) => Ok(self.variable(var).map_err(|f| f.error)?.as_ref().clone()),
            Subject::Name(name) => {
                let current = std::mem::take(&mut self.current);
                let found =
                    self.definitions(Some(&name.text), &[OutlineKind::Class], ElementKind::Class);
                self.current = current;
                found
            }
        }
    }

    /// The name the index knows a definition by: Python's
    /// `module.Class.f`, the brace languages' `label.Class.f`
    /// (`web.util.fmt`, [`tags::full_name_of`]).
    pub(super) fn indexed_name(&mut self, element: &Element) -> String {
        if tags::reads(&element.path) {
            let parsed = self.parse(&element.path).ok();
            let full = parsed.and_then(|parsed| {
                let text = &parsed.text;
                tags::full_name_of(
                    &element.path,
                    &element.qualified_name,
                    parsed.tree.root(),
                    |range| text.byte_slice(range).to_string(),
                )
            });
            return full.unwrap_or_else(|| element.qualified_name.clone());
        }
        match self.project.module_of(&element.path) {
            Some(module) if !module.is_empty() => format!("{module}.{}", element.qualified_name),
            _ => element.qualified_name.clone(),
        }
    }

    /// The calls of the subject, as the index resolves them. Calls it can
    /// neither prove nor exclude refuse the query, named.
    fn calls(&mut self, subject: &Subject) -> Result<Vec<Element>> {
        let at = match subject {
            Subject::Name(name) => name.span,
            Subject::Var(var) => var.span,
        };
        let fail = |error: OpError| Failed {
            at,
            error,
            stop: false,
            named: false,
        };
        // each name, with the file of the definition a variable holds
        let names: Vec<(String, Option<String>)> = match subject {
            Subject::Name(name) => vec![(name.text.trim_end_matches("()").to_owned(), None)],
            Subject::Var(var) => {
                let held = self.variable(var)?;
                held.iter()
                    .map(|e| match tags::reads(&e.path) {
                        // the brace languages' index names it as code
                        // targets print it, its file picking among same names
                        true => (e.qualified_name.clone(), Some(e.path.clone())),
                        false => (self.indexed_name(e), None),
                    })
                    .collect()
            }
        };
        let (files, within) = match self.scope().map_err(fail)? {
            Scope::Project => (None, None),
            Scope::File(path) => (Some(path), None),
            Scope::Within(path, span) => (Some(path), Some(span)),
        };
        let mut found = Vec::new();
        for (name, defined_in) in names {
            // inside a foreach of files (or of functions), that file's calls
            let calls = self
                .project
                .calls_of(&name, defined_in.as_deref(), files.as_deref())
                .map_err(fail)?;
            if calls.possible > 0 {
                let sites: Vec<String> = calls
                    .possible_named
                    .iter()
                    .map(|(path, at)| format!("{path}:{}", at.line + 1))
                    .collect();
                return Err(Failed::new(
                    at,
                    ErrorKind::NotApplicable,
                    format!(
                        "the index cannot prove {} call(s) of {name} ({}): a script changes proven calls only and refuses to guess; make them provable, or change them by hand",
                        calls.possible,
                        sites.join(", ")
                    ),
                ));
            }
            for (path, position) in calls.proven {
                let parsed = self.parse(&path).map_err(fail)?;
                let version = self.version(&path);
                // the index answers for the files as read (`call to
                // old.f` still finds the calls an earlier statement's
                // import change rebinds); in a file an earlier statement
                // edited, each call is followed to where it is now — left
                // out if an edit took its callee's first char
                let Some(position) = self.position_now(&path, position) else {
                    continue;
                };
                let Some(call) = call_at(&path, &parsed, position, version) else {
                    // a brace language's index counts as calls what is no
                    // call expression (a JSX element, a Rust macro): never
                    // left out in silence
                    if !parsed.is_python() && version == 0 {
                        return Err(Failed::new(
                            at,
                            ErrorKind::NotApplicable,
                            format!(
                                "{path}:{}: the index finds a use of {name} there that a script does not read as a call (a JSX element, a macro, a tagged template): change it by hand, or leave {name} as it is",
                                position.line + 1
                            ),
                        ));
                    }
                    continue;
                };
                let inside = within.as_ref().is_none_or(|w| {
                    let span = self.snapshot.map(&path, version, call.span.clone());
                    span.is_ok_and(|s| s.start >= w.start && s.end <= w.end)
                });
                if inside {
                    found.push(call);
                }
            }
        }
        Ok(found)
    }

    /// Where `position`, in the file as it was read, is in its text now:
    /// `None` when an edit since removed or replaced the char there.
    fn position_now(&self, path: &str, position: Position) -> Option<Position> {
        let Some(doc) = self.snapshot.get(path).filter(|d| d.version() > 0) else {
            return Some(position);
        };
        let at = to_char(&doc.original, position).ok()?;
        let now = self.snapshot.map(path, 0, at..at + 1).ok()?;
        (now.end == now.start + 1).then(|| from_char(&doc.text, now.start))
    }

    fn imports(&mut self) -> std::result::Result<Vec<Element>, OpError> {
        let (files, within) = self.scoped_files()?;
        let project_wide = self.current.is_empty();
        let files = self.python_files(files, project_wide, "import")?;
        self.parse_all(&files)?;
        let mut found = Vec::new();
        for path in files {
            let parsed = self.parse(&path)?;
            let version = self.version(&path);
            found.extend(
                import_elements(&path, &parsed, version)
                    .into_iter()
                    .filter(|e| {
                        within
                            .as_ref()
                            .is_none_or(|w| e.span.start >= w.start && e.span.end <= w.end)
                    }),
            );
        }
        Ok(found)
    }

    /// Lines `first..=last` (1-based) of the file the query looks in, or
    /// the current file.
    fn lines(&mut self, first: usize, last: usize) -> std::result::Result<Vec<Element>, OpError> {
        let path = match self.current.last() {
            Some(element) => element.path.clone(),
            None => self
                .project
                .cursor()
                .map(|(path, _)| path)
                .ok_or_else(|| OpError::new(ErrorKind::NotApplicable, "line in range reads the current file, and none is open: Open one, or write foreach file matching \"…\" { foreach line in range a:b … }"))?,
        };
        let text = self.doc_text(&path)?;
        let version = self.version(&path);
        let count = crate::analysis::lines::count(&text);
        if first == 0 || first > last || last > count {
            return Err(OpError::new(
                ErrorKind::OutOfRange,
                format!("line in range {first}:{last}: {path} has lines 1:{count}"),
            ));
        }
        Ok((first..=last)
            .map(|number| {
                let start = text.line_to_char(number - 1);
                let line = text.line(number - 1).to_string();
                let end = start + line.trim_end_matches(['\n', '\r']).chars().count();
                Element {
                    kind: ElementKind::Line,
                    path: path.clone(),
                    span: start..end,
                    version,
                    line: number,
                    name: number.to_string(),
                    qualified_name: number.to_string(),
                    detail: Detail::Line { number },
                }
            })
            .collect())
    }
}

/// The element at the cursor (see `Interpreter::here`).
pub(super) fn at_cursor(
    interpreter: &mut Interpreter<'_>,
    path: &str,
    position: Position,
) -> std::result::Result<Element, OpError> {
    let parsed = interpreter.parse(path)?;
    let version = interpreter.version(path);
    let offset = to_char(&parsed.text, position).unwrap_or(0);
    // on a line of imports: the name at (or last before) the cursor
    let on_line: Vec<Element> = import_elements(path, &parsed, version)
        .into_iter()
        .filter(|e| from_char(&parsed.text, e.span.start).line == position.line)
        .collect();
    let name_at = |e: &Element| {
        parsed
            .scopes()
            .bindings
            .iter()
            .find(|b| b.statement.start == e.span.start && b.name == e.name)
            .map_or(e.span.start, |b| b.range.start)
    };
    let chosen = on_line
        .iter()
        .rfind(|e| name_at(e) <= offset)
        .or(on_line.first());
    if let Some(import) = chosen {
        return Ok(import.clone());
    }
    let around = parsed
        .outline
        .symbols
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                OutlineKind::Function | OutlineKind::Method | OutlineKind::Class
            )
        })
        .rfind(|s| s.full.start <= offset && offset < s.full.end.max(s.definition.end));
    Ok(match around {
        Some(symbol) => {
            let kind = match symbol.kind {
                OutlineKind::Class => ElementKind::Class,
                OutlineKind::Method => ElementKind::Method,
                _ => ElementKind::Function,
            };
            definition(path, &parsed, symbol, version, kind)
        }
        None => file_element(path, &parsed, version),
    })
}

fn file_element(path: &str, parsed: &Parsed, version: usize) -> Element {
    Element {
        kind: ElementKind::File,
        path: path.to_owned(),
        span: 0..parsed.text.len_chars(),
        version,
        line: 1,
        name: path.rsplit('/').next().unwrap_or(path).to_owned(),
        qualified_name: path.to_owned(),
        detail: Detail::File {
            line_count: crate::analysis::lines::count(&parsed.text),
            complexity: parsed.file_complexity(),
        },
    }
}

fn definition(
    path: &str,
    parsed: &Parsed,
    symbol: &Symbol,
    version: usize,
    kind: ElementKind,
) -> Element {
    let text = &parsed.text;
    let parent = parsed.outline.parent(symbol);
    let class = parent
        .filter(|p| p.kind == OutlineKind::Class)
        .map(|p| p.name.clone());
    let is_method = symbol.kind == OutlineKind::Method;
    let params: Vec<String> = symbol
        .param_names
        .iter()
        .enumerate()
        .filter(|(i, p)| !(is_method && *i == 0 && (*p == "self" || *p == "cls")))
        .map(|(_, p)| p.clone())
        .collect();
    let first = line_of(text, symbol.definition.start);
    let last = line_of(text, symbol.definition.end);
    let bases = match symbol.kind {
        OutlineKind::Class => class_bases(parsed, symbol),
        _ => Vec::new(),
    };
    let detail = match symbol.kind {
        OutlineKind::Variable | OutlineKind::Attribute | OutlineKind::Local => Detail::Variable {
            full: symbol.full.clone(),
        },
        _ => Detail::Definition {
            full: symbol.full.clone(),
            params,
            decorators: symbol.decorators.clone(),
            class,
            bases,
            complexity: parsed.complexity_of(symbol),
            line_count: last - first + 1,
            indent: symbol.indent,
        },
    };
    Element {
        kind,
        path: path.to_owned(),
        span: symbol.definition.clone(),
        version,
        line: symbol.position.line + 1,
        name: symbol.name.clone(),
        qualified_name: symbol.qualified_name.clone(),
        detail,
    }
}

/// A class's bases as written.
fn class_bases(parsed: &Parsed, symbol: &Symbol) -> Vec<String> {
    let Some(node) = crate::analysis::outline::symbol_node(&parsed.text, &parsed.tree, symbol)
    else {
        return Vec::new();
    };
    let Some(arguments) = node.child_by_field_name("superclasses") else {
        return Vec::new();
    };
    let mut cursor = arguments.walk();
    arguments
        .named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .map(|n| node_text(&parsed.text, n))
        .collect()
}

/// Every name the file's imports bind, one element each (its span: the
/// whole import statement).
fn import_elements(path: &str, parsed: &Parsed, version: usize) -> Vec<Element> {
    parsed
        .imports()
        .iter()
        .filter(|import| !import.star)
        .map(|import| {
            let names: Vec<String> = parsed
                .imports()
                .iter()
                .filter(|other| other.statement == import.statement)
                .map(|other| other.name.clone().unwrap_or_else(|| other.module.clone()))
                .collect();
            let module = format!("{}{}", ".".repeat(import.level), import.module);
            Element {
                kind: ElementKind::Import,
                path: path.to_owned(),
                span: import.statement.clone(),
                version,
                line: from_char(&parsed.text, import.statement.start).line + 1,
                name: import.bound.clone(),
                qualified_name: import.describe(),
                detail: Detail::Import {
                    module,
                    names,
                    bound: import.bound.clone(),
                    unused: parsed.is_unused(import),
                    top_level: import.top_level,
                },
            }
        })
        .collect()
}

/// The call whose callee holds `position` (where the index puts a call
/// site: the callee's name).
fn call_at(path: &str, parsed: &Parsed, position: Position, version: usize) -> Option<Element> {
    let site = parsed.call_at(position, || find_call(parsed, position))?;
    Some(call_element(path, site, version))
}

fn call_element(path: &str, site: CallSite, version: usize) -> Element {
    Element {
        kind: ElementKind::Call,
        path: path.to_owned(),
        span: site.span,
        version,
        line: site.line,
        name: site
            .callee
            .rsplit('.')
            .next()
            .unwrap_or(&site.callee)
            .to_owned(),
        qualified_name: site.callee.clone(),
        detail: Detail::Call {
            function: site.callee,
            arguments: site.arguments,
        },
    }
}

/// The innermost call whose callee holds `position`.
fn find_call(parsed: &Parsed, position: Position) -> Option<CallSite> {
    let text = &parsed.text;
    let offset = to_char(text, position).ok()?;
    let byte = char_to_byte(text, offset);
    // down from the root along the nodes that hold `byte`, keeping the
    // innermost call whose callee holds it (up from the leaf, each
    // `parent()` would walk down from the root again)
    let mut cursor = parsed.tree.root().walk();
    let mut innermost = None;
    loop {
        let node = cursor.node();
        if let Some(parts) = call_parts(parsed.language, node) {
            if parts.callee.start <= byte && byte <= parts.callee.end {
                innermost = Some((node, parts));
            }
        }
        if cursor.goto_first_child_for_byte(byte).is_none() {
            break;
        }
    }
    let (node, parts) = innermost?;
    Some(call_site(parsed, node, parts))
}

fn call_site(parsed: &Parsed, node: Node<'_>, parts: CallParts<'_>) -> CallSite {
    let text = &parsed.text;
    let start = byte_to_char(text, node.start_byte());
    CallSite {
        span: start..byte_to_char(text, node.end_byte()),
        line: from_char(text, start).line + 1,
        callee: text.byte_slice(parts.callee).to_string(),
        arguments: call_arguments(text, parts.arguments),
    }
}

/// A call's arguments as written.
pub(super) fn call_arguments(text: &ropey::Rope, list: Option<Node<'_>>) -> Vec<String> {
    let Some(list) = list else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .map(|n| node_text(text, n))
        .collect()
}
