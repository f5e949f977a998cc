//! What a refactor is asked to do, as plain data: the command language
//! parses `Refactor …` into a [`Refactoring`] (`commands::command` re-exports
//! these types), the agent tools build one from their JSON parameters.

use super::Cursor;

/// A refactoring and the place it works from, so that a client names the
/// file (and line) of a request instead of moving a session's cursor there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub refactoring: Refactoring,
    /// The file (and position) the request works in: where a plain name is
    /// looked up first, whose lines an extraction moves, from whose scope
    /// `Inline_Variable` starts. `None`: the requesting session's current
    /// file and cursor (what a `Refactor …` command means).
    pub place: Option<Cursor>,
}

impl Located {
    /// A request that works in the session's current file.
    pub fn here(refactoring: Refactoring) -> Located {
        Located {
            refactoring,
            place: None,
        }
    }
}

/// One refactoring request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Refactoring {
    /// `Refactor RenameSymbol <name> <new> [Include Text] [Include Possible | Only Proven]`,
    /// `Refactor Rename_Class <Old> <New> [Include Text] [Include Possible | Only Proven]`.
    Rename {
        kind: RenameKind,
        /// Plain (`chunked`), dotted (`Parameter.get_default`) or fully
        /// qualified (`pkg.mod.Class.method`).
        symbol: String,
        new_name: String,
        /// Also change mentions in strings, comments and docstring prose.
        include_text: bool,
        /// What to do with the uses the index cannot prove.
        #[serde(default)]
        sites: SitePolicy,
    },
    /// `Refactor Rename_Param <function> <param> <new> [Include Text] [Only Proven]`.
    RenameParam {
        function: String,
        param: String,
        new_name: String,
        /// Also change the parameter's mentions in the function's strings
        /// and comments (its docstring's `:param timeout:`).
        #[serde(default)]
        include_text: bool,
        #[serde(default)]
        sites: SitePolicy,
    },
    /// `Refactor Signature <f>(<old params>) <f>(<new params>) [Only Proven]`:
    /// the parameter lists as written, without the parentheses.
    Signature {
        function: String,
        old_params: String,
        new_params: String,
        #[serde(default)]
        sites: SitePolicy,
    },
    /// `Refactor Extract_Method <name> lines <a>:<b>`,
    /// `Refactor ExtractFunction <name> lines <a>:<b>`: zero-based,
    /// inclusive lines of the current file.
    Extract {
        kind: ExtractKind,
        name: String,
        first_line: usize,
        last_line: usize,
    },
    /// `Refactor Inline_Variable <name>` (the variable visible from the
    /// cursor's scope), `Refactor InlineFunction <name>`.
    Inline { kind: InlineKind, name: String },
    /// `Refactor Extract_Interface <Class> <Interface> [Protocol]`: an
    /// abstract base class declaring the class's public methods, placed
    /// right above it and added to its bases; with `protocol`, a
    /// `typing.Protocol` the class matches structurally (its bases stay).
    ExtractInterface {
        /// Plain (`PaymentProcessor`), dotted or fully qualified.
        class: String,
        interface: String,
        #[serde(default)]
        protocol: bool,
    },
    /// `Refactor Change_Inheritance <Class> <OldParent> <NewParent>`: the
    /// base `old_parent` of the class becomes `new_parent`, in its place
    /// among the bases; imports and explicit `OldParent.m(self, …)` calls
    /// follow.
    ChangeInheritance {
        /// Plain, dotted or fully qualified.
        class: String,
        /// As the class statement writes it, or the class's (qualified) name.
        old_parent: String,
        /// A project class (plain, dotted or qualified) or a builtin class.
        new_parent: String,
    },
    /// `Refactor Pull_Up <Class.member,…>`: the members move from the
    /// class to its one base class of the project.
    PullUp {
        /// `Class.member` (or qualified), every one of the same class.
        members: Vec<String>,
    },
    /// `Refactor Push_Down <Class.member>`: the member moves from the
    /// class into each of its direct subclasses in the project.
    PushDown {
        /// `Class.member` (or qualified).
        member: String,
    },
    /// `Refactor Merge_Classes <Class1> <Class2> <Target>`: one class of
    /// both, in `first`'s place, named `target`; every reference to
    /// either names it.
    MergeClasses {
        first: String,
        second: String,
        target: String,
    },
    /// `Refactor Move_Method <Class.method> <Target>` (or the spec's
    /// `Class.method() Target.name()`): the method moves to `target`, a
    /// class it reaches through a `self` attribute or a parameter, named
    /// `name` there (its own name when `None`).
    MoveMethod {
        /// `Class.method` (or qualified).
        method: String,
        target: String,
        name: Option<String>,
    },
    /// `Refactor Split_Class <Class> <NewClass> <member,…>`: the members
    /// (held by the class itself) move to a new class below it; every
    /// reference names the new class.
    SplitClass {
        class: String,
        new_class: String,
        members: Vec<String>,
    },
    /// `Refactor ExtractClass <Class> <NewClass> <member,…>`: the methods
    /// move to a new class the class holds and delegates to.
    ExtractClass {
        class: String,
        new_class: String,
        members: Vec<String>,
    },
}

/// What a refactor does with a *possible* use: one that may be the symbol
/// or something else of the same name (an attribute of a value whose type
/// the index does not know, while another class has a member of that
/// name). Uses it proves are always changed; uses it infers (no other
/// definition of that name could be meant) are changed and listed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SitePolicy {
    /// Refuse the refactor, listing the possible uses: nothing is written.
    #[default]
    Refuse,
    /// `Include Possible`: change them too.
    IncludePossible,
    /// `Only Proven`: leave them; the reply names them as places where the
    /// project may be broken.
    OnlyProven,
}

impl SitePolicy {
    /// The option's words in a command (`Include Possible`), empty for the
    /// default.
    pub fn words(self) -> &'static str {
        match self {
            SitePolicy::Refuse => "",
            SitePolicy::IncludePossible => "Include Possible",
            SitePolicy::OnlyProven => "Only Proven",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RenameKind {
    /// Any symbol: function, class, method, variable, attribute.
    Symbol,
    /// Only a class (`Rename_Class`): anything else is not found.
    Class,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ExtractKind {
    /// A new method of the enclosing class, called through `self` (or `cls`).
    Method,
    /// A new module-level function.
    Function,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum InlineKind {
    Variable,
    Function,
}

impl Refactoring {
    /// The name the command language (and the spec) gives it.
    pub fn spec_name(&self) -> &'static str {
        self.kind().keyword
    }

    /// The names of the project's code it looks up (functions, classes,
    /// members), as written: what a "Not found" may be about.
    pub fn names(&self) -> Vec<&str> {
        match self {
            Refactoring::Rename { symbol: name, .. }
            | Refactoring::RenameParam { function: name, .. }
            | Refactoring::Signature { function: name, .. }
            | Refactoring::Inline { name, .. }
            | Refactoring::ExtractInterface { class: name, .. }
            | Refactoring::ChangeInheritance { class: name, .. }
            | Refactoring::PushDown { member: name }
            | Refactoring::MoveMethod { method: name, .. }
            | Refactoring::SplitClass { class: name, .. }
            | Refactoring::ExtractClass { class: name, .. } => vec![name],
            Refactoring::MergeClasses { first, second, .. } => vec![first, second],
            Refactoring::PullUp { members } => members.iter().map(String::as_str).collect(),
            Refactoring::Extract { .. } => Vec::new(),
        }
    }

    /// What the request says to do with the uses it cannot prove.
    pub fn site_policy(&self) -> SitePolicy {
        match self {
            Refactoring::Rename { sites, .. }
            | Refactoring::RenameParam { sites, .. }
            | Refactoring::Signature { sites, .. } => *sites,
            Refactoring::Extract { .. }
            | Refactoring::Inline { .. }
            | Refactoring::ExtractInterface { .. }
            | Refactoring::ChangeInheritance { .. }
            | Refactoring::PullUp { .. }
            | Refactoring::PushDown { .. }
            | Refactoring::MergeClasses { .. }
            | Refactoring::MoveMethod { .. }
            | Refactoring::SplitClass { .. }
            | Refactoring::ExtractClass { .. } => SitePolicy::Refuse,
        }
    }
}
