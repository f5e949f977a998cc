//! The syntax tree of a script: what the parser builds and a later
//! interpreter walks. Every node carries its [`Span`] in the script.
//!
//! `Display` prints a tree as an S-expression, one statement of a block a
//! line (`(foreach (callers authenticate) (replace_with …))`): the form
//! tests compare and a reader can check against the script.

use std::fmt::{self, Display, Formatter, Write as _};

use crate::commands::Command;

/// Where a node is in the script: char offsets `start..end` and the
/// 1-based `line:col` of its start (what error messages show).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub col: usize,
}

impl Span {
    /// From this span's start to `last`'s end.
    pub fn to(self, last: Span) -> Span {
        Span {
            end: last.end.max(self.end),
            ..self
        }
    }
}

impl Display for Span {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// A whole script: its statements in order (a script written as one
/// `{ … }` block is one [`StatementKind::Block`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pub statements: Vec<Statement>,
    pub span: Span,
}

/// `{ … }`: statements run in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub statements: Vec<Statement>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub kind: StatementKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatementKind {
    /// `foreach [$x in] <query> <body>`: the body once per element.
    Foreach {
        binding: Option<Var>,
        query: Query,
        body: Box<Statement>,
    },
    /// `if <condition> <then> [else <otherwise>]`
    If {
        condition: Condition,
        then: Box<Statement>,
        otherwise: Option<Box<Statement>>,
    },
    /// `let $x = <query>`
    Let {
        var: Var,
        query: Query,
    },
    /// `use $x <body>`: the body once per element the variable holds.
    Use {
        var: Var,
        body: Box<Statement>,
    },
    Block(Block),
    /// `try { … } catch { … }`
    Try {
        body: Block,
        catch: Block,
    },
    /// `on_error continue|stop|rollback`
    OnError(ErrorPolicy),
    /// `store current_position as <name>` (back with `goto <name>`).
    StorePosition {
        name: Name,
    },
    /// `push context`
    PushContext,
    /// `pop context`
    PopContext,
    /// `collect changes as "<name>"`: what the script changes is kept as a
    /// named changeset instead of being written.
    Collect {
        name: Name,
    },
    /// `preview [diff] changeset <name>`
    PreviewChangeset {
        name: Name,
        diff: bool,
    },
    /// `apply changeset <name>`
    ApplyChangeset {
        name: Name,
    },
    /// `rollback changeset <name>`
    RollbackChangeset {
        name: Name,
    },
    /// `rollback all` (in a `catch`): undo what the script did so far.
    RollbackAll,
    Action(Action),
}

/// `on_error`'s policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorPolicy {
    /// Report the failed element and go on with the next.
    Continue,
    /// Stop at the first failure; what ran before stays in the transaction.
    Stop,
    /// Stop and undo the whole script (the default).
    Rollback,
}

/// `$name`, without the `$`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Var {
    pub name: String,
    pub span: Span,
}

/// A name the script gives (a changeset, a stored position) or refers to
/// (a module, an annotation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// What code elements a `foreach`, `let` or `use` works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub source: Source,
    /// `where <condition>`
    pub filter: Option<Condition>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `caller of f()` / `callers of …`: the call sites of the function as
    /// the index resolves it.
    Callers(Subject),
    /// `call to mod.f` / `calls to …`
    Calls(Subject),
    /// `method in C` / `methods in …`
    Methods(Subject),
    /// `function` (every function), `function f` (one).
    Functions(Option<Name>),
    /// `class` (every class), `class C` (one).
    Classes(Option<Name>),
    /// `class implementing I`: its subclasses.
    ClassesImplementing(Subject),
    /// `file matching "<glob>"`
    Files { glob: Name },
    /// `line in range a:b` (1-based, inclusive)
    Lines { first: usize, last: usize },
    /// `symbol of type function|class|variable`
    Symbols(SymbolKind),
    /// `import`
    Imports,
    /// `$x`: the elements a variable holds.
    Variable(Var),
    /// ``match `pow($a, $b)` ``: every place the code pattern matches.
    Match(Code),
}

/// Code between backticks: a pattern (`` `pow($a, $b)` ``) or a
/// replacement template (`` `$a ** $b` ``); `$a` are its metavariables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    pub text: String,
    pub span: Span,
}

/// The function or class a query is about: a name or a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Name(Name),
    Var(Var),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    Function,
    Class,
    Variable,
}

/// The kinds of code element a query yields: what `$x.attr` and
/// `<element>.attr` may ask, and what a condition applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElementKind {
    File,
    Function,
    Method,
    Class,
    /// A call site (`caller of`, `call to`).
    Call,
    Line,
    Symbol,
    Import,
    /// A place a code pattern matched.
    Match,
    /// What a metavariable of the pattern matched (`$a`).
    Capture,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub kind: ConditionKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConditionKind {
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
    Not(Box<Condition>),
    /// `complexity > 10`, `params.count == 1`, `line_count > 50`
    Measure {
        metric: Metric,
        op: CompareOp,
        value: usize,
    },
    /// `has_annotation @x` (the name without `@`)
    HasAnnotation(Name),
    /// `imports <module>`
    Imports(Name),
    /// `contains "<text>"`: the element's text holds it.
    Contains(Expr),
    /// `unused`
    Unused,
    /// `file.path contains "test_"`, `$m.name == "run"`
    Test {
        attribute: Attribute,
        test: Test,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Complexity,
    ParamsCount,
    LineCount,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

/// What a condition asks of an attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    Contains(Expr),
    Compare(CompareOp, Expr),
    /// `$a.type is number`, `… is not call`: a type word.
    Is {
        negated: bool,
        word: &'static str,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExprKind {
    Str(String),
    Number(usize),
    /// A bare identifier, taken as text (a new name in a refactoring).
    Name(String),
    /// `$x`, `$x.name`, `function.name`, `caller.location`, `function`.
    Attribute(Attribute),
    /// `a + b + …`: texts joined (numbers as digits).
    Concat(Vec<Expr>),
}

/// A value of an element: `$x.path…` or `<element>.path…`; an empty path
/// is the element itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub object: Object,
    /// Lower case, as in the attribute table: `["name"]`, `["params",
    /// "count"]`.
    pub path: Vec<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Object {
    Var(Var),
    /// The element of the enclosing `foreach` of that kind (`function`,
    /// `caller`, …); `file` is always the current element's file.
    Element(ElementKind),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub kind: ActionKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionKind {
    /// `replace with <replacement>`: the element (for a call with a bare
    /// name: its callee, the arguments kept).
    ReplaceWith(Replacement),
    /// `replace <pattern> with <replacement>` inside the element.
    Replace {
        pattern: Pattern,
        replacement: Replacement,
    },
    /// `flag <message>`: a review item, nothing written.
    Flag(Expr),
    /// `suggest <refactoring>` (its registry keyword).
    Suggest(&'static str),
    /// `remove`: the element.
    Remove,
    /// `remove import`: the import element (its name out of a shared line).
    RemoveImport,
    /// `add import <module>`
    AddImport(Name),
    /// `add line "<text>"`
    AddLine(Expr),
    /// `extract_method($m, "name")`: a refactoring called with the
    /// element(s) and values (its registry keyword).
    Refactor {
        kind: &'static str,
        arguments: Vec<Expr>,
    },
    /// A phase-1 command, or a refactoring in command form
    /// (`rename_class A B` is `Refactor Rename_Class A B`).
    Command(Command),
}

/// What `replace … with` puts in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replacement {
    /// A quoted text, or an expression starting with one.
    Text(Expr),
    /// Code: `f($1, timeout=30)`, `new_auth.authenticate`, `$1`.
    Code(CallPattern),
    /// `` `$a ** $b` ``: code with the pattern's metavariables.
    Template(Code),
}

/// What `replace <pattern> with …` looks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// A quoted text.
    Text(String),
    /// A name (`UserManager`) or a call (`authenticate()`).
    Code(CallPattern),
    /// `` `pow($a, $b)` ``: a code pattern.
    Match(Code),
}

/// Code written in a replacement or pattern: a callee and, if written,
/// its arguments. `$1`, `$name`, `$*` stand for the matched call's
/// arguments (positional, keyword, all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallPattern {
    pub callee: Template,
    /// `None` when no `(…)` follows the callee.
    pub arguments: Option<Vec<PatternArgument>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternArgument {
    /// `timeout` of `timeout=30`.
    pub keyword: Option<String>,
    pub value: Template,
}

/// Code text with placeholders.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    Text(String),
    /// `$1` (1-based)
    Argument(usize),
    /// `$name`
    KeywordArgument(String),
    /// `$*`
    AllArguments,
}

impl Template {
    /// Whether it uses a call's arguments.
    pub fn has_placeholders(&self) -> bool {
        self.parts
            .iter()
            .any(|p| !matches!(p, TemplatePart::Text(_)))
    }
}

impl CallPattern {
    pub fn has_placeholders(&self) -> bool {
        self.callee.has_placeholders()
            || self
                .arguments
                .iter()
                .flatten()
                .any(|a| a.value.has_placeholders())
    }
}

// -- the tree as an S-expression ---------------------------------------------

impl Display for Script {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for (i, statement) in self.statements.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            statement.write(&mut out, 0);
        }
        f.write_str(&out)
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out, 0);
        f.write_str(&out)
    }
}

impl Block {
    /// `(block` and each statement on its own line, indented one step more.
    fn write(&self, out: &mut String, depth: usize) {
        out.push_str("(block");
        for statement in &self.statements {
            out.push('\n');
            out.push_str(&"  ".repeat(depth + 1));
            statement.write(out, depth + 1);
        }
        out.push(')');
    }
}

impl Statement {
    fn write(&self, out: &mut String, depth: usize) {
        // Writing to a String cannot fail.
        let _ = self.write_fallible(out, depth);
    }

    fn write_fallible(&self, out: &mut String, depth: usize) -> fmt::Result {
        match &self.kind {
            StatementKind::Foreach {
                binding,
                query,
                body,
            } => {
                out.push_str("(foreach ");
                if let Some(var) = binding {
                    write!(out, "{var} ")?;
                }
                write!(out, "{query} ")?;
                body.write(out, depth);
                out.push(')');
            }
            StatementKind::If {
                condition,
                then,
                otherwise,
            } => {
                write!(out, "(if {condition} ")?;
                then.write(out, depth);
                if let Some(otherwise) = otherwise {
                    out.push_str(" (else ");
                    otherwise.write(out, depth);
                    out.push(')');
                }
                out.push(')');
            }
            StatementKind::Let { var, query } => write!(out, "(let {var} {query})")?,
            StatementKind::Use { var, body } => {
                write!(out, "(use {var} ")?;
                body.write(out, depth);
                out.push(')');
            }
            StatementKind::Block(block) => block.write(out, depth),
            StatementKind::Try { body, catch } => {
                out.push_str("(try ");
                body.write(out, depth);
                out.push_str(" (catch ");
                catch.write(out, depth);
                out.push_str("))");
            }
            StatementKind::OnError(policy) => {
                let word = match policy {
                    ErrorPolicy::Continue => "continue",
                    ErrorPolicy::Stop => "stop",
                    ErrorPolicy::Rollback => "rollback",
                };
                write!(out, "(on_error {word})")?;
            }
            StatementKind::StorePosition { name } => write!(out, "(store_position {name})")?,
            StatementKind::PushContext => out.push_str("(push_context)"),
            StatementKind::PopContext => out.push_str("(pop_context)"),
            StatementKind::Collect { name } => write!(out, "(collect {name})")?,
            StatementKind::PreviewChangeset { name, diff } => {
                let diff = if *diff { " diff" } else { "" };
                write!(out, "(preview_changeset {name}{diff})")?;
            }
            StatementKind::ApplyChangeset { name } => write!(out, "(apply_changeset {name})")?,
            StatementKind::RollbackChangeset { name } => {
                write!(out, "(rollback_changeset {name})")?
            }
            StatementKind::RollbackAll => out.push_str("(rollback_all)"),
            StatementKind::Action(action) => write!(out, "{action}")?,
        }
        Ok(())
    }
}

impl Display for Var {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.name)
    }
}

impl Display for Name {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Display for Subject {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Name(name) => write!(f, "{name}"),
            Subject::Var(var) => write!(f, "{var}"),
        }
    }
}

impl SymbolKind {
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Function => "function",
            SymbolKind::Class => "class",
            SymbolKind::Variable => "variable",
        }
    }
}

impl Display for Query {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.source {
            Source::Callers(s) => write!(f, "(callers {s}")?,
            Source::Calls(s) => write!(f, "(calls {s}")?,
            Source::Methods(s) => write!(f, "(methods {s}")?,
            Source::Functions(None) => f.write_str("(functions")?,
            Source::Functions(Some(name)) => write!(f, "(function {name}")?,
            Source::Classes(None) => f.write_str("(classes")?,
            Source::Classes(Some(name)) => write!(f, "(class {name}")?,
            Source::ClassesImplementing(s) => write!(f, "(classes_implementing {s}")?,
            Source::Files { glob } => write!(f, "(files {:?}", glob.text)?,
            Source::Lines { first, last } => write!(f, "(lines {first}:{last}")?,
            Source::Symbols(kind) => write!(f, "(symbols {}", kind.word())?,
            Source::Imports => f.write_str("(imports")?,
            Source::Variable(var) => write!(f, "(var {var}")?,
            Source::Match(code) => write!(f, "(match {code}")?,
        }
        if let Some(filter) = &self.filter {
            write!(f, " (where {filter})")?;
        }
        f.write_str(")")
    }
}

impl Metric {
    pub fn word(self) -> &'static str {
        match self {
            Metric::Complexity => "complexity",
            Metric::ParamsCount => "params.count",
            Metric::LineCount => "line_count",
        }
    }
}

impl CompareOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "==",
            CompareOp::Ne => "!=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
        }
    }
}

impl Display for Condition {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ConditionKind::And(a, b) => write!(f, "(and {a} {b})"),
            ConditionKind::Or(a, b) => write!(f, "(or {a} {b})"),
            ConditionKind::Not(a) => write!(f, "(not {a})"),
            ConditionKind::Measure { metric, op, value } => {
                write!(f, "({} {} {value})", op.symbol(), metric.word())
            }
            ConditionKind::HasAnnotation(name) => write!(f, "(has_annotation @{name})"),
            ConditionKind::Imports(name) => write!(f, "(imports {name})"),
            ConditionKind::Contains(text) => write!(f, "(contains {text})"),
            ConditionKind::Unused => f.write_str("(unused)"),
            ConditionKind::Test { attribute, test } => match test {
                Test::Contains(text) => write!(f, "(contains {attribute} {text})"),
                Test::Compare(op, value) => write!(f, "({} {attribute} {value})", op.symbol()),
                Test::Is { negated, word } => {
                    let not = if *negated { "not " } else { "" };
                    write!(f, "(is {attribute} {not}{word})")
                }
            },
        }
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Str(text) => write!(f, "{text:?}"),
            ExprKind::Number(n) => write!(f, "{n}"),
            ExprKind::Name(name) => f.write_str(name),
            ExprKind::Attribute(attribute) => write!(f, "{attribute}"),
            ExprKind::Concat(parts) => {
                f.write_str("(+")?;
                for part in parts {
                    write!(f, " {part}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl Display for Attribute {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.object {
            Object::Var(var) => write!(f, "{var}")?,
            Object::Element(kind) => f.write_str(kind.word())?,
        }
        for part in &self.path {
            write!(f, ".{part}")?;
        }
        Ok(())
    }
}

impl Display for Action {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ActionKind::ReplaceWith(replacement) => write!(f, "(replace_with {replacement})"),
            ActionKind::Replace {
                pattern,
                replacement,
            } => write!(f, "(replace {pattern} {replacement})"),
            ActionKind::Flag(message) => write!(f, "(flag {message})"),
            ActionKind::Suggest(kind) => write!(f, "(suggest {kind})"),
            ActionKind::Remove => f.write_str("(remove)"),
            ActionKind::RemoveImport => f.write_str("(remove_import)"),
            ActionKind::AddImport(module) => write!(f, "(add_import {module})"),
            ActionKind::AddLine(text) => write!(f, "(add_line {text})"),
            ActionKind::Refactor { kind, arguments } => {
                write!(f, "(refactor {kind}")?;
                for argument in arguments {
                    write!(f, " {argument}")?;
                }
                f.write_str(")")
            }
            ActionKind::Command(command) => write!(f, "(command {command})"),
        }
    }
}

impl Display for Replacement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Replacement::Text(text) => write!(f, "{text}"),
            Replacement::Code(code) => write!(f, "{code}"),
            Replacement::Template(code) => write!(f, "{code}"),
        }
    }
}

impl Display for Pattern {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Pattern::Text(text) => write!(f, "{text:?}"),
            Pattern::Code(code) => write!(f, "{code}"),
            Pattern::Match(code) => write!(f, "{code}"),
        }
    }
}

impl Display for Code {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.text)
    }
}

/// Code between backticks: `` `f($1, timeout=30)` ``.
impl Display for CallPattern {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "`{}", self.callee)?;
        if let Some(arguments) = &self.arguments {
            f.write_str("(")?;
            for (i, argument) in arguments.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                if let Some(keyword) = &argument.keyword {
                    write!(f, "{keyword}=")?;
                }
                write!(f, "{}", argument.value)?;
            }
            f.write_str(")")?;
        }
        f.write_str("`")
    }
}

impl Display for Template {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        for part in &self.parts {
            match part {
                TemplatePart::Text(text) => f.write_str(&text.replace('$', "$$"))?,
                TemplatePart::Argument(n) => write!(f, "${n}")?,
                TemplatePart::KeywordArgument(name) => write!(f, "${name}")?,
                TemplatePart::AllArguments => f.write_str("$*")?,
            }
        }
        Ok(())
    }
}
