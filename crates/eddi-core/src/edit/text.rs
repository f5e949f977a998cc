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

    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
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
    }
}
