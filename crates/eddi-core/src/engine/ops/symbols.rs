//! The project index operations: definitions, references and callers of a
//! symbol, and the modules that import a file, as [`Location`]s.
//!
//! They run on the index `Engine::with_index` prepares (fresh, with the
//! sender's unsaved buffers laid over it); the sites' lines are read only
//! when asked ([`add_context`]), as reading them costs a file per path.

use crate::analysis::index::{
    tags, Call, IndexError, Location as IndexLocation, ProjectIndex, SymbolCandidate,
};
use crate::edit::Position;

use super::super::query::SiteLines;
use super::super::{lock, Engine};
use super::{DefinitionSite, ErrorKind, Location, OpError, Span, Uses};

/// The index operations for clients other than the terse commands (the
/// agent tools, scripts): in `sender`'s view of the project (its unsaved
/// buffers included), every site with its line.
impl Engine {
    pub fn find_definition(
        &self,
        sender: &str,
        symbol: &str,
    ) -> Result<Vec<DefinitionSite>, OpError> {
        self.in_index(sender, |index, current, lines| {
            let mut found = find_definition(index, symbol, current)?;
            found.retain(|d| self.can_see(sender, &d.location.path));
            if found.is_empty() {
                return Err(not_found(symbol));
            }
            add_definition_context(&mut found, lines);
            Ok(found)
        })
    }

    pub fn find_references(&self, sender: &str, symbol: &str) -> Result<Uses, OpError> {
        self.in_index(sender, |index, current, lines| {
            let mut uses = find_references(index, symbol, current, lines)?;
            uses.sites.retain(|site| self.can_see(sender, &site.path));
            add_context(&mut uses.sites, lines, true);
            Ok(uses)
        })
    }

    pub fn find_callers(&self, sender: &str, function: &str) -> Result<Uses, OpError> {
        self.in_index(sender, |index, current, lines| {
            let mut uses = find_callers(index, function, current)?;
            uses.sites.retain(|site| self.can_see(sender, &site.path));
            add_context(&mut uses.sites, lines, true);
            Ok(uses)
        })
    }

    /// `get_dependents`: the module of `path` and the project's modules
    /// that import it, each with its file.
    pub fn dependents_of(
        &self,
        sender: &str,
        path: &str,
    ) -> Result<(String, Vec<Dependent>), OpError> {
        self.config
            .permissions
            .check_read(&self.workspace, sender, path)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let resolved = self
            .workspace
            .resolve(path)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        self.in_index(sender, |index, _, _| {
            let (module, files) = dependents(index, resolved.as_str()).ok_or_else(|| {
                OpError::new(
                    ErrorKind::NotFound,
                    format!("{resolved} is not a module of the project (not a Python file under an import root)"),
                )
            })?;
            let files = files
                .into_iter()
                .filter(|(_, file)| file.as_deref().is_some_and(|f| self.can_see(sender, f)))
                .collect();
            Ok((module, files))
        })
    }

    /// `get_dependencies` of a JavaScript, TypeScript, Go, Rust or Java
    /// file: what it imports, resolved by the project index.
    pub fn module_imports_of(
        &self,
        sender: &str,
        path: &str,
    ) -> Result<crate::analysis::index::tags::FileImports, OpError> {
        self.config
            .permissions
            .check_read(&self.workspace, sender, path)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        let resolved = self
            .workspace
            .resolve(path)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e.to_string()))?;
        let Some(live) = self.live_of(sender) else {
            return Err(OpError::new(
                ErrorKind::NoSession,
                "No session. Start one with: Start <name>",
            ));
        };
        let live = lock(&live);
        self.module_imports(sender, &live.session, resolved.as_str())
            .ok_or_else(|| {
                OpError::new(
                    ErrorKind::NotFound,
                    format!("{resolved} is not a JavaScript, TypeScript, Go, Rust or Java file of the project index"),
                )
            })
    }

    /// Whether `sender`'s path prefixes let it see `path`: a project-wide
    /// query shows only the sites in files the sender may read.
    pub(crate) fn can_see(&self, sender: &str, path: &str) -> bool {
        self.config
            .permissions
            .check_read(&self.workspace, sender, path)
            .is_ok()
    }

    /// Runs `query` on the sender's view of the index, with its current
    /// file (a query asked from it prefers its project's symbols).
    fn in_index<R>(
        &self,
        sender: &str,
        query: impl FnOnce(&ProjectIndex, Option<&str>, &mut SiteLines<'_>) -> Result<R, OpError>,
    ) -> Result<R, OpError> {
        let Some(live) = self.live_of(sender) else {
            return Err(OpError::new(
                ErrorKind::NoSession,
                "No session. Start one with: Start <name>",
            ));
        };
        let live = lock(&live);
        let current = live.session.current_buffer().map(|b| b.path().to_string());
        self.with_index(&live.session, |index, _, lines| {
            query(index, current.as_deref(), lines)
        })
    }
}

/// A module that imports another, and its file (when the index knows it).
pub type Dependent = (String, Option<String>);

fn not_found(symbol: &str) -> OpError {
    OpError::new(ErrorKind::NotFound, format!("Not found: '{symbol}'"))
}

/// Which index a query runs on: Python's modules, or the brace
/// languages' files ([`tags`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Python,
    Braces,
}

/// The index that defines `symbol`: the current file's language's first
/// (the other when it does not define it); asked from no file, the one
/// that defines it, and when both do, an ambiguity naming each.
fn side(index: &ProjectIndex, symbol: &str, current: Option<&str>) -> Result<Side, OpError> {
    let braces = || index.tags().find_definition(index.root(), symbol, current);
    let defines = |found: &Result<Vec<crate::analysis::index::Definition>, IndexError>| {
        found.as_ref().is_ok_and(|d| !d.is_empty())
    };
    let python = || python_definition(index, symbol, current);
    let python_defines = |found: &Result<Vec<DefinitionSite>, OpError>| found.is_ok();
    let python_silent = |found: &Result<Vec<DefinitionSite>, OpError>| matches!(found, Err(e) if e.kind == ErrorKind::NotFound);
    Ok(match current {
        Some(path) if tags::reads(path) => match braces() {
            Err(IndexError::NotFound { .. }) if python_defines(&python()) => Side::Python,
            _ => Side::Braces,
        },
        Some(_) => match python() {
            found
                if python_silent(&found)
                    && !matches!(braces(), Err(IndexError::NotFound { .. })) =>
            {
                Side::Braces
            }
            _ => Side::Python,
        },
        None => {
            let (py, br) = (python(), braces());
            match (py, br) {
                (Ok(py), Ok(br)) if !br.is_empty() => {
                    let mut candidates: Vec<SymbolCandidate> = py
                        .iter()
                        .map(|d| SymbolCandidate {
                            qualified_name: d.qualified_name.clone(),
                            full_name: d.qualified_name.clone(),
                            path: d.location.path.clone(),
                            project: index.project_of(&d.location.path).unwrap_or("").to_string(),
                            position: d.location.span.start,
                        })
                        .collect();
                    candidates.extend(br.iter().map(|d| SymbolCandidate {
                        qualified_name: d.qualified_name.clone(),
                        full_name: d.qualified_name.clone(),
                        path: d.location.path.clone(),
                        project: String::new(),
                        position: d.location.position,
                    }));
                    return Err(IndexError::Ambiguous {
                        name: symbol.to_string(),
                        candidates,
                    }
                    .into());
                }
                (py, br) if python_silent(&py) && defines(&br) => Side::Braces,
                (py, Err(e @ IndexError::Ambiguous { .. })) if python_silent(&py) => {
                    return Err(e.into())
                }
                _ => Side::Python,
            }
        }
    })
}

/// Where the project defines `symbol`; a dotted module name is found as
/// the module (its file, at `0:0`).
pub fn find_definition(
    index: &ProjectIndex,
    symbol: &str,
    current: Option<&str>,
) -> Result<Vec<DefinitionSite>, OpError> {
    let braces = || {
        index
            .tags()
            .find_definition(index.root(), symbol, current)
            .map(definition_sites)
            .map_err(OpError::from)
    };
    if current.is_none() {
        // every definition of the name, in either index
        return match (python_definition(index, symbol, current), braces()) {
            (Ok(mut py), Ok(br)) => {
                py.extend(br);
                Ok(py)
            }
            (Err(e), Err(_)) => Err(e),
            (Ok(found), Err(_)) | (Err(_), Ok(found)) => Ok(found),
        };
    }
    match side(index, symbol, current)? {
        Side::Python => python_definition(index, symbol, current),
        Side::Braces => braces(),
    }
}

/// The brace languages' definitions as sites.
fn definition_sites(found: Vec<crate::analysis::index::Definition>) -> Vec<DefinitionSite> {
    found
        .into_iter()
        .map(|d| {
            let name = last_part(&d.qualified_name);
            let end = Span::of_name(d.name_position, name).end;
            DefinitionSite {
                kind: d.kind.noun(),
                location: Location {
                    path: d.location.path,
                    span: Span {
                        start: d.location.position,
                        end,
                    },
                    certain: true,
                    in_symbol: None,
                    context: None,
                },
                qualified_name: d.qualified_name,
            }
        })
        .collect()
}

fn python_definition(
    index: &ProjectIndex,
    symbol: &str,
    current: Option<&str>,
) -> Result<Vec<DefinitionSite>, OpError> {
    match index.find_definition_from(symbol, current) {
        Ok(found) if found.is_empty() => Err(not_found(symbol)),
        Ok(found) => Ok(found
            .into_iter()
            .map(|d| {
                let name = last_part(&d.qualified_name);
                let end = Span::of_name(d.name_position, name).end;
                DefinitionSite {
                    kind: d.kind.noun(),
                    location: Location {
                        path: d.location.path,
                        span: Span {
                            start: d.location.position,
                            end,
                        },
                        certain: true,
                        in_symbol: None,
                        context: None,
                    },
                    qualified_name: d.qualified_name,
                }
            })
            .collect()),
        Err(e) => match index.path_of_module_from(symbol, current)? {
            Some(path) => Ok(vec![DefinitionSite {
                qualified_name: symbol.to_owned(),
                kind: "module",
                location: Location {
                    path: path.to_owned(),
                    span: Span {
                        start: Position::new(0, 0),
                        end: Position::new(0, 0),
                    },
                    certain: true,
                    in_symbol: None,
                    context: None,
                },
            }]),
            None => Err(e.into()),
        },
    }
}

/// The uses of `symbol`, certain then possible. A name the project no
/// longer defines (renamed in its own file) still has uses in other files:
/// they come back as unresolved uses, not as `NotFound`.
pub fn find_references(
    index: &ProjectIndex,
    symbol: &str,
    current: Option<&str>,
    lines: &mut SiteLines<'_>,
) -> Result<Uses, OpError> {
    let found = match side(index, symbol, current)? {
        // a constructor is referred to by the calls that construct with it
        Side::Braces if index.tags().names_constructor(symbol, current) => index
            .tags()
            .find_callers(index.root(), symbol, current)
            .map(|callers| crate::analysis::index::References {
                definitions: callers.definitions,
                certain: callers.certain.into_iter().map(|c| c.location).collect(),
                possible: callers.possible.into_iter().map(|c| c.location).collect(),
                aliased: Vec::new(),
            }),
        Side::Braces => index.tags().find_references(index.root(), symbol, current),
        Side::Python => index.find_references_from(symbol, current),
    };
    match found {
        Ok(found) => {
            let site = |certain: bool| {
                move |l: &crate::analysis::index::Location| Location {
                    path: l.path.clone(),
                    span: Span::of_name(l.position, last_part(symbol)),
                    certain,
                    in_symbol: None,
                    context: None,
                }
            };
            let (keys, unknown_keys) = literal_keys(index, &found, lines);
            let mut sites: Vec<Location> = found.certain.iter().map(site(true)).collect();
            sites.extend(keys.iter().map(site(true)));
            sites.extend(found.possible.iter().map(site(false)));
            sites.extend(unknown_keys.iter().map(site(false)));
            sites.sort_by(|a, b| {
                (!a.certain, &a.path, a.span.start).cmp(&(!b.certain, &b.path, b.span.start))
            });
            sites.dedup_by(|a, b| a.path == b.path && a.span.start == b.span.start);
            Ok(Uses {
                sites,
                unresolved: false,
            })
        }
        Err(e) => unresolved(index, symbol, false, e),
    }
}

/// A Go or Rust field's keys in the struct literals and patterns of its
/// type (`T{Name: "x"}`, `T { name }`), which the index's member uses do
/// not hold: certain where the literal's type is the field's, possible
/// where it cannot be told (`[]any{{Name: 1}}`) or is a type declared as
/// the field's (`type A = P;`, `A { x: 1 }`). Only files spelling both
/// the field and the type are read: a literal of the type spells it.
fn literal_keys(
    index: &ProjectIndex,
    found: &crate::analysis::index::References,
    lines: &mut SiteLines<'_>,
) -> (Vec<IndexLocation>, Vec<IndexLocation>) {
    let (mut certain, mut possible) = (Vec::new(), Vec::new());
    let [field] = found.definitions.as_slice() else {
        return (certain, possible);
    };
    let language = crate::language::language_of(&field.location.path);
    let Some(language) = language.filter(|l| matches!(l.id(), "go" | "rust")) else {
        return (certain, possible);
    };
    let mut names = field.qualified_name.rsplit('.');
    let (Some(name), Some(class)) = (names.next(), names.next()) else {
        return (certain, possible);
    };
    if field.kind != crate::analysis::outline::SymbolKind::Attribute {
        return (certain, possible);
    }
    let tags = index.tags();
    let family = tags::family::family_id(language);
    // (a literal of a type declared as the class, `type A = P;`: possible)
    let aliases = tags.aliases_of(family, class);
    for entry in tags.files_with(family, &[name], false) {
        let alias_names: Vec<&str> = aliases
            .iter()
            .flat_map(|a| entry.file().names_of(a))
            .filter(|a| !entry.file().refs_named(a).is_empty())
            .collect();
        if entry.file().refs_named(class).is_empty() && alias_names.is_empty() {
            continue;
        }
        let Some(text) = lines.text(&entry.path) else {
            continue;
        };
        let Ok(tree) = crate::analysis::SyntaxTree::parse_language(entry.language, text) else {
            continue;
        };
        let (mut keys, mut unknown) = (Vec::new(), Vec::new());
        // the type's own names (certain keys), then its aliases' (possible)
        let written = (entry.file().names_of(class).map(|n| (n, true)))
            .chain(alias_names.into_iter().map(|n| (n, false)));
        for (written, certain) in written {
            let (k, u) = crate::language::rename::field_keys(
                entry.language,
                text,
                &tree,
                written,
                name,
                &Default::default(),
            );
            match certain {
                true => keys.extend(k),
                false => unknown.extend(k.into_iter().map(|(k, _)| k)),
            }
            unknown.extend(u);
        }
        let at = |offset: usize| {
            let line = text.char_to_line(offset);
            let position = Position::new(line, offset - text.line_to_char(line));
            IndexLocation {
                path: entry.path.to_string(),
                position,
                end: Position::new(line, position.col + name.chars().count()),
            }
        };
        let not_the_field =
            |l: &IndexLocation| l.path != field.location.path || l.position != field.name_position;
        certain.extend(keys.iter().map(|&(k, _)| at(k)).filter(not_the_field));
        possible.extend(unknown.iter().map(|&k| at(k)).filter(not_the_field));
    }
    (certain, possible)
}

/// The calls of `function`, each with the function or class it is in.
pub fn find_callers(
    index: &ProjectIndex,
    function: &str,
    current: Option<&str>,
) -> Result<Uses, OpError> {
    let found = match side(index, function, current)? {
        Side::Braces => index.tags().find_callers(index.root(), function, current),
        Side::Python => index.find_callers_from(function, current),
    };
    match found {
        Ok(found) => {
            let mut sites: Vec<Location> = found
                .certain
                .iter()
                .map(|c| call_site(c, function, true))
                .collect();
            sites.extend(found.possible.iter().map(|c| call_site(c, function, false)));
            Ok(Uses {
                sites,
                unresolved: false,
            })
        }
        Err(e) => unresolved(index, function, true, e),
    }
}

/// The module of `path` and the project's modules that import it, each
/// with its file (asked by path: two projects may have its module name).
pub fn dependents(index: &ProjectIndex, path: &str) -> Option<(String, Vec<Dependent>)> {
    if tags::reads(path) {
        let (module, found) = index.tags().dependents(index.root(), path)?;
        let found = found.into_iter().map(|(m, p)| (m, Some(p))).collect();
        return Some((module, found));
    }
    let module = index.module_of(path)?.to_owned();
    let dependents = index.dependents(path).ok()?;
    let found = dependents.into_iter().map(|d| (d.module, d.path)).collect();
    Some((module, found))
}

/// Fills each site's `context` with its line; for uses (`name_at_start`),
/// also its end with the end of the name written there (the index keeps
/// where a use starts only).
pub fn add_context(sites: &mut [Location], lines: &mut SiteLines<'_>, name_at_start: bool) {
    for site in sites {
        let Some(line) = lines.raw_line(&site.path, site.span.start.line) else {
            continue;
        };
        let written = line
            .chars()
            .skip(site.span.start.col)
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .count();
        if name_at_start && written > 0 {
            site.span.end = Position::new(site.span.start.line, site.span.start.col + written);
        }
        site.context = Some(super::super::output::site_line(&line));
    }
}

/// [`add_context`] for definitions: each one's line.
pub fn add_definition_context(found: &mut [DefinitionSite], lines: &mut SiteLines<'_>) {
    for definition in found {
        add_context(std::slice::from_mut(&mut definition.location), lines, false);
    }
}

fn call_site(call: &Call, function: &str, certain: bool) -> Location {
    Location {
        path: call.location.path.clone(),
        span: Span::of_name(call.location.position, last_part(function)),
        certain,
        in_symbol: Some(call.caller.clone().unwrap_or_else(|| "<module>".to_owned())),
        context: None,
    }
}

fn unresolved(
    index: &ProjectIndex,
    symbol: &str,
    calls_only: bool,
    error: IndexError,
) -> Result<Uses, OpError> {
    if matches!(error, IndexError::NotFound { .. }) {
        let left = index.find_unresolved(symbol, calls_only);
        if !left.is_empty() {
            return Ok(Uses {
                sites: left
                    .iter()
                    .map(|c| Location {
                        in_symbol: None,
                        ..call_site(c, symbol, true)
                    })
                    .collect(),
                unresolved: true,
            });
        }
    }
    Err(error.into())
}

/// `C.m` → `m`, `f(x)` → `f`: the name as a site writes it.
fn last_part(symbol: &str) -> &str {
    let symbol = symbol.split('(').next().unwrap_or(symbol).trim();
    symbol.rsplit('.').next().unwrap_or(symbol)
}
