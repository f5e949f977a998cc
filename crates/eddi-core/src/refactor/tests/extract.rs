use super::super::testing::TestProject;
use super::super::{ExtractKind, RefactorFailure, Refactoring, Summary};

fn method(name: &str, first: usize, last: usize) -> Refactoring {
    Refactoring::Extract {
        kind: ExtractKind::Method,
        name: name.into(),
        first_line: first,
        last_line: last,
    }
}

fn function(name: &str, first: usize, last: usize) -> Refactoring {
    Refactoring::Extract {
        kind: ExtractKind::Function,
        name: name.into(),
        first_line: first,
        last_line: last,
    }
}

/// The file after the extraction, and the duplicates replaced.
fn extracted(src: &str, request: &Refactoring) -> (String, usize) {
    let project = TestProject::new(&[("a.py", src)]);
    let done = project
        .run(Some(("a.py", 0, 0)), request)
        .unwrap_or_else(|e| panic!("{e}"));
    let Summary::Extracted { duplicates, .. } = done.summary else {
        panic!("{:?}", done.summary)
    };
    (project.after(&done)["a.py"].clone(), duplicates)
}

fn refused(src: &str, request: &Refactoring) -> (RefactorFailure, String) {
    let project = TestProject::new(&[("a.py", src)]);
    let e = project.run(Some(("a.py", 0, 0)), request).unwrap_err();
    (e.kind, e.message)
}

#[test]
fn a_method_gets_its_reads_as_parameters_and_returns_what_is_read_after() {
    let src = "\
class Cart:
    def total(self, items, rate):
        subtotal = 0
        for item in items:
            subtotal += item.price
        tax = subtotal * rate
        return subtotal + tax
";
    let (after, dups) = extracted(src, &method("add_prices", 2, 4));
    assert_eq!(
        after,
        "\
class Cart:
    def total(self, items, rate):
        subtotal = self.add_prices(items)
        tax = subtotal * rate
        return subtotal + tax

    def add_prices(self, items):
        subtotal = 0
        for item in items:
            subtotal += item.price
        return subtotal
"
    );
    assert_eq!(dups, 0);
}

#[test]
fn several_return_values_are_a_tuple_unpacked_at_the_call() {
    let src = "\
class Stats:
    def describe(self, values):
        count = len(values)
        mean = sum(values) / count
        print(count, mean)
";
    let (after, _) = extracted(src, &method("measure", 2, 3));
    assert_eq!(
        after,
        "\
class Stats:
    def describe(self, values):
        count, mean = self.measure(values)
        print(count, mean)

    def measure(self, values):
        count = len(values)
        mean = sum(values) / count
        return count, mean
"
    );
}

#[test]
fn a_conditional_assignment_passes_the_old_value_in() {
    let src = "\
def label(n, loud):
    text = str(n)
    if loud:
        text = text.upper()
    return text
";
    let (after, _) = extracted(src, &function("shout", 2, 3));
    assert_eq!(
        after,
        "\
def shout(loud, text):
    if loud:
        text = text.upper()
    return text


def label(n, loud):
    text = str(n)
    text = shout(loud, text)
    return text
"
    );
}

#[test]
fn a_conditional_assignment_with_no_value_before_is_refused() {
    let src = "\
def label(n, loud):
    if loud:
        text = str(n)
    return text
";
    let (kind, message) = refused(src, &function("shout", 1, 2));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - 'text' is assigned on only some paths through lines 1:2 and used after them, with no value before them"
    );
}

#[test]
fn an_if_with_an_else_that_binds_in_both_branches_binds_for_sure() {
    let src = "\
def sign(n):
    if n < 0:
        s = -1
    else:
        s = 1
    return s
";
    let (after, _) = extracted(src, &function("sign_of", 1, 4));
    assert_eq!(
        after,
        "\
def sign_of(n):
    if n < 0:
        s = -1
    else:
        s = 1
    return s


def sign(n):
    s = sign_of(n)
    return s
"
    );
}

#[test]
fn augmented_assignment_reads_and_binds() {
    let src = "\
def add(values):
    total = 0
    for v in values:
        total += v
    return total
";
    let (after, _) = extracted(src, &function("bump", 3, 3));
    assert_eq!(
        after,
        "\
def bump(total, v):
    total += v
    return total


def add(values):
    total = 0
    for v in values:
        total = bump(total, v)
    return total
"
    );
}

#[test]
fn comprehension_variables_are_not_parameters_and_globals_are_read_in_place() {
    let src = "\
import math

SCALE = 2

def norms(values):
    squares = [math.sqrt(v * v) * SCALE for v in values if v]
    return sorted(squares)
";
    let (after, _) = extracted(src, &function("scaled", 5, 5));
    assert_eq!(
        after,
        "\
import math

SCALE = 2

def scaled(values):
    squares = [math.sqrt(v * v) * SCALE for v in values if v]
    return squares


def norms(values):
    squares = scaled(values)
    return sorted(squares)
"
    );
}

#[test]
fn a_name_read_before_it_is_bound_in_the_range_is_a_parameter() {
    let src = "\
class Counter:
    def step(self, n):
        n = n + 1
        self.value = n
        return n
";
    let (after, _) = extracted(src, &method("advance", 2, 3));
    assert_eq!(
        after,
        "\
class Counter:
    def step(self, n):
        n = self.advance(n)
        return n

    def advance(self, n):
        n = n + 1
        self.value = n
        return n
"
    );
}

#[test]
fn decorators_and_docstrings_stay_with_their_method() {
    let src = "\
import functools


class Shop:
    @functools.lru_cache(maxsize=None)
    def price(self, item):
        \"\"\"The price of an item.\"\"\"
        base = item.cost
        return base * 2

    def other(self):
        return 1
";
    let (after, _) = extracted(src, &method("base_cost", 7, 7));
    assert_eq!(
        after,
        "\
import functools


class Shop:
    @functools.lru_cache(maxsize=None)
    def price(self, item):
        \"\"\"The price of an item.\"\"\"
        base = self.base_cost(item)
        return base * 2

    def base_cost(self, item):
        base = item.cost
        return base

    def other(self):
        return 1
"
    );
    let (kind, message) = refused(src, &method("doc", 6, 7));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - line 6 is the docstring of price; select the lines after it"
    );
}

#[test]
fn classmethods_call_through_cls_and_staticmethods_stay_static() {
    let src = "\
class Parser:
    @classmethod
    def load(cls, raw):
        parts = raw.split(',')
        return cls(parts)

    @staticmethod
    def clean(raw):
        stripped = raw.strip()
        return stripped.lower()
";
    let (after, _) = extracted(src, &method("split", 3, 3));
    assert_eq!(
        after,
        "\
class Parser:
    @classmethod
    def load(cls, raw):
        parts = cls.split(raw)
        return cls(parts)

    @classmethod
    def split(cls, raw):
        parts = raw.split(',')
        return parts

    @staticmethod
    def clean(raw):
        stripped = raw.strip()
        return stripped.lower()
"
    );
    let (after, _) = extracted(src, &method("strip", 8, 8));
    assert_eq!(
        after,
        "\
class Parser:
    @classmethod
    def load(cls, raw):
        parts = raw.split(',')
        return cls(parts)

    @staticmethod
    def clean(raw):
        stripped = Parser.strip(raw)
        return stripped.lower()

    @staticmethod
    def strip(raw):
        stripped = raw.strip()
        return stripped
"
    );
}

#[test]
fn an_await_makes_an_async_helper_that_is_awaited() {
    let src = "\
class Client:
    async def fetch(self, url):
        response = await self.session.get(url)
        body = await response.text()
        return body
";
    let (after, _) = extracted(src, &method("download", 2, 3));
    assert_eq!(
        after,
        "\
class Client:
    async def fetch(self, url):
        body = await self.download(url)
        return body

    async def download(self, url):
        response = await self.session.get(url)
        body = await response.text()
        return body
"
    );
    let src = "\
async def copy(source, sink):
    async for chunk in source:
        sink.write(chunk)
";
    let (after, _) = extracted(src, &function("pump", 1, 2));
    assert_eq!(
        after,
        "\
async def pump(source, sink):
    async for chunk in source:
        sink.write(chunk)


async def copy(source, sink):
    await pump(source, sink)
"
    );
}

#[test]
fn a_yield_makes_a_generator_called_with_yield_from() {
    let src = "\
def walk(tree):
    yield tree.name
    seen = 0
    for child in tree.children:
        seen += 1
        yield child
    print(seen)
";
    let (after, _) = extracted(src, &function("children", 2, 5));
    assert_eq!(
        after,
        "\
def children(tree):
    seen = 0
    for child in tree.children:
        seen += 1
        yield child
    return seen


def walk(tree):
    yield tree.name
    seen = yield from children(tree)
    print(seen)
"
    );
    let src = "\
async def stream(source):
    async for x in source:
        yield x
    for y in source.rest:
        yield y
";
    let (kind, message) = refused(src, &function("each", 1, 2));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - the yield at line 2 in async stream would need an async generator, which `yield from` cannot call"
    );
    // no await in the range, still an async generator
    let (_, message) = refused(src, &function("each", 3, 4));
    assert_eq!(
        message,
        "Cannot extract - the yield at line 4 in async stream would need an async generator, which `yield from` cannot call"
    );
}

#[test]
fn control_flow_that_leaves_the_range_is_refused() {
    let src = "\
def find(items, wanted):
    for item in items:
        if item == wanted:
            break
        if item is None:
            continue
        print(item)
    for item in items:
        if item:
            return item
    return None
";
    let cases = [
        (
            function("check", 2, 3),
            "Cannot extract - the break at line 3 belongs to a loop outside lines 2:3; select the whole loop",
        ),
        (
            function("check", 4, 5),
            "Cannot extract - the continue at line 5 belongs to a loop outside lines 4:5; select the whole loop",
        ),
        (
            function("check", 8, 9),
            "Cannot extract - the return at line 9 would return from the new function instead; select lines without it",
        ),
    ];
    for (request, expected) in cases {
        let (kind, message) = refused(src, &request);
        assert_eq!(kind, RefactorFailure::Refused);
        assert_eq!(message, expected);
    }
    // the whole loop carries its own break and continue
    let (after, _) = extracted(src, &function("scan", 1, 6));
    assert!(
        after.starts_with("def scan(items, wanted):\n    for item in items:\n"),
        "{after}"
    );
    assert!(
        after.contains("\n    scan(items, wanted)\n    for item in items:\n"),
        "{after}"
    );
}

#[test]
fn ranges_that_cut_statements_or_hold_none_are_refused() {
    let src = "\
def f(a):
    if a:
        x = 1
        y = 2
    else:
        x = 3
        y = 4

    # only a comment
    return x, y
";
    let cases = [
        (1, 2, "Cannot extract - lines 1:2 cut the `if` statement at lines 1:6; select whole statements (a header with its whole body)"),
        (3, 5, "Cannot extract - lines 3:5 cut the `if` statement at lines 1:6; select whole statements (a header with its whole body)"),
        (4, 5, "Cannot extract - lines 4:5 cut the `if` statement at lines 1:6; select whole statements (a header with its whole body)"),
        (7, 8, "Cannot extract - lines 7:8 hold no statement; select the lines of the code to extract"),
    ];
    for (first, last, expected) in cases {
        let (kind, message) = refused(src, &function("g", first, last));
        assert_eq!(kind, RefactorFailure::Refused, "{first}:{last}");
        assert_eq!(message, expected);
    }
    let (kind, message) = refused(src, &function("g", 8, 12));
    assert_eq!(kind, RefactorFailure::InvalidArgument);
    assert_eq!(message, "Invalid range: lines 8:12, the file has lines 0:9");
    let (kind, message) = refused(src, &function("g", 5, 3));
    assert_eq!(kind, RefactorFailure::InvalidArgument);
    assert_eq!(
        message,
        "Invalid range: lines 5:3 end before they start; give the first line first"
    );
    // a range inside one branch is fine
    let (after, _) = extracted(src, &function("g", 5, 6));
    assert!(after.contains("    else:\n        x, y = g()\n"), "{after}");
}

#[test]
fn no_current_file_and_bad_names_fail_clearly() {
    let project = TestProject::new(&[("a.py", "x = 1\n")]);
    let e = project.run(None, &function("g", 0, 0)).unwrap_err();
    assert_eq!(e.kind, RefactorFailure::InvalidArgument);
    assert_eq!(
        e.message,
        "Open the file first: ExtractFunction works on the current file"
    );
    let e = project
        .run(Some(("a.py", 0, 0)), &function("class", 0, 0))
        .unwrap_err();
    assert_eq!(e.kind, RefactorFailure::InvalidArgument);
    assert_eq!(
        e.message,
        "Invalid name 'class': not a Python identifier (letters, digits, _; not a keyword)"
    );
}

#[test]
fn names_already_taken_are_a_conflict() {
    let src = "\
class Box:
    size = 3

    def grow(self, n):
        self.limit = n
        m = n * 2
        return m

    def helper(self):
        return self.size


def helper2(x):
    return list(x)
";
    let cases = [
        (method("helper", 5, 5), "Name conflict exists: Box.helper is already defined at line 8; choose another name"),
        (method("size", 5, 5), "Name conflict exists: Box.size is already defined at line 1; choose another name"),
        (method("limit", 5, 5), "Name conflict exists: self.limit is used in Box at line 4; choose another name"),
        (function("helper2", 5, 5), "Name conflict exists: helper2 is already defined at line 12; choose another name"),
        (function("list", 5, 5), "Name conflict exists: list is used at line 13 as a builtin or star import; choose another name"),
        (function("m", 5, 5), "Name conflict exists: m is a local name of grow at line 5; choose another name"),
    ];
    for (request, expected) in cases {
        let (kind, message) = refused(src, &request);
        assert_eq!(kind, RefactorFailure::NameConflict);
        assert_eq!(message, expected);
    }
}

#[test]
fn extract_method_needs_a_method() {
    let src = "\
x = 1
def f():
    return 2
class C:
    y = 3
";
    let cases = [
        (0, 0, "Cannot extract - lines 0:0 are at module level, not in a method; use ExtractFunction"),
        (2, 2, "Cannot extract - lines 2:2 are in function f, which is not a method; use ExtractFunction"),
        (4, 4, "Cannot extract - lines 4:4 are in the body of class C, not in a method; select lines inside a method"),
    ];
    for (first, last, expected) in cases {
        let (kind, message) = refused(src, &method("g", first, last));
        assert_eq!(kind, RefactorFailure::Refused);
        assert_eq!(message, expected);
    }
}

#[test]
fn nonlocal_and_global_that_would_change_meaning_are_refused() {
    let src = "\
count = 0

def outer():
    n = 0
    def inner():
        nonlocal n
        n += 1
        return n
    return inner

def bump():
    global count
    count += 1
    return count

def reset():
    global count
    count = 0
";
    let (kind, message) = refused(src, &function("g", 5, 6));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - the nonlocal statement at line 5 would change meaning in a new function"
    );
    let (_, message) = refused(src, &function("g", 6, 6));
    assert_eq!(
        message,
        "Cannot extract - line 6 assigns 'n', which inner declares nonlocal"
    );
    let (_, message) = refused(src, &function("g", 11, 12));
    assert_eq!(
        message,
        "Cannot extract - the global statement at line 11 declares 'count' for all of bump, which uses it outside lines 11:12"
    );
    // the name the function declares global stays global in the helper
    let (after, _) = extracted(src, &function("incr", 12, 12));
    assert!(
        after.contains("def incr():\n    global count\n    count += 1\n\n\ndef bump():\n    global count\n    incr()\n    return count\n"),
        "{after}"
    );
    // a global statement used only in the range moves with it
    let (after, _) = extracted(src, &function("zero", 16, 17));
    assert!(
        after.contains(
            "def zero():\n    global count\n    count = 0\n\n\ndef reset():\n    zero()\n"
        ),
        "{after}"
    );
}

#[test]
fn extract_function_refuses_what_only_the_class_gives() {
    let src = "\
class Base:
    def run(self):
        return 1

class Child(Base):
    def run(self):
        value = super().run()
        self.__secret = value
        return value
";
    let (kind, message) = refused(src, &function("g", 6, 6));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - super at line 6 needs the class; use Extract_Method"
    );
    let (_, message) = refused(src, &function("g", 7, 7));
    assert_eq!(
        message,
        "Cannot extract - the private name __secret at line 7 is mangled by the class; use Extract_Method"
    );
    // as a method, both work
    let (after, _) = extracted(src, &method("parent_run", 6, 7));
    assert!(
        after.contains("        value = self.parent_run()\n        return value\n\n    def parent_run(self):\n        value = super().run()\n        self.__secret = value\n        return value\n"),
        "{after}"
    );
}

#[test]
fn extract_function_from_a_method_passes_self_and_goes_before_the_class() {
    let src = "\
import os

# The store.
class Store:
    def path(self, name):
        full = os.path.join(self.root, name)
        return full
";
    let (after, _) = extracted(src, &function("join_root", 5, 5));
    assert_eq!(
        after,
        "\
import os

def join_root(self, name):
    full = os.path.join(self.root, name)
    return full


# The store.
class Store:
    def path(self, name):
        full = join_root(self, name)
        return full
"
    );
}

#[test]
fn module_level_lines_become_a_function_before_them() {
    let src = "\
import sys

args = sys.argv[1:]
verbose = '-v' in args
names = [a for a in args if a != '-v']
print(verbose, names)
";
    let (after, _) = extracted(src, &function("parse", 3, 4));
    assert_eq!(
        after,
        "\
import sys

args = sys.argv[1:]


def parse():
    verbose = '-v' in args
    names = [a for a in args if a != '-v']
    return verbose, names


verbose, names = parse()
print(verbose, names)
"
    );
}

#[test]
fn module_names_other_files_import_are_returned() {
    let project = TestProject::new(&[
        (
            "conf.py",
            "import os\n\nhome = os.environ.get('HOME')\ncache = home + '/.cache'\n",
        ),
        ("use.py", "from conf import cache\nprint(cache)\n"),
    ]);
    let done = project
        .run(Some(("conf.py", 0, 0)), &function("locate", 2, 3))
        .unwrap();
    assert_eq!(
        project.after(&done)["conf.py"],
        "import os\n\ndef locate():\n    home = os.environ.get('HOME')\n    cache = home + '/.cache'\n    return cache\n\n\ncache = locate()\n"
    );
}

#[test]
fn free_variables_of_an_enclosing_function_become_parameters() {
    let src = "\
def make(step):
    def advance(x):
        y = x + step
        return y
    return advance
";
    let (after, _) = extracted(src, &function("plus", 2, 2));
    assert_eq!(
        after,
        "\
def plus(x, step):
    y = x + step
    return y


def make(step):
    def advance(x):
        y = plus(x, step)
        return y
    return advance
"
    );
}

#[test]
fn tabs_and_crlf_are_kept() {
    let src = "class A:\r\n\tdef f(self, a):\r\n\t\tb = a + 1\r\n\t\treturn b\r\n";
    let (after, _) = extracted(src, &method("inc", 2, 2));
    assert_eq!(
        after,
        "class A:\r\n\tdef f(self, a):\r\n\t\tb = self.inc(a)\r\n\t\treturn b\r\n\r\n\tdef inc(self, a):\r\n\t\tb = a + 1\r\n\t\treturn b\r\n"
    );
}

#[test]
fn multi_line_strings_and_comments_move_untouched() {
    let src = "\
def report(rows):
    # header
    text = '''Report:
  rows
'''
    text += str(len(rows))  # count
    return text
";
    let (after, _) = extracted(src, &function("render", 1, 5));
    assert_eq!(
        after,
        "\
def render(rows):
    # header
    text = '''Report:
  rows
'''
    text += str(len(rows))  # count
    return text


def report(rows):
    text = render(rows)
    return text
"
    );
}

#[test]
fn a_range_in_a_loop_returns_what_the_next_iteration_reads() {
    let src = "\
def run(items):
    last = None
    for item in items:
        if last is not None:
            print(last, item)
        last = item
";
    let (after, _) = extracted(src, &function("remember", 5, 5));
    assert_eq!(
        after,
        "\
def remember(item):
    last = item
    return last


def run(items):
    last = None
    for item in items:
        if last is not None:
            print(last, item)
        last = remember(item)
"
    );
}

#[test]
fn a_closure_that_reads_a_name_assigned_after_the_range_is_refused() {
    let src = "\
def f():
    n = 1
    get = lambda: n
    n = 2
    return get()
";
    let (kind, message) = refused(src, &function("g", 2, 2));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - the function or lambda at line 2 reads 'n', which f assigns again after lines 2:2"
    );
}

#[test]
fn duplicates_in_the_class_up_to_renaming_are_replaced_too() {
    let src = "\
class Report:
    def header(self, rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        print(line)
        return width

    def footer(self, entries):
        # the same code, other names
        size = max(len(e) for e in entries)
        rule = '-' * size
        print(rule)
        return size

    def other(self, cells):
        size = max(len(c) for c in cells)
        rule = '=' * size
        return size

    @staticmethod
    def plain(rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        return width


class Elsewhere:
    def header(self, rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        return width
";
    let (after, dups) = extracted(src, &method("rule_width", 2, 3));
    assert_eq!(
        after,
        "\
class Report:
    def header(self, rows):
        width, line = self.rule_width(rows)
        print(line)
        return width

    def rule_width(self, rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        return width, line

    def footer(self, entries):
        # the same code, other names
        size, rule = self.rule_width(entries)
        print(rule)
        return size

    def other(self, cells):
        size = max(len(c) for c in cells)
        rule = '=' * size
        return size

    @staticmethod
    def plain(rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        return width


class Elsewhere:
    def header(self, rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        return width
"
    );
    assert_eq!(dups, 1);
}

#[test]
fn duplicates_in_the_module_are_replaced_where_the_function_is_defined() {
    let src = "\
import json

raw = '{}'
early = json.loads(raw) or {}

def load(path):
    with open(path) as f:
        data = json.loads(f.read()) or {}
    return data

def parse(text):
    parsed = json.loads(text) or {}
    return parsed

def parse_other(text):
    parsed = json.dumps(text) or {}
    return parsed

late = json.loads(raw) or {}
";
    let (after, dups) = extracted(src, &function("decode", 7, 7));
    assert_eq!(
        after,
        "\
import json

raw = '{}'
early = json.loads(raw) or {}

def decode(f):
    data = json.loads(f.read()) or {}
    return data


def load(path):
    with open(path) as f:
        data = decode(f)
    return data

def parse(text):
    parsed = json.loads(text) or {}
    return parsed

def parse_other(text):
    parsed = json.dumps(text) or {}
    return parsed

late = json.loads(raw) or {}
"
    );
    // `f.read()` is not `text`: no duplicate; now with the same shape
    let (after, dups2) = extracted(src, &function("decode", 11, 11));
    assert_eq!(dups, 0);
    assert_eq!(
        after,
        "\
import json

raw = '{}'
early = json.loads(raw) or {}

def load(path):
    with open(path) as f:
        data = json.loads(f.read()) or {}
    return data

def decode(text):
    parsed = json.loads(text) or {}
    return parsed


def parse(text):
    parsed = decode(text)
    return parsed

def parse_other(text):
    parsed = json.dumps(text) or {}
    return parsed

late = decode(raw)
"
    );
    assert_eq!(dups2, 1);
}

#[test]
fn a_duplicate_whose_data_flow_differs_is_left_alone() {
    let src = "\
def first(a, b):
    total = a + b
    doubled = total * 2
    return doubled

def second(x, y):
    total = x + y
    doubled = total * 2
    return doubled, total

def third(x):
    total = x + x
    doubled = total * 2
    return doubled
";
    // second also reads `total` after the block; third renames two names to one
    let (after, dups) = extracted(src, &function("twice", 1, 2));
    assert_eq!(dups, 0, "{after}");
    assert!(
        after.contains("def second(x, y):\n    total = x + y\n"),
        "{after}"
    );
    assert!(
        after.contains("def third(x):\n    total = x + x\n"),
        "{after}"
    );
}

#[test]
fn a_duplicate_in_the_same_method_is_replaced() {
    let src = "\
class Pair:
    def both(self, a, b):
        a = a.strip().lower()
        b = b.strip().lower()
        return a + b
";
    let (after, dups) = extracted(src, &method("norm", 2, 2));
    assert_eq!(
        after,
        "\
class Pair:
    def both(self, a, b):
        a = self.norm(a)
        b = self.norm(b)
        return a + b

    def norm(self, a):
        a = a.strip().lower()
        return a
"
    );
    assert_eq!(dups, 1);
}

#[test]
fn try_handlers_and_raising_branches_count_for_certain_bindings() {
    let src = "\
def parse(s, strict):
    try:
        value = int(s)
    except ValueError:
        value = 0
    if strict:
        kind = 'strict'
    elif value:
        kind = 'loose'
    else:
        raise ValueError(s)
    return value, kind
";
    let (after, _) = extracted(src, &function("to_int", 1, 4));
    assert_eq!(
        after,
        "\
def to_int(s):
    try:
        value = int(s)
    except ValueError:
        value = 0
    return value


def parse(s, strict):
    value = to_int(s)
    if strict:
        kind = 'strict'
    elif value:
        kind = 'loose'
    else:
        raise ValueError(s)
    return value, kind
"
    );
    let (after, _) = extracted(src, &function("kind_of", 5, 10));
    assert!(
        after.contains("    kind = kind_of(strict, value, s)\n    return value, kind\n"),
        "{after}"
    );
    // a handler that does not assign leaves the name uncertain
    let src = "\
def parse(s):
    try:
        value = int(s)
    except ValueError:
        print('bad')
    return value
";
    let (_, message) = refused(src, &function("to_int", 1, 4));
    assert_eq!(
        message,
        "Cannot extract - 'value' is assigned on only some paths through lines 1:4 and used after them, with no value before them"
    );
}

#[test]
fn module_level_lines_in_a_block_go_before_its_top_level_statement() {
    let src = "\
import sys

if __name__ == '__main__':
    name = sys.argv[1]
    print(name.upper())
";
    let (after, _) = extracted(src, &function("main", 3, 4));
    assert_eq!(
        after,
        "\
import sys

def main():
    name = sys.argv[1]
    print(name.upper())


if __name__ == '__main__':
    main()
"
    );
}

#[test]
fn the_last_method_of_a_file_without_a_final_newline() {
    let src = "class A:\n    def f(self, x):\n        y = x * 2\n        return y";
    let (after, _) = extracted(src, &method("double", 2, 2));
    assert_eq!(
        after,
        "class A:\n    def f(self, x):\n        y = self.double(x)\n        return y\n\n    def double(self, x):\n        y = x * 2\n        return y\n"
    );
}

#[test]
fn a_name_a_base_class_or_a_subclass_defines_is_a_conflict() {
    let project = TestProject::new(&[
        ("base.py", "class Base:\n    def clean(self):\n        return 0\n"),
        (
            "shop.py",
            "from base import Base\n\n\nclass Shop(Base):\n    def total(self, items):\n        n = len(items)\n        return n\n",
        ),
        (
            "sub.py",
            "from shop import Shop\n\n\nclass Outlet(Shop):\n    def count(self):\n        return 1\n",
        ),
    ]);
    let e = project
        .run(Some(("shop.py", 0, 0)), &method("clean", 5, 5))
        .unwrap_err();
    assert_eq!(e.kind, RefactorFailure::NameConflict);
    assert_eq!(
        e.message,
        "Name conflict exists: Base.clean is defined in base.py:1, which Shop inherits; choose another name"
    );
    let e = project
        .run(Some(("shop.py", 0, 0)), &method("count", 5, 5))
        .unwrap_err();
    assert_eq!(
        e.message,
        "Name conflict exists: Outlet.count is defined in sub.py:4, a subclass of Shop; choose another name"
    );
    let done = project
        .run(Some(("shop.py", 0, 0)), &method("size", 5, 5))
        .unwrap();
    assert!(project.after(&done)["shop.py"].contains("        n = self.size(items)\n"));
}

#[test]
fn more_ranges_that_cannot_move() {
    let src = "\
class Outer:
    class Inner:
        @staticmethod
        def f(x):
            y = x + 1
            return y

def g(a):
    total = sum(
        a
    )
    del a
    return total
";
    let (kind, message) = refused(src, &method("inc", 4, 4));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - staticmethod f of the nested class Inner could not call a new staticmethod by its class's name; use ExtractFunction"
    );
    let (_, message) = refused(src, &function("s", 8, 9));
    assert_eq!(
        message,
        "Cannot extract - lines 8:9 cut the statement at lines 8:10; select whole statements (a header with its whole body)"
    );
    let broken = TestProject::new(&[("a.py", "def f(:\n    x = 1\n")]);
    let e = broken
        .run(Some(("a.py", 0, 0)), &function("h", 1, 1))
        .unwrap_err();
    assert_eq!(
        e.message,
        "Cannot extract - a.py has syntax errors; fix them first"
    );
    let src = "\
def f():
    v = 1
    print(v)
    del v
    v = 2
    return v
";
    // deleting is fine when nothing after reads the old value
    let (after, _) = extracted(src, &function("show", 1, 3));
    assert!(after.contains("    show()\n    v = 2\n"), "{after}");
    let src = "\
def f(vs):
    n = len(vs)
    del vs
    print(vs)
";
    let (_, message) = refused(src, &function("drop", 2, 2));
    assert_eq!(
        message,
        "Cannot extract - 'vs' is deleted in lines 2:2 and used after them"
    );
}

#[test]
fn definitions_and_semicolons_in_the_range_move_whole() {
    let src = "\
def f(k):
    def key(item): return item[k]
    a = 1; b = 2
    return sorted([a, b], key=key)
";
    let (after, _) = extracted(src, &function("setup", 1, 2));
    assert_eq!(
        after,
        "\
def setup(k):
    def key(item): return item[k]
    a = 1; b = 2
    return key, a, b


def f(k):
    key, a, b = setup(k)
    return sorted([a, b], key=key)
"
    );
}

#[test]
fn trailing_comments_of_the_range_past_the_method_go_into_the_helper() {
    let src = "\
class A:
    def f(self, x):
        y = x + 1
        # done
    # next
    def g(self):
        return 2
";
    let (after, _) = extracted(src, &method("inc", 2, 4));
    assert_eq!(
        after,
        "\
class A:
    def f(self, x):
        self.inc(x)

    def inc(self, x):
        y = x + 1
        # done
    # next
    def g(self):
        return 2
"
    );
}

/// Runs `driver` after `src` and after its extraction with `python3`: the
/// outputs must be the same (the extraction keeps the behaviour).
fn behaves_the_same(src: &str, request: &Refactoring, driver: &str) -> String {
    let (after, _) = extracted(src, request);
    let run = |code: &str| {
        let out = std::process::Command::new("python3")
            .arg("-c")
            .arg(format!("{code}\n{driver}"))
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}\n{code}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let (before, now) = (run(src), run(&after));
    assert_eq!(before, now, "{after}");
    after
}

#[test]
fn extracted_code_behaves_as_before() {
    let src = "\
def label(n, loud):
    text = str(n)
    if loud:
        text = text.upper() + '!'
    return text
";
    behaves_the_same(
        src,
        &function("shout", 2, 3),
        "print(label(3, True), label(4, False))",
    );
    let src = "\
def walk(items):
    yield 'start'
    seen = 0
    for item in items:
        seen += 1
        yield item
    yield seen
";
    behaves_the_same(src, &function("each", 2, 5), "print(list(walk('abc')))");
    let src = "\
def run(items):
    out = []
    last = None
    for item in items:
        if last is not None:
            out.append((last, item))
        last = item * 2
    return out, last
";
    behaves_the_same(src, &function("remember", 6, 6), "print(run([1, 2, 3]))");
    let src = "\
def parse(s):
    try:
        value = int(s)
    except ValueError:
        value = -1
    return value
";
    behaves_the_same(
        src,
        &function("to_int", 1, 4),
        "print(parse('7'), parse('x'))",
    );
    let src = "\
import asyncio

class Client:
    async def twice(self, x):
        await asyncio.sleep(0)
        y = x * 2
        return y
";
    behaves_the_same(
        src,
        &method("double", 4, 5),
        "print(asyncio.run(Client().twice(21)))",
    );
    let src = "\
class Report:
    def header(self, rows):
        width = max(len(r) for r in rows)
        line = '-' * width
        return line

    def footer(self, entries):
        size = max(len(e) for e in entries)
        rule = '-' * size
        return rule + '|'
";
    let after = behaves_the_same(
        src,
        &method("rule", 2, 3),
        "print(Report().header(['ab', 'c']), Report().footer(['xyz']))",
    );
    assert!(after.contains("rule = self.rule(entries)"), "{after}");
}

#[test]
fn a_pathologically_nested_file_is_refused_not_a_stack_overflow() {
    let n = 10_000;
    let src = format!(
        "def f():\n    x = {}{}\n    return x\n",
        "[1, ".repeat(n),
        "]".repeat(n)
    );
    let (kind, message) = refused(&src, &function("g", 1, 1));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - a.py nests deeper than 256 levels, more than Eddi analyses"
    );
}

#[test]
fn a_nested_function_that_assigns_through_nonlocal_blocks_the_extraction() {
    let src = "\
def counter():
    n = 0
    def bump():
        nonlocal n
        n += 1
    bump()
    print(n)
    return bump
";
    let (kind, message) = refused(src, &function("g", 5, 6));
    assert_eq!(kind, RefactorFailure::Refused);
    assert_eq!(
        message,
        "Cannot extract - 'n' is assigned through nonlocal at line 4, and lines 5:6 use it"
    );
}

#[test]
fn a_duplicate_where_the_new_name_is_a_local_is_left_alone() {
    let src = "\
def first(a):
    b = a * 3
    return b

def second(a, triple):
    b = a * 3
    return b, triple
";
    let (after, dups) = extracted(src, &function("triple", 1, 1));
    assert_eq!(dups, 0, "{after}");
    assert!(
        after.contains("def second(a, triple):\n    b = a * 3\n"),
        "{after}"
    );
}

#[test]
fn an_annotated_variable_keeps_its_annotation_where_it_is_bound() {
    // given back: the call binds it with the annotation
    let src = "\
def render(width: int, text):
    size: float = width / 2
    ret: str = _scale(text, size)
    print(ret)


def _scale(text, size):
    return text * int(size)
";
    let (after, _) = extracted(src, &function("scaled", 2, 2));
    assert_eq!(
        after,
        "\
def scaled(text, size: float):
    ret: str = _scale(text, size)
    return ret


def render(width: int, text):
    size: float = width / 2
    ret: str = scaled(text, size)
    print(ret)


def _scale(text, size):
    return text * int(size)
"
    );
    // several: each declared before the tuple the call unpacks
    let src = "\
def split(line):
    head: str = line[:1]
    n = len(line)
    tail: list[str] = line[1:]
    return head, n, tail
";
    let (after, _) = extracted(src, &function("cut", 1, 3));
    assert_eq!(
        after,
        "\
def cut(line):
    head: str = line[:1]
    n = len(line)
    tail: list[str] = line[1:]
    return head, n, tail


def split(line):
    head: str
    tail: list[str]
    head, n, tail = cut(line)
    return head, n, tail
"
    );
    // a parameter's annotation that names a local of the host is not
    // written on the new def, which could not evaluate it
    let src = "\
def outer(x):
    class Local:
        pass
    item: Local = Local()
    print(item)
";
    let (after, _) = extracted(src, &function("show", 4, 4));
    assert!(after.starts_with("def show(item):\n"), "{after}");
}
