#!/usr/bin/env bash
# The configuration hunt of results/hunt-configurations/: the newest z3 and cvc5 in their
# default modes and in option configurations, on ET's eight grammars extended to five
# variables and two asserts (`<theory>-5v2a`, the grammars of ET's own bug hunt).
#
# Two kinds of runs, each a step that finishes (and can be committed) per grammar:
#  1. curated: z3 5.4.1 and cvc5 1.4.2 with every curated mode of their families (z3's
#     new core, arithmetic solvers, z3str3, the rewriter options ET tried; cvc5's string
#     and nonlinear options), on the first N formulas of the grammar (N below; fewer
#     where timeouts dominate);
#  2. single: every single-option configuration of both (z3 5.4.1: 968, cvc5 1.4.2:
#     528, the curated ones aside) that acts on the grammar's theories (et run leaves
#     out, and lists in run.toml, those whose option acts only on theories the
#     grammar's logic lacks) on the first SINGLE_N formulas: every option at least
#     once on every grammar it acts on, within a budget of machine time.
# Each configuration is judged first by its solver in default mode (a same-release
# differential), then by the other family and et's own oracles, as in any campaign.
# The steps go a grammar at a time: its single-option run, the triage of the finished
# runs (`et triage`, which reduces each reported configuration finding to the options
# it needs), its curated run, then the triage again over both; a triage made again
# over more runs replays the calls of the earlier one from the step's journal, and its
# report replaces the earlier one. reals and realints are triaged together
# (triage/reals+realints/), as in scripts/hunt.sh. (The first sessions ran every
# curated run first and triaged each alone; fp's curated run, the dearest — z3 times
# out on a quarter of its larger formulas —, was then part-way, and is resumed after
# fp's single-option run and its triage.)
#
# Every run is resumed where it stopped (`et run --resume`), on this machine or
# another; a finished one is marked `done` beside its run.toml. Run it again and again
# until it says the hunt is complete.
#
#   scripts/hunt-configurations.sh                 # go on
#   STEPS=2 scripts/hunt-configurations.sh         # at most two steps, then stop
#   ONLY=ints scripts/hunt-configurations.sh       # one grammar (ints-5v2a)
#   ET=path/to/et ET_BUILD=1a2b3c4 OUT=dir scripts/hunt-configurations.sh
#   CHECKPOINT=1 scripts/hunt-configurations.sh    # compress a stopped run, to commit
#
# A step can outlast a session on a machine that is then replaced. Stop the run (kill
# et: what it finished is on disk), then `CHECKPOINT=1` compresses the unfinished run's
# tables beside the plain ones (`*.csv.gz`, which git keeps; its `done` is not there,
# so nothing counts it as finished); commit them. On a fresh clone the script
# decompresses them and resumes that run where it stopped.
#
# Times: each call is limited to CPU_TIMEOUT seconds of CPU time (2, as the hunt) and
# TIMEOUT seconds of wall-clock time (a safety net well above it).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
et=${ET:-$repo/target/release/et}
build=${ET_BUILD:-$(git -C "$repo" rev-parse --short HEAD)}
out=${OUT:-$repo/results/hunt-configurations}
# Formulas of the curated runs: 10^4 where a call is cheap, fewer where timeouts
# dominate (reals, realints, strings, fp took most of the hunt's time per formula;
# bitvectors-5v2a's 64-bit divisions time out so often that its calls cost about 20
# times core's — 3,000 formulas took 2,153 s with 2 jobs —, so 10^4 formulas would
# take one core some 4 hours).
declare -A size=([core]=10000 [ints]=10000 [arrays]=10000 [bitvectors]=3000
                 [reals]=3000 [realints]=3000 [strings]=3000 [fp]=3000)
single_n=${SINGLE_N:-100}
cpu=${CPU_TIMEOUT:-2}
wall=${TIMEOUT:-10}
jobs=${JOBS:-2}
steps=${STEPS:-1000000}
grammars=(core ints arrays bitvectors reals realints strings fp)
[[ -n ${ONLY:-} ]] && grammars=("$ONLY")
z3=z3-5.4.1
cvc5=cvc5-1.4.2

export ET_HOME="${ET_HOME:-$HOME/.local/share/et}"
mkdir -p "$out"
"$et" solvers install "${z3/-/@}" "${cvc5/-/@}" >&2
# The copy names each program by its absolute path (et writes the programs it
# installs relative to the pool file, which would point into $out).
[[ -f $out/pool.toml ]] || { "$et" solvers convert "$ET_HOME/pool.toml" > "$out/pool.toml.tmp" \
  && mv "$out/pool.toml.tmp" "$out/pool.toml"; }

# progress.md: per finished run, its configurations, formulas, calls and time, and the
# findings of each configuration that has any (made from the committed rows, run.toml
# and times.txt on every invocation; never edited by hand).
progress() {
  python3 - "$out" > "$out/progress.md" << 'PY'
import csv, gzip, os, sys, tomllib
from collections import Counter, defaultdict
out = sys.argv[1]
times = {}
if os.path.exists(f"{out}/times.txt"):
    for line in open(f"{out}/times.txt"):
        kind, g, rest = line.split(" ", 2)
        if kind in ("curated", "single"):
            times[(kind, g.rstrip(":").removesuffix("-5v2a"))] = rest.split(",")[1].strip()
print("# Configuration hunt progress\n")
print("Made by `scripts/hunt-configurations.sh` from the finished runs' rows, run.toml and times.txt.\n")
print("| run | grammar | solvers run (default modes and configurations) | configurations refused | configurations acting only on theories the grammar lacks (not run) | formulas | calls | wall time | findings |")
print("|---|---|---|---|---|---|---|---|---|")
# By mode — (the release in its default mode, its options; "" for the default mode):
# a configuration's name is its place in its run's enumeration, which differs between
# runs, so names are not keys — "grammar: verdict" -> count; for a configuration,
# split by whether its default mode (the pool solver it configures) shows the same
# verdict on the formula.
shared, own = defaultdict(Counter), defaultdict(Counter)
names = defaultdict(set)  # mode -> the names it had in the runs
silent = Counter()  # run kind -> configurations run that found nothing of their own
curated = set()  # the modes of the curated runs: listed whatever they found
for kind in ("curated", "single"):
    for g in ("core", "ints", "arrays", "bitvectors", "reals", "realints", "strings", "fp"):
        d = f"{out}/runs/{kind}/{g}"
        if not os.path.exists(f"{d}/done"):
            continue
        manifest = tomllib.load(open(f"{d}/run.toml", "rb"))
        refused = len(manifest.get("refused_configurations", []))
        inapplicable = len(manifest.get("inapplicable_configurations", []))
        base = {s["name"]: s["configuration_of"] for s in manifest["solvers"] if "configuration_of" in s}
        mode = {s["name"]: (s.get("configuration_of", s["name"]), " ".join(s.get("options", [])))
                for s in manifest["solvers"]}
        for name, m in mode.items():
            names[m].add(name)
        solvers, formulas, calls, found = set(), set(), 0, 0
        verdicts = {}
        if kind == "curated":
            curated |= set(mode.values())
        with gzip.open(f"{d}/runs.csv.gz", "rt", newline="") as f:
            for row in csv.DictReader(f):
                solvers.add(row["solver"])
                formulas.add(row["index"])
                calls += 1
                if row["verdict"]:
                    found += 1
                    verdicts[(row["solver"], row["index"])] = row["verdict"]
        with_own = set()
        for (solver, index), verdict in verdicts.items():
            key = f"{g}: {verdict}"
            of = base.get(solver)
            if of is not None and verdicts.get((of, index)) == verdict:
                shared[mode[solver]][key] += 1
            else:
                own[mode[solver]][key] += 1
                with_own.add(solver)  # (a default mode's findings are all its own)
        silent[kind] += len([s for s in solvers if s in base and s not in with_own])
        print(f"| {kind} | {g}-5v2a | {len(solvers)} | {refused} | {inapplicable} | {len(formulas)} | {calls} "
              f"| {times.get((kind, g), '?')} | {found} |")

def cells(counter):
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items()))

print("\n## Findings by configuration\n")
print("A configuration's finding is *its own* when its default mode (the same release "
      "without options, listed too) does not show the same verdict on the same formula; "
      "the others are the default mode's findings, seen again. A single-option "
      "configuration is listed only when it found something of its own.\n")
if not shared and not own:
    print("None so far.")
else:
    print("| release | options | named in the runs | its own findings (grammar: verdict count) | findings its default mode shows too |")
    print("|---|---|---|---|---|")
    for m in sorted(set(shared) | set(own)):
        if m not in curated and not own[m]:
            continue  # a single-option configuration that found nothing of its own
        release, opts = m
        named = ", ".join(sorted(names[m]))
        print(f"| {release} | {opts or 'default mode'} | {named} | {cells(own[m]) or '—'} | {cells(shared[m]) or '—'} |")
    for kind, n in sorted(silent.items()):
        print(f"\n{kind} runs: {n} configuration runs (configuration × grammar) found nothing of their own.")
PY
}
trap progress EXIT

# The unfinished runs: a run.toml and no `done`.
unfinished() {
  local toml
  for toml in "$out"/runs/*/*/run.toml; do
    [[ -f $toml && ! -f $(dirname "$toml")/done ]] && dirname "$toml"
  done
  return 0
}
if [[ -n ${CHECKPOINT:-} ]]; then
  trap - EXIT
  for dir in $(unfinished); do
    gzip -9kf "$dir"/*.csv
    echo "hunt-configurations: checkpointed $dir ($(zcat "$dir/runs.csv.gz" | tail -n +2 | wc -l) rows); commit its *.csv.gz" >&2
  done
  exit 0
fi
# A run checkpointed on another machine: its tables are only compressed here.
for dir in $(unfinished); do
  [[ -f $dir/runs.csv ]] && continue
  for gz in "$dir"/*.csv.gz; do
    [[ -f $gz ]] && gunzip -kf "$gz"
  done
done

done_steps=0
# One run: `run KIND GRAMMAR N CONFIGURATIONS`, resumed if started, skipped if done.
run() {
  local kind=$1 g=$2 n=$3 configurations=$4
  local dir=$out/runs/$kind/$g
  [[ -f $dir/done ]] && return 0
  if ((done_steps >= steps)); then
    echo "hunt-configurations: stopped after $steps step(s); run it again to go on" >&2
    exit 0
  fi
  mkdir -p "$(dirname "$dir")"
  local start resume=()
  start=$(date +%s)
  [[ -f $dir/run.toml ]] && resume=(--resume)
  "$et" run --grammar "$g-5v2a" --n "$n" --timeout "$wall" --cpu-timeout "$cpu" \
    --jobs "$jobs" --pool "$out/pool.toml" --solvers "$z3,$cvc5" \
    --configurations "$configurations" --out "$dir" "${resume[@]}" > "$dir.summary.txt" 2> /dev/null
  # A finished run's tables are compressed (every et command reads them so) and can be
  # committed; a run under way keeps its plain runs.csv, which git ignores.
  gzip -9f "$dir"/*.csv
  mv "$dir.summary.txt" "$dir/summary.txt"
  echo "$kind $g-5v2a: $n formulas, $(($(date +%s) - start)) s, et built at $build" |
    tee -a "$out/times.txt" >&2
  touch "$dir/done"
  done_steps=$((done_steps + 1))
}

# What one triage covers: a grammar, but reals and realints together (as in
# scripts/hunt.sh): the two grammars print many formulas alike, and one triage makes
# one report of a root cause both show.
unit_of() {
  case $1 in
    reals | realints) echo reals+realints ;;
    *) echo "$1" ;;
  esac
}

# Triage the finished runs of a unit's grammars, unless its triage already covers
# exactly them (triage/<unit>/runs.txt names the runs it covers).
installed_all=""
triage() {
  local unit=$1 g kind dirs=() covered=""
  for g in ${unit//+/ }; do
    for kind in curated single; do
      if [[ -f $out/runs/$kind/$g/done ]]; then
        dirs+=("$out/runs/$kind/$g")
        covered+="${covered:+ }$kind/$g"
      fi
    done
  done
  ((${#dirs[@]})) || return 0
  [[ -f $out/triage/$unit/runs.txt && $(< "$out/triage/$unit/runs.txt") == "$covered" ]] && return 0
  if ((done_steps >= steps)); then
    echo "hunt-configurations: stopped after $steps step(s); run it again to go on" >&2
    exit 0
  fi
  # The triage ranges each finding over every release of its family (--ranged), and
  # times regressions on them: all releases of both families, installed once.
  if [[ -z $installed_all ]]; then
    "$et" solvers install z3@all cvc5@all >&2
    installed_all=1
  fi
  mkdir -p "$out/triage"
  local start journal went_on=""
  start=$(date +%s)
  # As in scripts/hunt.sh: the step's solver calls go to a journal kept on this
  # machine, so that a triage stopped part-way, or made again over more runs or by a
  # newer et, replays the calls already made.
  journal=$out/triage/.journal-$unit.csv
  [[ -s $journal ]] && went_on=" in this run, which replayed the journal of an earlier or stopped run of this step (whose time is not counted here; report.md says how many calls the journal answered)"
  "$et" triage "${dirs[@]}" --pool "$ET_HOME/pool.toml" \
    --jobs "$jobs" --confirm 3 --ranged 1 --out "$out/triage/$unit" --journal "$journal"
  echo "$covered" > "$out/triage/$unit/runs.txt"
  # Triages of reals and realints apart, made before they were one unit, are replaced.
  if [[ $unit == *+* ]]; then
    for g in ${unit//+/ }; do rm -rf "${out:?}/triage/$g"; done
  fi
  echo "triage ${unit//+/-5v2a+}-5v2a ($covered): $(($(date +%s) - start)) s$went_on, et built at $build" |
    tee -a "$out/times.txt" >&2
  done_steps=$((done_steps + 1))
}

# A grammar at a time: its single-option run, its unit's triage over the finished
# runs, its curated run, then the triage again over both (made again from the journal:
# only the curated run's findings cost new calls). The single-option run goes first
# because it is the shorter (100 formulas), and its findings are then triaged while the
# curated run — fp's takes several sessions — is still under way. (The first seven
# grammars ran their curated runs first; for them the order changes nothing.)
for g in "${grammars[@]}"; do
  run single "$g" "$single_n" "$z3:single,$cvc5:single"
  triage "$(unit_of "$g")"
  run curated "$g" "${size[$g]}" "$z3:curated,$cvc5:curated"
  triage "$(unit_of "$g")"
done
echo "hunt-configurations: complete; see $out/triage/<grammar or reals+realints>/report.md" >&2
