//! A symbol's uses kept file by file, so that after a file's new text a
//! query resolves that file alone and merges it with every other file's
//! kept verdicts ([`super::resolve`] makes and refreshes them,
//! [`super::memo`] keeps them with the answer).
//!
//! A verdict of a use (certain, possible, another's) depends on its
//! file's own text, the layout (its module and what its imports bind),
//! the symbol's names ([`Context`]: read from the symbol's file and, in
//! ES modules, from the files that re-export it) and, in the families
//! whose modules share their names (Go, Java), whether the module of a
//! name defines it over the files the query reads ([`KeptFile::asked`]).
//! So a file's kept verdicts hold across another file's new text when
//! the layout is kept (the family resolves by paths), the symbol's file
//! is not the changed one, no re-export may change (ES: the changed
//! file's re-exports are the same in both texts) — else the answer is
//! resolved whole —
//! and each module-defines answer the file asked is the same over the
//! new files read: a file whose answer changed is resolved again.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use super::family::ModuleKey;
use super::TagsEntry;

/// A module, its package clause (or any), a name: "does the module
/// define the name at its level?".
pub(super) type Asked = (ModuleKey, Option<String>, String);

/// What every file's uses of a module-level symbol (or of its member)
/// are resolved against.
pub(super) struct Context {
    /// The name of the module-level definition it is or is a member of.
    pub top: String,
    /// Whether the symbol is that definition (not a member).
    pub is_top: bool,
    /// The symbol's module.
    pub module: ModuleKey,
    /// The names that denote the module-level definition.
    pub aliases: HashSet<(ModuleKey, String)>,
    /// Those of them that are its own name (see `Names::own`).
    pub own_names: HashSet<(ModuleKey, String)>,
    /// The words a file of uses spells.
    pub words: Vec<String>,
}

/// The verdicts of every file a query read, by path.
pub(super) struct Kept {
    pub context: Arc<Context>,
    pub files: Vec<KeptFile>,
}

/// One file's verdicts.
pub(super) struct KeptFile {
    /// The file as it was read (its path, its scan).
    pub entry: Arc<TagsEntry>,
    /// Its uses, in the answer's uses (sorted by path, then position).
    pub uses: Range<usize>,
    /// What its verdicts asked of the other files read, with the answers.
    pub asked: Box<[(Asked, bool)]>,
    /// Whether its verdicts read declarations of other files (Go: the
    /// types of fields, results and variables a value's type is inferred
    /// from): any new text may change them, so it is resolved again.
    pub inferred: bool,
}
