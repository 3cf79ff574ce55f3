#!/usr/bin/env bash
# The evolution study of results/evolution/: every z3 and cvc5 release that installs from
# PyPI, plus Debian's z3 4.8.12, cvc4 1.8 and cvc5 1.0.3, on the first N formulas of each
# of ET's eight grammars (the runs in runs/<grammar>/); then its tables (report.txt,
# tables/*.csv, by CPU and by wall-clock time), figures (figures/*.svg) and et's own
# check of the invalid-model triggers (model-recheck.csv). Resumable: run it again after
# an interruption and it goes on where it stopped (a finished grammar has runs.csv.gz).
#
#   scripts/evolution.sh                         # install the pool, run, report, plot
#   N=1000 CPU_TIMEOUT=8 scripts/evolution.sh    # the published study's size
#   ET=path/to/et OUT=dir scripts/evolution.sh
#   REPORT_ONLY=1 scripts/evolution.sh           # tables, figures and correctness.md
#                                                # again from the committed runs and
#                                                # model-recheck.csv (no solver needed)
#
# Times: each call is limited to CPU_TIMEOUT seconds of CPU time (what decides, and what
# the tables and figures read: CPU time barely moves with the machine's load) and to
# TIMEOUT seconds of wall-clock time (a safety net well above it).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
et=${ET:-$repo/target/release/et}
out=${OUT:-$repo/results/evolution}
# Formulas per grammar: the committed study's sizes (what fitted in about two hours of a
# 2-core machine: bitvectors and fp formulas are the costliest), or N for every grammar
# (fp: N/2).
declare -A size=([core]=500 [ints]=500 [reals]=500 [realints]=500 [bitvectors]=350
                 [arrays]=500 [strings]=500 [fp]=250)
if [[ -n ${N:-} ]]; then
  for g in "${!size[@]}"; do size[$g]=$N; done
  size[fp]=$((N / 2))
fi
cpu=${CPU_TIMEOUT:-2}   # seconds of CPU per call: the timeout that decides
wall=${TIMEOUT:-10}     # wall-clock safety net, well above the CPU limit
jobs=${JOBS:-2}
grammars=(core ints reals realints bitvectors arrays strings fp)
export ET_HOME="${ET_HOME:-$HOME/.local/share/et}"
mkdir -p "$out/runs"
# Idempotent: only what is missing is downloaded. The pool is copied into the study, so
# the study names exactly the solvers (and options) it ran.
if [[ -z ${REPORT_ONLY:-} ]]; then
"$et" solvers install z3@all cvc5@all debian >&2
# The copy names each program by its absolute path (et writes the programs it
# installs relative to the pool file, which would point into $out).
[[ -f $out/pool.toml ]] || { "$et" solvers convert "$ET_HOME/pool.toml" > "$out/pool.toml.tmp" \
  && mv "$out/pool.toml.tmp" "$out/pool.toml"; }
for g in "${grammars[@]}"; do
  dir="$out/runs/$g"
  if [[ -f $dir/runs.csv.gz ]]; then continue; fi
  resume=(); [[ -f $dir/run.toml ]] && resume=(--resume)
  # One process per call, as the published study ran them (its times are compared).
  "$et" run --grammar "$g" --n "${size[$g]}" --timeout "$wall" --cpu-timeout "$cpu" --jobs "$jobs" \
    --mode fresh --pool "$out/pool.toml" --out "$dir" "${resume[@]}" --quiet
  gzip -9 "$dir/runs.csv"
done
fi
# Timeouts up to the CPU limit: "solved within T" is only measured up to it.
timeouts=1/64,1/32,1/16,1/8,1/4,1/2,1,2
for t in 4 8; do (( t <= cpu )) && timeouts+=",$t"; done
cd "$out"
runs=("${grammars[@]/#/runs/}")
"$et" report "${runs[@]}" --clock cpu --timeouts "$timeouts" --csv tables > report.txt
# The same by wall-clock time, to show how much the two clocks differ on a loaded machine.
"$et" report "${runs[@]}" --clock wall --timeouts "$timeouts" --csv tables-wall > report-wall.txt
"$et" plot "${runs[@]}" --clock cpu --timeouts "$timeouts" --out figures --format svg
# et's own model check on the study's invalid-model triggers (found by the solvers'
# self-checks when the study ran): each trigger is re-run with (get-model) by the
# solver that failed it and its model evaluated by `et eval` — true: the model satisfies
# the formula (a false alarm of the self-check), false: a wrong model, undetermined.
if [[ -z ${REPORT_ONLY:-} ]]; then
echo "grammar,index,solver,model_check" > model-recheck.csv
for log in runs/*/bugs/invalid_model/*.log; do
  [[ -e $log ]] || continue
  formula=${log%.log}.smt2
  solver=$(sed -n 's/^== solver: \([^ ]*\) .*/\1/p' "$log" | head -1)
  program=$(sed -n 's/^command: \([^ ]*\) .*/\1/p' "$log" | head -1)
  index=$(sed -n 's/^index: //p' "$log" | head -1)
  asked=$(mktemp --suffix=.smt2) answer=$(mktemp)
  { cat "$formula"; echo "(get-model)"; } > "$asked"
  case $solver in z3*) options=() ;; *) options=(--produce-models) ;; esac
  "$program" "${options[@]}" "$asked" > "$answer" 2>&1 || true
  rc=0; "$et" eval "$formula" --model "$answer" --solver "$solver" > /dev/null 2>&1 || rc=$?
  rm -f "$asked" "$answer"
  case $rc in 0) check=valid ;; 3) check=invalid ;; 4) check=undetermined ;; *) check=error ;; esac
  grammar=${log#runs/}; grammar=${grammar%%/*}
  echo "$grammar,$index,$solver,$check" >> model-recheck.csv
done
fi
# The correctness table of README.md (the shape of the published Figure 7.10): one row per
# release with a bug trigger, one column per grammar, cells unsound / invalid model /
# crash / validator false alarm. The study's rows predate et's model check in the
# campaign, so its self-check triggers are split by model-recheck.csv: a model et's
# evaluation finds valid is a false alarm of the solver's validator, not an invalid model.
awk -F, -v order="${grammars[*]}" '
  FNR == 1 { next }
  FILENAME == "model-recheck.csv" { if ($4 == "valid") alarms[$3, $1]++; next }
  {
    alarm = alarms[$1, $2] + $NF
    cell[$1, $2] = $4 "/" ($5 - alarms[$1, $2]) "/" $6 "/" alarm
    total[$1] += $7 + $NF
    if (!($1 in seen)) { seen[$1]; solvers[++n] = $1 }
  }
  END {
    ng = split(order, g, " ")
    line = "| release |"; sep = "|---|"
    for (i = 1; i <= ng; i++) { line = line " " g[i] " |"; sep = sep "---|" }
    print line; print sep
    for (s = 1; s <= n; s++) {
      if (total[solvers[s]] == 0) continue
      line = "| " solvers[s] " |"
      for (i = 1; i <= ng; i++) {
        c = cell[solvers[s], g[i]]
        line = line " " ((c == "" || c == "0/0/0/0") ? "·" : c) " |"
      }
      print line
    }
  }' model-recheck.csv tables/bugs.csv > correctness.md
