//! Scripts that pop an empty assertion stack are refused: a solver answers such a
//! `pop` with an error, so every call of the grammar's scripts could look like a crash.
//!
//! What moves the stack: a terminal naming `push` or `pop` with its level, a numeral
//! written either in the same terminal (`"(pop 2)"`) or as the next terminal of the same
//! sequence (`"(" ~ "pop" ~ "2" ~ ")"`); any other level (none, a symbol, a rule, a
//! group) is refused, since et could not tell what it pops. `reset-assertions` and
//! `reset` set the depth back to 0. The symbols are read outside string literals, quoted
//! symbols, keywords and comments, wherever they stand (a function named `pop` counts as
//! the command).
//!
//! Decided on the rules, exactly, without enumerating. Started at depth `d`, the
//! derivations of a rule reach at lowest `min(d + rel_low, abs_low)` and end at lowest
//! `min(d + rel_end, abs_end)`: `rel_*` over the derivations before their first reset
//! (relative to `d`), `abs_*` after it (absolute, since a reset forgets `d`). Functions
//! of this form are monotone in `d` and closed under sequencing and minimum, so the
//! least of each over all derivations of a sequence `A B` follows from those of `A`
//! and `B` alone (`rel_low = min(rel_low A, rel_end A + rel_low B)`, `rel_end = rel_end A +
//! rel_end B`, and so on) and the least over the alternatives is the least of theirs. A
//! least fixpoint over the rules gives them; a rule that can derive itself with more
//! pops than pushes around it keeps lowering them and is refused as unbounded (the
//! iteration is bounded like Bellman–Ford's). A grammar is refused when the scripts of
//! its start rule, started at depth 0, can reach a depth below 0; the diagnostic points
//! at the `pop` that does, with such a script.

use super::diagnostic::{Diagnostic, Position};
use super::model::{Item, Nonterminal, NtId};
use super::terminal::{self, StackCommand, StackScan};
use super::validate;

/// A depth bound, or `None` for none (+∞: no such derivation).
type Bound = Option<i128>;

fn add(x: Bound, y: Bound) -> Bound {
    Some(x?.saturating_add(y?))
}

fn least(x: Bound, y: Bound) -> Bound {
    match (x, y) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Past this depth a bound counts as unbounded (it could only have come from a
/// derivation that keeps popping).
const FLOOR: i128 = -(1 << 100);

/// What the derivations of a rule (or a sequence) can do to the stack: see the module
/// documentation. `rel_low` is at most 0 and always finite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Effect {
    rel_low: i128,
    abs_low: Bound,
    rel_end: Bound,
    abs_end: Bound,
}

/// The components of an [`Effect`], and "any derivation" for the parts of an example
/// that do not matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    RelLow,
    AbsLow,
    RelEnd,
    AbsEnd,
    Any,
}

const COMPONENTS: [Want; 4] = [Want::RelLow, Want::AbsLow, Want::RelEnd, Want::AbsEnd];

impl Effect {
    /// Nothing moves.
    const NONE: Effect = Effect {
        rel_low: 0,
        abs_low: None,
        rel_end: Some(0),
        abs_end: None,
    };

    fn of(command: StackCommand) -> Effect {
        let level = |n: u64| i128::from(n);
        match command {
            StackCommand::Push(n) => Effect {
                rel_end: Some(level(n)),
                ..Effect::NONE
            },
            StackCommand::Pop(n) => Effect {
                rel_low: -level(n),
                rel_end: Some(-level(n)),
                ..Effect::NONE
            },
            StackCommand::Reset => Effect {
                rel_low: 0,
                abs_low: Some(0),
                rel_end: None,
                abs_end: Some(0),
            },
        }
    }

    /// `self` followed by `next`.
    fn then(self, next: Effect) -> Effect {
        Effect {
            rel_low: least(Some(self.rel_low), add(self.rel_end, Some(next.rel_low)))
                .expect("rel_low is finite"),
            abs_low: least(
                least(self.abs_low, add(self.abs_end, Some(next.rel_low))),
                next.abs_low,
            ),
            rel_end: add(self.rel_end, next.rel_end),
            abs_end: least(add(self.abs_end, next.rel_end), next.abs_end),
        }
    }

    /// The least of both, component by component.
    fn or(self, other: Effect) -> Effect {
        Effect {
            rel_low: self.rel_low.min(other.rel_low),
            abs_low: least(self.abs_low, other.abs_low),
            rel_end: least(self.rel_end, other.rel_end),
            abs_end: least(self.abs_end, other.abs_end),
        }
    }

    fn get(&self, want: Want) -> Bound {
        match want {
            Want::RelLow => Some(self.rel_low),
            Want::AbsLow => self.abs_low,
            Want::RelEnd => self.rel_end,
            Want::AbsEnd => self.abs_end,
            Want::Any => None,
        }
    }

    /// The lowest depth reached from depth 0.
    fn lowest(&self) -> i128 {
        least(Some(self.rel_low), self.abs_low).expect("rel_low is finite")
    }

    fn unbounded(&self) -> bool {
        COMPONENTS
            .iter()
            .any(|&w| self.get(w).is_some_and(|v| v < FLOOR))
    }
}

/// An item of an alternative as the stack sees it.
#[derive(Debug, Clone)]
enum Element {
    /// A terminal: its commands, each at the terminal naming it, and their effect.
    Terminal {
        token: usize,
        commands: Vec<(StackCommand, Position)>,
        effect: Effect,
    },
    Child(NtId),
}

/// The problems of a grammar's stack commands: levels that are not numerals, or else
/// scripts of `start` that pop an empty assertion stack. Empty for a grammar without
/// `push`, `pop` or resets.
pub fn check(
    file: &str,
    tokens: &[String],
    nonterminals: &[Nonterminal],
    positions: &[Vec<Vec<Position>>],
    start: NtId,
) -> Vec<Diagnostic> {
    let scans: Vec<StackScan> = tokens.iter().map(|t| terminal::stack_scan(t)).collect();
    if !scans.iter().any(StackScan::moves) {
        return Vec::new();
    }
    let (elements, problems) = elements(file, &scans, nonterminals, positions);
    if !problems.is_empty() {
        return problems;
    }
    let analysis = Analysis::new(nonterminals, &elements, start);
    analysis
        .diagnostic(file, tokens, start)
        .into_iter()
        .collect()
}

/// The alternatives as elements, with each `push` and `pop` given its level; or the
/// terminals whose level is not a numeral written right after them.
fn elements(
    file: &str,
    scans: &[StackScan],
    nonterminals: &[Nonterminal],
    positions: &[Vec<Vec<Position>>],
) -> (Vec<Vec<Vec<Element>>>, Vec<Diagnostic>) {
    let mut problems: Vec<Diagnostic> = Vec::new();
    let mut problem = |position: Position, nt: NtId, command: &str| {
        if problems.iter().any(|p| p.position == position) {
            return; // a terminal copied by a repetition
        }
        let owner = &nonterminals[nonterminals[nt].generated_in.unwrap_or(nt)].name;
        problems.push(Diagnostic {
            file: file.to_string(),
            position,
            message: format!(
                "rule `{owner}` has a `{command}` whose level is not a numeral written in the \
                 grammar: the level must be a numeral in the same terminal (`\"({command} 1)\"`) \
                 or the next terminal of the same sequence (`\"(\" ~ \"{command}\" ~ \"1\" ~ \
                 \")\"`), so that et can tell that no script pops more levels than it pushed"
            ),
        });
    };
    let mut all = Vec::with_capacity(nonterminals.len());
    for (id, nt) in nonterminals.iter().enumerate() {
        let mut alternatives = Vec::with_capacity(nt.alternatives.len());
        for (a, alt) in nt.alternatives.iter().enumerate() {
            let mut elements = Vec::with_capacity(alt.items.len());
            for (i, item) in alt.items.iter().enumerate() {
                let token = match *item {
                    Item::Child(c) => {
                        elements.push(Element::Child(c));
                        continue;
                    }
                    Item::Token(t) => t,
                };
                let position = positions[id][a][i];
                let scan = &scans[token];
                if let Some(command) = scan.bad_level {
                    problem(position, id, command);
                }
                let mut commands: Vec<(StackCommand, Position)> =
                    scan.commands.iter().map(|&c| (c, position)).collect();
                if let Some(push) = scan.open {
                    let level = match alt.items.get(i + 1) {
                        Some(Item::Token(next)) => scans[*next].leading_numeral,
                        _ => None,
                    };
                    match level {
                        Some(n) if push => commands.push((StackCommand::Push(n), position)),
                        Some(n) => commands.push((StackCommand::Pop(n), position)),
                        None => problem(position, id, if push { "push" } else { "pop" }),
                    }
                }
                let effect = commands
                    .iter()
                    .fold(Effect::NONE, |e, &(c, _)| e.then(Effect::of(c)));
                elements.push(Element::Terminal {
                    token,
                    commands,
                    effect,
                });
            }
            alternatives.push(elements);
        }
        all.push(alternatives);
    }
    (all, problems)
}

/// The least effects of the rules reachable from `start`, with the alternative that
/// last lowered each component (to show a script), or a rule found unbounded.
struct Analysis<'g> {
    nonterminals: &'g [Nonterminal],
    elements: &'g [Vec<Vec<Element>>],
    /// Per rule: its least effect; `None` while (or if) it derives nothing.
    values: Vec<Option<Effect>>,
    /// Per rule and component of [`COMPONENTS`]: the alternative that set it.
    chosen: Vec<[usize; 4]>,
    /// Per rule: an alternative that derives a finite formula soonest.
    any: Vec<Option<usize>>,
    /// Per rule: whether it can derive a stack command.
    moves: Vec<bool>,
    /// A rule of the first cycle of rules found whose bounds keep lowering.
    unbounded: Option<NtId>,
}

impl<'g> Analysis<'g> {
    fn new(
        nonterminals: &'g [Nonterminal],
        elements: &'g [Vec<Vec<Element>>],
        start: NtId,
    ) -> Self {
        let n = nonterminals.len();
        let any = validate::derivable(nonterminals, |_| true);
        let moves = moving(nonterminals, elements);
        let reachable = validate::reachable(nonterminals, start);
        let values: Vec<Option<Effect>> = (0..n)
            .map(|id| (!moves[id] && any[id].is_some()).then_some(Effect::NONE))
            .collect();
        let mut analysis = Analysis {
            nonterminals,
            elements,
            values,
            chosen: vec![[usize::MAX; 4]; n],
            any,
            moves,
            unbounded: None,
        };
        let work: Vec<bool> = (0..n)
            .map(|id| analysis.moves[id] && reachable[id])
            .collect();
        // Strongly connected components, children first: a rule on no cycle takes one
        // evaluation; a cycle is iterated until nothing lowers. Without a derivation
        // that keeps lowering a bound, each bound of a cycle of k rules is reached by a
        // derivation at most 4·(k + 1) rules of the cycle high (k per stratum of the
        // equations: rel_end; rel_low and abs_end; abs_low), and each round lowers
        // every bound to at least the best of one more level (Bellman–Ford's argument).
        for component in components(nonterminals, &work) {
            let cyclic = component.len() > 1
                || nonterminals[component[0]]
                    .alternatives
                    .iter()
                    .any(|a| a.children().any(|c| c == component[0]));
            // A round that lowers nothing is the fixpoint (the first round of a rule on
            // no cycle always lowers: it sets its bounds).
            let limit = if cyclic { 4 * (component.len() + 1) } else { 1 };
            let mut rounds = 0;
            while analysis.round(&component) {
                rounds += 1;
                let floor = component
                    .iter()
                    .any(|&id| analysis.values[id].is_some_and(|v| v.unbounded()));
                if !cyclic && !floor {
                    break;
                }
                if rounds > limit || floor {
                    let user = component
                        .iter()
                        .copied()
                        .filter(|&id| nonterminals[id].generated_in.is_none())
                        .min();
                    analysis.unbounded = user.or(component.iter().copied().min());
                    return analysis;
                }
            }
        }
        analysis
    }

    /// One Gauss–Seidel round over `rules`; whether a bound was lowered.
    fn round(&mut self, rules: &[NtId]) -> bool {
        let mut changed = false;
        for &id in rules {
            for a in 0..self.elements[id].len() {
                let Some(effect) = self.alternative(id, a) else {
                    continue;
                };
                let old = self.values[id];
                let new = old.map_or(effect, |o| o.or(effect));
                if old == Some(new) {
                    continue;
                }
                for (k, &want) in COMPONENTS.iter().enumerate() {
                    let before = old.and_then(|o| o.get(want));
                    if new.get(want).is_some() && least(new.get(want), before) != before {
                        self.chosen[id][k] = a;
                    }
                }
                self.values[id] = Some(new);
                changed = true;
            }
        }
        changed
    }

    /// The effect of an element, if it derives anything yet.
    fn effect(&self, element: &Element) -> Option<Effect> {
        match element {
            Element::Terminal { effect, .. } => Some(*effect),
            Element::Child(c) => self.values[*c],
        }
    }

    /// The least effect of alternative `a` of rule `id` from its children's.
    fn alternative(&self, id: NtId, a: usize) -> Option<Effect> {
        self.elements[id][a]
            .iter()
            .try_fold(Effect::NONE, |e, element| {
                Some(e.then(self.effect(element)?))
            })
    }

    /// The refusal, if the scripts of `start` can pop an empty stack.
    fn diagnostic(&self, file: &str, tokens: &[String], start: NtId) -> Option<Diagnostic> {
        let name = &self.nonterminals[start].name;
        let advice = "pop only levels pushed before it, e.g. with a rule `scope = { \"(\" ~ \
                      \"push\" ~ \"1\" ~ \")\" ~ body ~ \"(\" ~ \"pop\" ~ \"1\" ~ \")\" }`";
        if let Some(culprit) = self.unbounded {
            let nt = &self.nonterminals[culprit];
            let what = match nt.generated_in {
                Some(owner) => format!(
                    "the group or repetition here in rule `{}` can be repeated",
                    self.nonterminals[owner].name
                ),
                None => format!("rule `{}` can be derived again inside itself", nt.name),
            };
            return Some(Diagnostic {
                file: file.to_string(),
                position: nt.position,
                message: format!(
                    "scripts of rule `{name}` can pop more levels than they pushed, without \
                     bound: {what}, taking the assertion stack lower each time (more `pop` \
                     levels than `push` levels, or a reset under a `pop`), so some script \
                     pops an empty assertion stack, which a solver answers with an error; \
                     {advice}"
                ),
            });
        }
        let effect = self.values[start]?;
        let lowest = effect.lowest();
        if lowest >= 0 {
            return None;
        }
        let want = if effect.rel_low <= lowest {
            Want::RelLow
        } else {
            Want::AbsLow
        };
        // Walk the script: its first terminals, the few before the `pop` that goes below
        // 0 (when past those), the `pop` and a few after it.
        let mut text = String::new();
        let mut window: std::collections::VecDeque<usize> = Default::default();
        let mut tail: Vec<usize> = Vec::new();
        let mut depth: i128 = 0;
        let mut found: Option<(Position, NtId, i128)> = None;
        let complete = self.walk(start, want, |token, commands, owner| {
            if found.is_some() {
                tail.push(token);
                return tail.len() < 6;
            }
            if text.len() < validate::EXAMPLE_LENGTH {
                push_token(&mut text, &tokens[token]);
            } else {
                window.push_back(token);
                if window.len() > 4 {
                    window.pop_front();
                }
            }
            for &(command, position) in commands {
                match command {
                    StackCommand::Push(n) => depth = depth.saturating_add(i128::from(n)),
                    StackCommand::Pop(n) => depth = depth.saturating_sub(i128::from(n)),
                    StackCommand::Reset => depth = 0,
                }
                if depth < 0 && found.is_none() {
                    found = Some((position, owner, depth));
                }
            }
            true
        });
        let Some((position, owner, depth)) = found else {
            return Some(Diagnostic {
                file: file.to_string(),
                position: self.nonterminals[start].position,
                message: format!(
                    "scripts of rule `{name}` can pop more levels than they pushed (down to \
                     level {lowest}), which a solver answers with an error; {advice}"
                ),
            });
        };
        if !window.is_empty() {
            text.push_str(" …");
        }
        for token in window.into_iter().chain(tail) {
            push_token(&mut text, &tokens[token]);
        }
        if !complete {
            text.push('…');
        }
        let owner = &self.nonterminals[self.nonterminals[owner].generated_in.unwrap_or(owner)];
        Some(Diagnostic {
            file: file.to_string(),
            position,
            message: format!(
                "scripts of rule `{name}` can pop more levels than they pushed: the `pop` \
                 here in rule `{}` takes the assertion stack to level {depth} in e.g. \
                 `{text}`, which a solver answers with an error; {advice}",
                owner.name
            ),
        })
    }

    /// Visits the terminals of a derivation of `start` that attains component `want` of
    /// its effect, each with its commands and the rule it is written in, while `visit`
    /// says to go on; whether it saw them all (a derivation may be exponentially long:
    /// the walk stops after [`SCRIPT_TERMINALS`] terminals).
    fn walk(
        &self,
        start: NtId,
        want: Want,
        mut visit: impl FnMut(usize, &[(StackCommand, Position)], NtId) -> bool,
    ) -> bool {
        const SCRIPT_TERMINALS: usize = 1_000_000;
        // Expanding a rule pushes its elements (last first) onto `pending`; terminals
        // are visited as they come off it.
        let mut pending: Vec<(&Element, Want, NtId)> = Vec::new();
        let all: &'g [Vec<Vec<Element>>] = self.elements;
        let expand = |id: NtId, want: Want, pending: &mut Vec<(&'g Element, Want, NtId)>| {
            let k = COMPONENTS.iter().position(|&w| w == want);
            let a = match k {
                Some(k) if self.moves[id] && self.chosen[id][k] != usize::MAX => self.chosen[id][k],
                _ => self.any[id].expect("the rules are productive"),
            };
            let elements = &all[id][a];
            let wants = if k.is_some() && self.moves[id] {
                self.split(elements, want)
            } else {
                vec![Want::Any; elements.len()]
            };
            for (element, w) in elements.iter().zip(wants).rev() {
                pending.push((element, w, id));
            }
        };
        expand(start, want, &mut pending);
        let (mut terminals, mut steps) = (0, 0);
        while let Some((element, w, owner)) = pending.pop() {
            steps += 1;
            if terminals >= SCRIPT_TERMINALS || steps > 10 * SCRIPT_TERMINALS {
                return false;
            }
            match element {
                Element::Terminal {
                    token, commands, ..
                } => {
                    terminals += 1;
                    if !visit(*token, commands, owner) {
                        return pending.is_empty();
                    }
                }
                Element::Child(c) => expand(*c, w, &mut pending),
            }
        }
        true
    }

    /// What each element of an alternative must attain for the alternative to attain
    /// component `want` of its least effect (see [`Effect::then`]).
    fn split(&self, elements: &[Element], want: Want) -> Vec<Want> {
        let n = elements.len();
        let mut wants = vec![Want::Any; n];
        let values: Vec<Effect> = elements
            .iter()
            .map(|e| self.effect(e).unwrap_or(Effect::NONE))
            .collect();
        // rel_end of elements i..j.
        let net = |i: usize, j: usize| {
            values[i..j]
                .iter()
                .try_fold(0i128, |s, v| Some(s.saturating_add(v.rel_end?)))
        };
        let mut best: Bound = None;
        let mut better = |value: Bound, choice: Vec<Want>, wants: &mut Vec<Want>| {
            if value.is_some() && least(value, best) != best {
                best = value;
                *wants = choice;
            }
        };
        let with = |pairs: &[(std::ops::Range<usize>, Want)]| {
            let mut w = vec![Want::Any; n];
            for (range, want) in pairs {
                for x in &mut w[range.clone()] {
                    *x = *want;
                }
            }
            w
        };
        match want {
            Want::Any => {}
            Want::RelEnd => wants = vec![Want::RelEnd; n],
            Want::RelLow => {
                for (i, v) in values.iter().enumerate() {
                    let value = add(net(0, i), Some(v.rel_low));
                    let choice = with(&[(0..i, Want::RelEnd), (i..i + 1, Want::RelLow)]);
                    better(value, choice, &mut wants);
                }
            }
            Want::AbsEnd => {
                for (i, v) in values.iter().enumerate() {
                    let value = add(v.abs_end, net(i + 1, n));
                    let choice = with(&[(i..i + 1, Want::AbsEnd), (i + 1..n, Want::RelEnd)]);
                    better(value, choice, &mut wants);
                }
            }
            Want::AbsLow => {
                for i in 0..n {
                    let choice = with(&[(i..i + 1, Want::AbsLow)]);
                    better(values[i].abs_low, choice, &mut wants);
                    for j in i + 1..n {
                        let value = add(
                            add(values[i].abs_end, net(i + 1, j)),
                            Some(values[j].rel_low),
                        );
                        let choice = with(&[
                            (i..i + 1, Want::AbsEnd),
                            (i + 1..j, Want::RelEnd),
                            (j..j + 1, Want::RelLow),
                        ]);
                        better(value, choice, &mut wants);
                    }
                }
            }
        }
        wants
    }
}

/// The strongly connected components of the rules marked in `work` (edges: to the
/// children), children first ([`crate::validate::strongly_connected`]).
fn components(nonterminals: &[Nonterminal], work: &[bool]) -> Vec<Vec<NtId>> {
    let n = nonterminals.len();
    let edges: Vec<Vec<NtId>> = nonterminals
        .iter()
        .enumerate()
        .map(|(id, nt)| {
            if !work[id] {
                return Vec::new();
            }
            let mut next: Vec<NtId> = nt
                .alternatives
                .iter()
                .flat_map(|a| a.children())
                .filter(|&c| work[c])
                .collect();
            next.sort_unstable();
            next.dedup();
            next
        })
        .collect();
    crate::validate::strongly_connected(&edges, (0..n).filter(|&id| work[id]))
}

/// Which rules can derive a stack command (a least fixpoint over the children).
fn moving(nonterminals: &[Nonterminal], elements: &[Vec<Vec<Element>>]) -> Vec<bool> {
    let n = nonterminals.len();
    let mut moves: Vec<bool> = elements
        .iter()
        .map(|alts| {
            alts.iter()
                .flatten()
                .any(|e| matches!(e, Element::Terminal { commands, .. } if !commands.is_empty()))
        })
        .collect();
    let mut parents: Vec<Vec<NtId>> = vec![Vec::new(); n];
    for (id, nt) in nonterminals.iter().enumerate() {
        for alt in &nt.alternatives {
            for c in alt.children() {
                parents[c].push(id);
            }
        }
    }
    let mut stack: Vec<NtId> = (0..n).filter(|&id| moves[id]).collect();
    while let Some(c) = stack.pop() {
        for &p in &parents[c] {
            if !moves[p] {
                moves[p] = true;
                stack.push(p);
            }
        }
    }
    moves
}

/// Appends a terminal as et prints it: one space between tokens, none after `(` and
/// none before `)`.
fn push_token(out: &mut String, text: &str) {
    if !out.is_empty() && !out.ends_with('(') && !text.starts_with(')') {
        out.push(' ');
    }
    out.push_str(text);
}
