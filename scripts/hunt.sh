#!/usr/bin/env bash
# The bug hunt of results/hunt/: the newest releases (z3, cvc5, yices, bitwuzla on the
# grammars it takes) and the previous z3 minor release as a regression witness, on the
# smallest formulas of ET's eight grammars, far beyond the evolution study: 10^5
# formulas per grammar (3*10^4 for reals, realints, bitvectors and fp, where timeouts
# cost most). Sessions (et's default mode), every finding confirmed in a fresh process.
#
# It goes in steps that each finish: every grammar is split into SHARDS interleaved
# shards (`et run --shard k/K`), one run directory each under shards/<grammar>/. A
# finished shard has runs.csv.gz and can be committed; an interrupted one is resumed
# (`--resume`) by the next invocation, on this machine or another. When all shards of
# a grammar are done they are merged into runs/<grammar>/ (`et merge`), and the shards
# are removed. Run it again and again until it says the hunt is complete.
#
#   scripts/hunt.sh                      # go on with the hunt
#   HUNT=past-et scripts/hunt.sh         # the third hunt: the grammars past ET's, into results/hunt-past-et
#   STEPS=3 scripts/hunt.sh              # at most three steps (a shard, a grammar's triage), then stop
#   ONLY=core scripts/hunt.sh            # one grammar
#   JOIN_ONLY=1 scripts/hunt.sh          # only the joined triage tables (triage/groups.md)
#   ET=path/to/et ET_BUILD=1a2b3c4 OUT=dir scripts/hunt.sh
#
# ET_BUILD names the commit the et binary was built from, for shards/<grammar>/times.txt
# (default: the repository's HEAD, which is right when ET is not set: the repository's
# own build).
#
# Times: each call is limited to CPU_TIMEOUT seconds of CPU time (2, as the study) and
# TIMEOUT seconds of wall-clock time (a safety net well above it).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
et=${ET:-$repo/target/release/et}
build=${ET_BUILD:-$(git -C "$repo" rev-parse --short HEAD)}
# Which hunt: ET's eight grammars (results/hunt), or the thirteen past ET's (HUNT=past-et:
# quantifiers, uninterpreted functions, conversions between theories, datatypes; 10^5
# formulas each, 3*10^4 for fp-reals and quantifiers-strings, whose calls cost most).
# triage_steps is the order of the triage steps, cheapest first (a step of two grammars
# joined by `+` triages both run directories together).
case ${HUNT:-et} in
  et)
    out=${OUT:-$repo/results/hunt}
    declare -A size=([core]=100000 [ints]=100000 [arrays]=100000 [strings]=100000
                     [reals]=30000 [realints]=30000 [bitvectors]=30000 [fp]=30000)
    all_grammars=(core ints reals realints bitvectors arrays strings fp)
    triage_steps=(core arrays ints bitvectors reals+realints strings fp) ;;
  past-et)
    out=${OUT:-$repo/results/hunt-past-et}
    declare -A size=([quantifiers-bitvectors]=100000 [quantifiers-ints]=100000
                     [uf-ints]=100000 [bv-ints]=100000 [datatypes]=100000
                     [strings-ints]=100000 [uf-bitvectors]=100000 [arrays-uf]=100000
                     [quantifiers-reals]=100000 [quantifiers-bv64]=100000
                     [quantifiers-bv1]=100000
                     [fp-reals]=30000 [quantifiers-strings]=30000)
    # Where the soundness bugs of the trackers are first (quantifiers, functions,
    # conversions), so that a hunt stopped early has searched there.
    all_grammars=(quantifiers-bitvectors quantifiers-ints uf-ints bv-ints datatypes
                  strings-ints uf-bitvectors arrays-uf quantifiers-reals quantifiers-bv64
                  quantifiers-bv1 fp-reals quantifiers-strings)
    triage_steps=("${all_grammars[@]}") ;;
  *) echo "hunt: HUNT=${HUNT}: expected et or past-et" >&2; exit 2 ;;
esac
shards=${SHARDS:-10}
cpu=${CPU_TIMEOUT:-2}
wall=${TIMEOUT:-10}
jobs=${JOBS:-2}
steps=${STEPS:-1000000}
grammars=("${all_grammars[@]}")
[[ -n ${ONLY:-} ]] && grammars=("$ONLY")

z3_newest=z3-5.4.1
z3_previous=z3-5.3.3   # the newest release of the previous minor: a regression witness
cvc5=cvc5-1.4.2
yices=yices-2.6.5
bitwuzla=bitwuzla-0.9.1
# The solvers of each grammar. ET's hunt named them (yices has no strings and no
# floating point; bitwuzla takes bit-vectors, arrays, floating point and the core).
# The hunt past ET's gives every family and lets et leave out those whose family does
# not take the grammar's logic (run.toml lists them under outside_logic).
solvers_of() {
  local list="$z3_newest,$z3_previous,$cvc5"
  if [[ ${HUNT:-et} == past-et ]]; then
    echo "$list,$yices,$bitwuzla"
    return
  fi
  case $1 in strings|fp) ;; *) list+=",$yices" ;; esac
  case $1 in core|bitvectors|arrays|fp) list+=",$bitwuzla" ;; esac
  echo "$list"
}

export ET_HOME="${ET_HOME:-$HOME/.local/share/et}"
mkdir -p "$out"
# Idempotent: only what is missing is downloaded. The pool is copied into the hunt, so
# the hunt names exactly the solvers (and options) it ran.
"$et" solvers install "${z3_newest/-/@}" "${z3_previous/-/@}" "${cvc5/-/@}" \
  "${yices/-/@}" "${bitwuzla/-/@}" >&2
# The copy names each program by its absolute path (et writes the programs it
# installs relative to the pool file, which would point into $out).
[[ -f $out/pool.toml ]] || { "$et" solvers convert "$ET_HOME/pool.toml" > "$out/pool.toml.tmp" \
  && mv "$out/pool.toml.tmp" "$out/pool.toml"; }

# progress.md: per grammar, what is done so far, from the committed rows and shard times
# (made by this script on every invocation; never edited by hand).
progress() {
  {
    echo "# Hunt progress"
    echo
    echo "Made by \`scripts/hunt.sh\` from the finished shards' rows and times, $(date -u +%Y-%m-%d)."
    echo
    echo "| grammar | shards done | formulas | calls | wall time | calls/s | verdicts (solver: count) |"
    echo "|---|---|---|---|---|---|---|"
    local g
    for g in "${all_grammars[@]}"; do
      local files=() times=()
      if [[ -f $out/runs/$g/runs.csv.gz ]]; then
        files=("$out/runs/$g/runs.csv.gz"); times=("$out/runs/$g/shard-times.txt")
      elif [[ -d $out/shards/$g ]]; then
        files=("$out/shards/$g"/*/runs.csv.gz); times=("$out/shards/$g/times.txt")
      fi
      [[ -e ${files[0]:-} ]] || continue
      local done seconds
      done=$(grep -c . "${times[0]}" 2> /dev/null || echo 0)
      seconds=$(awk '{ s += $4 } END { print s + 0 }' "${times[0]}" 2> /dev/null || echo 0)
      zcat "${files[@]}" | awk -F, -v g="$g" -v done="$done" -v k="$shards" -v s="$seconds" '
        $1 == "grammar" { next }
        { calls++; formula[$2] = 1; if ($8 != "") verdicts[$4 ": " $8]++ }
        END {
          n = 0; for (f in formula) n++
          v = ""; for (x in verdicts) v = v (v == "" ? "" : ", ") x " " verdicts[x]
          printf "| %s | %s of %s | %d | %d | %d s | %.0f | %s |\n", g, done, k, n, calls, s,
            (s > 0 ? calls / s : 0), (v == "" ? "none" : v)
        }'
    done
  } > "$out/progress.md"
}
trap progress EXIT

done_steps=0
for g in "${grammars[@]}"; do
  merged="$out/runs/$g"
  [[ -f $merged/runs.csv.gz ]] && continue
  for ((k = 1; k <= shards; k++)); do
    dir="$out/shards/$g/$k-of-$shards"
    [[ -f $dir/runs.csv.gz ]] && continue
    if ((done_steps >= steps)); then
      echo "hunt: stopped after $steps shard(s); run it again to go on" >&2
      exit 0
    fi
    resume=(); [[ -f $dir/run.toml ]] && resume=(--resume)
    mkdir -p "$(dirname "$dir")"
    start=$(date +%s)
    # z3 (4.8.5 to 5.4.1) crashes in a session on a formula with `match` after a
    # formula with `match` and `(reset)`: every such session call would be a crash
    # confirmed away in a fresh process. datatypes runs fresh.
    mode=(); [[ $g == datatypes* ]] && mode=(--mode fresh)
    "$et" run --grammar "$g" --n "${size[$g]}" --shard "$k/$shards" "${mode[@]}" \
      --timeout "$wall" --cpu-timeout "$cpu" --jobs "$jobs" \
      --pool "$out/pool.toml" --solvers "$(solvers_of "$g")" \
      --out "$dir" "${resume[@]}" > "$dir.summary.txt" 2> /dev/null
    gzip -9 "$dir/runs.csv" "$dir/reference.csv"
    mv "$dir.summary.txt" "$dir/summary.txt"
    echo "$g shard $k/$shards: $(($(date +%s) - start)) s, et built at $build" |
      tee -a "$out/shards/$g/times.txt" >&2
    done_steps=$((done_steps + 1))
  done
  all=("$out/shards/$g"/*-of-"$shards")
  "$et" merge "${all[@]}" --out "$merged" --gzip
  cp "$out/shards/$g/times.txt" "$merged/shard-times.txt"
  for d in "${all[@]}"; do cat "$d/summary.txt"; done > "$merged/shard-summaries.txt"
  rm -rf "$out/shards/$g"
done
rmdir "$out/shards" 2> /dev/null || true
for g in "${all_grammars[@]}"; do
  if [[ ! -f $out/runs/$g/runs.csv.gz ]]; then
    echo "hunt: the grammars asked for are complete; run it again without ONLY for the rest" >&2
    exit 0
  fi
done

# Every grammar is done: tables, then the triage, a grammar at a time (each finishes
# and can be committed; an interrupted one starts again). Triage re-runs each
# correctness trigger in fresh processes and the 3 smallest performance triggers of
# each candidate group at 4x the limit (the others keep the hunt's own observation,
# made in a fresh process), and ranges the smallest formula of each candidate group
# across every installable release of its family, so those are installed. One formula
# a group, not three: most of the hunt's findings are timeouts, each ranged call of one
# costs up to the 2 s limit, and there are 49 z3 releases: with three formulas a group,
# the steps of reals and realints alone would take about an hour each (counted from
# their candidate groups). It shrinks nothing: the hunt ran every
# formula smaller than a trigger (enumeration order), so a group's smallest trigger is
# the smallest formula of its grammar that shows the bug. The grammars go cheapest
# first, so that a session that ends early has the correctness findings triaged.
# reals and realints are one step: the two grammars print many formulas alike, and
# triaged together the same formula is one group (one report), not one per grammar.
cd "$out"
# The groups of every grammar triaged so far in one table (ranked within their grammar;
# the grammar column names it), and the reports to file where the hunt's readers look
# for them: made again after every triage step, so that what a session leaves is
# usable before the last grammar is triaged.
join_triage() {
  local triaged=() g
  for g in "${triage_steps[@]}"; do
    [[ -f triage/$g/groups.csv ]] && triaged+=("$g")
  done
  ((${#triaged[@]} > 0)) || return 0
  {
    head -n 1 "triage/${triaged[0]}/groups.csv"
    for g in "${triaged[@]}"; do
      tail -n +2 "triage/$g/groups.csv"
    done
  } > triage/groups.csv
  # The same as a Markdown table, for the hunt's README to point at.
  python3 - triage/groups.csv "${triaged[*]}" "${triage_steps[*]}" > triage/groups.md << 'PY'
import csv, glob, os, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
triaged = sys.argv[2].split()
untriaged = [g for g in sys.argv[3].split() if g not in triaged]
print("# Bug groups of the hunt\n")
print("Made by `scripts/hunt.sh` from `triage/groups.csv` (ranks are per grammar; "
      "`triage/<grammar>/report.md` has each group's section). Grammars triaged: "
      + ", ".join(triaged) + (("; not yet: " + ", ".join(untriaged)) if untriaged else "")
      + ".\n")
print("| grammar | rank | root cause | verdict | family | first–last affected | operators or crash "
      "| regression (median CPU s) | known upstream | newest release answers | report "
      "| formulas | confirmed / flaky / not re-run | smallest (index, size, solver) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    versions = r["first_version"] if r["first_version"] == r["last_version"] \
        else f"{r['first_version']}–{r['last_version']}"
    what = r["crash_signature"] or r["operators"]
    # Columns a triage made before they existed are empty.
    get = lambda k: r.get(k) or ""
    report = "yes" if get("reported") == "true" else ("" if get("reported") == "" else "no")
    if report == "yes":
        # The report's file, as copied to bugs/: `<rank>-<solver>-<kind>-<grammar>.md`.
        files = glob.glob(f"triage/*/bugs/{r['rank']}-*-{r['grammar']}.md")
        # Linked in its triage folder; results/bugs/ has what is filed, joined.
        if len(files) == 1:
            name = os.path.basename(files[0])
            report = f"[`{name}`]({os.path.relpath(files[0], 'triage')})"

    print(f"| {r['grammar']} | {r['rank']} | {get('root_cause') or r['kind']} | {r['verdict']} "
          f"| {r['family']} | {versions} | `{what}` | {get('regression')} | {get('known') or 'new'} "
          f"| {get('newest_answer')} | {report} | {r['formulas']} "
          f"| {r['confirmed']} / {r['flaky']} / {r['not_rerun']} | {r['index']}, {r['size']}, {r['solver']} |")
PY
  # The limitations (an `unknown` every installed release gives) of every grammar in
  # one file: listed, not filed.
  {
    echo "# Limitations found by the hunt"
    echo
    echo "Made by \`scripts/hunt.sh\` from each grammar's \`triage/<grammar>/limitations.md\`."
    for g in "${triaged[@]}"; do
      echo
      echo "## $g"
      if [[ -f triage/$g/limitations.md ]]; then
        tail -n +2 "triage/$g/limitations.md"
      else
        echo
        echo "(triaged by an et that did not list limitations yet)"
      fi
    done
  } > limitations.md
  # The reports to file are not copied here: one root cause can show in several
  # grammars and in the configuration hunt too; scripts/file-reports.sh joins them
  # (`et file`) into results/bugs/.
  rm -rf bugs
  return 0
}
# JOIN_ONLY=1: the joined tables again from the committed triages, nothing run.
if [[ -n ${JOIN_ONLY:-} ]]; then
  join_triage
  exit 0
fi
# The development head, where its source is at hand (yices2's: build it as its README
# says, then YICES_HEAD=path/to/yices_smt2 YICES_HEAD_COMMIT=84efa927): added to the
# pool under a name that carries its commit, so that triage runs every finding of the
# family on it too and the reports' release tables say what the head answers.
if [[ -n ${YICES_HEAD:-} ]]; then
  head_name=yices-head-${YICES_HEAD_COMMIT:?YICES_HEAD_COMMIT: the commit the head was built from}
  "$et" solvers list | awk '{ print $1 }' | grep -qx "$head_name" ||
    "$et" solvers add "$YICES_HEAD" --family yices --name "$head_name" >&2
fi
runs=()
for g in "${all_grammars[@]}"; do runs+=("runs/$g"); done
"$et" report "${runs[@]}" --clock cpu --timeouts 1/64,1/16,1/4,1,2 --csv tables > report.txt
"$et" solvers install z3@all cvc5@all yices@all bitwuzla@all >&2
mkdir -p triage
for g in "${triage_steps[@]}"; do
  [[ -f triage/$g/groups.csv ]] && continue
  if ((done_steps >= steps)); then
    join_triage
    echo "hunt: stopped after $steps step(s); run it again to go on" >&2
    exit 0
  fi
  start=$(date +%s)
  step_runs=()
  for part in ${g//+/ }; do step_runs+=("runs/$part"); done
  # A grammar's triage can take longer than a session: its solver calls go to a
  # journal as they finish, and a step stopped part-way goes on from it. The journal
  # stays on the machine (not committed: it names this machine's solver paths), so
  # that a grammar triaged again (its triage/<grammar> removed) replays the calls the
  # earlier triage made and makes only the new ones; times.txt says so.
  journal=triage/.journal-$g.csv
  went_on=""
  if [[ -s $journal ]]; then
    went_on=" in this run, which replayed the journal of an earlier or stopped run of this step (whose time is not counted here; report.md says how many calls the journal answered)"
  fi
  "$et" triage "${step_runs[@]}" --pool "$ET_HOME/pool.toml" --jobs "$jobs" \
    --confirm 3 --ranged 1 --out "triage/$g" --journal "$journal"
  echo "$g triage: $(($(date +%s) - start)) s$went_on, et built at $build" | tee -a triage/times.txt >&2
  join_triage
  done_steps=$((done_steps + 1))
done
join_triage
echo "hunt: complete; see $out/report.txt and $out/triage/<grammar>/report.md; scripts/file-reports.sh joins the reports to file of both hunts into results/bugs/" >&2
