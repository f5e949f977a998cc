//! The refactoring tools: rename a symbol or a parameter, change a
//! signature, extract a method or a function, inline a variable or a
//! function, extract an interface from a class, change a class's base, pull
//! members up to the base or push them down to the subclasses, merge two
//! classes, move a method to another class, split a class, extract a
//! delegate class — each one [`Refactoring`] handed to the engine's typed
//! operation [`Engine::refactor`], previewed (nothing changes) or applied
//! (one commit of every file, one undo step).
//!
//! A tool only builds the request and says where it works: the refactors
//! that work in "the current file" (extractions, `inline_variable`, and
//! the lookup of plain names) carry the tool's `path` (and
//! `inline_variable` its `line`) as the request's place, which the engine
//! checks as `Open` and `Goto` would — the session's current file and
//! cursor do not move. An error names the tool parameter at fault from the
//! argument it carries (the kind's entry in `refactor::kinds` names the
//! parameter), never from its message. What a refactor computed
//! is the JSON the terse `Refactor …` replies carry (`RefactorReport::json`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::commands::Effect;
use crate::edit::Position;
use crate::engine::ops::OpError;
use crate::engine::{Engine, RefactorFault, RefactorMode, RefactorReport};
use crate::refactor::{
    Cursor, ExtractKind, InlineKind, Located, Refactoring, RenameKind, SitePolicy,
};

use super::{Tool, ToolError};

/// What every refactoring tool's description ends with: the two modes and
/// the result.
macro_rules! modes {
    () => {
        " With `preview: true` nothing changes (read-only, whatever the tool's hints say) and the result's `files` carry each file's unified `diff`; with `preview: false` every file is written at once (all or nothing, refused if any check fails) as one undo step — the `undo` tool takes the whole change back — and `files` lists the files changed with their `edits`. Both return `summary` (the counts), `left_alone` (uses it could not prove and did not change, each with `why`) and `mentions` (the name in strings and comments, not changed). Refused before anything is written when a touched file has unsaved edits or would get a syntax error."
    };
}

pub const RENAME_SYMBOL: &str = concat!(
    "Rename a function, class, method, variable or attribute across the project at the uses the index proves or infers (definitions, references, imports, keyword arguments, overrides in subclasses; not text search), refusing by default when some use may be another symbol's. Python, and JavaScript, TypeScript, Go, Rust and Java names other files can use (exports, package-level names, methods with the overrides and implementations renamed with them). Use it instead of edit_lines or `Modify … Rename` (eddi) whenever the name is used outside its own lines. An unknown name comes back with the closest names as `candidates`; an ambiguous one with the exact forms that work (`shop.Cart.total`).",
    modes!()
);

pub const RENAME_PARAMETER: &str = concat!(
    "Rename a parameter of a Python function or method and every keyword argument that passes it (`f(item=…)`), in overrides too. Use it instead of editing the def and hunting the calls yourself. An unknown parameter comes back with the function's parameters as `candidates`.",
    modes!()
);

pub const CHANGE_SIGNATURE: &str = concat!(
    "Change a Python function's parameter list — reorder, add, remove, change defaults — and rewrite every call to bind the same way: positional arguments moved, keywords kept, a new parameter's value passed where `name:=value` says so. Give the current list as `old_params` (as the def writes it, without parentheses) and the new one as `new_params`. Use it instead of edit_lines plus find_callers. A call it cannot rewrite safely refuses the whole change; `old_params` that are not the current ones refuse with the current signature (code `conflict`).",
    modes!()
);

pub const EXTRACT_METHOD: &str = concat!(
    "Move lines of a method into a new method of the same class and call it there (`self.name(…)`): the parameters and return values come from the data flow, duplicates of the block in the class are replaced by calls too. Use it instead of cutting and pasting with edit_lines. Lines are zero-based and inclusive, as get_lines numbers them; a range that cuts a statement, or code that returns, breaks or yields in a way a call cannot carry, is refused saying why.",
    modes!()
);

pub const EXTRACT_FUNCTION: &str = concat!(
    "Move lines into a new module-level function and call it in their place: parameters and return values from the data flow, duplicates in the file replaced by calls. Use it instead of cutting and pasting with edit_lines. Lines are zero-based and inclusive, as get_lines numbers them; a range that cuts a statement, or control flow a call cannot carry, is refused saying why.",
    modes!()
);

pub const INLINE_VARIABLE: &str = concat!(
    "Replace a variable assigned once by its value at every use, and remove the assignment (parenthesised where precedence needs it). Name it plainly with the `path` of its file (and, where several functions of the file bind that name, a `line` inside the one you mean), or dotted by its function (`area.scale`, `Cart.total.tax`, with `path`), or qualified by its module (`calc.area.scale`, no `path` needed); an ambiguous name lists the forms that work. Refused when the value could change between the assignment and a use, or the name is exported or rebound.",
    modes!()
);

pub const INLINE_FUNCTION: &str = concat!(
    "Replace every call of a Python function or method by its body, the arguments bound to the parameters, and remove the definition: across the project, imports carried along. Use it to undo an indirection instead of editing each caller. Refused when a call cannot take the body (recursion, a return in the middle, a name the caller would rebind).",
    modes!()
);

pub const EXTRACT_INTERFACE: &str = concat!(
    "Extract an interface from a Python class: an abstract base class (`abc.ABC`, each public method an `@abstractmethod` stub with its exact signature and docstring) placed right above the class in its module, which the class then inherits; with `protocol: true` a `typing.Protocol` the class matches structurally instead (its bases unchanged). Imports are merged in the module's style. Refused, saying why, when the name exists in the module, when the class has no public methods, when a signature cannot be written above the class, or (abstract base only) when a metaclass in the class's hierarchy is not provably compatible with ABCMeta (a custom metaclass, Enum, a base from outside the project such as Django's models.Model): `protocol: true` proceeds there.",
    modes!()
);

pub const CHANGE_INHERITANCE: &str = concat!(
    "Replace one base class of a Python class by another (a project class or a builtin such as `dict`), in the same place among its bases. Imports follow in the module's style (the new parent's added, the old one's dropped when nothing else uses it), and explicit calls through the old base on `self` (`OldParent.__init__(self, …)`, `super(OldParent, self)`) are rewritten. `summary.rerouted` lists each name the class's or a subclass's methods read through `self`/`cls`/`super()` whose lookup now ends in another class. Refused, saying why, when `old_parent` is not a base of the class (the reply lists its bases), `new_parent` is not found or a base already, Python would refuse to create the class or a subclass (no consistent method resolution order: TypeError at import), a name the methods read would no longer be found (AttributeError), the new import would close an import cycle, or an explicit call names a method the new parent lacks.",
    modes!()
);

pub const PULL_UP: &str = concat!(
    "Move members (methods with their decorators, class attributes, nested classes) of a Python class to its one base class in the project, at the end of the base's body; imports follow the code (the target module gains what the moved code reads, the source module loses imports nothing reads any more). `summary.inherited_by` names the base's other subclasses, which now inherit them. Refused, saying why, when the class has not exactly one project base, the base defines a member already, a member reads through `self` what only the class has (listing the reads), a name would mean something else in the base's module or its import would close an import cycle, another subclass of the base would get the moved member in place of the one it finds today, or the code cannot move as text (`self.__x`, `super(C, self)`).",
    modes!()
);

pub const PUSH_DOWN: &str = concat!(
    "Move a member of a Python class into each of its direct subclasses in the project (a subclass that defines it already keeps its own: `summary.kept_own`), removing it from the class; imports follow the code. Refused, listing the sites, when the member is used through the class itself: read through `self` in the class's other methods, by `super().member`, on a receiver typed as the class or of unknown type, or by a string naming it; also when the class itself is instantiated (its instances would lose the member), when the class has no subclass in the project or a `super()` call in the member would reach another class.",
    modes!()
);

pub const MERGE_CLASSES: &str = concat!(
    "Merge two Python classes (of one module or two) into one: the merged class, named `target` (a new name or one of the two), takes the first class's place, in the first class's module, with both bodies (the second's docstring and a lone `pass` aside) and the bases of the one that has any; the second class's statement goes. Every reference to either name in the project (imports — an import naming both names it once —, annotations, `isinstance`, subclasses in other files, `__all__`, tests) names the target. Across modules, imports of the second class from its module import the target from the first's, and what the second class's body reads follows it there. Refused, saying why and changing nothing: an import cycle the new imports would close, a member both define (named with both places), different bases, one deriving from the other or a class deriving from both, a class decorator, a target bound otherwise, a use it cannot prove or a string naming either class (listed), and one class defining `__init__`/`__new__` while the other is instantiated or derived from.",
    modes!()
);

pub const MOVE_METHOD: &str = concat!(
    "Move a Python method to another class it reaches through a `self` attribute the index types as that class (annotated, or assigned `Target(…)` in a method) or through a parameter annotated with it (no default). The method goes to the end of the target's body, rewritten in terms of the target's `self`: what reached the target becomes `self`, what the body still reads of the source comes through a new parameter named after the source class (`user`), a parameter that reached the target leaves the signature; its comments travel with it and imports follow. Every call on a receiver proven to be of the source class (through `self`, typed objects, fixtures, annotations) is rewritten (`u.validate(x)` → `u.validator.validate(u, x)`; `u.notify(m, t)` → `m.notify(u, t)`; through the class, `User.validate(u)` → `u.validator.validate(u)`, and `super().validate()` in a subclass too); when some use cannot be (a receiver of unknown type, the method read as a value, a receiver that would be evaluated twice, a string naming it), the source keeps a one-line delegate and `left_alone` lists those uses with why. `summary`: `method`, `target`, `name`, `via`, `parameters`, `callers`, `delegate`. Refused, saying why and changing nothing: no instance of the target reachable, the method overridden in a subclass or overriding a base's (listed), a special, decorated or recursive method, `super()` in it, the target (or a class above or below it) having the name (`conflict`, `field: \"name\"`), the attribute or parameter assigned in it, a name mangled by the class, an import that would close a cycle.",
    modes!()
);

pub const SPLIT_CLASS: &str = concat!(
    "Split a Python class: the members it holds itself (class attributes, static and class methods, nested classes; named `members`) move to a new class `new_class` right below it in its module, with the comments above them; every reference names the new class — on the class, through the module, on instances proven of the class or a subclass, through `self`/`cls` in the methods that stay —, and a module importing the class with `from m import Class` imports the new class beside it. `summary`: `class`, `new_class`, `members`, `references`. Refused, saying why and changing nothing: an instance method or property (it needs an instance of the new class: `extract_class` is for those), a moved member reading through `cls` what stays, a member a base defines or a subclass overrides, a use it cannot prove is of the class (a receiver of unknown type, an assignment through an instance, a string naming it, a module naming the class otherwise — listed), a `new_class` bound already (`conflict`, `field: \"new_class\"`).",
    modes!()
);

pub const EXTRACT_CLASS: &str = concat!(
    "Extract a delegate from a Python class (IntelliJ's Extract Delegate): the plain instance methods named in `members` move to a new class `new_class` right below it, which the class holds (`self._<new_class in snake case> = NewClass(self)`, first in its `__init__`, or in a new `__init__` that calls its base's) and delegates to: each moved method stays as one line (`return self._layout.render(sep)`), so callers, subclasses overriding it and `super()` calls keep working. The original does not inherit the new class. State stays with the original through a back-reference: the new class keeps it (`self.report = report`) and the moved code reads and writes its attributes through it; a moved method calling another moved one calls it directly unless a subclass overrides it (then through the original). `summary`: `class`, `new_class`, `members`, `attribute`. Refused, saying why and changing nothing: a member that is not a plain instance method (attributes, properties, static, class and special methods: `split_class` moves what the class holds itself), `super()` in a moved method, a class decorator, a subclass `__init__` not calling its base's (listed), a shallow copy that may copy an instance (`copy.copy` in a file naming the class or its family, `__dict__.update(self.__dict__)` in their methods: a copy would share the delegate; listed — other shallow copies are listed in `assumed`), `__slots__` or `__setattr__`, a `new_class` bound already (`conflict`, `field: \"new_class\"`).",
    modes!()
);

/// The refactoring tools, in the order `tools/list` gives them: each
/// destructive unless `preview` (MCP's hints are per tool).
pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new("rename_symbol", RENAME_SYMBOL, Effect::Write, rename_symbol),
        Tool::new(
            "rename_parameter",
            RENAME_PARAMETER,
            Effect::Write,
            rename_parameter,
        ),
        Tool::new(
            "change_signature",
            CHANGE_SIGNATURE,
            Effect::Write,
            change_signature,
        ),
        Tool::new(
            "extract_method",
            EXTRACT_METHOD,
            Effect::Write,
            extract_method,
        ),
        Tool::new(
            "extract_function",
            EXTRACT_FUNCTION,
            Effect::Write,
            extract_function,
        ),
        Tool::new(
            "inline_variable",
            INLINE_VARIABLE,
            Effect::Write,
            inline_variable,
        ),
        Tool::new(
            "inline_function",
            INLINE_FUNCTION,
            Effect::Write,
            inline_function,
        ),
        Tool::new(
            "extract_interface",
            EXTRACT_INTERFACE,
            Effect::Write,
            extract_interface,
        ),
        Tool::new(
            "change_inheritance",
            CHANGE_INHERITANCE,
            Effect::Write,
            change_inheritance,
        ),
        Tool::new("pull_up", PULL_UP, Effect::Write, pull_up),
        Tool::new("push_down", PUSH_DOWN, Effect::Write, push_down),
        Tool::new("merge_classes", MERGE_CLASSES, Effect::Write, merge_classes),
        Tool::new("move_method", MOVE_METHOD, Effect::Write, move_method),
        Tool::new("split_class", SPLIT_CLASS, Effect::Write, split_class),
        Tool::new("extract_class", EXTRACT_CLASS, Effect::Write, extract_class),
    ]
}

/// Parameters of `rename_symbol`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameSymbol {
    /// The symbol: plain (`total`), dotted (`Cart.total`) or qualified (`shop.Cart.total`).
    pub symbol: String,
    /// The new name: an identifier (the last part only for a dotted symbol).
    pub new_name: String,
    /// Also rename the mentions in strings, comments and docstrings (default false: they are listed in `mentions`).
    #[serde(default)]
    pub include_text: bool,
    /// The uses the index cannot prove that may be another symbol's (listed in `possible`): "refuse" (default: nothing changes, the reply lists them), "include" (rename them too) or "only_proven" (leave them; the project may then be broken there).
    #[serde(default)]
    pub possible: PossibleUses,
    /// A file where a plain name is looked up first (default: the session's current file); then the whole project.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// What a refactor does with the uses it cannot prove (`SitePolicy`).
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PossibleUses {
    #[default]
    Refuse,
    Include,
    OnlyProven,
}

impl From<PossibleUses> for SitePolicy {
    fn from(p: PossibleUses) -> Self {
        match p {
            PossibleUses::Refuse => SitePolicy::Refuse,
            PossibleUses::Include => SitePolicy::IncludePossible,
            PossibleUses::OnlyProven => SitePolicy::OnlyProven,
        }
    }
}

/// Parameters of `rename_parameter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameParameter {
    /// The function or method: `checkout`, `Cart.add`, `shop.Cart.add`.
    pub function: String,
    /// The parameter's current name.
    pub param: String,
    /// Its new name (an identifier).
    pub new_name: String,
    /// Also rename its mentions in the function's strings and comments (default false: they are listed in `mentions`).
    #[serde(default)]
    pub include_text: bool,
    /// true: change only the calls it can prove and say where the project may then be broken; false (default): refuse when some call passes `*args`/`**kwargs` the change cannot see into.
    #[serde(default)]
    pub only_proven: bool,
    /// A file where a plain function name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `change_signature`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeSignature {
    /// The function or method: `checkout`, `Cart.add`, `shop.Cart.add`.
    pub function: String,
    /// The current parameters as the def writes them, without parentheses: `self, item, qty=1`.
    pub old_params: String,
    /// The new parameters: reordered, removed, added with a default (`qty=1`) or with the value every existing call passes (`qty:=1`).
    pub new_params: String,
    /// true: change only the calls it can prove and say where the project may then be broken; false (default): refuse when some call passes `*args`/`**kwargs` the change cannot see into.
    #[serde(default)]
    pub only_proven: bool,
    /// A file where a plain function name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

impl RenameParameter {
    fn sites(&self) -> SitePolicy {
        site_policy(self.only_proven)
    }
}

impl ChangeSignature {
    fn sites(&self) -> SitePolicy {
        site_policy(self.only_proven)
    }
}

fn site_policy(only_proven: bool) -> SitePolicy {
    if only_proven {
        SitePolicy::OnlyProven
    } else {
        SitePolicy::Refuse
    }
}

/// Parameters of `extract_method` and `extract_function`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Extract {
    /// Workspace-relative path of the file.
    pub path: String,
    /// The new function's name (an identifier).
    pub name: String,
    /// The first line to move, zero-based.
    pub first_line: usize,
    /// The last line to move, zero-based and inclusive.
    pub last_line: usize,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `inline_variable`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InlineVariable {
    /// The variable: plain (`scale`), dotted by its function (`area.scale`) or qualified (`calc.area.scale`).
    pub name: String,
    /// Workspace-relative path of its file (not needed for a qualified name).
    pub path: Option<String>,
    /// With `path`: a line (zero-based) inside the function whose variable it is, where several bind the name.
    pub line: Option<usize>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `inline_function`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InlineFunction {
    /// The function or method: `helper`, `Cart.helper`, `shop.helper`.
    pub function: String,
    /// A file where a plain function name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `extract_interface`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtractInterface {
    /// The class: plain (`PaymentProcessor`), dotted or qualified (`shop.payment.PaymentProcessor`).
    pub class: String,
    /// The interface's name (an identifier not bound in the class's module).
    pub interface: String,
    /// true: a `typing.Protocol` the class matches structurally (its bases unchanged); false (default): an abstract base class the class inherits.
    #[serde(default)]
    pub protocol: bool,
    /// A file where a plain class name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `change_inheritance`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeInheritance {
    /// The class: plain (`Dog`), dotted or qualified (`zoo.dogs.Dog`).
    pub class: String,
    /// The base to replace, as the class statement writes it (`Animal`, `base.Animal`) or by the class's qualified name.
    pub old_parent: String,
    /// The new base: a class of the project (plain, dotted or qualified) or a builtin class (`dict`, `Exception`).
    pub new_parent: String,
    /// A file where a plain class name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `pull_up`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PullUp {
    /// The members, each with its class (`Card.fee`, `pay.card.Card.rate`), all of one class.
    pub members: Vec<String>,
    /// A file where a plain class name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `push_down`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PushDown {
    /// The member with its class: `Payment.refund`, `pay.base.Payment.refund`.
    pub member: String,
    /// A file where a plain class name is looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

/// Parameters of `merge_classes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MergeClasses {
    /// The first class (its place and body come first): plain, dotted or qualified.
    pub first: String,
    /// The second class, of the same module: its body joins the first's and its statement goes.
    pub second: String,
    /// The merged class's name: a new identifier, or the name of one of the two.
    pub target: String,
    /// A file where plain class names are looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

pub fn rename_symbol(engine: &Engine, sender: &str, p: RenameSymbol) -> Result<Value, ToolError> {
    let request = Refactoring::Rename {
        kind: RenameKind::Symbol,
        symbol: p.symbol,
        new_name: p.new_name,
        include_text: p.include_text,
        sites: p.possible.into(),
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn rename_parameter(
    engine: &Engine,
    sender: &str,
    p: RenameParameter,
) -> Result<Value, ToolError> {
    let sites = p.sites();
    let request = Refactoring::RenameParam {
        function: p.function,
        param: p.param,
        new_name: p.new_name,
        include_text: p.include_text,
        sites,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn change_signature(
    engine: &Engine,
    sender: &str,
    p: ChangeSignature,
) -> Result<Value, ToolError> {
    let sites = p.sites();
    let request = Refactoring::Signature {
        function: p.function,
        old_params: p.old_params,
        new_params: p.new_params,
        sites,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn extract_method(engine: &Engine, sender: &str, p: Extract) -> Result<Value, ToolError> {
    extract(engine, sender, ExtractKind::Method, p)
}

pub fn extract_function(engine: &Engine, sender: &str, p: Extract) -> Result<Value, ToolError> {
    extract(engine, sender, ExtractKind::Function, p)
}

fn extract(
    engine: &Engine,
    sender: &str,
    kind: ExtractKind,
    p: Extract,
) -> Result<Value, ToolError> {
    let total = engine
        .read_lines(sender, &p.path, Some(0), Some(0))
        .map_err(|e| at_field(e, "path"))?
        .total;
    for (field, line) in [("first_line", p.first_line), ("last_line", p.last_line)] {
        if line >= total {
            return Err(ToolError::param(
                field,
                format!(
                    "{field}: line {line} is past the end of {}, which has lines 0..{}",
                    p.path,
                    total.saturating_sub(1)
                ),
            ));
        }
    }
    if p.first_line > p.last_line {
        return Err(ToolError::param(
            "last_line",
            format!(
                "last_line: {} is before first_line {}; the range is inclusive, first line first",
                p.last_line, p.first_line
            ),
        ));
    }
    let request = Refactoring::Extract {
        kind,
        name: p.name,
        first_line: p.first_line,
        last_line: p.last_line,
    };
    refactor(engine, sender, request, in_file(Some(p.path)), p.preview)
}

pub fn inline_variable(
    engine: &Engine,
    sender: &str,
    p: InlineVariable,
) -> Result<Value, ToolError> {
    let place = match (p.path, p.line) {
        (Some(path), line) => Some(Cursor {
            path,
            position: Position::new(line.unwrap_or(0), 0),
        }),
        (None, Some(_)) => {
            return Err(ToolError::param(
                "line",
                "line: a line of which file? give `path` too",
            ))
        }
        (None, None) => None,
    };
    let request = Refactoring::Inline {
        kind: InlineKind::Variable,
        name: p.name,
    };
    refactor(engine, sender, request, place, p.preview)
}

pub fn inline_function(
    engine: &Engine,
    sender: &str,
    p: InlineFunction,
) -> Result<Value, ToolError> {
    let request = Refactoring::Inline {
        kind: InlineKind::Function,
        name: p.function,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn extract_interface(
    engine: &Engine,
    sender: &str,
    p: ExtractInterface,
) -> Result<Value, ToolError> {
    let request = Refactoring::ExtractInterface {
        class: p.class,
        interface: p.interface,
        protocol: p.protocol,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn change_inheritance(
    engine: &Engine,
    sender: &str,
    p: ChangeInheritance,
) -> Result<Value, ToolError> {
    let request = Refactoring::ChangeInheritance {
        class: p.class,
        old_parent: p.old_parent,
        new_parent: p.new_parent,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn pull_up(engine: &Engine, sender: &str, p: PullUp) -> Result<Value, ToolError> {
    let request = Refactoring::PullUp { members: p.members };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn push_down(engine: &Engine, sender: &str, p: PushDown) -> Result<Value, ToolError> {
    let request = Refactoring::PushDown { member: p.member };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

/// Parameters of `move_method`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveMethod {
    /// The method, as Class.method (plain, dotted or qualified).
    pub method: String,
    /// The class it moves to: plain, dotted or qualified.
    pub target: String,
    /// Its name in the target (default: its own).
    pub name: Option<String>,
    /// A file where plain class names are looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

pub fn move_method(engine: &Engine, sender: &str, p: MoveMethod) -> Result<Value, ToolError> {
    let request = Refactoring::MoveMethod {
        method: p.method,
        target: p.target,
        name: p.name,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

/// Parameters of `split_class`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SplitClass {
    /// The class: plain, dotted or qualified.
    pub class: String,
    /// The new class's name (an identifier the module does not bind).
    pub new_class: String,
    /// The members that move: class attributes, static and class methods, nested classes.
    pub members: Vec<String>,
    /// A file where plain class names are looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

pub fn split_class(engine: &Engine, sender: &str, p: SplitClass) -> Result<Value, ToolError> {
    let request = Refactoring::SplitClass {
        class: p.class,
        new_class: p.new_class,
        members: p.members,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

/// Parameters of `extract_class`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtractClass {
    /// The class: plain, dotted or qualified.
    pub class: String,
    /// The new class's name (an identifier the module does not bind).
    pub new_class: String,
    /// The plain instance methods that move.
    pub members: Vec<String>,
    /// A file where plain class names are looked up first.
    pub path: Option<String>,
    /// true: compute the change and return its diff, change nothing; false: apply it.
    pub preview: bool,
}

pub fn extract_class(engine: &Engine, sender: &str, p: ExtractClass) -> Result<Value, ToolError> {
    let request = Refactoring::ExtractClass {
        class: p.class,
        new_class: p.new_class,
        members: p.members,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

pub fn merge_classes(engine: &Engine, sender: &str, p: MergeClasses) -> Result<Value, ToolError> {
    let request = Refactoring::MergeClasses {
        first: p.first,
        second: p.second,
        target: p.target,
    };
    refactor(engine, sender, request, in_file(p.path), p.preview)
}

/// The place of a request that names only its file.
fn in_file(path: Option<String>) -> Option<Cursor> {
    path.map(|path| Cursor {
        path,
        position: Position::ZERO,
    })
}

/// Runs `refactoring` in `place` (when given: the session's own file and
/// cursor stay where they are) and answers the report.
fn refactor(
    engine: &Engine,
    sender: &str,
    refactoring: Refactoring,
    place: Option<Cursor>,
    preview: bool,
) -> Result<Value, ToolError> {
    let mode = if preview {
        RefactorMode::Preview
    } else {
        RefactorMode::Apply
    };
    let request = Located { refactoring, place };
    let report = engine
        .refactor(sender, &request, mode)
        .map_err(|fault| tool_error(fault, &request.refactoring))?;
    Ok(result(&report))
}

/// The report's JSON; an applied one without the diffs (the files are
/// on disk to read).
fn result(report: &RefactorReport) -> Value {
    let mut value = report.json();
    if report.applied {
        if let Some(files) = value["files"].as_array_mut() {
            for file in files {
                file.as_object_mut().map(|f| f.remove("diff"));
            }
        }
    }
    value
}

fn at_field(error: OpError, field: &str) -> ToolError {
    let mut error = ToolError::from(error);
    error.field.get_or_insert_with(|| field.to_owned());
    error
}

/// The refactor's failure with the tool's parameter for the argument at
/// fault, which the error carries as data (the kind's entry in the
/// registry names the parameter).
fn tool_error(fault: RefactorFault, request: &Refactoring) -> ToolError {
    let mut error = ToolError::from(fault.error);
    let kind = request.kind();
    if let Some(field) = fault.argument.and_then(|a| kind.tool_parameter(a)) {
        error.field = Some(field.to_owned());
    }
    error
}
