//! The registry of refactoring kinds: one [`RefactoringKind`] per keyword
//! of `Refactor <kind> …`, and everything the rest of Eddi needs to know
//! about a kind — its keyword and aliases, its usage line (the `Refactor`
//! row of the command table is made of them), how its arguments are read
//! from a command ([`Arguments`]) and printed back, the function that
//! computes it, and the tool parameter that carries each [`Argument`] of
//! its request.
//!
//! The command language, `refactor::compute`, the engine's wording and the
//! refactoring tools all go through [`KINDS`]: a new refactoring is its
//! folder (the compute function), its [`Refactoring`] variant, and one
//! entry here. What a reply says of a computed refactor is worded by its
//! [`Summary`] (several kinds share one shape: `Rename_Param` and
//! `Signature` both report callers), at the end of this file.

use std::fmt::{self, Formatter};

use serde_json::{json, Value};

use super::{
    extract, extract_class, inheritance, inline, interface, merge, move_members, move_method,
    rename, signature, split, Argument, ExtractKind, InlineKind, Project, RefactorError,
    Refactored, Refactoring, RenameKind, Rerouted, Resolved, SitePolicy, Summary,
};
use crate::analysis::index::Location;
use crate::commands::error::{ParseError, Span};
use crate::reply::plural;

/// One kind of refactoring.
pub struct RefactoringKind {
    /// The name the command language (and the spec) gives it: `Rename_Class`.
    /// Matched case- and underscore-insensitively.
    pub keyword: &'static str,
    /// Other names for it (`ChangeSignature`), matched the same way.
    pub aliases: &'static [&'static str],
    /// Its syntax after `Refactor`, one line: `Inline_Variable <name>`.
    pub usage: &'static str,
    /// A command that runs it, for help's examples (`Refactor
    /// Inline_Variable temp_result`), where help shows one.
    pub example: Option<&'static str>,
    /// Its `Ok` reply's shape, for help (kinds of a family share one).
    pub reply: &'static str,
    /// The failures of its own, for help (`Fail "Cannot inline - …"`);
    /// those of every refactoring are [`COMMON_FAILURES`].
    pub failures: &'static [&'static str],
    /// Whether a request is of this kind.
    is: fn(&Refactoring) -> bool,
    /// Its arguments, read after the keyword.
    parse: fn(&mut dyn Arguments) -> Result<Refactoring, ParseError>,
    /// Its arguments as a command writes them, after the keyword.
    print: fn(&Refactoring, &mut Formatter<'_>) -> fmt::Result,
    compute: fn(&Project<'_>, &Refactoring) -> Result<Refactored, RefactorError>,
    /// Whether the request works on the current file (its lines, its
    /// scopes) rather than on a name it looks up in the project.
    in_current_file: fn(&Refactoring) -> bool,
    /// The tool parameter that carries an argument of the request (beyond
    /// the place's `path` and `line`, which every tool names alike).
    parameter: fn(Argument) -> Option<&'static str>,
}

impl RefactoringKind {
    /// Reads the kind's arguments (the keyword is already read).
    pub fn parse(&self, arguments: &mut dyn Arguments) -> Result<Refactoring, ParseError> {
        (self.parse)(arguments)
    }

    /// Writes `request`'s arguments as a command does, after the keyword.
    pub fn print(&self, request: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
        (self.print)(request, f)
    }

    pub fn compute(
        &self,
        project: &Project<'_>,
        request: &Refactoring,
    ) -> Result<Refactored, RefactorError> {
        (self.compute)(project, request)
    }

    /// Whether `request` works on the current file (its lines, its
    /// scopes) rather than on a name it looks up in the project.
    pub fn needs_current_file(&self, request: &Refactoring) -> bool {
        (self.in_current_file)(request)
    }

    /// The name of the refactoring tool's parameter that carries
    /// `argument`, when it has one.
    pub fn tool_parameter(&self, argument: Argument) -> Option<&'static str> {
        match argument {
            Argument::File => Some("path"),
            Argument::Line => Some("line"),
            _ => (self.parameter)(argument),
        }
    }
}

/// How a kind reads its arguments from a command: the command language's
/// parser implements it, so each entry parses its own syntax with the
/// parser's words and errors (every error ends with the `Refactor` usage).
pub trait Arguments {
    /// A plain, dotted or qualified name (`f`, `C.m`, `pkg.mod.f`), else
    /// the error `what` describes.
    fn name(&mut self, what: &str) -> Result<String, ParseError>;
    /// An identifier.
    fn identifier(&mut self, what: &str) -> Result<String, ParseError>;
    /// Names separated by commas (`C.a,C.b` or `C.a, C.b`), else the
    /// error `what` describes.
    fn names(&mut self, what: &str) -> Result<Vec<String>, ParseError>;
    /// A parameter list glued to the name before it (`f(a, b)`), without
    /// its parentheses.
    fn glued_params(&mut self) -> Option<String>;
    /// Reads the keyword `word` (case-insensitive) if it is next.
    fn eat(&mut self, word: &str) -> bool;
    /// A line range `a:b`, first line first.
    fn lines(&mut self) -> Result<(usize, usize), ParseError>;
    /// Where the next word is (or would be).
    fn here(&self) -> Span;
    /// `Expected <what>, found '<x>'`, or `Missing <what>` at the end.
    fn expected(&self, what: &str) -> ParseError;
    /// An error at `span` with the usage appended.
    fn refused(&self, message: String, span: Span) -> ParseError;
}

/// The reply of the rename family (`RenameSymbol`, `Rename_Class`,
/// `Rename_Param`).
const RENAME_REPLY: &str = "Ok, Renamed in <n> files (a.py, b.py, …), <m> references updated[, also renamed: <overrides>, <member> → <new> (dispatch by the class's name at <file:line>)][, inferred: <k> uses changed without proof, check them: …][, possible: … (Include Possible) | may be broken at: … (Only Proven)][, left alone: …][, not changed: <k> mentions in strings and comments (…)][, data strings: <k> strings naming it as data, never changed (not even with Include Text): …]";
const RENAME_FAILURES: &[&str] = &["Fail \"Cannot rename <symbol>: <n> possible uses it cannot prove: <sites> … nothing was changed …\" (Include Possible or Only Proven proceeds)"];
const SIGNATURE_REPLY: &str = "Ok, Signature updated, <n> callers replaced";
const SIGNATURE_FAILURES: &[&str] = &[
    "Fail \"Cannot change the signature of <f>: <n> calls it cannot rewrite …\" (Only Proven proceeds)",
    "Fail \"Signature conflict detected: …\"",
];
const EXTRACT_REPLY: &str = "Ok, Method extracted, <n> duplicate blocks replaced";
const EXTRACT_FAILURES: &[&str] = &["Fail \"Cannot extract - <reason>\""];
const INLINE_REPLY: &str =
    "Ok, Variable inlined at <n> locations[, assumed: <call> does not change <reads> at <file:line>, …]";
const INLINE_FAILURES: &[&str] = &["Fail \"Cannot inline - <reason>\""];
const INTERFACE_REPLY: &str = "Ok, Interface extracted, <Class> now implements <Interface> (<n> methods: a, b, …) (Protocol: <Class> matches the Protocol <Interface>, its bases unchanged)";
const INTERFACE_FAILURES: &[&str] = &[
    "Fail \"Interface already exists: <Interface> …\"",
    "Fail \"Cannot extract interface - <reason>\" (a metaclass or base it cannot prove compatible with ABCMeta: Protocol proceeds)",
];
const INHERITANCE_REPLY: &str = "Ok, Inheritance changed, <Class> now derives from <NewParent> (was <OldParent>), <n> explicit calls rewritten[, now found elsewhere: self.<name> in <Class>: <NewClass> (was <OldClass>), …][, instances of <Class> no longer pass <k> isinstance/except tests of <OldParent>: <sites>]";
const INHERITANCE_FAILURES: &[&str] = &[
    "Fail \"Cannot change inheritance - <OldParent> is not a base of <Class> …\"",
    "Fail \"Cannot change inheritance - Python would refuse to create <Class> …: TypeError: … (no consistent method resolution order, a metaclass conflict, an instance lay-out conflict)\"",
    "Fail \"Cannot change inheritance - without <OldParent>, <Class> would raise AttributeError: …\"",
];
const MOVE_REPLY: &str = "Ok, Pulled up <n> members (a, b) from <Class> to <Base>[, now inherited too by: <classes>] | Ok, Pushed down <n> members (a) from <Class> to <A>, <B>[, kept their own: <classes>]";
const MOVE_FAILURES: &[&str] = &[
    "Fail \"Cannot move members - <reason>\" (Pull_Up: a member reads what only the class has, the base defines it already; Push_Down: the member is used through the class itself, listing the sites)",
];
const MOVE_METHOD_REPLY: &str = "Ok, Moved method <Class.method> to <Target.method> (through self.<attribute> | parameter <p>[, new parameter <source>]), <n> callers rewritten[, <Class.method> kept as a delegate][, left alone: <k> uses it cannot prove: <sites> (why)]";
const MOVE_METHOD_FAILURES: &[&str] = &[
    "Fail \"Cannot move method - <reason>\" (no instance of the target reachable, overridden or overriding, a special or decorated method, super(), …)",
];
const EXTRACT_CLASS_REPLY: &str = "Ok, Class extracted: <members> moved from <Class> to <NewClass>, which <Class> holds as self.<attribute> and delegates to";
const EXTRACT_CLASS_FAILURES: &[&str] = &[
    "Fail \"Cannot extract class - <reason>\" (not a plain instance method, super(), a subclass __init__ not calling its base's, shallow copies, …)",
];
const SPLIT_REPLY: &str =
    "Ok, Class split: <members> moved from <Class> to <NewClass>, <n> references updated";
const SPLIT_FAILURES: &[&str] = &[
    "Fail \"Cannot split class - <reason>\" (an instance method or property, a member reading what stays, uses it cannot prove are of the class (listed), …)",
];
const MERGE_REPLY: &str =
    "Ok, Classes merged into <Target> (<Class1>, <Class2>), <n> files, <m> references updated";
const MERGE_FAILURES: &[&str] = &[
    "Fail \"Cannot merge classes - both define <member> (…): …\"",
    "Fail \"Cannot merge classes - <reason>\" (different bases, uses it cannot prove, an import cycle across modules, …)",
];

/// The failures every refactoring may answer, after the kinds' own.
pub const COMMON_FAILURES: &[&str] = &[
    "Fail \"Not found: …\"",
    "Fail \"Ambiguous …\"",
    "Fail \"Name conflict exists: <where>\"",
    "Fail \"<file> has unsaved edits …\"",
    "Fail \"The refactor would break <file>: …\"",
];

/// Every refactoring, in the order help lists them.
pub static KINDS: &[RefactoringKind] = &[
    RefactoringKind {
        keyword: "RenameSymbol",
        aliases: &["Rename"],
        usage: "RenameSymbol <name> <new> [Include Text] [Include Possible | Only Proven]",
        example: Some("Refactor RenameSymbol chunked batched"),
        reply: RENAME_REPLY,
        failures: RENAME_FAILURES,
        is: |r| {
            matches!(
                r,
                Refactoring::Rename {
                    kind: RenameKind::Symbol,
                    ..
                }
            )
        },
        parse: |a| parse_rename(a, RenameKind::Symbol),
        print: print_rename,
        compute: rename::compute,
        in_current_file: |_| false,
        parameter: rename_parameter,
    },
    RefactoringKind {
        keyword: "Rename_Class",
        aliases: &[],
        usage: "Rename_Class <Old> <New> [Include Text] [Include Possible | Only Proven]",
        example: Some("Refactor Rename_Class UserManager AccountManager"),
        reply: RENAME_REPLY,
        failures: RENAME_FAILURES,
        is: |r| {
            matches!(
                r,
                Refactoring::Rename {
                    kind: RenameKind::Class,
                    ..
                }
            )
        },
        parse: |a| parse_rename(a, RenameKind::Class),
        print: print_rename,
        compute: rename::compute,
        in_current_file: |_| false,
        parameter: rename_parameter,
    },
    RefactoringKind {
        keyword: "Rename_Param",
        aliases: &["RenameParameter"],
        usage: "Rename_Param <function> <param> <new> [Include Text] [Only Proven]",
        example: Some("Refactor Rename_Param connect timeout timeout_s"),
        reply: RENAME_REPLY,
        failures: RENAME_FAILURES,
        is: |r| matches!(r, Refactoring::RenameParam { .. }),
        parse: parse_rename_param,
        print: print_rename_param,
        compute: signature::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("function"),
            Argument::Param => Some("param"),
            Argument::NewName => Some("new_name"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Signature",
        aliases: &["ChangeSignature"],
        usage: "Signature <f>(<old params>) <f>(<new params>) [Only Proven]",
        example: Some(
            "Refactor Signature authenticate(username) authenticate(username, timeout=30)",
        ),
        reply: SIGNATURE_REPLY,
        failures: SIGNATURE_FAILURES,
        is: |r| matches!(r, Refactoring::Signature { .. }),
        parse: parse_signature,
        print: print_signature,
        compute: signature::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("function"),
            Argument::OldParams => Some("old_params"),
            Argument::NewParams => Some("new_params"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Extract_Method",
        aliases: &[],
        usage: "Extract_Method <name> lines <a>:<b>",
        example: Some("Refactor Extract_Method calculate_total lines 45:52"),
        reply: EXTRACT_REPLY,
        failures: EXTRACT_FAILURES,
        is: |r| {
            matches!(
                r,
                Refactoring::Extract {
                    kind: ExtractKind::Method,
                    ..
                }
            )
        },
        parse: |a| parse_extract(a, ExtractKind::Method),
        print: print_extract,
        compute: extract::compute,
        in_current_file: |_| true,
        parameter: extract_parameter,
    },
    RefactoringKind {
        keyword: "ExtractFunction",
        aliases: &[],
        usage: "ExtractFunction <name> lines <a>:<b>",
        example: None,
        reply: EXTRACT_REPLY,
        failures: EXTRACT_FAILURES,
        is: |r| {
            matches!(
                r,
                Refactoring::Extract {
                    kind: ExtractKind::Function,
                    ..
                }
            )
        },
        parse: |a| parse_extract(a, ExtractKind::Function),
        print: print_extract,
        compute: extract::compute,
        in_current_file: |_| true,
        parameter: extract_parameter,
    },
    RefactoringKind {
        keyword: "Inline_Variable",
        aliases: &[],
        usage: "Inline_Variable <name>",
        example: Some("Refactor Inline_Variable temp_result"),
        reply: INLINE_REPLY,
        failures: INLINE_FAILURES,
        is: |r| {
            matches!(
                r,
                Refactoring::Inline {
                    kind: InlineKind::Variable,
                    ..
                }
            )
        },
        parse: |a| parse_inline(a, InlineKind::Variable),
        print: print_inline,
        compute: inline::compute,
        in_current_file: |r| matches!(r, Refactoring::Inline { name, .. } if !name.contains('.')),
        parameter: |a| (a == Argument::Symbol).then_some("name"),
    },
    RefactoringKind {
        keyword: "InlineFunction",
        aliases: &[],
        usage: "InlineFunction <name>",
        example: None,
        reply: INLINE_REPLY,
        failures: INLINE_FAILURES,
        is: |r| {
            matches!(
                r,
                Refactoring::Inline {
                    kind: InlineKind::Function,
                    ..
                }
            )
        },
        parse: |a| parse_inline(a, InlineKind::Function),
        print: print_inline,
        compute: inline::compute,
        in_current_file: |_| false,
        parameter: |a| (a == Argument::Symbol).then_some("function"),
    },
    RefactoringKind {
        keyword: "Extract_Interface",
        aliases: &[],
        usage: "Extract_Interface <Class> <Interface> [Protocol]",
        example: Some("Refactor Extract_Interface PaymentProcessor Payable"),
        reply: INTERFACE_REPLY,
        failures: INTERFACE_FAILURES,
        is: |r| matches!(r, Refactoring::ExtractInterface { .. }),
        parse: parse_extract_interface,
        print: print_extract_interface,
        compute: interface::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("class"),
            Argument::NewName => Some("interface"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Change_Inheritance",
        aliases: &[],
        usage: "Change_Inheritance <Class> <OldParent> <NewParent>",
        example: Some("Refactor Change_Inheritance AdminUser User StaffUser"),
        reply: INHERITANCE_REPLY,
        failures: INHERITANCE_FAILURES,
        is: |r| matches!(r, Refactoring::ChangeInheritance { .. }),
        parse: parse_change_inheritance,
        print: print_change_inheritance,
        compute: inheritance::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("class"),
            Argument::OldParent => Some("old_parent"),
            Argument::NewParent => Some("new_parent"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Pull_Up",
        aliases: &["PullUpMembers"],
        usage: "Pull_Up <Class.member,…>",
        example: Some("Refactor Pull_Up CardPayment.fee,CardPayment.rate"),
        reply: MOVE_REPLY,
        failures: MOVE_FAILURES,
        is: |r| matches!(r, Refactoring::PullUp { .. }),
        parse: |a| {
            let members = a.names("the members, as Class.member or Class.a,Class.b")?;
            Ok(Refactoring::PullUp { members })
        },
        print: |r, f| match r {
            Refactoring::PullUp { members } => f.write_str(&members.join(",")),
            _ => Ok(()),
        },
        compute: move_members::pull_up,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol | Argument::Members => Some("members"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Push_Down",
        aliases: &["PushDownMembers"],
        usage: "Push_Down <Class.member>",
        example: Some("Refactor Push_Down Payment.refund"),
        reply: MOVE_REPLY,
        failures: MOVE_FAILURES,
        is: |r| matches!(r, Refactoring::PushDown { .. }),
        parse: |a| {
            let member = a.name("the member, as Class.member")?;
            Ok(Refactoring::PushDown { member })
        },
        print: |r, f| match r {
            Refactoring::PushDown { member } => f.write_str(member),
            _ => Ok(()),
        },
        compute: move_members::push_down,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol | Argument::Members => Some("member"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Merge_Classes",
        aliases: &[],
        usage: "Merge_Classes <Class1> <Class2> <Target>",
        example: Some("Refactor Merge_Classes User Profile Account"),
        reply: MERGE_REPLY,
        failures: MERGE_FAILURES,
        is: |r| matches!(r, Refactoring::MergeClasses { .. }),
        parse: |a| {
            let first = a.name("the first class, as Class or pkg.mod.Class")?;
            let second = a.name("the second class, as Class or pkg.mod.Class")?;
            let target = a.identifier("the merged class's name (an identifier)")?;
            Ok(Refactoring::MergeClasses {
                first,
                second,
                target,
            })
        },
        print: |r, f| match r {
            Refactoring::MergeClasses {
                first,
                second,
                target,
            } => write!(f, "{first} {second} {target}"),
            _ => Ok(()),
        },
        compute: merge::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("first"),
            Argument::Members => Some("second"),
            Argument::NewName => Some("target"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Move_Method",
        aliases: &[],
        usage: "Move_Method <Class.method> <Target>",
        example: Some("Refactor Move_Method User.validate UserValidator"),
        reply: MOVE_METHOD_REPLY,
        failures: MOVE_METHOD_FAILURES,
        is: |r| matches!(r, Refactoring::MoveMethod { .. }),
        parse: |a| {
            let method = a.name("the method, as Class.method")?;
            a.glued_params();
            let target = a.name("the target class, as Target or Target.method()")?;
            // the spec's form: `Target.name()` names the method there too
            let (target, name) = match a.glued_params() {
                Some(_) => match target.rsplit_once('.') {
                    Some((class, name)) => (class.to_string(), Some(name.to_string())),
                    None => (target, None),
                },
                None => (target, None),
            };
            Ok(Refactoring::MoveMethod {
                method,
                target,
                name,
            })
        },
        print: |r, f| match r {
            Refactoring::MoveMethod {
                method,
                target,
                name: Some(name),
            } => write!(f, "{method}() {target}.{name}()"),
            Refactoring::MoveMethod { method, target, .. } => write!(f, "{method} {target}"),
            _ => Ok(()),
        },
        compute: move_method::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("method"),
            Argument::Target => Some("target"),
            Argument::NewName => Some("name"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "Split_Class",
        aliases: &[],
        usage: "Split_Class <Class> <NewClass> <member,…>",
        example: Some("Refactor Split_Class User UserRules MAX_NAME,parse"),
        reply: SPLIT_REPLY,
        failures: SPLIT_FAILURES,
        is: |r| matches!(r, Refactoring::SplitClass { .. }),
        parse: |a| {
            let class = a.name("the class, as Class or pkg.mod.Class")?;
            let new_class = a.identifier("the new class's name (an identifier)")?;
            let members = a.names("the members, as a,b or Class.a,Class.b")?;
            Ok(Refactoring::SplitClass {
                class,
                new_class,
                members,
            })
        },
        print: |r, f| match r {
            Refactoring::SplitClass {
                class,
                new_class,
                members,
            } => write!(f, "{class} {new_class} {}", members.join(",")),
            _ => Ok(()),
        },
        compute: split::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("class"),
            Argument::NewName => Some("new_class"),
            Argument::Members => Some("members"),
            _ => None,
        },
    },
    RefactoringKind {
        keyword: "ExtractClass",
        aliases: &["ExtractDelegate"],
        usage: "ExtractClass <Class> <NewClass> <member,…>",
        example: Some("Refactor ExtractClass User UserRules parse,render"),
        reply: EXTRACT_CLASS_REPLY,
        failures: EXTRACT_CLASS_FAILURES,
        is: |r| matches!(r, Refactoring::ExtractClass { .. }),
        parse: |a| {
            let class = a.name("the class, as Class or pkg.mod.Class")?;
            let new_class = a.identifier("the new class's name (an identifier)")?;
            let members = a.names("the methods, as a,b or Class.a,Class.b")?;
            Ok(Refactoring::ExtractClass {
                class,
                new_class,
                members,
            })
        },
        print: |r, f| match r {
            Refactoring::ExtractClass {
                class,
                new_class,
                members,
            } => write!(f, "{class} {new_class} {}", members.join(",")),
            _ => Ok(()),
        },
        compute: extract_class::compute,
        in_current_file: |_| false,
        parameter: |a| match a {
            Argument::Symbol => Some("class"),
            Argument::NewName => Some("new_class"),
            Argument::Members => Some("members"),
            _ => None,
        },
    },
];

/// The spec's refactorings that are not built yet: refused by name.
pub const LATER: &[&str] = &[];

/// Every keyword, in table order.
pub fn keywords() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.keyword).collect()
}

/// The kind `word` names, by an alias or its keyword, case- and
/// underscore-insensitively.
pub fn lookup(word: &str) -> Option<&'static RefactoringKind> {
    let word = squash(word);
    let by_alias = KINDS
        .iter()
        .find(|k| k.aliases.iter().any(|alias| squash(alias) == word));
    by_alias.or_else(|| KINDS.iter().find(|k| squash(k.keyword) == word))
}

/// A refactoring's name for matching: lower case, without underscores.
pub fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The examples of `Refactor`: every kind's that has one, `; `-separated.
pub fn examples() -> String {
    let examples: Vec<&str> = KINDS.iter().filter_map(|k| k.example).collect();
    examples.join("; ")
}

/// The replies of `Refactor`: every kind's (each shape once), and what
/// preview mode answers instead.
pub fn replies() -> String {
    let mut shapes: Vec<&str> = Vec::new();
    for kind in KINDS {
        if !shapes.contains(&kind.reply) {
            shapes.push(kind.reply);
        }
    }
    shapes.push("(Set Preview on) Ok, Preview: Would modify …, Apply or Discard");
    shapes.join(" | ")
}

/// The failures of `Refactor`: every kind's own (each once), then the
/// common ones.
pub fn failures() -> String {
    let mut failures: Vec<&str> = Vec::new();
    for failure in KINDS.iter().flat_map(|k| k.failures).chain(COMMON_FAILURES) {
        if !failures.contains(failure) {
            failures.push(failure);
        }
    }
    failures.join("; ")
}

/// The syntax of `Refactor`: every kind's usage.
pub fn usage() -> String {
    let kinds: Vec<&str> = KINDS.iter().map(|k| k.usage).collect();
    format!("Refactor {}", kinds.join(" | "))
}

impl Refactoring {
    /// Its entry in [`KINDS`].
    pub fn kind(&self) -> &'static RefactoringKind {
        KINDS
            .iter()
            .find(|k| (k.is)(self))
            .expect("every Refactoring has an entry in KINDS (a test checks it)")
    }
}

// -- arguments -------------------------------------------------------------

const SYMBOL_FORM: &str = "a name like f, Class.method or pkg.mod.func";

fn parse_rename(a: &mut dyn Arguments, kind: RenameKind) -> Result<Refactoring, ParseError> {
    let symbol = a.name(SYMBOL_FORM)?;
    // (kept on the name: an overload named by its parameters is refused
    // where overloads are one symbol, not taken for all of them)
    let symbol = match a.glued_params() {
        Some(params) if !params.trim().is_empty() => format!("{symbol}({params})"),
        _ => symbol,
    };
    let new_name = a.identifier("the new name (an identifier)")?;
    let (include_text, sites) = rename_options(a)?;
    Ok(Refactoring::Rename {
        kind,
        symbol,
        new_name,
        include_text,
        sites,
    })
}

/// A rename's options, in any order, each at most once: `Include
/// Text`, and one of `Include Possible` / `Only Proven`.
fn rename_options(a: &mut dyn Arguments) -> Result<(bool, SitePolicy), ParseError> {
    let mut include_text = false;
    let mut sites = SitePolicy::Refuse;
    loop {
        let here = a.here();
        let chosen = if a.eat("Include") {
            if a.eat("Text") {
                if include_text {
                    return Err(a.refused("Include Text is given twice".into(), here));
                }
                include_text = true;
                continue;
            }
            if !a.eat("Possible") {
                return Err(a.expected("'Text' or 'Possible' (Include Text, Include Possible)"));
            }
            SitePolicy::IncludePossible
        } else if a.eat("Only") {
            if !a.eat("Proven") {
                return Err(a.expected("'Proven' (Only Proven)"));
            }
            SitePolicy::OnlyProven
        } else {
            return Ok((include_text, sites));
        };
        if sites != SitePolicy::Refuse {
            return Err(a.refused(
                format!(
                    "{} and {} exclude each other: give one",
                    sites.words(),
                    chosen.words()
                ),
                here,
            ));
        }
        sites = chosen;
    }
}

fn parse_rename_param(a: &mut dyn Arguments) -> Result<Refactoring, ParseError> {
    let function = a.name(SYMBOL_FORM)?;
    a.glued_params();
    let param = a.identifier("the parameter's name")?;
    let new_name = a.identifier("the parameter's new name")?;
    let (include_text, sites) = signature_options(a, true)?;
    Ok(Refactoring::RenameParam {
        function,
        param,
        new_name,
        include_text,
        sites,
    })
}

fn parse_signature(a: &mut dyn Arguments) -> Result<Refactoring, ParseError> {
    let function = a.name(SYMBOL_FORM)?;
    let Some(old_params) = a.glued_params() else {
        return Err(a.expected("the current parameters right after the name, as f(a, b)"));
    };
    let here = a.here();
    let new_name = a.name("the new signature, as f(a, b, c=1)")?;
    let last = |name: &str| name.rsplit('.').next().unwrap_or_default().to_owned();
    if last(&new_name) != last(&function) {
        return Err(a.refused(
            format!(
                "The new signature names {new_name}, not {}: Signature keeps the name (Refactor RenameSymbol renames)",
                last(&function)
            ),
            here,
        ));
    }
    let Some(new_params) = a.glued_params() else {
        return Err(a.expected("the new parameters right after the name, as f(a, b)"));
    };
    let (_, sites) = signature_options(a, false)?;
    Ok(Refactoring::Signature {
        function,
        old_params,
        new_params,
        sites,
    })
}

/// The options at the end of `Rename_Param` (`Include Text`, with
/// `text`) and `Signature`: `Only Proven`, in any order. `Include
/// Possible` is refused: a call that passes `*args`/`**kwargs` the
/// change cannot see into cannot be rewritten, only left as it is.
fn signature_options(a: &mut dyn Arguments, text: bool) -> Result<(bool, SitePolicy), ParseError> {
    let mut include_text = false;
    let mut sites = SitePolicy::Refuse;
    loop {
        let here = a.here();
        if a.eat("Include") {
            if text && a.eat("Text") {
                include_text = true;
            } else if a.eat("Possible") {
                return Err(a.refused(
                    "Include Possible cannot apply here: the calls it cannot prove pass *args/**kwargs it cannot see into, so it cannot change them; Only Proven changes the rest".into(),
                    here,
                ));
            } else if text {
                return Err(a.expected("'Text' (Include Text)"));
            } else {
                return Err(a.expected("'Possible' (Include Possible)"));
            }
        } else if a.eat("Only") {
            if !a.eat("Proven") {
                return Err(a.expected("'Proven' (Only Proven)"));
            }
            sites = SitePolicy::OnlyProven;
        } else {
            return Ok((include_text, sites));
        }
    }
}

fn parse_extract(a: &mut dyn Arguments, kind: ExtractKind) -> Result<Refactoring, ParseError> {
    let name = a.identifier("the new name (an identifier)")?;
    if !a.eat("lines") {
        return Err(a.expected("'lines' and a range (lines 45:52)"));
    }
    let (first_line, last_line) = a.lines()?;
    Ok(Refactoring::Extract {
        kind,
        name,
        first_line,
        last_line,
    })
}

fn parse_inline(a: &mut dyn Arguments, kind: InlineKind) -> Result<Refactoring, ParseError> {
    let name = a.name(SYMBOL_FORM)?;
    a.glued_params();
    Ok(Refactoring::Inline { kind, name })
}

fn parse_extract_interface(a: &mut dyn Arguments) -> Result<Refactoring, ParseError> {
    let class = a.name("the class, as Class or pkg.mod.Class")?;
    let interface = a.identifier("the interface's name (an identifier)")?;
    let protocol = a.eat("Protocol");
    Ok(Refactoring::ExtractInterface {
        class,
        interface,
        protocol,
    })
}

fn parse_change_inheritance(a: &mut dyn Arguments) -> Result<Refactoring, ParseError> {
    let class = a.name("the class, as Class or pkg.mod.Class")?;
    let old_parent = a.name("the base to replace, as the class statement writes it")?;
    let new_parent = a.name("the new base class, as Base or pkg.mod.Base")?;
    Ok(Refactoring::ChangeInheritance {
        class,
        old_parent,
        new_parent,
    })
}

// -- printing --------------------------------------------------------------

fn print_rename(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::Rename {
        symbol,
        new_name,
        include_text,
        sites,
        ..
    } = r
    {
        write!(f, "{symbol} {new_name}")?;
        if *include_text {
            f.write_str(" Include Text")?;
        }
        f.write_str(&site_option(*sites))?;
    }
    Ok(())
}

fn print_rename_param(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::RenameParam {
        function,
        param,
        new_name,
        include_text,
        sites,
    } = r
    {
        write!(
            f,
            "{function} {param} {new_name}{}{}",
            if *include_text { " Include Text" } else { "" },
            site_option(*sites)
        )?;
    }
    Ok(())
}

fn print_signature(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::Signature {
        function,
        old_params,
        new_params,
        sites,
    } = r
    {
        let name = function.rsplit('.').next().unwrap_or(function);
        write!(
            f,
            "{function}({old_params}) {name}({new_params}){}",
            site_option(*sites)
        )?;
    }
    Ok(())
}

fn print_extract(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::Extract {
        name,
        first_line,
        last_line,
        ..
    } = r
    {
        write!(f, "{name} lines {first_line}:{last_line}")?;
    }
    Ok(())
}

fn print_inline(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::Inline { name, .. } = r {
        f.write_str(name)?;
    }
    Ok(())
}

fn print_extract_interface(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::ExtractInterface {
        class,
        interface,
        protocol,
    } = r
    {
        write!(f, "{class} {interface}")?;
        if *protocol {
            f.write_str(" Protocol")?;
        }
    }
    Ok(())
}

fn print_change_inheritance(r: &Refactoring, f: &mut Formatter<'_>) -> fmt::Result {
    if let Refactoring::ChangeInheritance {
        class,
        old_parent,
        new_parent,
    } = r
    {
        write!(f, "{class} {old_parent} {new_parent}")?;
    }
    Ok(())
}

/// ` Only Proven` and its kin, as a command ends with them.
fn site_option(sites: SitePolicy) -> String {
    match sites.words() {
        "" => String::new(),
        words => format!(" {words}"),
    }
}

// -- tool parameters -------------------------------------------------------

fn rename_parameter(argument: Argument) -> Option<&'static str> {
    match argument {
        Argument::Symbol => Some("symbol"),
        Argument::NewName => Some("new_name"),
        Argument::Sites => Some("possible"),
        _ => None,
    }
}

fn extract_parameter(argument: Argument) -> Option<&'static str> {
    (argument == Argument::NewName).then_some("name")
}

// -- what a reply says of the result ----------------------------------------

impl Summary {
    /// `Renamed in 2 files (a.py, b.py), 23 references updated` and its
    /// kin: `files` lists the changed files as the reply shows them,
    /// `sites` shows a list of sites.
    pub fn words(&self, files: &str, sites: &dyn Fn(&[&Location]) -> String) -> String {
        match self {
            Summary::Renamed {
                files: count,
                references,
                ..
            } => format!(
                "Renamed in {count} {} ({files}), {references} {} updated",
                plural(*count, "file"),
                plural(*references, "reference")
            ),
            Summary::SignatureChanged {
                callers, followed, ..
            } => {
                let mut words = format!(
                    "Signature updated, {callers} {} replaced",
                    plural(*callers, "caller")
                );
                if !followed.is_empty() {
                    let all: Vec<&Location> = followed.iter().collect();
                    words.push_str(&format!(
                        " (through {} forwarding {}, followed: {})",
                        all.len(),
                        plural(all.len(), "call"),
                        sites(&all)
                    ));
                }
                words
            }
            Summary::Extracted {
                kind, duplicates, ..
            } => format!(
                "{} extracted, {duplicates} duplicate {} replaced",
                match kind {
                    ExtractKind::Method => "Method",
                    ExtractKind::Function => "Function",
                },
                plural(*duplicates, "block")
            ),
            Summary::Inlined {
                kind, locations, ..
            } => format!(
                "{} inlined at {locations} {}",
                match kind {
                    InlineKind::Variable => "Variable",
                    InlineKind::Function => "Function",
                },
                plural(*locations, "location")
            ),
            Summary::InterfaceExtracted {
                class,
                interface,
                protocol,
                methods,
            } => {
                let class = class.rsplit('.').next().unwrap_or(class);
                let declared = format!(
                    "{} {}: {}",
                    methods.len(),
                    plural(methods.len(), "method"),
                    methods.join(", ")
                );
                if *protocol {
                    format!("Interface extracted, {class} matches the Protocol {interface} ({declared})")
                } else {
                    format!("Interface extracted, {class} now implements {interface} ({declared})")
                }
            }
            Summary::InheritanceChanged {
                class,
                old_parent,
                new_parent,
                calls,
                rerouted,
                type_tests,
            } => {
                let class = class.rsplit('.').next().unwrap_or(class);
                let mut words = format!(
                    "Inheritance changed, {class} now derives from {new_parent} (was {old_parent}), {calls} explicit {} rewritten",
                    plural(*calls, "call")
                );
                if !rerouted.is_empty() {
                    let each: Vec<String> = rerouted.iter().map(rerouted_words).collect();
                    words.push_str(&format!(", now found elsewhere: {}", each.join(", ")));
                }
                if !type_tests.is_empty() {
                    let all: Vec<&Location> = type_tests.iter().collect();
                    words.push_str(&format!(
                        ", instances of {class} no longer pass {} isinstance/except {} of {old_parent}: {}",
                        all.len(),
                        plural(all.len(), "test"),
                        sites(&all)
                    ));
                }
                words
            }
            Summary::MembersMoved {
                up,
                class,
                to,
                members,
                inherited_by,
                kept_own,
            } => {
                let class = class.rsplit('.').next().unwrap_or(class);
                let moved = format!(
                    "{} {} ({})",
                    members.len(),
                    plural(members.len(), "member"),
                    members.join(", ")
                );
                let mut words = if *up {
                    format!("Pulled up {moved} from {class} to {}", first_ten(to))
                } else if to.is_empty() {
                    format!("Pushed down {moved} from {class}: every subclass has its own")
                } else {
                    format!("Pushed down {moved} from {class} to {}", first_ten(to))
                };
                if !inherited_by.is_empty() {
                    words.push_str(&format!(
                        ", now inherited too by: {}",
                        first_ten(inherited_by)
                    ));
                }
                if !kept_own.is_empty() {
                    words.push_str(&format!(", kept their own: {}", first_ten(kept_own)));
                }
                words
            }
            Summary::MethodMoved {
                method,
                target,
                name,
                via,
                parameters,
                callers,
                delegate,
            } => {
                let short = |n: &str| {
                    let mut parts = n.rsplit('.');
                    let last = parts.next().unwrap_or(n);
                    match parts.next() {
                        Some(owner) => format!("{owner}.{last}"),
                        None => last.to_string(),
                    }
                };
                let target_short = target.rsplit('.').next().unwrap_or(target);
                let mut words = format!(
                    "Moved method {} to {target_short}.{name} (through {via}",
                    short(method)
                );
                if !parameters.is_empty() {
                    words.push_str(&format!(
                        ", new {} {}",
                        plural(parameters.len(), "parameter"),
                        parameters.join(", ")
                    ));
                }
                words.push_str(&format!(
                    "), {callers} {} rewritten",
                    plural(*callers, "caller")
                ));
                if *delegate {
                    words.push_str(&format!(", {} kept as a delegate", short(method)));
                }
                words
            }
            Summary::ClassExtracted {
                class,
                new_class,
                members,
                attribute,
            } => {
                let short = class.rsplit('.').next().unwrap_or(class);
                format!(
                    "Class extracted: {} moved from {short} to {new_class}, which {short} holds as self.{attribute} and delegates to",
                    members.join(", ")
                )
            }
            Summary::ClassSplit {
                class,
                new_class,
                members,
                references,
            } => {
                let short = class.rsplit('.').next().unwrap_or(class);
                format!(
                    "Class split: {} moved from {short} to {new_class}, {references} {} updated",
                    members.join(", "),
                    plural(*references, "reference")
                )
            }
            Summary::ClassesMerged {
                first,
                second,
                target,
                files: count,
                references,
            } => {
                let short = |n: &String| n.rsplit('.').next().unwrap_or(n).to_string();
                format!(
                    "Classes merged into {target} ({}, {}), {count} {} ({files}), {references} {} updated",
                    short(first),
                    short(second),
                    plural(*count, "file"),
                    plural(*references, "reference")
                )
            }
        }
    }

    /// The counts of a preview, without the verb: `23 references`.
    pub fn preview_counts(&self) -> String {
        match self {
            Summary::Renamed { references, .. } => {
                format!("{references} {}", plural(*references, "reference"))
            }
            Summary::SignatureChanged { callers, .. } => {
                format!("{callers} {}", plural(*callers, "caller"))
            }
            Summary::Extracted { duplicates, .. } => {
                format!("{duplicates} duplicate {}", plural(*duplicates, "block"))
            }
            Summary::Inlined { locations, .. } => {
                format!("{locations} {}", plural(*locations, "location"))
            }
            Summary::InterfaceExtracted { methods, .. } => {
                format!("{} {}", methods.len(), plural(methods.len(), "method"))
            }
            Summary::InheritanceChanged { calls, .. } => {
                format!("1 base, {calls} explicit {}", plural(*calls, "call"))
            }
            Summary::MembersMoved { members, .. } => {
                format!("{} {}", members.len(), plural(members.len(), "member"))
            }
            Summary::ClassesMerged { references, .. } => {
                format!("{references} {}", plural(*references, "reference"))
            }
            Summary::ClassExtracted { members, .. } => {
                format!("{} {}", members.len(), plural(members.len(), "method"))
            }
            Summary::ClassSplit { references, .. } => {
                format!("{references} {}", plural(*references, "reference"))
            }
            Summary::MethodMoved { callers, .. } => {
                format!("{callers} {}", plural(*callers, "caller"))
            }
        }
    }

    /// The `summary` object of the JSON `refactor` report; `site` is how
    /// the report writes a site.
    pub fn json(&self, site: &dyn Fn(&Location) -> Value) -> Value {
        match self {
            Summary::Renamed {
                symbol,
                files,
                references,
            } => json!({"symbol": symbol, "files": files, "references": references}),
            Summary::SignatureChanged {
                function,
                callers,
                followed,
            } => {
                json!({"function": function, "callers": callers, "followed": followed.iter().map(site).collect::<Vec<_>>()})
            }
            Summary::Extracted {
                name, duplicates, ..
            } => json!({"name": name, "duplicates": duplicates}),
            Summary::Inlined {
                name, locations, ..
            } => json!({"name": name, "locations": locations}),
            Summary::InterfaceExtracted {
                class,
                interface,
                protocol,
                methods,
            } => {
                json!({"class": class, "interface": interface, "protocol": protocol, "methods": methods})
            }
            Summary::InheritanceChanged {
                class,
                old_parent,
                new_parent,
                calls,
                rerouted,
                type_tests,
            } => {
                let rerouted: Vec<Value> = rerouted
                    .iter()
                    .map(|r| {
                        json!({"class": r.class, "name": r.name, "via_super": r.via_super, "before": resolved_json(&r.before), "after": resolved_json(&r.after)})
                    })
                    .collect();
                json!({"class": class, "old_parent": old_parent, "new_parent": new_parent, "calls": calls, "rerouted": rerouted, "type_tests": type_tests.iter().map(site).collect::<Vec<_>>()})
            }
            Summary::MembersMoved {
                up,
                class,
                to,
                members,
                inherited_by,
                kept_own,
            } => {
                json!({"class": class, "direction": if *up { "up" } else { "down" }, "to": to, "members": members, "inherited_by": inherited_by, "kept_own": kept_own})
            }
            Summary::MethodMoved {
                method,
                target,
                name,
                via,
                parameters,
                callers,
                delegate,
            } => {
                json!({"method": method, "target": target, "name": name, "via": via, "parameters": parameters, "callers": callers, "delegate": delegate})
            }
            Summary::ClassExtracted {
                class,
                new_class,
                members,
                attribute,
            } => {
                json!({"class": class, "new_class": new_class, "members": members, "attribute": attribute})
            }
            Summary::ClassSplit {
                class,
                new_class,
                members,
                references,
            } => {
                json!({"class": class, "new_class": new_class, "members": members, "references": references})
            }
            Summary::ClassesMerged {
                first,
                second,
                target,
                files,
                references,
            } => {
                json!({"first": first, "second": second, "target": target, "files": files, "references": references})
            }
        }
    }
}

/// Names joined, the first ten and how many more.
fn first_ten(names: &[String]) -> String {
    let mut out = names
        .iter()
        .take(10)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 10 {
        out.push_str(&format!(" … ({} more)", names.len() - 10));
    }
    out
}

/// `self.save in Child: Mid (was Base)`.
fn rerouted_words(r: &Rerouted) -> String {
    let read = if r.via_super { "super()" } else { "self" };
    let side = |side: &Resolved| match side {
        Resolved::In(class) => format!("{class}.{}", r.name),
        Resolved::Unknown(outside) => {
            format!("not found up to {outside}, whose members are not known")
        }
        Resolved::Nowhere => "not found".to_string(),
    };
    format!(
        "{read}.{} in {}: {} (was {})",
        r.name,
        r.class,
        side(&r.after),
        side(&r.before)
    )
}

/// A lookup's end in JSON: `{"class": "Base"}`, `{"unknown_after":
/// "pkg.Ext"}` or `null` (not found).
fn resolved_json(side: &Resolved) -> Value {
    match side {
        Resolved::In(class) => json!({"class": class}),
        Resolved::Unknown(outside) => json!({"unknown_after": outside}),
        Resolved::Nowhere => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One request of every kind, as a command writes it.
    const COMMANDS: &[&str] = &[
        "RenameSymbol chunked batched Include Text Only Proven",
        "Rename_Class UserManager AccountManager Include Possible",
        "Rename_Param connect timeout timeout_s Include Text Only Proven",
        "Signature auth.login(user) login(user, timeout=30) Only Proven",
        "Extract_Method total lines 4:9",
        "ExtractFunction total lines 4:9",
        "Inline_Variable temp",
        "InlineFunction pkg.helper",
        "Extract_Interface shop.PaymentProcessor Payable Protocol",
        "Change_Inheritance shop.Admin base.User StaffUser",
        "Pull_Up Card.fee,Card.rate",
        "Push_Down shop.Payment.refund",
        "Merge_Classes shop.User Profile Account",
        "Move_Method User.validate UserValidator",
        "Split_Class shop.User UserRules MAX_NAME,parse",
        "ExtractClass shop.User UserRules parse,render",
    ];

    fn parsed(command: &str) -> Refactoring {
        match crate::commands::parse_command(&format!("Refactor {command}")) {
            Ok(crate::commands::command::Command::Refactor(r)) => r,
            other => panic!("{command}: {other:?}"),
        }
    }

    #[test]
    fn every_kind_parses_prints_and_finds_its_own_entry() {
        assert_eq!(COMMANDS.len(), KINDS.len());
        for (command, kind) in COMMANDS.iter().zip(KINDS) {
            let request = parsed(command);
            assert_eq!(request.kind().keyword, kind.keyword, "{command}");
            assert_eq!(request.to_string(), *command);
            assert!(kind.usage.starts_with(kind.keyword), "{}", kind.usage);
        }
    }

    #[test]
    fn move_method_reads_the_specs_form_with_the_name_in_the_target() {
        let command = "Move_Method shop.User.validate() UserValidator.check()";
        let request = parsed(command);
        assert_eq!(
            request,
            Refactoring::MoveMethod {
                method: "shop.User.validate".into(),
                target: "UserValidator".into(),
                name: Some("check".into()),
            }
        );
        assert_eq!(request.to_string(), command);
    }

    #[test]
    fn every_example_runs_its_own_kind() {
        for kind in KINDS {
            if let Some(example) = kind.example {
                let words = example.strip_prefix("Refactor ").unwrap();
                assert_eq!(parsed(words).kind().keyword, kind.keyword, "{example}");
            }
        }
    }

    #[test]
    fn keywords_and_aliases_are_unambiguous() {
        let mut seen = std::collections::BTreeSet::new();
        for kind in KINDS {
            for name in std::iter::once(&kind.keyword).chain(kind.aliases) {
                assert!(seen.insert(squash(name)), "{name} twice");
                assert_eq!(lookup(name).map(|k| k.keyword), Some(kind.keyword));
            }
        }
        for later in LATER {
            assert!(lookup(later).is_none(), "{later} is built");
        }
    }

    #[test]
    fn every_argument_the_request_has_is_a_tool_parameter() {
        // the arguments an error of each kind can be about
        let arguments: &[(&str, &[Argument])] = &[
            (
                "RenameSymbol",
                &[Argument::Symbol, Argument::NewName, Argument::Sites],
            ),
            (
                "Rename_Class",
                &[Argument::Symbol, Argument::NewName, Argument::Sites],
            ),
            (
                "Rename_Param",
                &[Argument::Symbol, Argument::Param, Argument::NewName],
            ),
            (
                "Signature",
                &[Argument::Symbol, Argument::OldParams, Argument::NewParams],
            ),
            ("Extract_Method", &[Argument::NewName]),
            ("ExtractFunction", &[Argument::NewName]),
            ("Inline_Variable", &[Argument::Symbol]),
            ("InlineFunction", &[Argument::Symbol]),
            ("Extract_Interface", &[Argument::Symbol, Argument::NewName]),
            (
                "Change_Inheritance",
                &[Argument::Symbol, Argument::OldParent, Argument::NewParent],
            ),
            ("Pull_Up", &[Argument::Symbol, Argument::Members]),
            ("Push_Down", &[Argument::Symbol, Argument::Members]),
            (
                "Merge_Classes",
                &[Argument::Symbol, Argument::Members, Argument::NewName],
            ),
            (
                "Move_Method",
                &[Argument::Symbol, Argument::Target, Argument::NewName],
            ),
            (
                "Split_Class",
                &[Argument::Symbol, Argument::NewName, Argument::Members],
            ),
            (
                "ExtractClass",
                &[Argument::Symbol, Argument::NewName, Argument::Members],
            ),
        ];
        for (keyword, arguments) in arguments {
            let kind = lookup(keyword).unwrap();
            for argument in *arguments {
                assert!(
                    kind.tool_parameter(*argument).is_some(),
                    "{keyword}: {argument:?}"
                );
            }
            assert_eq!(kind.tool_parameter(Argument::File), Some("path"));
            assert_eq!(kind.tool_parameter(Argument::Lines), None, "{keyword}");
        }
    }
}
