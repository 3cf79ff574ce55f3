//! Checks that a lowered grammar can be enumerated: a start rule, every rule derives
//! some finite formula, and no rule can reach itself without paying (a zero-cost
//! cycle would put infinitely many formulas into one part). Unreachable rules are
//! warnings. All problems are collected before reporting.

use super::diagnostic::{Diagnostic, Position};
use super::model::{Alternative, Item, Nonterminal, NtId};
use super::syntax::{Expr, RuleDef};
use super::terminal;

/// Returns the start symbol and the warnings, or every problem found.
pub fn validate(
    file: &str,
    nonterminals: &[Nonterminal],
    start: &str,
) -> Result<(NtId, Vec<Diagnostic>), Vec<Diagnostic>> {
    let diag = |position: Position, message: String| Diagnostic {
        file: file.to_string(),
        position,
        message,
    };
    let mut problems = Vec::new();
    let user = |nt: &&Nonterminal| nt.generated_in.is_none();

    let start_id = nonterminals
        .iter()
        .position(|n| n.name == start && n.generated_in.is_none());
    if start_id.is_none() {
        let names: Vec<&str> = nonterminals
            .iter()
            .filter(user)
            .map(|n| n.name.as_str())
            .collect();
        problems.push(diag(
            Position::START,
            format!(
                "the grammar has no rule `{start}` to start from (rules: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    }

    let productive = productive(nonterminals);
    for (id, nt) in nonterminals.iter().enumerate() {
        if !productive[id] && nt.generated_in.is_none() {
            let mut needs: Vec<String> = Vec::new();
            for c in nt.alternatives.iter().flat_map(|a| a.children()) {
                let owner = &nonterminals[nonterminals[c].generated_in.unwrap_or(c)].name;
                let name = format!("`{owner}`");
                if !productive[c] && !needs.contains(&name) {
                    needs.push(name);
                }
            }
            problems.push(diag(
                nt.position,
                format!(
                    "rule `{}` derives no finite formula (empty language): every alternative \
                     needs {}, which never finishes",
                    nt.name,
                    needs.join(" or ")
                ),
            ));
        }
    }

    for cycle in zero_cost_cycles(nonterminals) {
        let mut names: Vec<&str> = Vec::new();
        for &id in &cycle {
            let owner = nonterminals[id].generated_in.unwrap_or(id);
            let name = nonterminals[owner].name.as_str();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let first = nonterminals[cycle[0]].generated_in.unwrap_or(cycle[0]);
        let path = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>();
        problems.push(diag(
            nonterminals[first].position,
            format!(
                "zero-cost cycle: {} can reach itself without paying (no `\"(\"` token and no \
                 direct self-reference on the way), so one size would hold infinitely many \
                 formulas; add a `\"(\"` token or make the rule refer to itself directly",
                path.join(" → ")
            ),
        ));
    }

    let Some(start_id) = start_id else {
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let reachable = reachable(nonterminals, start_id);
    let warnings = nonterminals
        .iter()
        .enumerate()
        .filter(|(id, nt)| !reachable[*id] && nt.generated_in.is_none())
        .map(|(_, nt)| {
            diag(
                nt.position,
                format!("rule `{}` is unreachable from `{start}`", nt.name),
            )
        })
        .collect();
    Ok((start_id, warnings))
}

/// Least fixpoint: a rule is productive if some alternative has only productive
/// children.
pub fn productive(nonterminals: &[Nonterminal]) -> Vec<bool> {
    derivable(nonterminals, |_| true)
        .into_iter()
        .map(|w| w.is_some())
        .collect()
}

/// Least fixpoint over the rules: which derive a finite formula using only alternatives
/// that `usable` admits, each with the alternative that first did (its children were
/// known before it, so following these alternatives always ends). A worklist over
/// "alternatives still waiting for n children", so the time is linear in the grammar's
/// size however long its chains of rules are.
pub(crate) fn derivable(
    nonterminals: &[Nonterminal],
    usable: impl Fn(&Alternative) -> bool,
) -> Vec<Option<usize>> {
    let mut witness: Vec<Option<usize>> = vec![None; nonterminals.len()];
    // For each alternative (rule, index): how many child occurrences are not yet known
    // derivable; for each rule: the alternatives it occurs in, once per occurrence.
    let mut waiting: Vec<Vec<usize>> = Vec::with_capacity(nonterminals.len());
    let mut users: Vec<Vec<(NtId, usize)>> = vec![Vec::new(); nonterminals.len()];
    let mut ready: Vec<NtId> = Vec::new();
    for (id, nt) in nonterminals.iter().enumerate() {
        let mut counts = Vec::with_capacity(nt.alternatives.len());
        for (a, alt) in nt.alternatives.iter().enumerate() {
            if !usable(alt) {
                counts.push(usize::MAX);
                continue;
            }
            let mut count = 0;
            for c in alt.children() {
                users[c].push((id, a));
                count += 1;
            }
            if count == 0 && witness[id].is_none() {
                witness[id] = Some(a);
                ready.push(id);
            }
            counts.push(count);
        }
        waiting.push(counts);
    }
    while let Some(c) = ready.pop() {
        for &(id, a) in &users[c] {
            waiting[id][a] -= 1;
            if waiting[id][a] == 0 && witness[id].is_none() {
                witness[id] = Some(a);
                ready.push(id);
            }
        }
    }
    witness
}

/// The longest example formula a diagnostic shows, in bytes.
pub(crate) const EXAMPLE_LENGTH: usize = 120;

/// A formula of the grammar that can lack a `check-sat` command is refused: et appends
/// `(get-model)` to a script, and a solver answers it with an error when nothing was
/// checked, so every call would look like a crash. Decided on the rules, without
/// enumerating: the least fixpoint "this rule derives a finite formula with no terminal
/// naming `check-sat` or `check-sat-assuming`". The diagnostic points at the first
/// choice on the way from `start` that leaves the command out (an alternative of a
/// rule, or an optional part), else at `start`, and shows such a formula.
pub fn check_sat(
    file: &str,
    tokens: &[String],
    nonterminals: &[Nonterminal],
    start: NtId,
) -> Option<Diagnostic> {
    let checks: Vec<bool> = tokens.iter().map(|t| terminal::checks_sat(t)).collect();
    let silent = |alt: &Alternative| {
        alt.items.iter().all(|i| match i {
            Item::Token(t) => !checks[*t],
            Item::Child(_) => true,
        })
    };
    let witness = derivable(nonterminals, silent);
    witness[start]?;
    // An alternative leaves the command out if it names none and all its children can.
    let leaves_out =
        |alt: &Alternative| silent(alt) && alt.children().all(|c| witness[c].is_some());
    // Breadth first along the chosen alternatives: the first rule where the choice
    // matters (another alternative would have had the command).
    let mut seen = vec![false; nonterminals.len()];
    let mut queue = std::collections::VecDeque::from([start]);
    seen[start] = true;
    let mut culprit = None;
    while let Some(id) = queue.pop_front() {
        let nt = &nonterminals[id];
        if nt.alternatives.iter().any(|a| !leaves_out(a)) {
            culprit = Some(id);
            break;
        }
        let chosen = &nt.alternatives[witness[id].expect("derivable")];
        for c in chosen.children() {
            if !seen[c] {
                seen[c] = true;
                queue.push_back(c);
            }
        }
    }
    let name = &nonterminals[start].name;
    let example = example(tokens, nonterminals, &witness, start);
    let (position, through) = match culprit {
        Some(id) => {
            let nt = &nonterminals[id];
            let through = match nt.generated_in {
                Some(owner) => format!(
                    " through the group or repetition here in rule `{}`",
                    nonterminals[owner].name
                ),
                None => format!(
                    " through alternative {} of rule `{}`",
                    witness[id].expect("derivable") + 1,
                    nt.name
                ),
            };
            (nt.position, through)
        }
        None => (nonterminals[start].position, String::new()),
    };
    Some(Diagnostic {
        file: file.to_string(),
        position,
        message: format!(
            "formulas of rule `{name}` can lack a `check-sat` command{through}, e.g. \
             `{example}`: et appends `(get-model)` to a formula, which a solver answers with \
             an error when nothing was checked; make every formula hold `(check-sat)`"
        ),
    })
}

/// Terminals whose string literals hold characters that an SMT-LIB string literal
/// cannot hold as itself (outside printable ASCII): solvers read them differently (as
/// UTF-8 bytes, or not at all), so the answers could not be compared. One diagnostic
/// per terminal, with the escapes to write instead.
pub fn string_literals(file: &str, rules: &[RuleDef]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for rule in rules {
        let mut stack = vec![&rule.expr];
        while let Some(expr) = stack.pop() {
            match expr {
                Expr::Token(text, position) => {
                    let bad = terminal::bad_literal_chars(text);
                    if bad.is_empty() {
                        continue;
                    }
                    let escapes: Vec<String> = bad
                        .iter()
                        .map(|&c| format!("`{}` for `{}`", terminal::escape(c), c.escape_debug()))
                        .collect();
                    problems.push(Diagnostic {
                        file: file.to_string(),
                        position: *position,
                        message: format!(
                            "rule `{}` has a string literal holding characters outside \
                             printable ASCII, which SMT-LIB string literals cannot hold and \
                             solvers read differently; write {}",
                            rule.name,
                            escapes.join(", ")
                        ),
                    });
                }
                Expr::Ref(..) => {}
                Expr::Seq(parts) | Expr::Choice(parts, _) => stack.extend(parts.iter().rev()),
                Expr::Repeat { expr, .. } => stack.push(expr),
            }
        }
    }
    problems
}

/// The text of the formula that the chosen alternatives derive from `start`, cut at
/// [`EXAMPLE_LENGTH`] (the derivation may be exponentially long).
fn example(
    tokens: &[String],
    nonterminals: &[Nonterminal],
    witness: &[Option<usize>],
    start: NtId,
) -> String {
    let mut out = String::new();
    let mut stack = vec![Item::Child(start)];
    let mut steps = 0;
    while let Some(item) = stack.pop() {
        steps += 1;
        if out.len() > EXAMPLE_LENGTH || steps > 100 * EXAMPLE_LENGTH {
            let mut cut = EXAMPLE_LENGTH.min(out.len());
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
            break;
        }
        match item {
            Item::Token(t) => {
                let text = tokens[t].as_str();
                if !out.is_empty() && !out.ends_with('(') && !text.starts_with(')') {
                    out.push(' ');
                }
                out.push_str(text);
            }
            Item::Child(c) => {
                let alt = &nonterminals[c].alternatives[witness[c].expect("derivable")];
                stack.extend(alt.items.iter().rev());
            }
        }
    }
    out
}

pub(crate) fn reachable(nonterminals: &[Nonterminal], start: NtId) -> Vec<bool> {
    let mut seen = vec![false; nonterminals.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(id) = stack.pop() {
        for alt in &nonterminals[id].alternatives {
            for c in alt.children() {
                if !seen[c] {
                    seen[c] = true;
                    stack.push(c);
                }
            }
        }
    }
    seen
}

/// The edges along which a rule's part n depends on another rule's part n: children
/// of cost-0 alternatives.
pub fn zero_cost_edges(nonterminals: &[Nonterminal]) -> Vec<Vec<NtId>> {
    nonterminals
        .iter()
        .map(|nt| {
            let mut next: Vec<NtId> = nt
                .alternatives
                .iter()
                .filter(|a| a.cost == 0)
                .flat_map(|a| a.items.iter())
                .filter_map(|i| match i {
                    Item::Child(c) => Some(*c),
                    Item::Token(_) => None,
                })
                .collect();
            next.sort_unstable();
            next.dedup();
            next
        })
        .collect()
}

/// One cycle per strongly connected component of the zero-cost graph that has one.
fn zero_cost_cycles(nonterminals: &[Nonterminal]) -> Vec<Vec<NtId>> {
    let edges = zero_cost_edges(nonterminals);
    let mut cycles: Vec<Vec<NtId>> = strongly_connected(&edges, 0..nonterminals.len())
        .into_iter()
        .filter(|c| c.len() > 1 || edges[c[0]].contains(&c[0]))
        .collect();
    cycles.sort();
    cycles
}

/// The strongly connected components of the graph `edges` reachable from `roots`, each
/// sorted, a component after every component it reaches (Tarjan's algorithm, iterative
/// so deep grammars cannot overflow the stack).
pub(crate) fn strongly_connected(
    edges: &[Vec<NtId>],
    roots: impl Iterator<Item = NtId>,
) -> Vec<Vec<NtId>> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut out = Vec::new();
    for root in roots {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(NtId, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == usize::MAX {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                out.push(component);
            }
        }
    }
    out
}
