#!/usr/bin/env bash
# Sessions against one process per formula, two ways, with the newest z3 and cvc5 of the
# test pool (cvc5 through this build's et-cvc5), models asked for:
#  1. the driver alone (`cargo bench --bench session`): calls per second of `run_call`
#     against one `Session`, core, ints and strings, answers compared, peak memory of a
#     formula at the first, middle and last formula of one session (what the solvers
#     alone need, and a campaign's distance to it, is scripts/bench-floor.sh's);
#  2. the whole of `et run` (`--mode fresh` against `--mode session --audit 0`, 2 jobs,
#     both solvers): calls per second, wall time and the driver overhead the summary
#     prints (wall ÷ (solver time ÷ jobs)).
# Usage: bench-session.sh [N]   (N formulas per grammar, default 300 for the driver and
# 1000 for et run)
#   DRIVER=no   skip part 1
#   ROUNDS=R    part 2 alternates fresh and session R times per grammar (default 1) and
#               ends with each grammar's median speed-up: one pair is at the mercy of
#               the host's noise, which slows a session's round trips more than fresh
#               process starts
#   CHECKS=off  part 2 without the solvers' self-check options (z3's model_validate=true,
#               cvc5's --check-models and --check-unsat-cores): what the solvers cost
#               when nobody asks them to check their own answers
set -euo pipefail
cd "$(dirname "$0")/.."
export ET_HOME="${ET_HOME:-$PWD/.cache/et-home}"
cargo build --release --quiet --bins
if [[ ${DRIVER:-yes} != no ]]; then
  cargo bench -p et-core --bench session --quiet -- "${1:-300}"
fi

n=${1:-1000}
et=target/release/et
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The pool with its programs resolved (et writes installed programs relative to it).
"$et" solvers convert "$ET_HOME/pool.toml" > "$tmp/resolved.toml"
pool=$tmp/resolved.toml
checks="with self-checks"
if [[ ${CHECKS:-on} == off ]]; then
  sed -e 's/"model_validate=true", *//g; s/, *"model_validate=true"//g' \
    -e 's/"--check-models", *//g; s/"--check-unsat-cores", *//g' "$pool" > "$tmp/pool.toml"
  pool=$tmp/pool.toml
  checks="without self-checks"
fi
echo
echo "et run, $n formulas, z3-4.16.0 + cvc5-1.4.2 $checks, 2 jobs (load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-8s %-5s %-8s %10s %10s %9s %9s\n' grammar round mode wall_s calls/s overhead speed-up
rounds=${ROUNDS:-1}
for g in core ints strings; do
  for round in $(seq "$rounds"); do
    fresh_wall=
    for mode in fresh session; do
      out=$tmp/$g-$mode-$round
      start=$(date +%s.%N)
      "$et" run -g "$g" --n "$n" --pool "$pool" --solvers z3-4.16.0,cvc5-1.4.2 --timeout 10 -j 2 \
        --mode "$mode" --audit 0 --out "$out" > "$out.txt" 2> /dev/null
      end=$(date +%s.%N)
      overhead=$(grep -o 'driver overhead [0-9.]*' "$out.txt" | cut -d' ' -f3)
      wall=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
      [[ $mode == fresh ]] && fresh_wall=$wall
      awk -v g="$g" -v r="$round" -v m="$mode" -v w="$wall" -v f="$fresh_wall" -v n="$n" \
        -v o="$overhead" \
        'BEGIN { printf "%-8s %-5s %-8s %10.2f %10.1f %9s %8.1fx\n", g, r, m, w, 2 * n / w, o, f / w }' \
        | tee -a "$tmp/rows"
    done
  done
done
if ((rounds > 1)); then
  echo
  echo "median speed-up of $rounds rounds"
  for g in core ints strings; do
    awk -v g="$g" '$1 == g && $3 == "session" { sub(/x$/, "", $7); print $7 }' "$tmp/rows" \
      | sort -n | awk -v g="$g" '{ v[NR] = $1 } END {
          m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%-8s %.1fx\n", g, m }'
  done
fi
