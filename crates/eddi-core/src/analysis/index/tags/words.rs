//! A scanned file's words summarized in a Bloom filter: a query keyed by
//! a name asks every file of the index whether it may hold the name, and
//! the filter answers most of them with two bit tests (no hash of the
//! name per file, no look at the file's tables). A "maybe" is confirmed
//! against the file's words ([`super::TagsFile::words`]); a "no" is
//! certain.

use std::hash::BuildHasher;

/// A word with its hash, made once per query.
pub struct Word<'a> {
    pub text: &'a str,
    hash: u64,
}

impl<'a> Word<'a> {
    pub fn new(text: &'a str) -> Self {
        Word {
            text,
            hash: hash(text),
        }
    }
}

/// The filter of one file: 16 to 32 bits a word, two set per word (about
/// one other word in 80 passes).
#[derive(Debug, Clone)]
pub struct WordFilter {
    bits: Box<[u64]>,
}

impl WordFilter {
    pub fn new<'w>(words: impl ExactSizeIterator<Item = &'w str>) -> Self {
        let size = (words.len() * 16).next_power_of_two().clamp(512, 1 << 20);
        let mut filter = WordFilter {
            bits: vec![0; size / 64].into(),
        };
        for word in words {
            let (a, b) = filter.positions(hash(word));
            filter.bits[a / 64] |= 1 << (a % 64);
            filter.bits[b / 64] |= 1 << (b % 64);
        }
        filter
    }

    /// Whether the file may hold `word` (false: it does not).
    pub fn may_hold(&self, word: &Word<'_>) -> bool {
        let (a, b) = self.positions(word.hash);
        self.bits[a / 64] & (1 << (a % 64)) != 0 && self.bits[b / 64] & (1 << (b % 64)) != 0
    }

    /// The two bits of a word's hash (its halves, masked to the size).
    fn positions(&self, hash: u64) -> (usize, usize) {
        let mask = self.bits.len() * 64 - 1;
        (hash as usize & mask, (hash >> 32) as usize & mask)
    }
}

/// One fixed hash for every filter (a filter is compared with the words
/// of later queries of the same process).
fn hash(word: &str) -> u64 {
    static STATE: std::sync::OnceLock<std::collections::hash_map::RandomState> =
        std::sync::OnceLock::new();
    STATE.get_or_init(Default::default).hash_one(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word put in is held; most others are ruled out.
    #[test]
    fn a_filter_holds_its_words_and_rules_out_most_others() {
        let words: Vec<String> = (0..500).map(|i| format!("name{i}")).collect();
        let filter = WordFilter::new(words.iter().map(String::as_str));
        assert!(words.iter().all(|w| filter.may_hold(&Word::new(w))));
        let others = (0..10_000)
            .filter(|i| filter.may_hold(&Word::new(&format!("other{i}"))))
            .count();
        assert!(others < 400, "{others} of 10000 other words pass");
    }
}
