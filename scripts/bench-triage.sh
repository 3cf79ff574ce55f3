#!/usr/bin/env bash
# Cost of `et triage` beyond the solver calls it needs: a synthetic run directory of
# 100,000 calls (ints indices 0..49,999 × z3 4.8.7 and cvc5) with
#   A. no trigger: everything triage does besides re-running (read, group, write);
#   B. 20 real invalid-model triggers of z3 4.8.7 among the 100,000 rows;
#   C. the same 20 triggers as a 20-row directory.
# B − C is what the 99,980 other rows cost. Best of 3 runs each, wall seconds.
# Uses the test pool (.cache/et-home: z3 4.8.5, 4.8.7, 4.8.8, 4.16.0, cvc5).
set -euo pipefail
cd "$(dirname "$0")/.."
export ET_HOME="${ET_HOME:-$PWD/.cache/et-home}"
cargo build --release --quiet
et=$PWD/target/release/et
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The pool with its programs resolved (et writes installed programs relative to it).
pool="$work/pool.toml"
"$et" solvers convert "$ET_HOME/pool.toml" > "$pool"
z3=$(grep -A3 'name = "z3-4.8.7"' "$pool" | awk -F'= ' '/^command/{print $2}')
"$et" enumerate -g ints --n 50000 | "$et" rank -g ints > "$work/sizes.tsv"
triggers="300 302 303 304 308 310 311 312 314 315 316 318 319 320 324 326 327 328 330 331"
make_dir() { # make_dir NAME ROWS(all|triggers) TRIGGERS(yes|no)
  local dir="$work/$1"
  mkdir -p "$dir"
  cat > "$dir/run.toml" <<TOML
et_version = "0.1.0"
grammar = "ints"
start = "0"
n = 50000
timeout_s = 10.0

[[solvers]]
name = "z3-4.8.7"
family = "z3"
version = "4.8.7"
command = $z3
TOML
  python3 - "$work/sizes.tsv" "$dir/runs.csv" "$2" "$3" $triggers <<'PY'
import sys
sizes, out, rows, with_triggers, *triggers = sys.argv[1:]
triggers = set(triggers) if with_triggers == "yes" else set()
with open(out, "w") as f:
    f.write("grammar,index,size,solver,family,version,status,verdict,reference,"
            "reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal\n")
    for line in open(sizes):
        index, size = line.split()
        if rows == "triggers" and index not in triggers:
            continue
        verdict, exit_code = ("invalid_model", 1) if index in triggers else ("", 0)
        f.write(f"ints,{index},{size},z3-4.8.7,z3,4.8.7,sat,{verdict},cvc5-1.4.2,sat,"
                f"0.02,0.02,20000,{exit_code},\n")
        if rows == "all":
            f.write(f"ints,{index},{size},cvc5-1.4.2,cvc5,1.4.2,sat,,z3-4.16.0,sat,"
                    f"0.03,0.03,30000,0,\n")
PY
}
make_dir none all no
make_dir many all yes
make_dir few triggers yes
TIMEFORMAT=%R
for case in none many few; do
  times=$(for i in 1 2 3; do
    { time "$et" triage "$work/$case" --pool "$pool" --jobs 2 -q > /dev/null; } 2>&1
  done)
  best=$(echo "$times" | sort -g | head -1)
  rows=$(($(wc -l < "$work/$case/runs.csv") - 1))
  groups=$(($(wc -l < "$work/$case/triage/groups.csv") - 1))
  printf '%-5s %6d rows: %6.2f s  (%d groups)\n' "$case" "$rows" "$best" "$groups"
done
