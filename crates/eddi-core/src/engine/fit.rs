//! Replies that fit the wire. A transport that cannot carry a reply of any
//! size (NATS: the server's `max_payload`, 1 MiB by default) says how many
//! bytes the reply to a message may take — a [`ReplyRoom`] — and the engine
//! keeps every reply inside it, so every message gets exactly one reply:
//!
//! - a reply too long for what is left is shortened, always saying so: a
//!   text to its first lines, a note or a failure reason to its start;
//! - a question whose answer cannot be shortened enough answers a `Fail`
//!   that says how to ask for less;
//! - once the replies of a message fill the room, its next command does not
//!   run: it fails saying why, and the rest are skipped as after any failure;
//! - `Set Limit` is capped where its output could never fit.
//!
//! Sizes are counted as they travel: plain bytes, or escaped as in a JSON
//! string when the reply is embedded in one (the stream's `appended`).

use super::ops::ErrorKind;
use crate::commands::{ReplyDetail, ResponseFormat};
use crate::failure::OpError;
use crate::reply::{plural, Clause, Reply};

/// Bytes kept free after each reply for the line that closes a message
/// (the `Fail` of a command that did not run, a `Skipped` note).
const RESERVE: usize = 256;

/// How many bytes the reply to one message may take, counted as they travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyRoom {
    /// Bytes for the reply text: every line, joined by `\n`.
    pub bytes: usize,
    /// The text travels escaped inside a JSON string: count it escaped.
    pub json_escaped: bool,
}

impl ReplyRoom {
    /// The size of `text` on the wire.
    pub fn size(&self, text: &str) -> usize {
        if !self.json_escaped {
            return text.len();
        }
        text.chars()
            .map(|c| match c {
                '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
                c if (c as u32) < 0x20 => 6,
                c => c.len_utf8(),
            })
            .sum()
    }

    /// Whether `text` fits.
    pub fn fits(&self, text: &str) -> bool {
        self.size(text) <= self.bytes
    }

    /// The largest `Set Limit` whose output can fit: a char is at least a
    /// byte, and the reply has more than its text.
    pub fn max_output_limit(&self) -> usize {
        self.bytes.saturating_sub(RESERVE).max(1)
    }

    /// Whether the replies so far (`used` bytes) leave no room for another
    /// command's reply.
    pub(super) fn is_full(&self, used: usize) -> bool {
        self.bytes.saturating_sub(used) < 2 * RESERVE
    }

    /// What the next reply may take after `used` bytes, keeping the reserve.
    pub(super) fn left(&self, used: usize) -> usize {
        self.bytes.saturating_sub(used).saturating_sub(RESERVE)
    }

    /// The bytes a reply line takes, with its line break.
    fn line_size(&self, line: &str) -> usize {
        self.size(line) + self.size("\n")
    }

    /// How to say the limit in a reply.
    fn limit(&self) -> String {
        format!(
            "this connection's replies hold at most {} bytes",
            self.bytes
        )
    }
}

/// How replies are rendered: the sender's format and detail.
pub(super) type Rendering = (ResponseFormat, ReplyDetail);

/// One message's replies, admitted in order: each rendered once, fitted
/// into the room left when there is one, and measured once.
pub(super) struct Budget {
    room: Option<ReplyRoom>,
    /// Bytes of the replies admitted so far.
    used: usize,
    /// Each admitted reply (for a render in another form, rare) and its line.
    admitted: Vec<(Reply, String, Rendering)>,
}

impl Budget {
    pub(super) fn new(room: Option<ReplyRoom>) -> Budget {
        Budget {
            room,
            used: 0,
            admitted: Vec::new(),
        }
    }

    /// Admits `reply`, rendered as `rendering` and fitted into what is left.
    pub(super) fn admit(&mut self, reply: Reply, rendering: Rendering) {
        let (format, detail) = rendering;
        let mut line = reply.render_as(format, detail);
        let reply = match &self.room {
            None => reply,
            Some(room) => {
                let left = room.left(self.used);
                let mut size = room.size(&line);
                let reply = if size <= left {
                    reply
                } else {
                    let fitted = fit(reply, format, room, left);
                    line = fitted.render_as(format, detail);
                    size = room.size(&line);
                    fitted
                };
                self.used += size + room.size("\n");
                reply
            }
        };
        self.admitted.push((reply, line, rendering));
    }

    /// Whether every reply so far succeeded.
    pub(super) fn all_ok(&self) -> bool {
        self.admitted.iter().all(|(reply, ..)| reply.is_ok())
    }

    /// Replaces the last reply (a turn whose events could not be persisted
    /// says so in place of its last reply).
    pub(super) fn replace_last(&mut self, reply: Reply) {
        if let Some(last) = self.admitted.last_mut() {
            let (format, detail) = last.2;
            last.1 = reply.render_as(format, detail);
            last.0 = reply;
        }
    }

    /// The replies as one text, rendered as `rendering`, and whether all
    /// are `Ok`. Lines rendered in another form (a `Set Format` or `Set
    /// Replies` later in the message) are rendered again; a text longer
    /// than the room then is cut to it.
    pub(super) fn text(&self, rendering: Rendering) -> (String, bool) {
        let (format, detail) = rendering;
        let mut ok = self.all_ok();
        let same = self
            .admitted
            .iter()
            .all(|(.., as_rendered)| *as_rendered == rendering);
        let lines: Vec<std::borrow::Cow<'_, str>> = self
            .admitted
            .iter()
            .map(|(reply, line, _)| match same {
                true => line.as_str().into(),
                false => reply.render_as(format, detail).into(),
            })
            .collect();
        let mut text = lines.join("\n");
        if !same {
            if let Some(fitted) = self.room.and_then(|room| fit_lines(&text, format, &room)) {
                text = fitted;
                ok = false;
            }
        }
        (text, ok)
    }

    /// Each reply's JSON form, whatever the rendering (the Python API's
    /// `Reply.data`).
    pub(super) fn data(&self) -> Vec<serde_json::Value> {
        self.admitted
            .iter()
            .map(|(reply, ..)| reply.json())
            .collect()
    }

    /// The reply of the next command when the replies so far leave no
    /// room for it: it does not run, and `skipped` more commands follow it.
    pub(super) fn not_run(&self, skipped: usize) -> Option<Reply> {
        let room = self.room.as_ref().filter(|room| room.is_full(self.used))?;
        let mut reply = Reply::fail(
            ErrorKind::TooLarge,
            format!(
                "Not run: the replies before it fill the room ({}). Send this command and \
             the rest again in another message",
                room.limit()
            ),
        );
        if skipped > 0 {
            reply.push(Clause::Skipped(skipped));
        }
        Some(reply)
    }
}

/// `Set Limit <n>` past what can ever fit: the limit it gets and the note
/// that says so.
pub(super) fn cap_limit(room: &ReplyRoom, asked: usize) -> Option<(usize, Clause)> {
    let cap = room.max_output_limit();
    (asked > cap).then(|| {
        (
            cap,
            Clause::Note(format!("Limit capped at {cap} chars: {}", room.limit())),
        )
    })
}

/// `reply` as it fits `bytes` (rendered in `format`, counted per `room`).
pub(super) fn fit(reply: Reply, format: ResponseFormat, room: &ReplyRoom, bytes: usize) -> Reply {
    let fits = |reply: &Reply| room.size(&reply.render(format)) <= bytes;
    if fits(&reply) {
        return reply;
    }
    // JSON data goes first: the worded clauses say the same, shortened.
    let reply = match format {
        ResponseFormat::Json => without_data(reply, room),
        ResponseFormat::Terse => reply,
    };
    if fits(&reply) {
        return reply;
    }
    match reply {
        Reply::Fail(error, clauses) => {
            let chars = error.message.chars().count();
            let shortened = |k| {
                let message = cut(&error.message, k, room);
                Reply::Fail(
                    OpError {
                        message,
                        ..error.clone()
                    },
                    clauses.clone(),
                )
            };
            let kept = largest(chars, |k| fits(&shortened(k)));
            shortened(kept)
        }
        Reply::Done(clauses) => shorten_clauses(clauses, true, room, &fits).unwrap_or_else(|| {
            Reply::Done(vec![Clause::Note(format!(
                "Reply left out: too large ({})",
                room.limit()
            ))])
        }),
        Reply::Info(clauses) => {
            shorten_clauses(clauses, false, room, &fits).unwrap_or_else(|| too_large(room))
        }
    }
}

/// `reply` without its JSON data ([`Clause::is_data`]), saying so.
fn without_data(reply: Reply, room: &ReplyRoom) -> Reply {
    let is_data = |c: &Clause| c.is_data();
    let (Reply::Done(clauses) | Reply::Info(clauses) | Reply::Fail(_, clauses)) = &reply;
    if !clauses.iter().any(is_data) {
        return reply;
    }
    let note = Clause::Note(format!("Data left out to fit ({})", room.limit()));
    let lean = |clauses: Vec<Clause>| -> Vec<Clause> {
        let mut kept: Vec<Clause> = clauses.into_iter().filter(|c| !is_data(c)).collect();
        kept.push(note.clone());
        kept
    };
    match reply {
        Reply::Done(clauses) => Reply::Done(lean(clauses)),
        Reply::Info(clauses) => Reply::Info(lean(clauses)),
        Reply::Fail(error, clauses) => Reply::Fail(error, lean(clauses)),
    }
}

/// The answer to a question that cannot fit however shortened.
fn too_large(room: &ReplyRoom) -> Reply {
    Reply::fail(
        ErrorKind::TooLarge,
        format!(
            "Reply too large: {}. Ask for less: a smaller part (Show Block a:b), a narrower \
         pattern, or a lower Set Limit",
            room.limit()
        ),
    )
}

/// Shortens the longest clause as little as needed, then the next longest,
/// until the reply fits; `None` when even all of them shortened is too long.
fn shorten_clauses(
    mut clauses: Vec<Clause>,
    done: bool,
    room: &ReplyRoom,
    fits: &dyn Fn(&Reply) -> bool,
) -> Option<Reply> {
    let cut_mark = format!(": {})", room.limit());
    let make = |clauses: Vec<Clause>| {
        if done {
            Reply::Done(clauses)
        } else {
            Reply::Info(clauses)
        }
    };
    loop {
        // Each clause is shortened once: the loop ends.
        let (index, _) = (0..clauses.len())
            .filter(|&i| !is_shortened(&clauses, i, &cut_mark))
            .filter_map(|i| text_of(&clauses[i]).map(|text| (i, text.len())))
            .filter(|&(_, len)| len > 0)
            .max_by_key(|&(_, len)| len)?;
        let full = text_of(&clauses[index]).map_or(0, |text| text.chars().count());
        // A text the output tiers already shortened: one note says both.
        let tiered = index
            .checked_sub(1)
            .and_then(|before| tier_total(&clauses[before], &clauses[index]));
        let from = if tiered.is_some() { index - 1 } else { index };
        let attempt = |keep: usize| {
            let mut candidate = clauses.clone();
            candidate.splice(from..=index, shortened(&clauses[index], keep, tiered, room));
            candidate
        };
        let keep = largest(full, |k| fits(&make(attempt(k))));
        let candidate = attempt(keep);
        if fits(&make(candidate.clone())) {
            return Some(make(candidate));
        }
        clauses = candidate;
    }
}

/// Whether clause `i` already is the result of a shortening here (texts
/// get a note in front, the rest end in `cut_mark`).
fn is_shortened(clauses: &[Clause], i: usize, cut_mark: &str) -> bool {
    match &clauses[i] {
        Clause::Txt(_) => matches!(
            i.checked_sub(1).map(|p| &clauses[p]),
            Some(Clause::Note(note)) if note.starts_with(TXT_NOTE)
        ),
        Clause::Note(text) | Clause::Notice(text) | Clause::Prompt(text) => {
            text.starts_with(TXT_NOTE) || text.ends_with(cut_mark)
        }
        // shortened, it is a note
        Clause::Fact(_) => false,
        _ => true,
    }
}

/// The text a clause carries that can be shortened (a fact's words).
fn text_of(clause: &Clause) -> Option<std::borrow::Cow<'_, str>> {
    match clause {
        Clause::Txt(text) | Clause::Note(text) | Clause::Notice(text) | Clause::Prompt(text) => {
            Some(text.as_str().into())
        }
        Clause::Fact(fact) => Some(fact.to_string().into()),
        _ => None,
    }
}

const TXT_NOTE: &str = "Shortened to fit: ";

/// The whole text's line count from the output tiers' note in front of a
/// text (`Shortened to 10 of 100 lines (…)`), if that is what `note` is.
fn tier_total(note: &Clause, text: &Clause) -> Option<usize> {
    let (Clause::Note(note), Clause::Txt(_)) = (note, text) else {
        return None;
    };
    let rest = note.strip_prefix("Shortened to ")?;
    let (_, rest) = rest.split_once(" of ")?;
    let (total, _) = rest.split_once(' ')?;
    total.parse().ok()
}

/// A clause kept to about `keep` chars; `total` is the whole text's line
/// count when a text already is a part of one.
fn shortened(clause: &Clause, keep: usize, total: Option<usize>, room: &ReplyRoom) -> Vec<Clause> {
    match clause {
        Clause::Txt(text) => {
            let (note, kept) = text_head(text, keep, total);
            vec![Clause::Note(note), Clause::Txt(kept)]
        }
        Clause::Note(text) => vec![Clause::Note(cut(text, keep, room))],
        // a fact shortened is its words shortened
        Clause::Fact(fact) => vec![Clause::Note(cut(&fact.to_string(), keep, room))],
        Clause::Notice(text) => vec![Clause::Notice(cut(text, keep, room))],
        Clause::Prompt(text) => vec![Clause::Prompt(cut(text, keep, room))],
        other => vec![other.clone()],
    }
}

/// The whole lines of `text` within `keep` chars — or, when not even its
/// first line is, that line's first `keep` chars — and the note saying so.
/// Longer for a larger `keep`, so the best can be searched for.
fn text_head(text: &str, keep: usize, total: Option<usize>) -> (String, String) {
    let lines = text.lines().count().max(1);
    let total = total.unwrap_or(lines);
    let advice = "show a smaller part (Show Block a:b)";
    let mut used = 0;
    let mut kept = 0;
    for line in text.lines() {
        let cost = line.chars().count() + usize::from(kept > 0);
        if used + cost > keep {
            break;
        }
        used += cost;
        kept += 1;
    }
    if kept > 0 || keep == 0 {
        let head: Vec<&str> = text.lines().take(kept).collect();
        let note = format!(
            "{TXT_NOTE}{kept} of {total} {}; {advice}",
            plural(total, "line")
        );
        return (note, head.join("\n"));
    }
    let first = text.lines().next().unwrap_or_default();
    let head: String = first.chars().take(keep).collect();
    let note = format!(
        "{TXT_NOTE}the first {keep} of {} chars of its first line, of {total} {}; {advice}",
        first.chars().count(),
        plural(total, "line")
    );
    (note, head)
}

/// The first `keep` chars of a note or a failure reason, saying it was cut.
fn cut(text: &str, keep: usize, room: &ReplyRoom) -> String {
    let total = text.chars().count();
    if keep >= total {
        return text.to_owned();
    }
    let head: String = text.chars().take(keep).collect();
    format!("{head}… (cut at {keep} of {total} chars: {})", room.limit())
}

/// The largest `k` in `0..=max` with `ok(k)`, for `ok` true up to some
/// point and false after it (0 when none is).
fn largest(max: usize, ok: impl Fn(usize) -> bool) -> usize {
    if ok(max) {
        return max;
    }
    let (mut low, mut high) = (0, max); // ok(high) is false
    while low + 1 < high {
        let mid = low + (high - low) / 2;
        if ok(mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

/// The last resort for a whole rendered reply (a repeated answer given
/// again, a format changed mid-message): its first lines that fit, and a
/// `Fail` line that says what was left out. `None` when it fits as it is.
pub fn fit_lines(text: &str, format: ResponseFormat, room: &ReplyRoom) -> Option<String> {
    if room.fits(text) {
        return None;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut kept = Vec::new();
    let mut used = 0;
    for line in &lines {
        let size = room.line_size(line);
        if used + size + RESERVE > room.bytes {
            break;
        }
        used += size;
        kept.push(*line);
    }
    let closing = Reply::fail(
        ErrorKind::TooLarge,
        format!(
            "Reply too large: the first {} of {} reply lines fit ({}); the rest is left out. \
         Ask for less (a smaller part, a lower Set Limit, fewer commands per message)",
            kept.len(),
            lines.len(),
            room.limit()
        ),
    )
    .render(format);
    kept.push(&closing);
    Some(kept.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TERSE: ResponseFormat = ResponseFormat::Terse;

    fn room(bytes: usize) -> ReplyRoom {
        ReplyRoom {
            bytes,
            json_escaped: false,
        }
    }

    #[test]
    fn escaped_sizes_count_as_json_does() {
        let escaped = ReplyRoom {
            bytes: 0,
            json_escaped: true,
        };
        for text in ["plain", "a \"q\" \\ b\n\t", "\u{1}é€𝄞"] {
            assert_eq!(
                escaped.size(text),
                serde_json::to_string(text).unwrap().len() - 2,
                "{text:?}"
            );
        }
    }

    #[test]
    fn json_data_too_large_is_left_out_saying_so_and_terse_is_untouched() {
        let sites: Vec<serde_json::Value> = (0..200)
            .map(|i| serde_json::json!({"path": "a.py", "line": i}))
            .collect();
        let mut fields = serde_json::Map::new();
        fields.insert("references".into(), serde_json::Value::Array(sites));
        let reply = Reply::Info(vec![
            Clause::Note("Found 200 references".into()),
            Clause::Data(fields),
        ]);
        let json = ResponseFormat::Json;
        let fitted = fit(reply.clone(), json, &room(1000), 500);
        assert_eq!(
            fitted.render(json),
            r#"{"message":"Found 200 references, Data left out to fit (this connection's replies hold at most 1000 bytes)","ok":true}"#
        );
        assert_eq!(
            fit(reply, TERSE, &room(1000), 500).terse(),
            "Ok: Found 200 references"
        );
    }

    #[test]
    fn a_long_text_keeps_its_first_lines_and_says_so() {
        let text: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        let reply = Reply::Info(vec![Clause::Txt(text)]);
        let fitted = fit(reply, TERSE, &room(1000), 500);
        let rendered = fitted.render(TERSE);
        assert!(rendered.len() <= 500, "{}", rendered.len());
        assert!(rendered.starts_with("Ok: Shortened to fit: "), "{rendered}");
        assert!(rendered
            .contains(" of 1000 lines; show a smaller part (Show Block a:b), Txt line 0\\nline 1"));
    }

    #[test]
    fn one_huge_line_keeps_its_start() {
        let reply = Reply::Info(vec![Clause::Txt("x".repeat(10_000))]);
        let rendered = fit(reply, TERSE, &room(1000), 500).render(TERSE);
        assert!(rendered.len() <= 500, "{}", rendered.len());
        assert!(
            rendered.starts_with(
                "Ok: Shortened to fit: the first 3"
            ) && rendered.contains(" of 10000 chars of its first line, of 1 line; show a smaller part (Show Block a:b), Txt xxx"),
            "{rendered}"
        );
    }

    #[test]
    fn a_long_note_is_cut_and_says_so() {
        let reply = Reply::Info(vec![Clause::Note("n".repeat(5000)), Clause::Length(3)]);
        let rendered = fit(reply, TERSE, &room(1000), 400).render(TERSE);
        assert!(rendered.len() <= 400);
        assert!(
            rendered.ends_with(
                " of 5000 chars: this connection's replies hold at most 1000 bytes), Length 3"
            ),
            "{rendered}"
        );
    }

    #[test]
    fn a_fact_too_long_is_cut_like_a_note() {
        let sessions = (0..200)
            .map(|i| crate::outcome::SessionLine {
                name: format!("session{i}"),
                sender: format!("agent{i}"),
                idle: std::time::Duration::from_secs(5),
                unsaved: Vec::new(),
            })
            .collect();
        let reply = Reply::Info(vec![Clause::Fact(crate::outcome::Fact::Sessions(sessions))]);
        assert!(reply.render(TERSE).len() > 5000);
        let rendered = fit(reply, TERSE, &room(600), 300).render(TERSE);
        assert!(rendered.len() <= 300, "{rendered}");
        assert!(rendered.starts_with("Ok: 200 sessions: session0 (sender agent0"));
        assert!(
            rendered.ends_with("this connection's replies hold at most 600 bytes)"),
            "{rendered}"
        );
    }

    #[test]
    fn a_failure_reason_is_cut_and_says_so() {
        let reply = Reply::fail(
            ErrorKind::InvalidCommand,
            format!("Unknown command '{}'", "x".repeat(5000)),
        );
        let rendered = fit(reply, TERSE, &room(600), 300).render(TERSE);
        assert!(rendered.len() <= 300);
        assert!(
            rendered
                .ends_with("of 5018 chars: this connection's replies hold at most 600 bytes)\""),
            "{rendered}"
        );
    }

    #[test]
    fn a_question_that_cannot_fit_fails_saying_how_to_ask_for_less() {
        let many: Vec<Clause> = (0..100).map(Clause::Length).collect();
        let rendered = fit(Reply::Info(many), TERSE, &room(400), 300).render(TERSE);
        assert!(rendered.starts_with("Fail \"Reply too large: this connection's replies hold at most 400 bytes. Ask for less"), "{rendered}");
    }

    #[test]
    fn whole_replies_keep_their_first_lines() {
        let text = vec!["Ok: line"; 100].join("\n");
        let fitted = fit_lines(&text, TERSE, &room(400)).unwrap();
        assert!(fitted.len() <= 400, "{}", fitted.len());
        let last = fitted.lines().last().unwrap();
        assert!(
            last.starts_with("Fail \"Reply too large: the first 16 of 100 reply lines fit"),
            "{last}"
        );
        assert_eq!(fit_lines("Ok", TERSE, &room(400)), None);
    }
}
