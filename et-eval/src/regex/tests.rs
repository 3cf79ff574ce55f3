use super::*;
use crate::string::{Dialect, MAX_CODE_POINT};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn s(text: &str) -> SmtString {
    SmtString::from_text(text).unwrap()
}

fn lit(text: &str) -> Regex {
    Regex::literal(&s(text))
}

fn range(low: &str, high: &str) -> Regex {
    Regex::range(&s(low), &s(high))
}

const BUDGET: u64 = 100_000;

fn member(r: &Regex) -> Member {
    r.shortest_member(MAX_CODE_POINT, BUDGET)
}

#[test]
fn constants_and_ranges() {
    assert!(!Regex::none().matches(&s("")));
    assert!(Regex::all().matches(&s("")) && Regex::all().matches(&s("any\u{10000}")));
    let all_char = Regex::all_char();
    assert!(all_char.matches(&s("é")) && !all_char.matches(&s("")) && !all_char.matches(&s("ab")));
    let edge = SmtString::from_code_points([MAX_CODE_POINT]).unwrap();
    let surrogate = SmtString::from_code_points([0xd800]).unwrap();
    assert!(all_char.matches(&edge) && all_char.matches(&surrogate));
    assert!(range("a", "c").matches(&s("b")) && !range("a", "c").matches(&s("d")));
    // Bounds that are not single characters, or reversed, give the empty language.
    assert!(range("a", "bc").is_nothing());
    assert!(range("", "c").is_nothing());
    assert!(range("c", "a").is_nothing());
    assert!(range("a", "a").matches(&s("a")));
    assert!(lit("").matches(&s("")) && !lit("").matches(&s("a")));
    assert!(
        lit("abc").matches(&s("abc"))
            && !lit("abc").matches(&s("ab"))
            && !lit("abc").matches(&s("abcd"))
    );
}

#[test]
fn boolean_operations_are_exact() {
    let a_star = lit("a").star();
    let ab_star = range("a", "b").star();
    // Everything over {a, b} with at least one b.
    let has_b = ab_star.diff(&a_star);
    assert!(has_b.matches(&s("aab")) && has_b.matches(&s("b")));
    assert!(!has_b.matches(&s("aaa")) && !has_b.matches(&s("")) && !has_b.matches(&s("c")));
    let complement = a_star.complement();
    assert!(
        complement.matches(&s("b"))
            && complement.matches(&s("ab"))
            && !complement.matches(&s("aa"))
    );
    assert!(!complement.matches(&s("")));
    let both = ab_star.inter(&lit("ab").plus());
    assert!(both.matches(&s("abab")) && !both.matches(&s("aba")) && !both.matches(&s("")));
    assert_eq!(member(&a_star.inter(&complement)), Member::Empty);
    assert_eq!(member(&a_star.diff(&ab_star)), Member::Empty);
    assert_eq!(member(&Regex::all().complement()), Member::Empty);
    assert_eq!(member(&Regex::none().complement()), Member::Found(s("")));
    // Emptiness that needs exploring: a string of a's both of even and of odd length.
    let even = lit("aa").star();
    let odd = lit("a").concat(&even);
    assert_eq!(member(&even.inter(&odd)), Member::Empty);
    assert_eq!(
        member(&even.inter(&odd.complement()).inter(&lit("a").plus())),
        Member::Found(s("aa"))
    );
}

#[test]
fn repetitions() {
    let a = lit("a");
    let two_three = a.repeat(2, 3);
    let matches: Vec<bool> = ["", "a", "aa", "aaa", "aaaa"]
        .iter()
        .map(|t| two_three.matches(&s(t)))
        .collect();
    assert_eq!(matches, [false, false, true, true, false]);
    assert!(a.repeat(3, 2).is_nothing());
    assert!(a.power(0).matches(&s("")) && !a.power(0).matches(&s("a")));
    assert!(a.power(3).matches(&s("aaa")) && !a.power(3).matches(&s("aa")));
    assert!(a.plus().matches(&s("aaaa")) && !a.plus().matches(&s("")));
    assert!(a.opt().matches(&s("")) && a.opt().matches(&s("a")) && !a.opt().matches(&s("aa")));
    // A nullable body: (a?){2,2} accepts "", "a", "aa".
    let optional_twice = a.opt().power(2);
    assert!(["", "a", "aa"]
        .iter()
        .all(|t| optional_twice.matches(&s(t))));
    assert!(!optional_twice.matches(&s("aaa")));
    // Huge counts stay small terms: membership is quick, the search gives up.
    let huge = Regex::all_char().repeat(1_000_000_000, 1_000_000_000);
    assert!(!huge.matches(&s("abc")));
    assert_eq!(huge.shortest_member(MAX_CODE_POINT, 100), Member::GaveUp);
    assert_eq!(
        Regex::all_char()
            .repeat(2, u64::MAX)
            .shortest_member(MAX_CODE_POINT, 100),
        Member::Found(s("aa"))
    );
}

#[test]
fn normal_forms_identify_equal_terms() {
    let a = lit("a");
    let b = lit("b");
    assert_eq!(a.union(&b), b.union(&a));
    assert_eq!(a.union(&a), a);
    assert_eq!(a.union(&b).union(&a), a.union(&b));
    assert_eq!(a.concat(&b).concat(&a), a.concat(&b.concat(&a)));
    assert_eq!(a.star().star(), a.star());
    assert_eq!(a.complement().complement(), a);
    assert!(Regex::none().star().matches(&s("")));
    assert!(a.concat(&Regex::none()).is_nothing());
    assert!(a.inter(&a.complement()).is_nothing());
    assert!(Regex::all().union(&a).is_nullable());
    assert_eq!(Regex::all().to_string(), "re.all");
    assert_eq!(
        range("a", "c").union(&lit("d")).to_string(),
        "(re.range \"a\" \"d\")"
    );
    assert_eq!(lit("a\"\\").to_string(), "(str.to_re \"a\"\"\\u{5c}\")");
}

#[test]
fn shortest_members_use_the_terms_characters() {
    assert_eq!(member(&lit("abc")), Member::Found(s("abc")));
    assert_eq!(member(&range("x", "z").plus()), Member::Found(s("x")));
    assert_eq!(member(&Regex::all_char()), Member::Found(s("a")));
    // The complement of a single character set: anything but 'a', so not 'a'.
    let not_a = Regex::all_char().diff(&lit("a"));
    assert_eq!(member(&not_a), Member::Found(s("0")));
    let only_high = range("\u{1f600}", "\u{1f64f}");
    assert_eq!(member(&only_high), Member::Found(s("\u{1f600}")));
    // Old z3's alphabet stops at 255: nothing in it lies above.
    assert_eq!(
        only_high.shortest_member(Dialect::Z3Legacy.max_char(), BUDGET),
        Member::Empty
    );
    assert_eq!(
        Regex::all_char()
            .diff(&range("\u{0}", "\u{ff}"))
            .shortest_member(Dialect::Z3Legacy.max_char(), BUDGET),
        Member::Empty
    );
}

/// A regular expression as data, with the membership relation written from SMT-LIB's
/// set definitions (no derivatives): the reference the derivative matcher is tested on.
#[derive(Clone, Debug)]
enum Spec {
    None,
    All,
    AllChar,
    Lit(&'static str),
    Range(&'static str, &'static str),
    Concat(Box<Spec>, Box<Spec>),
    Union(Box<Spec>, Box<Spec>),
    Inter(Box<Spec>, Box<Spec>),
    Diff(Box<Spec>, Box<Spec>),
    Comp(Box<Spec>),
    Star(Box<Spec>),
    Plus(Box<Spec>),
    Opt(Box<Spec>),
    Loop(Box<Spec>, u64, u64),
}

const WORDS: [&str; 6] = ["", "a", "b", "ab", "é", "\u{10000}"];
const CHARS: [&str; 5] = ["a", "b", "c", "é", "\u{10000}"];

fn random_spec(rng: &mut ChaCha8Rng, depth: u32) -> Spec {
    let leaf = depth == 0 || rng.gen_bool(0.3);
    if leaf {
        return match rng.gen_range(0..5) {
            0 => Spec::None,
            1 => Spec::All,
            2 => Spec::AllChar,
            3 => Spec::Lit(WORDS[rng.gen_range(0..WORDS.len())]),
            _ => Spec::Range(
                CHARS[rng.gen_range(0..CHARS.len())],
                CHARS[rng.gen_range(0..CHARS.len())],
            ),
        };
    }
    let kind = rng.gen_range(0..9);
    let low = rng.gen_range(0..3);
    let high = low + rng.gen_range(0..3);
    let mut sub = || Box::new(random_spec(rng, depth - 1));
    match kind {
        0 => Spec::Concat(sub(), sub()),
        1 => Spec::Union(sub(), sub()),
        2 => Spec::Inter(sub(), sub()),
        3 => Spec::Diff(sub(), sub()),
        4 => Spec::Comp(sub()),
        5 => Spec::Star(sub()),
        6 => Spec::Plus(sub()),
        7 => Spec::Opt(sub()),
        _ => Spec::Loop(sub(), low, high),
    }
}

fn build(spec: &Spec) -> Regex {
    match spec {
        Spec::None => Regex::none(),
        Spec::All => Regex::all(),
        Spec::AllChar => Regex::all_char(),
        Spec::Lit(text) => lit(text),
        Spec::Range(low, high) => range(low, high),
        Spec::Concat(a, b) => build(a).concat(&build(b)),
        Spec::Union(a, b) => build(a).union(&build(b)),
        Spec::Inter(a, b) => build(a).inter(&build(b)),
        Spec::Diff(a, b) => build(a).diff(&build(b)),
        Spec::Comp(a) => build(a).complement(),
        Spec::Star(a) => build(a).star(),
        Spec::Plus(a) => build(a).plus(),
        Spec::Opt(a) => build(a).opt(),
        Spec::Loop(a, low, high) => build(a).repeat(*low, *high),
    }
}

fn in_language(spec: &Spec, w: &[u32]) -> bool {
    let code = |text: &str| s(text).code_points().to_vec();
    let split = |a: &Spec, b: &dyn Fn(&[u32]) -> bool| {
        (0..=w.len()).any(|i| in_language(a, &w[..i]) && b(&w[i..]))
    };
    match spec {
        Spec::None => false,
        Spec::All => true,
        Spec::AllChar => w.len() == 1,
        Spec::Lit(text) => w == code(text),
        Spec::Range(low, high) => match (&code(low)[..], &code(high)[..], w) {
            ([low], [high], [c]) => low <= c && c <= high,
            _ => false,
        },
        Spec::Concat(a, b) => split(a, &|rest| in_language(b, rest)),
        Spec::Union(a, b) => in_language(a, w) || in_language(b, w),
        Spec::Inter(a, b) => in_language(a, w) && in_language(b, w),
        Spec::Diff(a, b) => in_language(a, w) && !in_language(b, w),
        Spec::Comp(a) => !in_language(a, w),
        // Star: ε, or a non-empty first word of `a` followed by the star again.
        Spec::Star(a) => {
            w.is_empty()
                || (1..=w.len()).any(|i| in_language(a, &w[..i]) && in_language(spec, &w[i..]))
        }
        Spec::Plus(a) => split(a, &|rest| in_language(&Spec::Star(a.clone()), rest)),
        Spec::Opt(a) => w.is_empty() || in_language(a, w),
        Spec::Loop(a, low, high) => (*low..=*high).any(|n| in_power(a, n, w)),
    }
}

fn in_power(a: &Spec, n: u64, w: &[u32]) -> bool {
    if n == 0 {
        return w.is_empty();
    }
    (0..=w.len()).any(|i| in_language(a, &w[..i]) && in_power(a, n - 1, &w[i..]))
}

/// All strings over `alphabet` of length at most `max`.
fn words(alphabet: &[u32], max: usize) -> Vec<Vec<u32>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..max {
        layer = layer
            .iter()
            .flat_map(|w: &Vec<u32>| {
                alphabet.iter().map(move |&c| {
                    let mut longer = w.clone();
                    longer.push(c);
                    longer
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

#[test]
fn derivatives_agree_with_the_set_definitions() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let alphabet: Vec<u32> = CHARS
        .iter()
        .map(|c| s(c).code_points()[0])
        .chain([u32::from(b'z')])
        .collect();
    let strings = words(&alphabet, 3);
    for round in 0..400 {
        let spec = random_spec(&mut rng, 3);
        let regex = build(&spec);
        for w in &strings {
            let expected = in_language(&spec, w);
            let text = SmtString::from_code_points(w.iter().copied()).unwrap();
            assert_eq!(
                regex.matches(&text),
                expected,
                "round {round}: {spec:?} on {text}"
            );
        }
    }
}

#[test]
fn shortest_members_are_members_and_shortest() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let (mut found, mut empty) = (0, 0);
    for round in 0..400 {
        let spec = random_spec(&mut rng, 3);
        let regex = build(&spec);
        let alphabet = regex.representative_chars(MAX_CODE_POINT);
        match member(&regex) {
            Member::Found(text) => {
                found += 1;
                assert!(
                    in_language(&spec, text.code_points()),
                    "round {round}: {text} not in {spec:?}"
                );
                // Nothing shorter over the classes' representatives, which cover every behaviour.
                let shorter = words(&alphabet, text.len().saturating_sub(1).min(3));
                let shorter_member = shorter
                    .iter()
                    .find(|w| w.len() < text.len() && in_language(&spec, w));
                assert_eq!(
                    shorter_member, None,
                    "round {round}: {spec:?} has a member shorter than {text}"
                );
            }
            Member::Empty => {
                empty += 1;
                let witness = words(&alphabet, 3)
                    .into_iter()
                    .find(|w| in_language(&spec, w));
                assert_eq!(witness, None, "round {round}: {spec:?} said empty");
            }
            Member::GaveUp => panic!("round {round}: gave up on {spec:?}"),
        }
    }
    assert!(found > 100 && empty > 20, "found {found}, empty {empty}");
}

#[test]
fn representatives_cover_the_alphabet_once_per_class() {
    let r = range("b", "d").union(&lit("é"));
    // Classes: [0, a], [b, d], [e, è], [é], [ê, max].
    let chars = r.representative_chars(MAX_CODE_POINT);
    let expected: Vec<u32> = vec!['a' as u32, 'b' as u32, 'e' as u32, 'é' as u32, 'ê' as u32];
    assert_eq!(chars, expected);
    assert_eq!(Regex::all().representative_chars(255), vec!['a' as u32]);
}
