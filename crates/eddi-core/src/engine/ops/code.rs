//! The operations on one code file: an element's code (`get_function`,
//! `get_class`) in any language with code targets, the file's structure
//! as a tree (of a file in any registered language: its language's
//! outline), and — in a language with the code analyses (Python) —
//! complexity figures, dependencies and TODOs, computed from the analysis
//! layer's outline and report, nothing recomputed.

use ropey::Rope;

use crate::analysis::dependencies::Dependencies;
use crate::analysis::index::module_path::ImportRoots;
use crate::analysis::index::tags;
use crate::analysis::issues::{Issue, IssueConfig, IssueKind};
use crate::analysis::outline::{self, display_name, lookup, Outline, Symbol, SymbolKind};
use crate::analysis::target::CodeTarget;
use crate::analysis::validate::SyntaxError;
use crate::analysis::{Analysis, AnalysisError, Report, SyntaxTree};
use crate::edit::position;
use crate::language::{self, Capability};
use crate::workspace::{FileError, WorkspacePath};

use super::super::{lock, Engine};
use super::{BlockComplexity, ComplexityReport, Element, ErrorKind, OpError, Span, StructureNode};

/// The per-file operations for clients other than the terse commands (the
/// agent tools, scripts): on any code file of the workspace, as `sender`
/// sees it (its buffer when open, unsaved changes included, else the disk).
impl Engine {
    /// `get_function` / `get_class`: the element's code and range.
    pub fn get_element(
        &self,
        sender: &str,
        path: &str,
        target: &CodeTarget,
    ) -> Result<Element, OpError> {
        let file = self.code_file(sender, path)?.for_target(Some(target));
        let symbol = file.symbol(target)?;
        Ok(element(&file.text, &file.outline, symbol, &file.path))
    }

    /// `get_structure`: the file as a tree, in any language with an
    /// outline.
    pub fn structure(&self, sender: &str, path: &str) -> Result<StructureNode, OpError> {
        let path = self.readable_path(sender, path)?;
        let text = self.text_as_seen(sender, &path)?;
        let Some(language) = language_of_text(&path, &text) else {
            return Err(not_code(&path, None));
        };
        let tree = SyntaxTree::parse_language(language, &text).map_err(OpError::from)?;
        Ok(file_structure(
            &language.outline(&text, &tree),
            path.as_str(),
        ))
    }

    /// `get_complexity`: the file's (or one element's) figures.
    pub fn complexity(
        &self,
        sender: &str,
        path: &str,
        target: Option<&CodeTarget>,
    ) -> Result<ComplexityReport, OpError> {
        let file = self.code_file(sender, path)?.for_target(target);
        let language = file.tree.language();
        if let (Some(points), false) = (language.decision_points(), language.code_analyses()) {
            let symbol = target.map(|t| file.symbol(t)).transpose()?;
            return Ok(counted_complexity(
                &file.text,
                &file.tree,
                &file.outline,
                symbol,
                &points,
            ));
        }
        let file = self.analysed_file(sender, path, "the complexity analysis")?;
        let report = file.report(target)?;
        Ok(complexity(&file.outline, &report))
    }

    /// What the file (or one element) uses.
    pub fn dependencies(
        &self,
        sender: &str,
        path: &str,
        target: Option<&CodeTarget>,
    ) -> Result<Dependencies, OpError> {
        let file = self.analysed_file(sender, path, "the dependency analysis")?;
        Ok(file.report(target)?.dependencies)
    }

    /// `get_todos`: the file's TODO/FIXME comments, in order.
    pub fn todos(&self, sender: &str, path: &str) -> Result<Vec<Issue>, OpError> {
        let file = self.code_file(sender, path)?;
        let language = file.tree.language();
        if let (Some(checks), false) = (language.issue_checks(), language.code_analyses()) {
            let found = crate::language::issues::issues(&file.text, &file.tree, checks);
            return Ok(found
                .into_iter()
                .filter(|i| i.kind == IssueKind::Todo)
                .collect());
        }
        let report = self
            .analysed_file(sender, path, "the TODO search")?
            .report(None)?;
        Ok(report
            .issues
            .into_iter()
            .filter(|i| i.kind == IssueKind::Todo)
            .collect())
    }

    /// `validate`: the file's syntax errors (none: it compiles).
    pub fn syntax_errors(&self, sender: &str, path: &str) -> Result<Vec<SyntaxError>, OpError> {
        let file = self.code_file(sender, path)?;
        let language = file.tree.language();
        let Some(check) = language.syntax_check() else {
            let why = super::super::unsupported(
                &file.path,
                Some(language),
                Capability::SyntaxCheck,
                "code operations",
            );
            return Err(OpError::new(
                ErrorKind::InvalidArgument,
                why.unwrap_or_default(),
            ));
        };
        Ok(check(&file.text, &file.tree))
    }

    /// The files of the workspace in a language with symbol sites (under
    /// the folder `under`) that `sender` may read, sorted.
    pub fn code_files(&self, sender: &str, under: Option<&str>) -> Result<Vec<String>, OpError> {
        self.files_supporting(sender, under, Capability::SymbolSites)
    }

    /// [`Self::code_files`] of the languages with the code analyses: the
    /// files `get_complexity` and `get_todos` read.
    pub fn analysed_files(
        &self,
        sender: &str,
        under: Option<&str>,
    ) -> Result<Vec<String>, OpError> {
        self.files_supporting(sender, under, Capability::CodeAnalyses)
    }

    /// [`Self::code_files`] of the languages whose potential issues Eddi
    /// finds: the files `get_todos` of a folder reads.
    pub fn checked_files(&self, sender: &str, under: Option<&str>) -> Result<Vec<String>, OpError> {
        self.files_supporting(sender, under, Capability::Issues)
    }

    /// [`Self::code_files`] of the languages whose complexity Eddi counts:
    /// the files `get_complexity` of a folder reads.
    pub fn measured_files(
        &self,
        sender: &str,
        under: Option<&str>,
    ) -> Result<Vec<String>, OpError> {
        self.files_supporting(sender, under, Capability::Complexity)
    }

    fn files_supporting(
        &self,
        sender: &str,
        under: Option<&str>,
        capability: Capability,
    ) -> Result<Vec<String>, OpError> {
        let files = self
            .workspace
            .list(under)
            .map_err(|e| OpError::new(ErrorKind::InvalidArgument, e))?;
        Ok(files
            .into_iter()
            .filter(|f| language::supporting(f, capability).is_some())
            .filter(|f| {
                self.config
                    .permissions
                    .check_read(&self.workspace, sender, f)
                    .is_ok()
            })
            .collect())
    }

    /// The path of a file `sender` may read.
    fn readable_path(&self, sender: &str, given: &str) -> Result<WorkspacePath, OpError> {
        self.config
            .permissions
            .check_read(&self.workspace, sender, given)
            .map_err(|denied| OpError::new(ErrorKind::PermissionDenied, denied))?;
        self.workspace.resolve(given).map_err(file_error)
    }

    /// The text of `path` as `sender` sees it: its buffer when open
    /// (unsaved changes included), else the disk.
    fn text_as_seen(&self, sender: &str, path: &WorkspacePath) -> Result<Rope, OpError> {
        let open = self.live_of(sender).and_then(|live| {
            let live = lock(&live);
            live.session.buffers.get(path).map(|b| b.text().clone())
        });
        match open {
            Some(text) => Ok(text),
            None => Ok(Rope::from_str(
                &self.workspace.read(path).map_err(file_error)?.text,
            )),
        }
    }

    /// A file in a language with the code analyses, for `what` (`the
    /// complexity analysis`): a failure naming the language otherwise.
    fn analysed_file(&self, sender: &str, given: &str, what: &str) -> Result<CodeFile, OpError> {
        let file = self.code_file(sender, given)?;
        let language = file.tree.language();
        match super::super::not_yet(&file.path, language, Capability::CodeAnalyses, what) {
            Some(why) => Err(OpError::new(ErrorKind::InvalidArgument, why)),
            None => Ok(file),
        }
    }

    fn code_file(&self, sender: &str, given: &str) -> Result<CodeFile, OpError> {
        let path = self.readable_path(sender, given)?;
        let text = self.text_as_seen(sender, &path)?;
        let language = language_of_text(&path, &text);
        let sites = language.and_then(|language| language.symbol_sites());
        let (Some(language), Some(sites)) = (language, sites) else {
            return Err(not_code(&path, language));
        };
        let tree = SyntaxTree::parse_language(language, &text).map_err(OpError::from)?;
        let mut outline = sites(&text, &tree);
        if let Some(locals) = language.local_sites() {
            locals(&mut outline, &text, &tree);
        }
        let module = module_name(self.workspace.root(), &path, &text, &tree);
        Ok(CodeFile {
            path: path.to_string(),
            is_init: path.file_name() == "__init__.py",
            text,
            tree,
            outline,
            module,
        })
    }
}

/// A code file as the per-file operations read it.
struct CodeFile {
    path: String,
    is_init: bool,
    text: Rope,
    tree: SyntaxTree,
    outline: Outline,
    module: String,
}

impl CodeFile {
    /// The file with what `target` may name beyond its outline's symbols:
    /// the functions without a name of their own (`f.<anonymous@3:8>`).
    fn for_target(mut self, target: Option<&CodeTarget>) -> CodeFile {
        let language = self.tree.language();
        if let Some(points) = language.decision_points() {
            if target.is_some_and(CodeTarget::names_inner_function) {
                crate::language::inner_functions::add_inner_functions(
                    &mut self.outline,
                    &self.text,
                    &self.tree,
                    &points,
                );
            }
        }
        self
    }

    /// The one symbol `target` names.
    fn symbol(&self, target: &CodeTarget) -> Result<&Symbol, OpError> {
        lookup(
            &self.outline,
            &local_target(&self.outline, &self.module, target),
        )
        .map_err(OpError::from)
    }

    fn report(&self, target: Option<&CodeTarget>) -> Result<Report, OpError> {
        let config = IssueConfig {
            package_init: self.is_init,
            ..IssueConfig::default()
        };
        let target = match target {
            Some(target) => Some(self.symbol(target)?),
            None => None,
        }
        .map(|s| outline::working_form(&self.outline, s));
        Analysis::new(&self.text, &self.tree)
            .report(&self.text, &self.tree, target.as_ref(), &config)
            .map_err(OpError::from)
    }
}

/// The target as the file's outline names it: a name the project index
/// printed (`pkg.mod.C.m`) loses its module prefix when only that form
/// resolves.
pub fn local_target(outline: &Outline, module: &str, target: &CodeTarget) -> CodeTarget {
    if matches!(lookup(outline, target), Err(AnalysisError::NotFound { .. })) {
        let local = outline::without_module(target, module);
        if local != *target && lookup(outline, &local).is_ok() {
            return local;
        }
    }
    target.clone()
}

/// The name of the module `path` is (Python's dotted module; a brace
/// language's label, as its index names it): the prefix a full name the
/// index printed carries ([`local_target`] drops it).
pub fn module_name(
    root: &std::path::Path,
    path: &WorkspacePath,
    text: &Rope,
    tree: &SyntaxTree,
) -> String {
    let label = tags::module_label_of(path.as_str(), tree.root(), |bytes| {
        text.byte_slice(bytes).to_string()
    });
    label.unwrap_or_else(|| {
        ImportRoots::new(root)
            .module_name(path.as_str())
            .map(|(module, _)| module)
            .unwrap_or_default()
    })
}

/// The failure of a code operation on a file whose language has no code
/// targets.
fn not_code(path: &WorkspacePath, language: Option<&dyn language::Language>) -> OpError {
    let why = super::super::unsupported(
        path.as_str(),
        language,
        Capability::SymbolSites,
        "code operations",
    );
    OpError::new(ErrorKind::InvalidArgument, why.unwrap_or_default())
}

pub(super) fn file_error(error: FileError) -> OpError {
    let kind = match error {
        FileError::NotFound(_) => ErrorKind::NotFound,
        FileError::PermissionDenied(_) | FileError::Io { .. } => ErrorKind::Unavailable,
        _ => ErrorKind::InvalidArgument,
    };
    OpError::new(kind, error.to_string())
}

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
        file_hash: super::files::text_hash(text),
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

/// The structure of the file `path` from its language's outline: every
/// element with its members, in source order.
pub fn file_structure(outline: &language::Outline, path: &str) -> StructureNode {
    StructureNode {
        kind: "file",
        name: path.to_owned(),
        form: path.to_owned(),
        is_async: false,
        span: None,
        children: entry_members(outline, None),
    }
}

/// The structure of the element at `index` of a language's outline: it
/// and its members, in source order.
pub fn entry_structure(outline: &language::Outline, index: usize) -> StructureNode {
    let entry = &outline.entries[index];
    StructureNode {
        kind: entry.kind,
        name: entry.name.clone(),
        form: entry.form.clone(),
        is_async: entry.is_async,
        span: Some(Span {
            start: entry.start,
            end: entry.end,
        }),
        children: entry_members(outline, Some(index)),
    }
}

/// The elements of a language's outline directly in `parent` (`None`: at
/// the top level), each with its members.
fn entry_members(outline: &language::Outline, parent: Option<usize>) -> Vec<StructureNode> {
    outline
        .children(parent)
        .map(|(i, _)| entry_structure(outline, i))
        .collect()
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

/// The complexity figures of a brace language's file or element, counted
/// as lizard counts them ([`crate::language::complexity`]).
pub fn counted_complexity(
    text: &Rope,
    tree: &SyntaxTree,
    outline: &Outline,
    subject: Option<&Symbol>,
    points: &crate::language::complexity::DecisionPoints,
) -> ComplexityReport {
    let (total, blocks) =
        crate::language::complexity::figures(text, tree, outline, subject, points);
    ComplexityReport {
        subject: subject.map(|s| node(outline, s)),
        total,
        blocks: blocks
            .into_iter()
            .map(|(name, complexity)| BlockComplexity { name, complexity })
            .collect(),
    }
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

/// The language of a file by its extension, else by its `#!` line.
fn language_of_text(
    path: &crate::workspace::WorkspacePath,
    text: &ropey::Rope,
) -> Option<&'static dyn language::Language> {
    let first: String = text
        .lines()
        .next()
        .map_or_else(String::new, |line| line.chars().take(256).collect());
    language::language_of_source(path.as_str(), first.trim_end())
}
