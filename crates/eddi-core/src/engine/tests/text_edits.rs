//! Engine conversations: text edits at the ends of files, search and
//! replace, Show, line ranges, files deleted on disk.

use proptest::prelude::*;

use super::*;

// -- Insert and Delete at the end of a file ---------------------------------

#[test]
fn a_line_inserted_at_the_end_of_the_last_line_goes_after_it() {
    let f = Fixture::new();
    f.write("a.py", "def f(a):\n    return a");
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Goto EndOfFile
        Ok
        Ok, At 0:0, Length 2
        Ok, At 1:12
        > Insert Line "# end"
        Ok, Inserted 1 line at 2, At 2:5
        > Insert Line "# really"
        Ok, Inserted 1 line at 3, At 3:8
        > Save
        Ok, Bytes 37
        "##,
    );
    assert_eq!(
        f.read("a.py"),
        "def f(a):\n    return a\n# end\n# really",
        "the file keeps ending without a newline"
    );
}

#[test]
fn a_line_inserted_at_the_end_of_a_line_goes_after_it_everywhere() {
    let f = Fixture::new();
    f.write("w.txt", "one\r\ntwo\r\nthree\r\n");
    f.check(
        "u",
        r##"
        > Start s; Open w.txt; Goto 0; Goto EndOfLine
        Ok
        Ok, At 0:0, Length 3
        Ok, At 0:0
        Ok, At 0:3
        > Insert Line "after one"
        Ok, Inserted 1 line at 1, At 2:0
        > Goto 2:1
        Ok, At 2:1
        > Insert Line "inside two goes before it"
        Ok, Inserted 1 line at 2, At 3:0
        > Goto EndOfFile
        Ok, At 5:0
        > Insert Line "appended"
        Ok, Inserted 1 line at 5, At 6:0
        > Save
        Ok, Bytes 65
        "##,
    );
    assert_eq!(
        f.read("w.txt"),
        "one\r\nafter one\r\ninside two goes before it\r\ntwo\r\nthree\r\nappended\r\n"
    );
}

#[test]
fn inserts_into_empty_and_one_line_files() {
    let f = Fixture::new();
    f.write("one.txt", "x");
    f.check(
        "u",
        r##"
        > Start s; Open Create empty.txt; Insert Line "a"; Insert Line "b"
        Ok
        Ok, At 0:0, Length 0
        Ok, Inserted 1 line at 0, At 1:0
        Ok, Inserted 1 line at 1, At 2:0
        > Save
        Ok, Bytes 4
        > Open Create blocks.txt; Insert Block "p\nq\n"; Insert Block "r"
        Ok, At 0:0, Length 0
        Ok, Inserted 2 lines at 0, At 2:0
        Ok, Inserted 1 line at 2, At 2:1
        > Insert Block "s\n"
        Ok, Inserted 1 line at 3, At 3:1
        > Save
        Ok, Bytes 7
        > Open one.txt; Insert Line "before"; Goto EndOfFile; Insert Line "after"
        Ok, At 0:0, Length 1
        Ok, Inserted 1 line at 0, At 1:0
        Ok, At 1:1
        Ok, Inserted 1 line at 2, At 2:5
        > Save
        Ok, Bytes 14
        "##,
    );
    assert_eq!(f.read("empty.txt"), "a\nb\n");
    assert_eq!(f.read("blocks.txt"), "p\nq\nr\ns");
    assert_eq!(f.read("one.txt"), "before\nx\nafter");
}

#[test]
fn a_block_of_whole_lines_never_glues_onto_the_end_of_a_line() {
    let f = Fixture::new();
    f.write("a.py", "def f(a):\n    return a");
    f.write("b.txt", "x = 1\ny = 2\n");
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Goto EndOfFile
        Ok
        Ok, At 0:0, Length 2
        Ok, At 1:12
        > Insert Block "\n\ndef g():\n    pass\n"
        Ok, Inserted 4 lines at 2, At 5:8
        > Save
        Ok, Bytes 42
        > Open b.txt; Goto 0:5
        Ok, At 0:0, Length 2
        Ok, At 0:5
        > Insert Block "z = 3\n"
        Ok, Inserted 1 line at 1, At 2:0
        > Goto 2:1
        Ok, At 2:1
        > Insert Block "\n"
        Ok, Inserted 1 line at 2, At 3:0
        > Goto 0:0
        Ok, At 0:0
        > Insert Block "# top\n"
        Ok, Inserted 1 line at 0, At 1:0
        > Goto 1:5
        Ok, At 1:5
        > Insert Block "  # one"
        Ok, Inserted 1 line at 1, At 1:12
        > Save
        Ok, Bytes 32
        "##,
    );
    assert_eq!(
        f.read("a.py"),
        "def f(a):\n    return a\n\n\ndef g():\n    pass"
    );
    assert_eq!(
        f.read("b.txt"),
        "# top\nx = 1  # one\nz = 3\ny\n = 2\n",
        "a partial block goes exactly at the cursor; a lone line break splits the line"
    );
}

#[test]
fn deleting_the_last_line_keeps_the_files_ending() {
    let f = Fixture::new();
    f.write("a.txt", "a\r\nb\r\nc");
    f.write("b.txt", "a\nb\nc\n");
    f.check(
        "u",
        r##"
        > Start s; Open a.txt; Goto 2; Delete Line
        Ok
        Ok, At 0:0, Length 3
        Ok, At 2:0
        Ok, Deleted 1 line at 2, At 1:0
        > Delete Line
        Ok, Deleted 1 line at 1, At 0:0
        > Delete Line
        Ok, Deleted 1 line at 0, At 0:0
        > Delete Line
        Fail "Nothing to delete: the file is empty"
        > Save
        Ok, Bytes 0
        > Open b.txt; Goto 1; Delete Line 2
        Ok, At 0:0, Length 3
        Ok, At 1:0
        Ok, Deleted 2 lines at 1, At 1:0
        > Save
        Ok, Bytes 2
        "##,
    );
    assert_eq!(f.read("a.txt"), "");
    assert_eq!(f.read("b.txt"), "a\n");
}

/// One edit of the property test, with what a naive line model says it does.
#[derive(Debug, Clone)]
enum Op {
    /// Goto a position given as fractions of the lines and the line length.
    Goto(usize, usize),
    InsertLine(String),
    /// Whole lines, each followed by a line break, as one `Insert Block`.
    InsertLines(Vec<String>),
    /// Text without a final line break, possibly over several lines.
    InsertPartial(String),
    DeleteLines(usize),
    DeleteBlock(usize, usize),
    /// `Replace All "<from>" With "<to>"`, either possibly over a line break.
    ReplaceAll(String, String),
}

fn op() -> impl Strategy<Value = Op> {
    let word = "[a-c ]{0,3}";
    prop_oneof![
        (0..100usize, 0..100usize).prop_map(|(l, c)| Op::Goto(l, c)),
        word.prop_map(Op::InsertLine),
        prop::collection::vec(word, 1..3).prop_map(Op::InsertLines),
        "[a-c]{1,2}(\n[a-c]{1,2})?".prop_map(Op::InsertPartial),
        (1..4usize).prop_map(Op::DeleteLines),
        (0..6usize, 0..3usize).prop_map(|(a, n)| Op::DeleteBlock(a, n)),
        ("[a-c]{1,2}\n?[a-c]?", "[a-c]{0,2}\n?")
            .prop_filter("a change", |(from, to)| from != to)
            .prop_map(|(from, to)| Op::ReplaceAll(from, to)),
    ]
}

/// The document as the lines between its line breaks (`"a\n"` is `["a", ""]`).
struct Model {
    lines: Vec<String>,
    cursor: (usize, usize),
}

impl Model {
    fn counted_lines(&self) -> usize {
        self.lines.len() - usize::from(self.lines.last().is_some_and(String::is_empty))
    }

    /// Inserts whole lines where `Insert Line` puts them: before the
    /// cursor's line, after it when the cursor ends a non-empty line.
    fn insert_lines(&mut self, new: &[String]) -> usize {
        let (line, col) = self.cursor;
        let len = self.lines[line].chars().count();
        let at = if len > 0 && col == len {
            line + 1
        } else {
            line
        };
        let appended = at == self.lines.len();
        for (i, text) in new.iter().enumerate() {
            self.lines.insert(at + i, text.clone());
        }
        let last = at + new.len() - 1;
        self.cursor = if appended {
            (last, self.lines[last].chars().count())
        } else {
            (last + 1, 0)
        };
        at
    }

    /// `Insert Block`: whole lines at the end of a non-empty line go after
    /// it, anything else goes exactly at the cursor. Returns the reply's line.
    fn insert_block(&mut self, block: &str) -> usize {
        let (line, col) = self.cursor;
        let len = self.lines[line].chars().count();
        if len > 0 && col == len {
            let lines: Vec<String> = block.lines().map(str::to_owned).collect();
            self.insert_lines(&lines)
        } else {
            self.insert_partial(block);
            line
        }
    }

    fn insert_partial(&mut self, text: &str) {
        let (line, col) = self.cursor;
        let old = &self.lines[line];
        let split = old.char_indices().nth(col).map_or(old.len(), |(i, _)| i);
        let joined = format!("{}{text}{}", &old[..split], &old[split..]);
        let new: Vec<String> = joined.split('\n').map(str::to_owned).collect();
        let last = line + new.len() - 1;
        let end_col = new.last().unwrap().chars().count() - (old.chars().count() - col);
        self.lines.splice(line..=line, new);
        self.cursor = (last, end_col);
    }

    /// Deletes lines `first..=last` when they exist; `false` when refused.
    fn delete(&mut self, first: usize, last: usize) -> bool {
        if last >= self.counted_lines() {
            return false;
        }
        self.lines.drain(first..=last);
        if self.lines.is_empty() {
            self.lines.push(String::new());
        }
        let line = first.min(self.lines.len() - 1);
        self.cursor = (line, 0);
        true
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Insert Line, Insert Block, Delete Line|Block and Replace All agree
    /// with the naive line model on LF and CRLF files, with and without a final newline;
    /// the file on disk is the model's text, and undoing everything gives
    /// the original back.
    #[test]
    fn line_edits_agree_with_a_line_model(
        start in prop::collection::vec("[a-c ]{0,3}", 1..4),
        crlf in any::<bool>(),
        ops in prop::collection::vec(op(), 1..8),
    ) {
        let eol = if crlf && start.len() > 1 { "\r\n" } else { "\n" };
        let original = start.join(eol);
        let f = Fixture::new();
        f.write("m.txt", &original);
        f.send("u", "Start s; Open m.txt");
        let mut model = Model { lines: start.clone(), cursor: (0, 0) };
        let mut edits = 0;
        for op in &ops {
            let reply = match op {
                Op::Goto(l, c) => {
                    let line = l % model.lines.len();
                    let col = c % (model.lines[line].chars().count() + 1);
                    model.cursor = (line, col);
                    f.send("u", &format!("Goto {line}:{col}"))
                }
                Op::InsertLine(text) => {
                    let at = model.insert_lines(std::slice::from_ref(text));
                    let reply = f.send("u", &format!("Insert Line \"{text}\""));
                    prop_assert!(reply.starts_with(&format!("Ok, Inserted 1 line at {at}, ")), "{}", reply);
                    reply
                }
                Op::InsertLines(lines) => {
                    let block: String = lines.iter().map(|l| format!("{l}\n")).collect();
                    let at = model.insert_block(&block);
                    let reply = f.send("u", &format!("Insert Block \"{}\"", block.replace('\n', "\\n")));
                    let expected = format!("Ok, Inserted {} {} at {at}, ", lines.len(), if lines.len() == 1 { "line" } else { "lines" });
                    prop_assert!(reply.starts_with(&expected), "{} (expected {})", reply, expected);
                    reply
                }
                Op::InsertPartial(text) => {
                    model.insert_partial(text);
                    f.send("u", &format!("Insert Block \"{}\"", text.replace('\n', "\\n")))
                }
                Op::DeleteLines(n) => {
                    let first = model.cursor.0;
                    let done = model.delete(first, first + n - 1);
                    let reply = f.send("u", &format!("Delete Line {n}"));
                    prop_assert_eq!(done, reply.starts_with("Ok"), "{}", reply);
                    reply
                }
                Op::DeleteBlock(a, n) => {
                    let done = model.delete(*a, a + n);
                    let reply = f.send("u", &format!("Delete Block {a}:{}", a + n));
                    prop_assert_eq!(done, reply.starts_with("Ok"), "{}", reply);
                    reply
                }
                Op::ReplaceAll(from, to) => {
                    // The model: `str::replace` on the text with `\n` breaks.
                    let joined = model.lines.join("\n");
                    let count = joined.matches(from.as_str()).count();
                    let escape = |t: &str| t.replace('\n', "\\n");
                    let command = format!("Replace All \"{}\" With \"{}\"", escape(from), escape(to));
                    let reply = f.send("u", &command);
                    prop_assert_eq!(count > 0, reply.starts_with("Ok"), "{}", reply);
                    if count > 0 {
                        let expected = format!("Ok, Replaced {count} ");
                        prop_assert!(reply.starts_with(&expected), "{} (expected {})", reply, expected);
                        model.lines = joined.replace(from.as_str(), to).split('\n').map(str::to_owned).collect();
                        // Where the cursor lands is the engine's to say; keep it in step.
                        let at = reply.rsplit("At ").next().unwrap();
                        let (l, c) = at.split_once(':').unwrap();
                        model.cursor = (l.parse().unwrap(), c.parse().unwrap());
                        prop_assert!(model.cursor.0 < model.lines.len());
                        edits += 1;
                    }
                    reply
                }
            };
            if reply.starts_with("Ok, Inserted") || reply.starts_with("Ok, Deleted") {
                edits += 1;
            }
            let (line, col) = model.cursor;
            prop_assert!(reply.ends_with(&format!("At {line}:{col}")) || reply.starts_with("Fail"),
                "after {:?}: {} (model at {}:{})", op, reply, line, col);
        }
        let expected = model.lines.join(eol);
        if expected != original {
            prop_assert!(f.send("u", "Save").starts_with("Ok, Bytes"));
            prop_assert_eq!(f.read("m.txt"), expected);
        }
        if edits > 0 {
            let undo = format!("Undo {edits}");
            prop_assert!(f.send("u", &undo).starts_with("Ok, Undid"));
            prop_assert!(f.send("u", "Save Force").starts_with("Ok, Bytes"));
            prop_assert_eq!(f.read("m.txt"), original);
        }
    }
}

#[test]
fn code_edits_at_the_end_of_a_file_without_a_final_newline_count_their_lines() {
    let f = Fixture::new();
    f.write(
        "a.py",
        "import os\n\nclass C:\n    def m(self):\n        return 1",
    );
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Goto EndOfFile
        Ok
        Ok, At 0:0, Length 5
        Ok, At 4:16
        > Insert Function "def g():\n    pass"
        Ok, Inserted 4 lines at 5, At 9:0
        > Show Block 7:8 0
        Ok: At 7:0, Txt def g():\n    pass
        > Undo; Goto 4:16; Insert Method "def k(self):\n    pass"
        Ok, Undid 1, At 4:16
        Ok, At 4:16
        Ok, Inserted 3 lines at 5, At 8:0
        > Undo; Delete Method C.m
        Ok, Undid 1, At 4:16
        Ok, Deleted 2 lines at 3, the class keeps a 'pass' body, At 3:0
        > Show Block 2:3 0
        Ok: At 2:0, Txt class C:\n    pass
        > Undo; Delete Class C
        Ok, Undid 1, At 4:16
        Ok, Deleted 4 lines at 1, At 1:0
        > Status
        Ok: Session s, File a.py, At 1:0, Modified
        "##,
    );
}

// -- Replace: the replacement text ---------------------------------------------

#[test]
fn an_unknown_group_in_a_replacement_fails_and_says_how_to_write_a_dollar() {
    let f = Fixture::new();
    f.write("p.py", "cost = 1\ntotal_cost = cost * 2\nuser_id = 3\n");
    f.check(
        "u",
        r##"
        > Start s; Open p.py
        Ok
        Ok, At 0:0, Length 3
        > Replace All /cost/ With "$costs"; Save
        Fail "Unknown group '$costs' in the replacement \"$costs\": the regex has no groups besides $0 (the whole match). Write $$ for a literal $ (\"$$costs\"); a group is ${1} or ${name}", Skipped 1 command
        > Replace /cost/ With "$costs"
        Fail "Unknown group '$costs' in the replacement \"$costs\": the regex has no groups besides $0 (the whole match). Write $$ for a literal $ (\"$$costs\"); a group is ${1} or ${name}"
        > Replace Confirm /(\w+)_id/ With "$1_key"
        Fail "Unknown group '$1_key' in the replacement \"$1_key\": the regex has groups $0, $1. Write \"${1}_key\" for group 1 followed by '_key', or $$ for a literal $ (\"$$1_key\")"
        > Replace Confirm /(?P<name>\w+)_id/ With "${nam}Id"
        Fail "Unknown group '${nam}' in the replacement \"${nam}Id\": the regex has groups $0, $1 or ${name}. Write $$ for a literal $ (\"$${nam}Id\"); a group is ${1} or ${name}"
        > Replace All /cost/ With "$$costs"
        Ok, Replaced 3 occurrences, Now invalid Python (3 syntax errors): 0:0 unexpected '$', 1:6 unexpected '$', 1:15 unexpected '$', At 0:0
        > Replace Confirm /(?P<name>\w+)_id/ With "${name}Id"
        Ok, At 2:0, Replace? (y/n)
        > y
        Ok, Replaced 1 occurrence, At 2:6
        > Replace All "$costs" With "$price $1 $$"
        Ok, Replaced 3 occurrences, At 2:6
        > Show Block 0:2 0
        Ok: At 0:0, Txt $price $1 $$ = 1\ntotal_$price $1 $$ = $price $1 $$ * 2\nuserId = 3
        "##,
    );
}

// -- Replace In <scope> ------------------------------------------------------

const SCOPES: &str = "n = 0


def f(n):
    return n + 1


class C:
    n = 2

    def m(self, n):
        return n * C.n
";

#[test]
fn replace_in_a_scope_changes_only_that_scope() {
    let f = Fixture::new();
    f.write("s.py", SCOPES);
    f.check(
        "u",
        r##"
        > Start s; Open s.py
        Ok
        Ok, At 0:0, Length 12
        > Replace All /\bn\b/ With "k" In Function f
        Ok, Replaced 2 occurrences, At 0:0
        > Replace All /\bn\b/ With "count" In Method C.m
        Ok, Replaced 3 occurrences, At 0:0
        > Show Block 3:11 0
        Ok: At 3:0, Txt def f(k):\n    return k + 1\n\n\nclass C:\n    n = 2\n\n    def m(self, count):\n        return count * C.count
        > Undo
        Ok, Undid 1, At 0:0
        > Replace /\bn\b/ With "x" In Class C
        Ok, Replaced 1 occurrence, At 8:5
        > Replace Confirm /\bn\b/ With "y" In Class C
        Ok, At 10:16, Replace? (y/n)
        > n
        Ok, At 11:15, Replace? (y/n)
        > y
        Ok, At 11:21, Replace? (y/n)
        > y
        Ok, Replaced 2 occurrences, At 11:22
        > Replace All /\bn\b/ With "z" In Block 0:1
        Ok, Replaced 1 occurrence, At 11:22
        > Show Block 0:0 0
        Ok: At 0:0, Txt z = 0
        > Replace All "zz" With "q" In Function f
        Fail "Pattern not found: 'zz'"
        > Replace All "C" With "D" In Function f
        Fail "Pattern not found in function f: 'C' (2 matches elsewhere in the file)"
        > Replace All "k" With "j" In Function g
        Fail "Not found: function 'g'. Available: f, m"
        > Replace All "k" With "j" In Block 2:40
        Fail "Block 2:40 is past the end of the file: the last line is 11; write Block 2:11"
        > Replace All "k" With "j" In Loop 2
        Fail "Unknown Replace scope 'Loop'. Valid: Function, Method, Class, Variable, Block, Files"
        "##,
    );
}

// -- Show --------------------------------------------------------------------

#[test]
fn show_with_context_says_which_lines_txt_holds_and_puts_txt_last() {
    let f = Fixture::new();
    f.write(
        "a.py",
        "import os\n\n\ndef f(a):\n    return a, \"x, Notice: y\"\n\n\nz = 1\n",
    );
    f.check(
        "u",
        r##"
        > Start s; Open a.py
        Ok
        Ok, At 0:0, Length 8
        > Show Function f
        Ok: At 3:0, Txt def f(a):\n    return a, "x, Notice: y"
        > Show Function f 2
        Ok: At 3:0, Lines 1:6, Txt \n\ndef f(a):\n    return a, "x, Notice: y"\n\n
        > Show Line 0 5
        Ok: At 0:0, Lines 0:5, Txt import os\n\n\ndef f(a):\n    return a, "x, Notice: y"\n
        > Show Line 7 2
        Ok: At 7:0, Lines 5:7, Txt \n\nz = 1
        > Show Line 8 1
        Ok: At 8:0, Lines 7:8, Txt z = 1\n
        > Goto 4:4
        Ok, At 4:4
        > Show Current 1
        Ok: At 4:4, Lines 3:5, Txt def f(a):\n    return a, "x, Notice: y"\n
        "##,
    );
    f.write("a.py", "changed = 1\n");
    f.check(
        "u",
        r##"
        > Show Line 0
        Ok: At 0:0, Notice: a.py changed on disk; reloaded (you had no unsaved edits), Txt changed = 1
        "##,
    );
}

#[test]
fn show_block_past_the_end_is_clamped_and_says_so() {
    let f = Fixture::new();
    f.write("a.txt", "a\nb\nc\n");
    f.check(
        "u",
        r##"
        > Start s; Open a.txt
        Ok
        Ok, At 0:0, Length 3
        > Show Block 1:99
        Ok: At 1:0, Block 1:99 clamped to 1:3: the file ends at line 3, Txt b\nc\n
        > Show Block 1:99 1
        Ok: At 1:0, Block 1:99 clamped to 1:3: the file ends at line 3, Lines 0:3, Txt a\nb\nc\n
        > Show Block 9:12
        Fail "Line 9 out of range: valid lines are 0..3"
        > Show Line 9
        Fail "Line 9 out of range: valid lines are 0..3"
        "##,
    );
}

// -- Line ranges: reads clamp, writes refuse -------------------------------------

#[test]
fn deletes_past_the_end_are_refused_naming_what_was_asked() {
    let f = Fixture::new();
    let text: String = (0..17).map(|i| format!("x{i} = {i}\n")).collect();
    f.write("a.py", &text);
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Goto 17
        Ok
        Ok, At 0:0, Length 17
        Ok, At 17:0
        > Delete Line 999
        Fail "Cannot delete 999 lines at line 17: the cursor is past the last line (16), on the empty end after the final line break; Goto 16 first"
        > Delete Current
        Fail "Cannot delete 1 line at line 17: the cursor is past the last line (16), on the empty end after the final line break; Goto 16 first"
        > Goto 15; Delete Line 3
        Ok, At 15:0
        Fail "Cannot delete 3 lines from line 15: only 2 lines left to the end (the last line is 16); use Delete Line 2"
        > Delete Block 10:17
        Fail "Block 10:17 is past the end of the file: the last line is 16; write Block 10:16"
        > Delete Block 17:20
        Fail "Block 17:20 is past the end of the file: the last line is 16"
        > Delete Line 2
        Ok, Deleted 2 lines at 15, At 15:0
        > Open Create e.txt; Delete Block 0:0
        Ok, At 0:0, Length 0
        Fail "Nothing to delete: the file is empty"
        "##,
    );
}

// -- Files deleted on disk -------------------------------------------------------

#[test]
fn a_file_deleted_on_disk_is_said_once_even_across_restarts_and_save_writes_it_again() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.write("b.py", "y = 1\n");
    f.check(
        "u",
        r##"
        > Start s; Open b.py; Open a.py; Insert Line "z = 0"
        Ok
        Ok, At 0:0, Length 1
        Ok, At 0:0, Length 1
        Ok, Inserted 1 line at 0, At 1:0
        "##,
    );
    std::fs::remove_file(f.dir.path().join("a.py")).unwrap();
    f.check(
        "u",
        r##"
        > Goto 0
        Ok, At 0:0, Notice: a.py was deleted on disk; Save writes it again, Close drops it
        > Goto 1
        Ok, At 1:0
        "##,
    );
    // `eddi run` starts a new engine per invocation: still said only once.
    let f = f.restart();
    let send = |text: &str| f.send("u", text);
    assert_eq!(send("Goto 0"), "Ok, At 0:0");
    assert_eq!(send("Save"), "Ok, Bytes 12");
    assert_eq!(f.read("a.py"), "z = 0\nx = 1\n");
    assert_eq!(send("Goto 1"), "Ok, At 1:0");
    // An unmodified file deleted on disk: Save writes it again too.
    std::fs::remove_file(f.dir.path().join("b.py")).unwrap();
    assert_eq!(
        send("Save b.py"),
        "Ok, Bytes 6, Notice: b.py was deleted on disk; Save writes it again, Close drops it"
    );
    assert_eq!(f.read("b.py"), "y = 1\n");
    // Back in step, a second deletion is a new change: said again.
    std::fs::remove_file(f.dir.path().join("a.py")).unwrap();
    assert_eq!(
        send("Goto 0"),
        "Ok, At 0:0, Notice: a.py was deleted on disk; Save writes it again, Close drops it"
    );
    let f = f.restart();
    assert_eq!(
        f.send("u", "Save Force"),
        "Ok, Bytes 12",
        "no old notice on Save Force"
    );
}

// -- Find All --------------------------------------------------------------------

#[test]
fn find_all_gives_every_match_as_line_col() {
    let f = Fixture::new();
    f.write("a.py", "a = a + 1\nb = 2\nc = a\n");
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Set Limit 80
        Ok
        Ok, At 0:0, Length 3
        Ok
        > Find All /\ba\b/
        Ok: Found 3 matches at 0:0, 0:4, 2:4
        > Find All " = "
        Ok: Found 3 matches at 0:1, 1:1, 2:1
        > Find All /./
        Ok: Found 19 matches (first 4: 0:0, 0:1, 0:2, 0:3; narrow it with a pattern)
        "##,
    );
}

// -- List --------------------------------------------------------------------------

#[test]
fn list_takes_a_directory_or_a_glob() {
    let f = Fixture::new();
    f.write("top.py", "");
    f.write("src/a.py", "");
    f.write("src/sub/b.txt", "");
    f.write("srcs/c.py", "");
    f.check(
        "u",
        r##"
        > Start s; List src
        Ok
        Ok: src/a.py, src/sub/b.txt
        > List src/
        Ok: src/a.py, src/sub/b.txt
        > List ./src/sub
        Ok: src/sub/b.txt
        > List .
        Ok: src/a.py, src/sub/b.txt, srcs/c.py, top.py
        > List **/*.py
        Ok: src/a.py, srcs/c.py, top.py
        > List nothing*
        Ok: No files match 'nothing*'
        > List Open
        Ok: No open files
        "##,
    );
}

// -- Wording -------------------------------------------------------------------------

#[test]
fn counts_and_plurals_read_as_english() {
    let f = Fixture::new();
    f.write("a.py", "x = 1\n");
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Show Class X
        Ok
        Ok, At 0:0, Length 1
        Fail "Not found: class 'X'. No classes in file"
        > Open Create b.txt; Insert Block "y"; Save
        Ok, At 0:0, Length 0
        Ok, Inserted 1 line at 0, At 0:1
        Ok, Bytes 1
        > Summary
        Ok: Created b.txt (1 byte), Added 1 line, Deleted 0 lines
        "##,
    );
}

#[test]
fn a_command_during_replace_confirm_ends_the_walk_and_runs() {
    let f = Fixture::new();
    f.write("a.py", "a = 1\nb = a\n");
    f.write("b.txt", "old\n");
    f.check(
        "u",
        r##"
        > Start s; Open b.txt; Open a.py; Replace Confirm "a" With "z"
        Ok
        Ok, At 0:0, Length 1
        Ok, At 0:0, Length 2
        Ok, At 0:0, Replace? (y/n)
        "##,
    );
    f.write("b.txt", "new\n");
    f.check(
        "u",
        r##"
        > yes
        Ok, At 1:4, Replace? (y/n), Notice: b.txt changed on disk; reloaded (you had no unsaved edits)
        > Status
        Ok: Session s, File a.py, At 1:4, Modified, 2 files open, Notice: Replace Confirm ended after 1 replacement
        > y
        Fail "No Replace Confirm is waiting for an answer, so 'y' is not understood; start one with: Replace Confirm \"<text>\" With \"<text>\""
        "##,
    );
}

#[test]
fn search_and_replace_find_the_same_in_crlf_files() {
    let f = Fixture::new();
    f.write("w.txt", "a = 1\r\nb = 1\r\n");
    f.check(
        "u",
        r##"
        > Start s; Open w.txt
        Ok
        Ok, At 0:0, Length 2
        > Find All /1$/
        Ok: Found 2 matches at 0:4, 1:4
        > Find All /^b.*$/
        Ok: Found 1 match at 1:0
        > Replace All "1\nb" With "2\nc"
        Ok, Replaced 1 occurrence, At 0:0
        > Replace All /1$/ With "3"
        Ok, Replaced 1 occurrence, At 0:0
        > Save
        Ok, Bytes 14
        "##,
    );
    assert_eq!(f.read("w.txt"), "a = 2\r\nc = 3\r\n");
}

#[test]
fn replace_in_a_variable_or_a_decorated_function_and_quitting_a_scoped_walk() {
    let f = Fixture::new();
    f.write(
        "v.py",
        "LIMITS = {\n    'a': 1,\n    'b': 1,\n}\n\n\n# keeps 1\n@cache\ndef g():\n    return 1\n",
    );
    f.check(
        "u",
        r##"
        > Start s; Open v.py
        Ok
        Ok, At 0:0, Length 10
        > Replace All "1" With "2" In Variable LIMITS
        Ok, Replaced 2 occurrences, At 0:0
        > Replace Confirm "1" With "3" In Function g
        Ok, At 6:8, Replace? (y/n)
        > q
        Ok, Replaced 0 occurrences, At 6:8
        > Replace All "cache" With "lru_cache" In Function g
        Ok, Replaced 1 occurrence, At 6:8
        > Show Block 0:9 0
        Ok: At 0:0, Txt LIMITS = {\n    'a': 2,\n    'b': 2,\n}\n\n\n# keeps 1\n@lru_cache\ndef g():\n    return 1
        "##,
    );
}

#[test]
fn json_show_carries_the_lines_of_its_text() {
    let f = Fixture::new();
    f.write("a.txt", "a\nb\nc\n");
    f.send("u", "Start s; Open a.txt; Set Format json");
    assert_eq!(
        f.send("u", "Show Line 1 1"),
        r#"{"at":{"col":0,"line":1},"lines":{"first":0,"last":2},"ok":true,"text":"a\nb\nc"}"#
    );
    assert_eq!(
        f.send("u", "Show Block 2:9"),
        r#"{"at":{"col":0,"line":2},"message":"Block 2:9 clamped to 2:3: the file ends at line 3","ok":true,"text":"c\n"}"#
    );
}

#[test]
fn replace_next_says_when_it_wrapped_as_find_does() {
    let f = Fixture::new();
    f.write("a.txt", "x\ny\nx\n");
    f.check(
        "u",
        r##"
        > Start s; Open a.txt; Goto 1
        Ok
        Ok, At 0:0, Length 3
        Ok, At 1:0
        > Replace "x" With "z"
        Ok, Replaced 1 occurrence, At 2:1
        > Replace "x" With "z"
        Ok, Replaced 1 occurrence, At 0:1, Wrapped
        "##,
    );
}

#[test]
fn insert_line_after_goto_end_of_the_last_function_or_class_goes_below_it() {
    let f = Fixture::new();
    f.write("a.py", "class C:\n    def m(self):\n        return 1");
    f.check(
        "u",
        r##"
        > Start s; Open a.py; Goto 2:4; Goto EndOfFunction
        Ok
        Ok, At 0:0, Length 3
        Ok, At 2:4
        Ok, At 2:16
        > Insert Line "# after m"
        Ok, Inserted 1 line at 3, At 3:9
        > Undo; Goto 1:0; Goto EndOfClass
        Ok, Undid 1, At 2:16
        Ok, At 1:0
        Ok, At 2:16
        > Insert Line "x = C()"
        Ok, Inserted 1 line at 3, At 3:7
        > Show Block 0:3
        Ok: At 0:0, Txt class C:\n    def m(self):\n        return 1\nx = C()
        "##,
    );
}

#[test]
fn a_shortened_show_names_the_lines_it_kept() {
    let f = Fixture::new();
    let text: String = (0..30).map(|i| format!("line {i:02}\n")).collect();
    f.write("a.txt", &text);
    f.check(
        "u",
        r##"
        > Start s; Open a.txt; Set Limit 30
        Ok
        Ok, At 0:0, Length 30
        Ok
        > Show Line 10 3
        Ok: At 10:0, Lines 10:10, Context left out (limit 30 chars; Set Limit <n> to raise it), Txt line 10
        > Show Block 10:20 1
        Ok: At 10:0, Lines 10:12, Context left out (limit 30 chars; Set Limit <n> to raise it), Shortened to 3 of 11 lines (limit 30 chars; Set Limit <n> to raise it), Txt line 10\nline 11\nline 12
        "##,
    );
}

/// Every text command's edit goes through the one applier, which writes
/// the file's own line ending: a CRLF file gets CRLF from Insert, Replace
/// and Replace Confirm, never a doubled `\r`, and Undo takes each back.
#[test]
fn text_edits_in_a_crlf_file_write_crlf_once() {
    let f = Fixture::new();
    f.write("w.txt", "one\r\ntwo\r\nthree\r\n");
    f.check(
        "u",
        r##"
        > Start s; Open w.txt; Goto 1:3
        Ok
        Ok, At 0:0, Length 3
        Ok, At 1:3
        > Insert Block "a\nb\n"
        Ok, Inserted 2 lines at 2, At 4:0
        > Replace All "two" With "2\n2"
        Ok, Replaced 1 occurrence, At 5:0
        > Goto 0; Replace Confirm /one|three/ With "0\n"
        Ok, At 0:0
        Ok, At 0:0, Replace? (y/n)
        > y
        Ok, At 6:0, Replace? (y/n)
        > y
        Ok, Replaced 2 occurrences, At 7:0
        > Save
        Ok, Bytes 22
        "##,
    );
    assert_eq!(f.read("w.txt"), "0\r\n\r\n2\r\n2\r\na\r\nb\r\n0\r\n\r\n");
    f.check(
        "u",
        r##"
        > Undo
        Ok, Undid 1, At 0:0
        > Undo 2
        Ok, Undid 2, At 1:3
        > Save
        Ok, Bytes 17
        "##,
    );
    assert_eq!(f.read("w.txt"), "one\r\ntwo\r\nthree\r\n");
}

/// A file of mixed line endings keeps the bytes a replacement takes from
/// it: a regex capture that spans a CRLF break of a file whose first break
/// is LF is written back as it was, not as an LF break.
#[test]
fn a_capture_across_a_crlf_break_of_a_mixed_file_keeps_its_bytes() {
    let f = Fixture::new();
    f.write("m.txt", "a\nkey = 1\r\nvalue\r\n");
    f.check(
        "u",
        r##"
        > Start s; Open m.txt
        Ok
        Ok, At 0:0, Length 3
        > Replace All /key = (1\r\nvalue)/ With "k = $1"
        Ok, Replaced 1 occurrence, At 0:0
        > Save
        Ok, Bytes 16
        "##,
    );
    assert_eq!(f.read("m.txt"), "a\nk = 1\r\nvalue\r\n");
}
