//! Where one formula's answer starts and ends in a session's stdout: the lines of the
//! `(echo "...")` sent before the formula (a *lead*, for every formula but a session's
//! first) and after it. Bytes between the two lines are the formula's stdout; the lines
//! themselves are not; anything before the lead or after the end is output nobody
//! asked for (a solver printing late is out of step), counted, never kept — unless a
//! formula was written ahead: what follows the echo is then the start of its answer,
//! kept for it.

/// Splits a stream of stdout chunks at the lines of the expected echoes.
pub(super) struct Sentinel {
    /// The line the lead echo prints, while it has not come yet.
    lead: Option<Vec<u8>>,
    /// Bytes before the lead.
    before: usize,
    /// The line the closing echo prints, without its newline.
    expected: Vec<u8>,
    /// The start of the current line, held back while it may still be the echo.
    line: Vec<u8>,
    /// The current line is longer than the echo or differs from it: its bytes go out
    /// as they come, up to its newline.
    spoiled: bool,
    /// The echo line was seen.
    seen: bool,
    /// Bytes that came after the echo line (counted as unasked unless kept).
    after: usize,
    /// Whether bytes after the echo line are kept ([`Sentinel::take_after`]).
    keep_after: bool,
    /// The bytes after the echo line, when kept.
    kept: Vec<u8>,
}

impl Sentinel {
    /// Ends at the line `expected`, after the line `lead` if given; what comes after
    /// `expected` is kept if `keep_after` (it is the next formula's), else counted.
    pub fn new(lead: Option<String>, expected: String, keep_after: bool) -> Sentinel {
        Sentinel {
            lead: lead.map(String::into_bytes),
            before: 0,
            expected: expected.into_bytes(),
            line: Vec::new(),
            spoiled: false,
            seen: false,
            after: 0,
            keep_after,
            kept: Vec::new(),
        }
    }

    /// Takes the next chunk of stdout, handing the formula's bytes to `out`.
    pub fn feed(&mut self, chunk: &[u8], mut out: impl FnMut(&[u8])) {
        for piece in chunk.split_inclusive(|&b| b == b'\n') {
            if self.seen {
                if self.keep_after {
                    self.kept.extend_from_slice(piece);
                } else {
                    self.after += piece.len();
                }
                continue;
            }
            let ends_line = piece.ends_with(b"\n");
            let target = self.lead.as_deref().unwrap_or(&self.expected);
            let leading = self.lead.is_some();
            let mut emit = |bytes: &[u8], before: &mut usize| {
                if leading {
                    *before += bytes.len();
                } else {
                    out(bytes);
                }
            };
            if self.spoiled {
                emit(piece, &mut self.before);
            } else {
                self.line.extend_from_slice(piece);
                let body = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
                let body = body.strip_suffix(b"\r").unwrap_or(body);
                if ends_line && body == target {
                    match self.lead.take() {
                        Some(_) => {}
                        None => self.seen = true,
                    }
                    self.line.clear();
                    continue;
                }
                if ends_line || !target.starts_with(body) {
                    emit(&self.line, &mut self.before);
                    self.line.clear();
                    self.spoiled = !ends_line;
                }
            }
            if ends_line {
                self.spoiled = false;
            }
        }
    }

    /// Whether the echo line was seen.
    pub fn seen(&self) -> bool {
        self.seen
    }

    /// How many bytes came before the lead or after the echo line: output nobody
    /// asked for.
    pub fn unasked(&self) -> usize {
        self.before + self.after
    }

    /// The bytes after the echo line, when kept.
    pub fn take_after(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.kept)
    }

    /// The held-back start of a last line without newline (the stream ended there).
    pub fn rest(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(expected: &str, chunks: &[&str]) -> (String, bool, usize, String) {
        let mut s = Sentinel::new(None, expected.to_string(), false);
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c.as_bytes(), |b| out.extend_from_slice(b));
        }
        let rest = String::from_utf8(s.rest()).unwrap();
        (String::from_utf8(out).unwrap(), s.seen(), s.unasked(), rest)
    }

    #[test]
    fn the_echo_line_ends_the_answer_in_any_chunking() {
        let text = "sat\n(model\n  (define-fun a () Int 2))\n\"et-s-7\"\n";
        for cut in 0..text.len() {
            let (out, seen, after, rest) = split("\"et-s-7\"", &[&text[..cut], &text[cut..]]);
            assert_eq!(
                out, "sat\n(model\n  (define-fun a () Int 2))\n",
                "cut {cut}"
            );
            assert!(seen && after == 0 && rest.is_empty(), "cut {cut}");
        }
    }

    #[test]
    fn lines_like_the_echo_are_output() {
        let (out, seen, _, _) = split("et-s-1", &["et-s-10\n", "xet-s-1\n", "et-s-\n"]);
        assert_eq!(out, "et-s-10\nxet-s-1\net-s-\n");
        assert!(!seen);
        // A prefix of the echo without a newline at the end of the stream.
        let (out, seen, _, rest) = split("et-s-1", &["unsat\net-s"]);
        assert_eq!(
            (out.as_str(), seen, rest.as_str()),
            ("unsat\n", false, "et-s")
        );
    }

    #[test]
    fn bytes_after_the_echo_are_counted_not_kept() {
        let (out, seen, after, _) = split("e", &["sat\ne\ngarbage\n", "more"]);
        assert_eq!((out.as_str(), seen, after), ("sat\n", true, 12));
    }

    #[test]
    fn output_before_the_lead_is_not_the_formulas() {
        let mut s = Sentinel::new(Some("L".into()), "E".into(), false);
        let mut out = Vec::new();
        for chunk in ["late\nL", "\nsat\nE\n"] {
            s.feed(chunk.as_bytes(), |b| out.extend_from_slice(b));
        }
        assert_eq!(
            (out.as_slice(), s.seen(), s.unasked()),
            (&b"sat\n"[..], true, 5)
        );
    }

    #[test]
    fn bytes_after_the_echo_are_the_next_formulas_when_kept() {
        let mut s = Sentinel::new(None, "E".into(), true);
        let mut out = Vec::new();
        s.feed(b"sat\nE\nL\nuns", |b| out.extend_from_slice(b));
        s.feed(b"at\n", |b| out.extend_from_slice(b));
        assert_eq!(
            (out.as_slice(), s.seen(), s.unasked()),
            (&b"sat\n"[..], true, 0)
        );
        assert_eq!(s.take_after(), b"L\nunsat\n");
    }
}
