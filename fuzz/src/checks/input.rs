//! Structured values from fuzzer bytes.
//!
//! A hand-written reader rather than the `arbitrary` crate: the checks also
//! run as the main crate's tests, which should not grow a dependency for
//! this. Reading never fails: past the end every number is 0, every choice
//! the first and every string empty, so each input decodes to exactly one
//! case and small mutations make small changes.

pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Input { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A number in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let wide = if n > 256 {
            u16::from_le_bytes([self.byte(), self.byte()]) as usize
        } else {
            self.byte() as usize
        };
        wide % n
    }

    /// One of `items` (which must not be empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A text made of up to `max` pieces, each either one of `pieces` or
    /// one raw char.
    pub fn text(&mut self, pieces: &[&str], max: usize) -> String {
        let count = self.below(max + 1);
        let mut out = String::new();
        for _ in 0..count {
            let b = self.byte();
            if (b as usize) < pieces.len() * 2 {
                out.push_str(pieces[b as usize / 2]);
            } else {
                out.push(char::from(b));
            }
        }
        out
    }

    /// The next `n` bytes (fewer at the end).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        head
    }
}
