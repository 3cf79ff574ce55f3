#!/usr/bin/env bash
# Driver overhead of `et run` (issue 5): 400 core formulas × {newest z3, newest cvc5},
# 2 workers. Overhead = wall time ÷ (sum of per-call wall times ÷ jobs); 1.0 means the
# solvers' own time is all the run cost. Prints et's summary line of 3 runs each with
# et's own oracle on (models checked, witness search: the default) and off
# (--no-models --no-witness, the published pipeline's oracle).
set -euo pipefail
cd "$(dirname "$0")/.."
export ET_HOME="${ET_HOME:-$PWD/.cache/et-home}"
cargo build --release --quiet
et=target/release/et
z3=$("$et" solvers list --pool "$ET_HOME/pool.toml" | awk '$2=="z3"{print $1}' | sort -V | tail -1)
cvc5=$("$et" solvers list --pool "$ET_HOME/pool.toml" | awk '$2=="cvc5"{print $1}' | sort -V | tail -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for oracle in on off; do
  flags=()
  if [ "$oracle" = off ]; then flags=(--no-models --no-witness); fi
  for i in 1 2 3; do
    printf 'oracle %s: ' "$oracle"
    "$et" run --grammar core --n 400 --pool "$ET_HOME/pool.toml" --solvers "$z3,$cvc5" \
      --timeout 8 --jobs 2 "${flags[@]}" --out "$work/$oracle$i" 2>&1 | grep 'driver overhead'
  done
done
