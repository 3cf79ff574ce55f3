//! What a solver *says* in its output, as opposed to the data it prints.
//!
//! stdout holds both: the solver's own words (its answer, `(error "...")` responses,
//! the reason it gives for `unknown`, the text of a failed assertion) and the data a
//! formula asked for (a model, `get-value` pairs), whose string values, constant names
//! and quoted symbols are the formula's own. A string constant equal to
//! `"Segmentation fault"` printed in a model is not a crash, nor a constant named
//! `unsupported` a rejection: the patterns of [`super::patterns`] are matched against
//! [`said`] only.
//!
//! A complete top-level S-expression is data unless its head is `error` (an error
//! response) or `:reason-unknown` (the answer to `(get-info :reason-unknown)`, where a
//! solver says which option it refuses). Everything at the top level outside such
//! lists — answer lines, the free text of a crash — is speech, and so is stderr. An
//! S-expression left open at the end of stdout is kept as it is: output that stops
//! inside a list is already out of the ordinary, and its text may be the only trace of
//! why.

/// The text of stdout and stderr the solver says in its own words: stdout without its
/// data lists and comments, then stderr.
pub fn said(stdout: &str, stderr: &str) -> String {
    let mut out = without_data(stdout);
    out.push('\n');
    out.push_str(stderr);
    out
}

/// Heads of top-level lists that are the solver speaking, not data.
const SPEECH_HEADS: &[&str] = &["error", ":reason-unknown"];

/// `stdout` with each complete top-level list that is data replaced by a space, and
/// each top-level `;` comment removed (to the end of its line).
fn without_data(stdout: &str) -> String {
    let mut out = String::with_capacity(stdout.len());
    let mut rest = stdout;
    loop {
        let Some(i) = rest.find(['(', ';']) else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with(';') {
            rest = rest.find('\n').map_or("", |n| &rest[n..]);
            continue;
        }
        match list_end(rest) {
            Some(end) => {
                let list = &rest[..end];
                if is_speech(list) {
                    out.push_str(list);
                } else {
                    out.push(' ');
                }
                rest = &rest[end..];
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The byte length of the list that `text` (starting at its `(`) opens, when it is
/// closed: string literals (`""` is an escaped quote), quoted symbols `|...|` and
/// comments are skipped, so the parentheses they hold do not count.
fn list_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => loop {
                i += 1;
                match bytes.get(i)? {
                    b'"' if bytes.get(i + 1) == Some(&b'"') => i += 1,
                    b'"' => break,
                    _ => {}
                }
            },
            b'|' => i += text[i + 1..].find('|')? + 1,
            b';' => i += text[i..].find('\n')?,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether a complete list is the solver speaking: its head is one of
/// [`SPEECH_HEADS`].
fn is_speech(list: &str) -> bool {
    let inner = list[1..].trim_start();
    let head_len = inner
        .find(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '"')
        .unwrap_or(inner.len());
    SPEECH_HEADS.contains(&&inner[..head_len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_data() {
        let stdout = "sat\n(\n  (define-fun a () String \"Segmentation fault\")\n  (define-fun unsupported () Int 1)\n)\n";
        let said = said(stdout, "");
        assert!(!said.contains("Segmentation"), "{said}");
        assert!(!said.contains("unsupported"), "{said}");
        assert!(said.starts_with("sat\n"), "{said}");
    }

    #[test]
    fn parentheses_inside_strings_and_quoted_symbols_do_not_count() {
        let stdout = "sat\n((define-fun |a)b| () String \"x)\"\")\")) (define-fun c () Int 0))\nASSERTION VIOLATION\n";
        let said = said(stdout, "");
        assert!(!said.contains("define-fun"), "{said}");
        assert!(said.contains("ASSERTION VIOLATION"), "{said}");
    }

    #[test]
    fn errors_and_reasons_are_speech() {
        let stdout = "sat\n(error \"line 5 column 10: an invalid model was generated\")\nunknown\n(:reason-unknown \"invalid parameter for x\")\n";
        let said = said(stdout, "Fatal failure\n");
        assert!(said.contains("an invalid model was generated"), "{said}");
        assert!(said.contains("invalid parameter for"), "{said}");
        assert!(said.ends_with("Fatal failure\n"), "{said}");
    }

    #[test]
    fn comments_are_not_speech() {
        assert_eq!(said("sat ; Segmentation fault\n", ""), "sat \n\n");
    }

    #[test]
    fn an_open_list_is_kept() {
        let stdout = "sat\n(\n(define-fun a () Int\nSegmentation fault\n";
        assert!(said(stdout, "").contains("Segmentation fault"));
    }
}
