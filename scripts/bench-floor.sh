#!/usr/bin/env bash
# How close a session campaign comes to what the solvers alone need, measured in one
# run: for each grammar and round,
#  - `et run --mode session -j 2 --audit 0 --timeout 10` on the N smallest formulas
#    with z3 4.16.0 and cvc5 1.4.2 of the test pool, its wall time;
#  - the floor: the two solvers, each run alone, one after the other, fed the same
#    formulas in one batch on standard input (the formula, the model request,
#    `(reset)`; the pool's options; cvc5 with `--incremental --dump-models`, which
#    prints each model itself), their CPU time (user + system) added and divided by
#    the 2 cores a campaign uses. A batch has no limit per formula, so a formula the
#    solver timed out on in et's run of the round is left out of its batch and counted
#    at the limit (10 s each: what it costs a campaign however it is run); the
#    `timeouts` column says how many (both solvers). Where timeouts dominate (fp), the
#    ratio says little about et and much about the limit;
#  - their ratio (1.00: et costs nothing beyond the solvers), with the load average
#    when the round started;
#  - for comparison, not part of the ratio: the same two batches run at the same
#    time, one per core, their CPU time added and divided by 2 (`together`): what the
#    two cores cost each other when both are busy, as they are in a campaign.
# It ends with each grammar's median ratio over the rounds: one pair is at the mercy
# of the host's noise.
#
# Usage: bench-floor.sh [N]        (N formulas per grammar, default 2000)
#   ROUNDS=R            rounds per grammar (default 3)
#   GRAMMARS="core ints strings bitvectors fp"   (default: core ints)
#   ET=path/to/et       an et binary (default: this repository's release build, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
export ET_HOME="${ET_HOME:-$PWD/.cache/et-home}"
if [[ -z ${ET:-} ]]; then
  cargo build --release --quiet --bins
fi
n=${1:-2000}
rounds=${ROUNDS:-3}
read -r -a grammars <<< "${GRAMMARS:-core ints}"
et=${ET:-$PWD/target/release/et}
# Each call's limit in et's run (wall-clock seconds), and what a timeout adds to the floor.
limit=10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The pool with its programs resolved (et writes installed programs relative to it).
pool=$tmp/pool.toml
"$et" solvers convert "$ET_HOME/pool.toml" > "$pool"

# The command line of a pool solver, one word per line (the pool's options included).
command_of() {
  python3 - "$pool" "$1" << 'PY'
import sys, tomllib
pool = tomllib.load(open(sys.argv[1], "rb"))
for s in pool["solver"]:
    if s["name"] == sys.argv[2]:
        print("\n".join(s["command"]))
        break
else:
    sys.exit("no solver %s in %s" % (sys.argv[2], sys.argv[1]))
PY
}
mapfile -t z3 < <(command_of z3-4.16.0)
mapfile -t cvc5 < <(command_of cvc5-1.4.2)

# CPU seconds (user + system) of COMMAND... reading FILE on standard input.
cpu_of() {
  python3 - "$@" << 'PY'
import resource, subprocess, sys
with open(sys.argv[1], "rb") as stdin:
    subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (usage.ru_utime + usage.ru_stime))
PY
}

echo "floor and session, $n formulas, z3-4.16.0 + cvc5-1.4.2 with the pool's options, 2 jobs"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
printf '%-10s %-5s %8s %8s %9s %8s %9s %7s %6s %10s\n' grammar round load z3_cpu cvc5_cpu timeouts floor_s session ratio together_s
for g in "${grammars[@]}"; do
  "$et" enumerate -g "$g" --n "$n" > "$tmp/$g.txt"
  for round in $(seq "$rounds"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$tmp/$g-$round
    start=$(date +%s.%N)
    "$et" run -g "$g" --n "$n" --pool "$pool" --solvers z3-4.16.0,cvc5-1.4.2 --timeout "$limit" \
      -j 2 --mode session --audit 0 --out "$out" > /dev/null 2>&1
    end=$(date +%s.%N)
    # Each solver's batch: the formulas it did not time out on in this round's run.
    python3 - "$out/runs.csv" "$tmp/$g.txt" "$tmp/$g" << 'PY'
import csv, sys
rows, formulas, stem = sys.argv[1], sys.argv[2], sys.argv[3]
timed_out = {"z3-4.16.0": set(), "cvc5-1.4.2": set()}
for r in csv.DictReader(open(rows, newline="")):
    if r["status"] == "timeout" and r["solver"] in timed_out:
        timed_out[r["solver"]].add(int(r["index"]))
lines = open(formulas).read().splitlines()
for solver, tail in (("z3-4.16.0", ["(get-model)", "(reset)"]), ("cvc5-1.4.2", ["(reset)"])):
    with open(f"{stem}.{solver.split('-')[0]}.smt2", "w") as batch:
        for i, line in enumerate(lines):
            if i not in timed_out[solver]:
                batch.write("\n".join([line, *tail]) + "\n")
    open(f"{stem}.{solver.split('-')[0]}.timeouts", "w").write(str(len(timed_out[solver])))
PY
    z3_out=$(cat "$tmp/$g.z3.timeouts")
    cvc5_out=$(cat "$tmp/$g.cvc5.timeouts")
    z3_cpu=$(cpu_of "$tmp/$g.z3.smt2" "${z3[@]}" -in)
    cvc5_cpu=$(cpu_of "$tmp/$g.cvc5.smt2" "${cvc5[@]}" --incremental --dump-models)
    cpu_of "$tmp/$g.z3.smt2" "${z3[@]}" -in > "$tmp/together-z3" &
    together_cvc5=$(cpu_of "$tmp/$g.cvc5.smt2" "${cvc5[@]}" --incremental --dump-models)
    wait
    awk -v g="$g" -v r="$round" -v l="$load" -v a="$z3_cpu" -v b="$cvc5_cpu" \
      -v s="$start" -v e="$end" -v ta="$(cat "$tmp/together-z3")" -v tb="$together_cvc5" \
      -v oa="$z3_out" -v ob="$cvc5_out" -v lim="$limit" 'BEGIN {
        out = (oa + ob) * lim
        floor = (a + b + out) / 2; wall = e - s
        printf "%-10s %-5s %8s %8.2f %9.2f %8d %9.2f %7.2f %5.2fx %10.2f\n", g, r, l, a, b, oa + ob, floor, wall, wall / floor, (ta + tb + out) / 2
      }' | tee -a "$tmp/rows"
    rm -rf "$out"
  done
done
echo
echo "median ratio of $rounds rounds (session wall ÷ floor)"
for g in "${grammars[@]}"; do
  awk -v g="$g" '$1 == g { sub(/x$/, "", $9); print $9 }' "$tmp/rows" | sort -n |
    awk -v g="$g" '{ v[NR] = $1 } END {
      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%-10s %.2fx\n", g, m }'
done
