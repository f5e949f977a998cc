//! What a file of a brace language imports, resolved by its family's
//! module system ([`super::family`]) as the queries resolve it: each
//! source with the names it binds, and the project files of the module it
//! names — none for a module from outside (a package, the standard
//! library, another crate) or one the index cannot find.

use std::path::Path;

use super::family::{family_of, Bound, Files};
use super::scan::{ImportKind, Imported};
use super::TagsIndex;

/// One source a file imports from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleImport {
    /// As written: a specifier, an import path, a package, a `::` path.
    pub source: String,
    pub kind: ImportForm,
    /// The names it binds in the file, in order (`*`: every one).
    pub names: Vec<String>,
    /// The project files of the module it names (empty: from outside, or
    /// not found), sorted.
    pub files: Vec<String>,
    /// The label of the module it names, when the project has it.
    pub module: Option<String>,
}

/// How a file imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportForm {
    /// A static import (`import`, `use`).
    Import,
    /// CommonJS `require(…)`.
    Require,
    /// An ES re-export (`export … from`).
    ReExport,
    /// Java's `import static`.
    StaticMember,
}

impl ImportForm {
    pub fn word(self) -> &'static str {
        match self {
            ImportForm::Import => "import",
            ImportForm::Require => "require",
            ImportForm::ReExport => "re-export",
            ImportForm::StaticMember => "static import",
        }
    }
}

/// A file's module and what it imports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileImports {
    /// The file's module, by its label.
    pub module: String,
    pub imports: Vec<ModuleImport>,
}

impl FileImports {
    /// The sources that name project files.
    pub fn internal(&self) -> impl Iterator<Item = &ModuleImport> {
        self.imports.iter().filter(|i| !i.files.is_empty())
    }

    /// The sources from outside the project (or not found in it).
    pub fn external(&self) -> impl Iterator<Item = &ModuleImport> {
        self.imports.iter().filter(|i| i.files.is_empty())
    }
}

impl TagsIndex {
    /// What the file at `path` imports; `None` when the index does not
    /// hold it.
    pub fn imports_of(&self, root: &Path, path: &str) -> Option<FileImports> {
        let entry = self.entry(path)?;
        let family = family_of(entry.language)?;
        let family_id = entry.family_id()?;
        let paths = self.family_paths(family_id);
        let files = Files {
            root,
            paths: &paths,
            index: self,
        };
        let file = entry.file();
        let mut imports: Vec<ModuleImport> = Vec::new();
        for (i, import) in file.imports.iter().enumerate() {
            // a Rust `mod` block's import of the file's own module (`use
            // super::*` in `mod tests`) is not a dependency of the file
            let own = file.block_imports.iter().any(|(j, _)| *j == i)
                && import.source.split("::").next() == Some("self");
            if own {
                continue;
            }
            let kind = match import.kind {
                ImportKind::Static => ImportForm::Import,
                ImportKind::Require | ImportKind::RequireReassigned => ImportForm::Require,
                // (read as a dependency where a declaration binds it)
                ImportKind::Dynamic => continue,
                ImportKind::ReExport => ImportForm::ReExport,
                ImportKind::Member => ImportForm::StaticMember,
            };
            let name = match &import.imported {
                Imported::All => "*".to_string(),
                _ => import.local.clone(),
            };
            if let Some(known) = imports
                .iter_mut()
                .find(|i| i.source == import.source && i.kind == kind)
            {
                known.names.push(name);
                continue;
            }
            let module = match family.bound(&files, path, file, import) {
                Bound::Item(m, _) | Bound::Module(m) => Some(m),
                Bound::Unknown => None,
            };
            let found = match &module {
                Some(m) => family.module_files(&files, m),
                None => Vec::new(),
            };
            let label = found
                .first()
                .and_then(|p| Some(family.label(p, self.entry(p)?.file().package.as_deref())));
            imports.push(ModuleImport {
                source: import.source.clone(),
                kind,
                names: vec![name],
                files: found,
                module: label,
            });
        }
        Some(FileImports {
            module: family.label(path, file.package.as_deref()),
            imports,
        })
    }
}
