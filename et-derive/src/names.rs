//! Readable Rust names for rules and alternatives. Names must be stable: they are the
//! API of the generated types, so they depend only on the grammar text, never on
//! iteration order of a hash map or on anything outside the rule.

use std::collections::{HashMap, HashSet};

use et_grammar::{Alternative, Grammar, Item, NtId};

/// Longer names (the 64-bit floating-point constants) are worse than the fallback.
const MAX_LEN: usize = 32;

/// One type name per nonterminal: `bool_term` → `BoolTerm`, generated `x__2` → `XPart2`.
pub fn type_names(grammar: &Grammar) -> Vec<String> {
    let mut used = HashSet::new();
    grammar
        .nonterminals
        .iter()
        .enumerate()
        .map(|(id, nt)| {
            let base = match nt.name.split_once("__") {
                Some((owner, k)) if nt.generated_in.is_some() => {
                    format!("{}Part{k}", camel(owner))
                }
                _ => camel(&nt.name),
            };
            let base = if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
                format!("Rule{base}")
            } else {
                base
            };
            unique(base, &mut used, || format!("Rule{id}"))
        })
        .collect()
}

/// One variant name per alternative of `nt`: the operator token where there is one
/// (`Not`, `StrReplaceAll`, `Eq`), disambiguated by the first child rule when two
/// alternatives share an operator (`EqBool`, `EqStr`), else `Alt<i>`.
pub fn variant_names(grammar: &Grammar, nt: NtId, type_names: &[String]) -> Vec<String> {
    let rule = &grammar.nonterminals[nt];
    let single = rule.alternatives.len() == 1;
    let bases: Vec<Option<String>> = rule
        .alternatives
        .iter()
        .map(|alt| base_name(grammar, alt, single.then(|| type_names[nt].as_str())))
        .collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for b in bases.iter().flatten() {
        *counts.entry(b.as_str()).or_default() += 1;
    }
    let candidates: Vec<Option<String>> = bases
        .iter()
        .zip(&rule.alternatives)
        .map(|(base, alt)| {
            let base = base.as_ref()?;
            if counts[base.as_str()] == 1 {
                return Some(base.clone());
            }
            let first = alt.children().next()?;
            let owner = &grammar.nonterminals[grammar.owner(first)].name;
            Some(format!(
                "{base}{}",
                camel(owner.strip_suffix("_term").unwrap_or(owner))
            ))
        })
        .collect();
    let mut used = HashSet::new();
    candidates
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let fallback = || format!("Alt{i}");
            let name = c.filter(|n| n.len() <= MAX_LEN).unwrap_or_else(fallback);
            unique(name, &mut used, fallback)
        })
        .collect()
}

fn unique(name: String, used: &mut HashSet<String>, fallback: impl Fn() -> String) -> String {
    let mut name = if used.contains(&name) {
        fallback()
    } else {
        name
    };
    while used.contains(&name) {
        name.push('X');
    }
    used.insert(name.clone());
    name
}

/// The name an alternative would have alone in its rule; `None` for the fallback.
fn base_name(grammar: &Grammar, alt: &Alternative, single: Option<&str>) -> Option<String> {
    if alt.items.is_empty() {
        return Some("Empty".to_string());
    }
    let name = match grammar.operator(alt) {
        Some(op) => operator_name(op, alt.arity()),
        None => match (single, alt.items.as_slice()) {
            (Some(rule), _) => rule.to_string(),
            (None, [Item::Child(c)]) => camel(&grammar.nonterminals[grammar.owner(*c)].name),
            _ => return None,
        },
    };
    match name.as_str() {
        "" | "Self" => None,
        n if n.starts_with(|c: char| c.is_ascii_digit()) => Some(format!("Lit{n}")),
        _ => Some(name),
    }
}

/// `str.replace_all` → `StrReplaceAll`, `<=` → `Le`, `"a"` (a string literal) → `StrA`.
pub fn operator_name(op: &str, arity: usize) -> String {
    if let Some(inner) = op
        .strip_prefix('"')
        .and_then(|o| o.strip_suffix('"'))
        .filter(|_| op.len() >= 2)
    {
        let inner = operator_name(inner, 0);
        return format!("Str{}", if inner.is_empty() { "Empty" } else { &inner });
    }
    if op == "-" {
        return if arity == 1 { "Neg" } else { "Sub" }.to_string();
    }
    if let Some(name) = whole_symbol(op) {
        return name.to_string();
    }
    let mut out = String::new();
    for segment in op.split(|c: char| c.is_whitespace() || matches!(c, '.' | '_' | '-')) {
        let piece = segment_name(segment);
        if out.ends_with(|c: char| c.is_ascii_digit())
            && piece.starts_with(|c: char| c.is_ascii_digit())
        {
            out.push('_');
        }
        out.push_str(&piece);
    }
    out
}

fn whole_symbol(op: &str) -> Option<&'static str> {
    Some(match op {
        "=" => "Eq",
        "<=" => "Le",
        "<" => "Lt",
        ">=" => "Ge",
        ">" => "Gt",
        "+" => "Add",
        "*" => "Mul",
        "/" => "Div",
        "=>" => "Implies",
        "++" => "Concat",
        "%" => "Rem",
        _ => return None,
    })
}

/// A piece of a dotted operator: symbols read as what they mean after a theory
/// prefix (`re.*` is a star, `re.+` a plus), words capitalised.
fn segment_name(segment: &str) -> String {
    let symbol = match segment {
        "++" => Some("Concat"),
        "*" => Some("Star"),
        "+" => Some("Plus"),
        "<=" => Some("Le"),
        "<" => Some("Lt"),
        ">=" => Some("Ge"),
        ">" => Some("Gt"),
        "=" => Some("Eq"),
        _ => None,
    };
    if let Some(s) = symbol {
        return s.to_string();
    }
    let (prefix, rest) = if let Some(hex) = segment.strip_prefix("#x") {
        ("Hex", hex)
    } else if let Some(bin) = segment.strip_prefix("#b") {
        ("Bin", bin)
    } else {
        ("", segment)
    };
    let word: String = rest.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let mut chars = word.chars();
    let capitalised = match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    };
    format!("{prefix}{capitalised}")
}

/// `bool_term` → `BoolTerm`.
pub fn camel(name: &str) -> String {
    operator_name(name, 0)
}

#[cfg(test)]
mod tests {
    use super::operator_name;

    #[test]
    fn operators_read_as_words() {
        let cases = [
            ("not", 1, "Not"),
            ("ite", 3, "Ite"),
            ("str.replace_all", 3, "StrReplaceAll"),
            ("fp.roundToIntegral", 2, "FpRoundToIntegral"),
            ("=", 2, "Eq"),
            ("<=", 2, "Le"),
            ("+", 2, "Add"),
            ("-", 2, "Sub"),
            ("-", 1, "Neg"),
            ("str.++", 2, "StrConcat"),
            ("re.*", 1, "ReStar"),
            ("re.+", 1, "RePlus"),
            ("str.<=", 2, "StrLe"),
            ("declare-const", 1, "DeclareConst"),
            ("#x0000", 0, "Hex0000"),
            ("0.0", 0, "0_0"),
            ("\"\"", 0, "StrEmpty"),
            ("\"a\"", 0, "StrA"),
            ("RNE", 0, "RNE"),
        ];
        for (op, arity, want) in cases {
            assert_eq!(operator_name(op, arity), want, "{op}");
        }
    }
}
