//! Text conventions of a document: its line-ending style.
//!
//! Documents keep their bytes exactly as on disk (CRLF and a missing final
//! newline survive a round trip untouched); only text that Eddi inserts is
//! converted to the document's style.

use ropey::Rope;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LineEnding {
    #[default]
    Lf,
    CrLf,
}

impl LineEnding {
    /// The style of the first line break; LF for a text without one.
    pub fn detect(text: &Rope) -> LineEnding {
        for line in text.lines().take(1000) {
            let len = line.len_chars();
            if len > 0 && line.char(len - 1) == '\n' {
                return if len > 1 && line.char(len - 2) == '\r' {
                    LineEnding::CrLf
                } else {
                    LineEnding::Lf
                };
            }
        }
        LineEnding::Lf
    }

    /// [`Self::detect`] of a text not (yet) in a rope.
    pub fn detect_str(text: &str) -> LineEnding {
        match text.find('\n') {
            Some(i) if text[..i].ends_with('\r') => LineEnding::CrLf,
            _ => LineEnding::Lf,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }

    /// Converts the `\n` breaks of inserted text to this style, keeping a
    /// `\r\n` as it is: inserted text writes its breaks as `\n`, so a
    /// `\r\n` in it came from the document itself (a regex capture in a
    /// file of mixed endings) and stays byte for byte.
    pub fn apply_to_inserted(self, text: &str) -> String {
        match self {
            LineEnding::Lf => text.to_owned(),
            LineEnding::CrLf => {
                let mut out = String::with_capacity(text.len() + text.len() / 16);
                let mut previous = '\0';
                for c in text.chars() {
                    if c == '\n' && previous != '\r' {
                        out.push('\r');
                    }
                    out.push(c);
                    previous = c;
                }
                out
            }
        }
    }

    /// Converts the line breaks of `text` (LF or CRLF) to this style.
    pub fn apply(self, text: &str) -> String {
        let lf = text.replace("\r\n", "\n");
        match self {
            LineEnding::Lf => lf,
            LineEnding::CrLf => lf.replace('\n', "\r\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_and_applies_crlf() {
        let text = Rope::from_str("a\r\nb\r\n");
        let style = LineEnding::detect(&text);
        assert_eq!(style, LineEnding::CrLf);
        assert_eq!(style.apply("x\ny\r\n"), "x\r\ny\r\n");
        assert_eq!(
            LineEnding::detect(&Rope::from_str("no break")),
            LineEnding::Lf
        );
        for text in ["a\r\nb\n", "a\nb\r\n", "no break", "\r\n", ""] {
            assert_eq!(
                LineEnding::detect_str(text),
                LineEnding::detect(&Rope::from_str(text)),
                "{text:?}"
            );
        }
    }

    #[test]
    fn inserted_text_keeps_the_crlf_breaks_it_holds() {
        assert_eq!(
            LineEnding::CrLf.apply_to_inserted("x\ny\r\nz\n"),
            "x\r\ny\r\nz\r\n"
        );
        assert_eq!(LineEnding::Lf.apply_to_inserted("x\ny\r\n"), "x\ny\r\n");
        assert_eq!(LineEnding::CrLf.apply_to_inserted("\n\n"), "\r\n\r\n");
    }
}
