//! The interned names of one file: each distinct identifier once, all in
//! one string, found by their text through a hash table of ids.
//!
//! A file's scan interns every identifier it reads; a table of `Box<str>`
//! keys cost two allocations per distinct name (the key and the id's
//! text) and a pointer chase per comparison. Here the texts sit end to end
//! in one `String`, and the table holds only ids, hashed by their text.
//!
//! **Invariant:** ids are dense, in order of first interning; equal texts
//! have equal ids.

use std::hash::Hasher;

use hashbrown::HashTable;

use super::hash::FxHasher;

/// The id of an interned name ([`Names::name`]).
pub type Name = u32;

#[derive(Debug, Clone, Default)]
pub struct Names {
    /// Every name's text, one after another.
    text: String,
    /// Where each name ends in `text`; it starts where the previous ends.
    ends: Vec<u32>,
    /// The ids, by the hash of their text.
    table: HashTable<Name>,
}

fn hash_of(s: &str) -> u64 {
    let mut h = FxHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

/// The text of `id` in `text`/`ends` ("" for an id never given).
fn text_of<'a>(text: &'a str, ends: &[u32], id: Name) -> &'a str {
    let i = id as usize;
    let Some(&end) = ends.get(i) else {
        return "";
    };
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &text[start as usize..end as usize]
}

impl Names {
    /// Room for `names` names of `bytes` bytes in all, reserved at once.
    pub fn with_capacity(names: usize, bytes: usize) -> Names {
        Names {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(names),
            table: HashTable::with_capacity(names),
        }
    }

    /// The id of `s`, interning it if it is new.
    pub fn intern(&mut self, s: &str) -> Name {
        let hash = hash_of(s);
        let Names { text, ends, table } = self;
        if let Some(&id) = table.find(hash, |&id| text_of(text, ends, id) == s) {
            return id;
        }
        let id = ends.len() as Name;
        text.push_str(s);
        ends.push(text.len() as u32);
        table.insert_unique(hash, id, |&id| hash_of(text_of(text, ends, id)));
        id
    }

    /// The id of `s` if it was interned.
    pub fn get(&self, s: &str) -> Option<Name> {
        self.table
            .find(hash_of(s), |&id| self.name(id) == s)
            .copied()
    }

    /// The text of `id` ("" for an id this file never gave).
    pub fn name(&self, id: Name) -> &str {
        text_of(&self.text, &self.ends, id)
    }

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Gives back the room the scan reserved and did not use.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        let Names { text, ends, table } = self;
        table.shrink_to_fit(|&id| hash_of(text_of(text, ends, id)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_an_id_and_every_id_gives_its_text_back() {
        let mut names = Names::default();
        let words = ["self", "", "x", "self", "längd", "x", "a_long_name_of_it"];
        let ids: Vec<Name> = words.iter().map(|w| names.intern(w)).collect();
        assert_eq!(ids, [0, 1, 2, 0, 3, 2, 4]);
        for (w, &id) in words.iter().zip(&ids) {
            assert_eq!(names.name(id), *w);
            assert_eq!(names.get(w), Some(id));
        }
        assert_eq!(names.len(), 5);
        assert_eq!(names.get("y"), None);
        assert_eq!(names.name(99), "");
    }

    #[test]
    fn ids_survive_the_table_growing_and_shrinking() {
        let mut names = Names::default();
        let words: Vec<String> = (0..5000).map(|i| format!("name{i}")).collect();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(names.intern(w), i as Name);
        }
        names.shrink_to_fit();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(names.get(w), Some(i as Name));
            assert_eq!(names.name(i as Name), w);
        }
    }
}
