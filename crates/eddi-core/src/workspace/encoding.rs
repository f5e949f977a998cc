//! PEP 263 source encodings. A Python file whose first or second line
//! declares its encoding (`# -*- coding: latin-1 -*-`) is read in that
//! encoding and written back in it; every other file, and a Python file
//! that declares none or UTF-8, is UTF-8 (invalid bytes refused).
//!
//! Only encodings whose mapping is Python's own are taken: Latin-1 and
//! ASCII (by hand: `encoding_rs` follows the web, where `latin-1` and
//! `ascii` mean windows-1252), the windows-125x and ISO-8859 code pages and
//! KOI8 (`encoding_rs`). A file is read only when its text encodes back to
//! exactly its bytes, so the parts an edit does not touch are written back
//! byte for byte; a character the encoding cannot represent refuses the
//! write, naming it.

use std::borrow::Cow;

use super::FileError;

/// A declared encoding other than UTF-8.
#[derive(Debug, Clone)]
pub(super) struct Codec {
    /// As declared (`latin-1`), for messages.
    name: String,
    kind: Kind,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    /// ISO-8859-1: each byte is the code point of the same number.
    Latin1,
    Ascii,
    Table(&'static encoding_rs::Encoding),
}

/// The encoding a Python file's bytes declare, when not UTF-8.
fn declared_in(path: &str, bytes: &[u8]) -> Result<Option<Codec>, FileError> {
    if !is_python(path) || bytes.starts_with(b"\xEF\xBB\xBF") {
        return Ok(None);
    }
    let Some(name) = coding_line(bytes) else {
        return Ok(None);
    };
    match codec(&name) {
        Some(codec) => Ok(Some(codec)),
        None => Err(FileError::UnsupportedEncoding {
            path: path.to_string(),
            encoding: name,
        }),
    }
}

/// The text of a Python file read as `bytes` that declares an encoding
/// other than UTF-8; `None` for a file that is to be UTF-8.
pub(super) fn decode(path: &str, bytes: &[u8]) -> Result<Option<String>, FileError> {
    let Some(codec) = declared_in(path, bytes)?.filter(|c| !c.is_utf8()) else {
        return Ok(None);
    };
    let not_in = || FileError::NotInEncoding {
        path: path.to_string(),
        encoding: codec.name.clone(),
    };
    let text = codec.decode(bytes).ok_or_else(not_in)?;
    // read only what is written back as it was
    match codec.encode(&text) {
        Ok(again) if *again == *bytes => Ok(Some(text)),
        _ => Err(not_in()),
    }
}

/// The bytes to write for `content` (UTF-8 text) at `path`: encoded in the
/// encoding its own coding line declares, when a Python file's does and it
/// is not UTF-8; `None` to write `content` as it is.
pub(super) fn encode(path: &str, content: &[u8]) -> Result<Option<Vec<u8>>, FileError> {
    let Ok(text) = std::str::from_utf8(content) else {
        return Ok(None);
    };
    let Some(codec) = declared_in(path, content)?.filter(|c| !c.is_utf8()) else {
        return Ok(None);
    };
    match codec.encode(text) {
        Ok(bytes) => Ok(Some(bytes.into_owned())),
        Err(at) => {
            let ch = text[at..].chars().next().unwrap_or_default();
            let before = &text[..at];
            let line = before.matches('\n').count();
            let col = before.rsplit('\n').next().unwrap_or("").chars().count();
            Err(FileError::Unencodable {
                path: path.to_string(),
                encoding: codec.name.clone(),
                ch,
                line,
                col,
            })
        }
    }
}

impl Codec {
    fn is_utf8(&self) -> bool {
        matches!(self.kind, Kind::Table(e) if e == encoding_rs::UTF_8)
    }

    fn decode(&self, bytes: &[u8]) -> Option<String> {
        match self.kind {
            Kind::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
            Kind::Ascii => bytes
                .is_ascii()
                .then(|| String::from_utf8_lossy(bytes).into_owned()),
            Kind::Table(e) => e
                .decode_without_bom_handling_and_without_replacement(bytes)
                .map(Cow::into_owned),
        }
    }

    /// The bytes of `text`, or the byte offset of the first character the
    /// encoding cannot represent.
    fn encode<'t>(&self, text: &'t str) -> Result<Cow<'t, [u8]>, usize> {
        let limit = match self.kind {
            Kind::Latin1 => 0xFF,
            Kind::Ascii => 0x7F,
            Kind::Table(e) => {
                let (bytes, _, unmappable) = e.encode(text);
                if !unmappable {
                    return Ok(bytes);
                }
                // the first character that does not encode alone
                let mut buffer = [0u8; 4];
                let at = text
                    .char_indices()
                    .find(|(_, c)| e.encode(c.encode_utf8(&mut buffer)).2);
                return Err(at.map_or(0, |(i, _)| i));
            }
        };
        let mut out = Vec::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            match u8::try_from(u32::from(c)) {
                Ok(b) if u32::from(b) <= limit => out.push(b),
                _ => return Err(i),
            }
        }
        Ok(Cow::Owned(out))
    }
}

/// Files PEP 263 applies to.
fn is_python(path: &str) -> bool {
    [".py", ".pyi", ".pyw"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

/// The encoding name of a coding line (`coding[:=]\s*([-\w.]+)` in a
/// comment), on the first line or, when that is blank or a comment only,
/// the second — where Python looks.
fn coding_line(bytes: &[u8]) -> Option<String> {
    let mut lines = bytes.split(|&b| b == b'\n').take(2);
    let first = lines.next()?;
    if let Some(name) = coding_of(first) {
        return Some(name);
    }
    let trimmed = first.trim_ascii_start();
    if trimmed.is_empty() || trimmed.starts_with(b"#") {
        return lines.next().and_then(coding_of);
    }
    None
}

fn coding_of(line: &[u8]) -> Option<String> {
    let line = line.trim_ascii_start();
    if !line.starts_with(b"#") {
        return None;
    }
    let mut rest = line;
    while let Some(at) = find(rest, b"coding") {
        let after = &rest[at + b"coding".len()..];
        if let Some((b':' | b'=', value)) = after.split_first() {
            let value = value.trim_ascii_start();
            let len = value
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
                .count();
            if len > 0 {
                return Some(String::from_utf8_lossy(&value[..len]).into_owned());
            }
        }
        rest = after;
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The encoding a declared name means, as Python normalises it
/// (case, `_` for `-`); `None` for one Eddi does not read.
fn codec(declared: &str) -> Option<Codec> {
    let name = declared.to_ascii_lowercase().replace('_', "-");
    let kind = match name.as_str() {
        "utf-8" | "utf8" | "u8" | "utf" | "cp65001" => Kind::Table(encoding_rs::UTF_8),
        n if n.starts_with("utf-8-") => Kind::Table(encoding_rs::UTF_8),
        "latin-1" | "latin1" | "latin" | "l1" | "iso-8859-1" | "iso8859-1" | "iso-latin-1"
        | "8859" | "cp819" => Kind::Latin1,
        n if n.starts_with("latin-1-") || n.starts_with("iso-8859-1-") => Kind::Latin1,
        "ascii" | "us-ascii" | "646" => Kind::Ascii,
        n => Kind::Table(table(n)?),
    };
    Some(Codec {
        name: declared.to_string(),
        kind,
    })
}

/// The `encoding_rs` tables whose mapping is the Python codec's.
fn table(name: &str) -> Option<&'static encoding_rs::Encoding> {
    let label = if let Some(n) = name
        .strip_prefix("cp")
        .or_else(|| name.strip_prefix("windows-"))
    {
        match n {
            "1250" | "1251" | "1252" | "1253" | "1254" | "1255" | "1256" | "1257" | "1258" => {
                format!("windows-{n}")
            }
            _ => return None,
        }
    } else if let Some(n) = name
        .strip_prefix("iso-8859-")
        .or_else(|| name.strip_prefix("iso8859-"))
    {
        // 9 and 11 are windows-1254 and windows-874 on the web: not Python's
        match n {
            "2" | "3" | "4" | "5" | "6" | "7" | "8" | "10" | "13" | "14" | "15" | "16" => {
                format!("iso-8859-{n}")
            }
            _ => return None,
        }
    } else {
        match name {
            "koi8-r" | "koi8-u" => name.to_string(),
            _ => return None,
        }
    };
    encoding_rs::Encoding::for_label(label.as_bytes())
}
