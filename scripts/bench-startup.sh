#!/usr/bin/env bash
# Start-up cost of solver calls: wall time of N calls on a trivial formula, per command.
# Usage: scripts/bench-startup.sh [N] -- CMD... [-- CMD...]
#   scripts/bench-startup.sh 50 -- cvc5 -q -- "$ET_HOME/solvers/cvc5-1.4.2/bin/cvc5" -q
# Prints mean, median and min in milliseconds. Speed is measured here, never in tests.
set -euo pipefail
n=${1:-50}; shift || true
[[ ${1:-} == -- ]] && shift
formula=$(mktemp --suffix=.smt2)
trap 'rm -f "$formula"' EXIT
printf '(set-logic QF_LIA)\n(declare-const a Int)\n(assert (> a 1))\n(check-sat)\n' > "$formula"
bench() {
  local times=()
  "$@" "$formula" > /dev/null 2>&1 || true   # warm the page cache
  for ((i = 0; i < n; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" "$formula" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v cmd="$*" '
    { t[NR] = $1; s += $1 }
    END { printf "%8.2f ms mean  %8.2f ms median  %8.2f ms min   %s\n",
          s / NR / 1000, t[int((NR + 1) / 2)] / 1000, t[1] / 1000, cmd }'
}
cmd=()
for arg in "$@"; do
  if [[ $arg == -- ]]; then bench "${cmd[@]}"; cmd=(); else cmd+=("$arg"); fi
done
(( ${#cmd[@]} )) && bench "${cmd[@]}"
