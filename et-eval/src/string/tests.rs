use super::*;

fn s(text: &str) -> SmtString {
    SmtString::from_text(text).unwrap()
}

fn int(value: i64) -> BigInt {
    BigInt::from(value)
}

fn parse(text: &str) -> SmtString {
    SmtString::parse_literal(text, Dialect::Smtlib26).unwrap()
}

fn legacy(text: &str) -> Vec<u32> {
    SmtString::parse_literal(text, Dialect::Z3Legacy)
        .unwrap()
        .code_points()
        .to_vec()
}

#[test]
fn smtlib26_literals() {
    assert_eq!(parse(""), s(""));
    assert_eq!(parse("a\"\"b"), s("a\"b"));
    assert_eq!(
        parse("\\u0041\\u{42}\\u{043}\\u{0044}\\u{00045}"),
        s("ABCDE")
    );
    assert_eq!(parse("\\u{2FFFF}").code_points(), [0x2ffff]);
    assert_eq!(parse("\\ud800").code_points(), [0xd800]);
    // Not escapes: the characters stand for themselves.
    assert_eq!(parse("\\u{30000}"), s("\\u{30000}"));
    assert_eq!(parse("\\u{}"), s("\\u{}"));
    assert_eq!(parse("\\u{000041}"), s("\\u{000041}"));
    assert_eq!(parse("\\u004"), s("\\u004"));
    assert_eq!(parse("\\x41\\n\\\\"), s("\\x41\\n\\\\"));
    assert_eq!(parse("\\u{41"), s("\\u{41"));
    assert_eq!(parse("é"), s("é"));
    // The escape's hex digits are case-insensitive.
    assert_eq!(parse("\\u{fF}").code_points(), [0xff]);
    assert_eq!(
        SmtString::parse_literal("a\"b", Dialect::Smtlib26),
        Err(LiteralError::LoneQuote { offset: 1 })
    );
    assert_eq!(
        SmtString::parse_literal("ab\"", Dialect::Z3Legacy),
        Err(LiteralError::LoneQuote { offset: 2 })
    );
    assert!(matches!(
        SmtString::parse_literal("a\u{e0001}", Dialect::Smtlib26),
        Err(LiteralError::OutsideAlphabet {
            offset: 1,
            code: 0xe0001
        })
    ));
}

#[test]
fn z3_legacy_literals() {
    assert_eq!(legacy("\\x41\\xAbc"), [0x41, 0xab, 0x63]);
    assert_eq!(
        legacy("\\a\\b\\f\\n\\r\\t\\v\\\\"),
        [7, 8, 12, 10, 13, 9, 11, 0x5c]
    );
    assert_eq!(
        legacy("\\0\\08\\101\\1234\\400\\7777"),
        [0, 0, 0x38, 0x41, 0x53, 0x34, 0, 0xff, 0x37]
    );
    // Incomplete or unknown escapes drop the backslash; a final one stays.
    assert_eq!(legacy("\\x4g"), [0x78, 0x34, 0x67]);
    assert_eq!(
        legacy("\\u{41}"),
        "u{41}".bytes().map(u32::from).collect::<Vec<_>>()
    );
    assert_eq!(legacy("\\q\\X"), [0x71, 0x58]);
    assert_eq!(legacy("a\\"), [0x61, 0x5c]);
    assert_eq!(legacy("\\\"\""), [0x22]);
    // Beyond ASCII: the UTF-8 bytes.
    assert_eq!(legacy("é"), [0xc3, 0xa9]);
    assert_eq!(Dialect::Z3Legacy.max_char(), 255);
}

#[test]
fn literals_print_and_read_back() {
    let odd = SmtString::from_code_points([0x22, 0x5c, 0x41, 0x7e, 0x7f, 0, 0xd800, 0x2ffff, 0x20])
        .unwrap();
    assert_eq!(
        odd.to_literal(),
        "\"\"\"\\u{5c}A~\\u{7f}\\u{0}\\u{d800}\\u{2ffff} \""
    );
    let body = odd.to_literal();
    assert_eq!(parse(&body[1..body.len() - 1]), odd);
    // A backslash followed by u{..} text must not turn into an escape on reading back.
    let tricky = s("\\u{41}");
    let body = tricky.to_literal();
    assert_eq!(parse(&body[1..body.len() - 1]), tricky);
    assert_eq!(format!("{}", s("a")), "\"a\"");
    assert_eq!(
        SmtString::from_code_points([0x30000]),
        Err(OutsideAlphabet(0x30000))
    );
}

#[test]
fn substrings_out_of_range_are_empty() {
    let abc = s("abc");
    assert_eq!(abc.at(&int(0)), s("a"));
    assert_eq!(abc.at(&int(2)), s("c"));
    assert_eq!(abc.at(&int(3)), s(""));
    assert_eq!(abc.at(&int(-1)), s(""));
    assert_eq!(abc.substr(&int(1), &int(5)), s("bc"));
    assert_eq!(abc.substr(&int(1), &int(0)), s(""));
    assert_eq!(abc.substr(&int(1), &int(-2)), s(""));
    assert_eq!(abc.substr(&int(3), &int(1)), s(""));
    assert_eq!(abc.substr(&int(-1), &int(2)), s(""));
    let huge = BigInt::from(10).pow(30);
    assert_eq!(abc.substr(&int(0), &huge), abc);
    assert_eq!(abc.substr(&huge, &huge), s(""));
    assert_eq!(abc.at(&-huge), s(""));
    assert_eq!(s("").substr(&int(0), &int(1)), s(""));
}

#[test]
fn searching() {
    let abab = s("abab");
    assert!(
        s("ab").is_prefix_of(&abab) && !s("b").is_prefix_of(&abab) && s("").is_prefix_of(&s(""))
    );
    assert!(s("ab").is_suffix_of(&abab) && !s("abc").is_suffix_of(&s("bc")));
    assert!(abab.contains(&s("ba")) && abab.contains(&s("")) && !abab.contains(&s("aa")));
    assert!(!s("").contains(&s("a")));
    assert_eq!(abab.index_of(&s("b"), &int(0)), int(1));
    assert_eq!(abab.index_of(&s("b"), &int(2)), int(3));
    assert_eq!(abab.index_of(&s("b"), &int(4)), int(-1));
    assert_eq!(abab.index_of(&s("ab"), &int(-1)), int(-1));
    // The empty pattern is found at every position 0..=len, and nowhere else.
    for i in 0..=4 {
        assert_eq!(abab.index_of(&s(""), &int(i)), int(i));
    }
    assert_eq!(abab.index_of(&s(""), &int(5)), int(-1));
    assert_eq!(abab.index_of(&s(""), &int(-1)), int(-1));
    assert_eq!(s("").index_of(&s(""), &int(0)), int(0));
    assert_eq!(abab.index_of(&s("abc"), &int(0)), int(-1));
    assert_eq!(abab.index_of(&s("a"), &BigInt::from(10).pow(20)), int(-1));
}

#[test]
fn replacing() {
    let abab = s("abab");
    assert_eq!(abab.replace(&s("b"), &s("xy")), s("axyab"));
    assert_eq!(abab.replace(&s(""), &s("x")), s("xabab"));
    assert_eq!(abab.replace(&s("c"), &s("x")), abab);
    assert_eq!(s("").replace(&s(""), &s("x")), s("x"));
    assert_eq!(abab.replace_all(&s("b"), &s("xy")), s("axyaxy"));
    assert_eq!(abab.replace_all(&s(""), &s("x")), abab);
    assert_eq!(s("aaa").replace_all(&s("aa"), &s("b")), s("ba"));
    assert_eq!(s("aaa").replace_all(&s("a"), &s("aa")), s("aaaaaa"));
}

#[test]
fn replacing_regex_matches() {
    let a_star = Regex::literal(&s("a")).star();
    let a_plus = Regex::literal(&s("a")).plus();
    // The empty match at 0 is the leftmost shortest.
    assert_eq!(s("baab").replace_re(&a_star, &s("x")), s("xbaab"));
    assert_eq!(s("baab").replace_re(&a_plus, &s("x")), s("bxab"));
    assert_eq!(s("bbb").replace_re(&a_plus, &s("x")), s("bbb"));
    assert_eq!(s("baab").replace_re_all(&a_star, &s("x")), s("bxxb"));
    assert_eq!(s("baab").replace_re_all(&a_plus, &s("x")), s("bxxb"));
    assert_eq!(s("").replace_re(&a_star, &s("x")), s("x"));
    assert_eq!(s("").replace_re_all(&a_star, &s("x")), s(""));
    assert_eq!(s("abc").replace_re(&Regex::none(), &s("x")), s("abc"));
    let ab_or_b = Regex::literal(&s("ab")).union(&Regex::literal(&s("b")));
    assert_eq!(
        s("aab").replace_re(&ab_or_b, &s("x")),
        s("ax"),
        "leftmost wins over shortest"
    );
    assert!(s("aab").in_re(&ab_or_b.complement()));
}

#[test]
fn order_is_lexicographic_by_code_point() {
    assert!(s("").str_lt(&s("a")) && s("a").str_lt(&s("aa")) && s("ab").str_lt(&s("b")));
    assert!(!s("a").str_lt(&s("a")) && s("a").str_le(&s("a")) && s("").str_le(&s("")));
    assert!(s("Z").str_lt(&s("a")) && s("z").str_lt(&s("é")));
    let surrogate = SmtString::from_code_points([0xd800]).unwrap();
    assert!(surrogate.str_lt(&s("\u{e000}")) && s("\u{d7ff}").str_lt(&surrogate));
}

#[test]
fn conversions() {
    assert_eq!(s("").to_int(), int(-1));
    assert_eq!(s("007").to_int(), int(7));
    assert_eq!(s("-1").to_int(), int(-1));
    assert_eq!(s("1a").to_int(), int(-1));
    assert_eq!(s("٣").to_int(), int(-1), "only ASCII digits");
    assert_eq!(
        s("123456789012345678901234567890").to_int(),
        "123456789012345678901234567890".parse().unwrap()
    );
    assert_eq!(SmtString::from_int(&int(0)), s("0"));
    assert_eq!(SmtString::from_int(&int(-5)), s(""));
    assert_eq!(SmtString::from_int(&int(120)), s("120"));
    assert!(s("7").is_digit() && !s("77").is_digit() && !s("").is_digit() && !s("a").is_digit());
    assert_eq!(s("a").to_code(), int(97));
    assert_eq!(s("").to_code(), int(-1));
    assert_eq!(s("ab").to_code(), int(-1));
    assert_eq!(SmtString::from_code(&int(97)), s("a"));
    assert_eq!(SmtString::from_code(&int(0x2ffff)).code_points(), [0x2ffff]);
    assert_eq!(SmtString::from_code(&int(0x30000)), s(""));
    assert_eq!(SmtString::from_code(&int(-1)), s(""));
    assert_eq!(SmtString::from_code(&BigInt::from(10).pow(20)), s(""));
    assert_eq!(s("ab").concat(&s("c")), s("abc"));
    assert_eq!(s("a\u{10000}").len(), 2);
}
