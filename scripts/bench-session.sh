#!/usr/bin/env bash
# Sessions (issue 21): calls per second of one process per formula against one session
# per solver, core, ints and strings, newest z3 and cvc5 of the test pool (cvc5 through
# this build's et-cvc5), models asked for; answers compared; peak memory of a formula
# at the first, middle and last formula of one session. Usage: bench-session.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
export ET_HOME="${ET_HOME:-$PWD/.cache/et-home}"
cargo build --release --quiet --bin et-cvc5
cargo bench -p et-core --bench session --quiet -- "${1:-300}"
