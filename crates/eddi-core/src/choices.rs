//! The names an error offers when a name is not found: the one place that
//! decides which names are *close* and how a list of choices is cut.
//!
//! * [`closest`]: only names that are really similar (Jaro-Winkler at least
//!   [`CLOSE`], case-insensitive, or names the asked one is a prefix of),
//!   best first. Nothing rather than noise: `nosuchsym` suggests nothing.
//! * [`Choices::ranked`]: every valid choice, the close ones first (best
//!   first), then the others in the order given (source order for symbols),
//!   cut at [`SHOWN`] with the number left out said (`… (12 more)`);
//!   [`Choices::ranked_dotted`] compares dotted names by their last part.
//!
//! Used by every error that offers names: code targets, the project index,
//! command and keyword suggestions, bookmarks, open files, sessions.

use std::fmt;

/// Names listed before the rest is counted.
pub const SHOWN: usize = 10;

/// Jaro-Winkler similarity from which a name counts as close.
pub const CLOSE: f64 = 0.8;

/// How close `candidate` is to `asked` (0 = not close), case-insensitive.
/// `dotted`: names like `Session.send` are compared by their last part
/// (`Session.nosuch` is not close to `Session.send` for sharing `Session.`).
fn score(asked: &str, candidate: &str, dotted: bool) -> f64 {
    let last = |s: &str| s.rsplit('.').next().unwrap_or(s).to_lowercase();
    let (a, c) = if dotted {
        (last(asked), last(candidate))
    } else {
        (asked.to_lowercase(), candidate.to_lowercase())
    };
    if a.is_empty() {
        return 0.0;
    }
    if c.starts_with(&a) && a.chars().count() >= 2 {
        return 1.0;
    }
    let s = strsim::jaro_winkler(&a, &c);
    if s >= CLOSE {
        s
    } else {
        0.0
    }
}

/// The candidates close to `asked`, best first (ties in the given order),
/// each once, at most `max`.
pub fn closest<S: AsRef<str>>(asked: &str, candidates: &[S], max: usize) -> Vec<String> {
    closest_by(asked, candidates, max, false)
}

/// [`closest`] for dotted names, compared by their last parts
/// (`compare_equal` is close to `Specifier._compare_equal`).
pub fn closest_dotted<S: AsRef<str>>(asked: &str, candidates: &[S], max: usize) -> Vec<String> {
    closest_by(asked, candidates, max, true)
}

fn closest_by<S: AsRef<str>>(
    asked: &str,
    candidates: &[S],
    max: usize,
    dotted: bool,
) -> Vec<String> {
    let mut scored: Vec<(f64, usize, &str)> = Vec::new();
    for (i, c) in candidates.iter().enumerate() {
        let c = c.as_ref();
        let s = score(asked, c, dotted);
        if s > 0.0 && !scored.iter().any(|(_, _, n)| *n == c) {
            scored.push((s, i, c));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(max)
        .map(|(_, _, c)| c.to_string())
        .collect()
}

/// A list of valid choices as an error message shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    pub shown: Vec<String>,
    /// Choices not shown.
    pub more: usize,
}

impl Choices {
    /// All `candidates` (in a useful order: source order), deduplicated,
    /// the ones close to `asked` moved first, cut at [`SHOWN`].
    pub fn ranked(asked: &str, candidates: Vec<String>) -> Choices {
        Choices::ranked_by(asked, candidates, false)
    }

    /// [`Choices::ranked`] for dotted names (`Cart.add.price`), compared by
    /// their last part.
    pub fn ranked_dotted(asked: &str, candidates: Vec<String>) -> Choices {
        Choices::ranked_by(asked, candidates, true)
    }

    fn ranked_by(asked: &str, candidates: Vec<String>, dotted: bool) -> Choices {
        let mut unique: Vec<String> = Vec::new();
        for c in candidates {
            if !unique.contains(&c) {
                unique.push(c);
            }
        }
        let close = closest_by(asked, &unique, SHOWN, dotted);
        let mut shown = close.clone();
        shown.extend(
            unique
                .iter()
                .filter(|c| !close.contains(c))
                .take(SHOWN - close.len())
                .cloned(),
        );
        Choices {
            more: unique.len() - shown.len(),
            shown,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }
}

impl fmt::Display for Choices {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.shown.join(", "))?;
        if self.more > 0 {
            write!(f, ", … ({} more)", self.more)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn only_close_names_are_suggested() {
        let c = names(&["u", "doc", "login", "main", "logout"]);
        assert!(closest("nosuchsym", &c, 10).is_empty());
        assert_eq!(closest("logn", &c, 10), ["login", "logout"]);
        assert_eq!(closest("log", &c, 1), ["login"]);
    }

    #[test]
    fn ranked_puts_close_first_then_source_order_and_counts_the_rest() {
        let c: Vec<String> = (0..15)
            .map(|i| format!("f{i}"))
            .chain(["total".into()])
            .collect();
        let r = Choices::ranked("totl", c);
        assert_eq!(r.shown[0], "total");
        assert_eq!(r.shown[1], "f0");
        assert_eq!(r.shown.len(), SHOWN);
        assert_eq!(r.more, 6);
        assert!(r.to_string().ends_with("f8, … (6 more)"), "{r}");
        assert_eq!(
            Choices::ranked("x", names(&["b", "a", "b"])).to_string(),
            "b, a"
        );
        let members = names(&["total.count", "total.items"]);
        assert_eq!(
            Choices::ranked_dotted("total.itms", members.clone()).shown[0],
            "total.items"
        );
        assert_eq!(
            Choices::ranked_dotted("total.nosuch", members).shown[0],
            "total.count"
        );
        assert_eq!(
            Choices::ranked("man.py", names(&["a.py", "main.py"])).shown[0],
            "main.py"
        );
    }
}
