//! Release order of solver versions: `4.8.9 < 4.8.10 < 4.9.0`, `1.0.0-rc1 < 1.0.0`.
//! The one ordering of versions in et: evolution plots and reports sort by it, the
//! default reference ("the newest release of the other family") is chosen by it, and
//! the families' thresholds (the oldest usable wheel, the Unicode cut-over) compare
//! with it.
//!
//! Plain string order puts 4.8.10 before 4.8.9, which scrambles every evolution plot,
//! so versions are compared piece by piece: digit runs as numbers, letter runs as text.

use std::cmp::Ordering;

/// One run of digits or of letters in a version string.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece<'a> {
    Number(&'a str),
    Text(&'a str),
}

/// Splits `4.8.10-rc1` into `4 8 10 rc 1`; separators (`.`, `-`, `_`, `+`, ...) only split.
fn pieces(version: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let bytes = version.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        if bytes[i].is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push(Piece::Number(&version[start..i]));
        } else if bytes[i].is_ascii_alphabetic() {
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            out.push(Piece::Text(&version[start..i]));
        } else {
            i += 1;
        }
    }
    out
}

/// Compares decimal digit strings by value without parsing (versions may hold dates).
fn compare_numbers(a: &str, b: &str) -> Ordering {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Orders two version strings by release order.
///
/// Numbers compare by value; a number sorts after text at the same position (so
/// `1.0.rc1 < 1.0.0`); when one version is a prefix of the other, a following text
/// piece marks a pre-release (`1.0.0-rc1 < 1.0.0`) and a following number a later
/// release (`1.0 < 1.0.1`). Versions without any digits (`trunk`, `main`) sort after
/// numbered ones. Ties fall back to the raw strings so the order is total.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let (pa, pb) = (pieces(a), pieces(b));
    let numbered = |p: &[Piece]| p.iter().any(|x| matches!(x, Piece::Number(_)));
    let by_pieces = match (numbered(&pa), numbered(&pb)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => compare_pieces(&pa, &pb),
    };
    by_pieces.then_with(|| a.cmp(b))
}

/// The leading numbers of a version's upstream part (`1.0.3-1` → `[1, 0, 3]`,
/// `2.6.5.post24` → `[2, 6, 5]`, `1.0.0rc1` → `[1, 0]`): for reading a packager's
/// version number (PyPI's `X.Y.Z.W`) into et's `X.Y.Z`. Not an order: compare versions
/// with [`compare_versions`], which also places pre-releases and unnumbered builds.
pub fn leading_numbers(version: &str) -> Vec<u64> {
    let upstream = version.split(['-', '+']).next().unwrap_or("");
    upstream
        .split('.')
        .map_while(|part| part.parse().ok())
        .collect()
}

/// Whether `version` is `threshold` or a later release, in release order.
pub fn at_least(version: &str, threshold: &str) -> bool {
    compare_versions(version, threshold) != Ordering::Less
}

/// Whether a version names a release (has a number), unlike `trunk` or `main`.
pub fn is_release(version: &str) -> bool {
    version.bytes().any(|b| b.is_ascii_digit())
}

/// The newest of `items` by release order of `version(item)`: releases win over
/// unnumbered builds (a trunk build is newest only when nothing else is there), and
/// ties go to the item `tie` orders last, so the choice never depends on input order.
pub fn newest<T, V: AsRef<str>>(
    items: impl IntoIterator<Item = T>,
    version: impl Fn(&T) -> V,
    tie: impl Fn(&T, &T) -> Ordering,
) -> Option<T> {
    items.into_iter().max_by(|a, b| {
        let (va, vb) = (version(a), version(b));
        let (va, vb) = (va.as_ref(), vb.as_ref());
        is_release(va)
            .cmp(&is_release(vb))
            .then_with(|| compare_versions(va, vb))
            .then_with(|| tie(a, b))
    })
}

fn compare_pieces(pa: &[Piece], pb: &[Piece]) -> Ordering {
    for i in 0..pa.len().max(pb.len()) {
        let ord = match (pa.get(i), pb.get(i)) {
            (Some(Piece::Number(x)), Some(Piece::Number(y))) => compare_numbers(x, y),
            (Some(Piece::Text(x)), Some(Piece::Text(y))) => {
                x.to_ascii_lowercase().cmp(&y.to_ascii_lowercase())
            }
            (Some(Piece::Number(_)), Some(Piece::Text(_))) => Ordering::Greater,
            (Some(Piece::Text(_)), Some(Piece::Number(_))) => Ordering::Less,
            (Some(Piece::Text(_)), None) => Ordering::Less,
            (Some(Piece::Number(_)), None) => Ordering::Greater,
            (None, Some(Piece::Text(_))) => Ordering::Greater,
            (None, Some(Piece::Number(_))) => Ordering::Less,
            (None, None) => Ordering::Equal,
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut v: Vec<&str>) -> Vec<&str> {
        v.sort_by(|a, b| compare_versions(a, b));
        v
    }

    #[test]
    fn numeric_pieces_compare_by_value() {
        assert_eq!(
            sorted(vec!["4.8.10", "4.8.9", "4.13.0", "4.8.17", "4.9.0"]),
            vec!["4.8.9", "4.8.10", "4.8.17", "4.9.0", "4.13.0"]
        );
    }

    #[test]
    fn pre_releases_come_before_the_release() {
        assert_eq!(
            sorted(vec!["1.0.0", "1.0.0-rc2", "1.0.0-rc1", "0.9", "1.0.1"]),
            vec!["0.9", "1.0.0-rc1", "1.0.0-rc2", "1.0.0", "1.0.1"]
        );
    }

    #[test]
    fn newest_prefers_releases() {
        let pick = |v: Vec<&'static str>| newest(v, |s| *s, |a, b| a.cmp(b));
        assert_eq!(
            pick(vec!["4.8.9", "trunk", "4.8.10", "4.12.2"]),
            Some("4.12.2")
        );
        assert_eq!(pick(vec!["trunk"]), Some("trunk"));
        assert_eq!(pick(vec![]), None);
    }

    #[test]
    fn leading_numbers_read_packagers_versions() {
        assert_eq!(leading_numbers("1.0.3-1"), [1, 0, 3]);
        assert_eq!(leading_numbers("4.13.0.0"), [4, 13, 0, 0]);
        assert_eq!(leading_numbers("2.6.5.post24"), [2, 6, 5]);
        assert_eq!(leading_numbers("1.0.0rc1"), [1, 0]);
        assert_eq!(leading_numbers("trunk"), Vec::<u64>::new());
    }

    #[test]
    fn thresholds_follow_release_order() {
        assert!(at_least("4.8.12", "4.8.5"));
        assert!(at_least("1.2.0", "1.2.0"));
        assert!(!at_least("1.0.8", "1.0.9"));
        assert!(!at_least("1.2.0-rc1", "1.2.0"));
        assert!(at_least("1.0.3-1", "1.0.3"));
    }

    #[test]
    fn shorter_prefix_is_earlier_and_names_go_last() {
        assert_eq!(sorted(vec!["trunk", "1.1", "1"]), vec!["1", "1.1", "trunk"]);
        assert_eq!(compare_versions("1.08", "1.8"), Ordering::Less); // tie broken by text
    }
}
