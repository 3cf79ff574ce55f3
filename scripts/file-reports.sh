#!/usr/bin/env bash
# The reports to file from both committed hunts: `et file` over every triage of
# results/hunt and results/hunt-configurations, into results/bugs/ (one report per
# root cause, a README that says what is filed and what not, by hunt), then
# scripts/check-filed, which runs every report's command on its file and compares the
# output with the report's.
#
#   scripts/file-reports.sh
#   ET=path/to/et ET_HOME=/scratch/et JOURNAL=calls.csv scripts/file-reports.sh
#   YICES_HEAD=path/to/yices_smt2 YICES_HEAD_COMMIT=84efa927 scripts/file-reports.sh
#
# YICES_HEAD: yices2's development head, built from source as its README says; added to
# the pool under a name that carries its commit, so that every yices report's command
# runs on it too.
#
# Installs the releases the reports name into $ET_HOME (default .cache/hunt-home: the
# test pool's home stays as it is). The calls go to a journal ($JOURNAL, default
# .cache/file-reports-journal.csv): run again after a kill, it goes on where it stopped.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
et=${ET:-target/release/et}
export ET_HOME=${ET_HOME:-$here/.cache/hunt-home}
journal=${JOURNAL:-$here/.cache/file-reports-journal.csv}
[[ -x $et ]] || cargo build --release --quiet
# The newest releases (the reports' own and the other families' judges), the oldest
# release each report names, and the releases of the regressions.
"$et" solvers install --jobs 4 \
  z3@5.4.1 z3@5.4.0 z3@5.3.3 z3@5.3.0 z3@5.1.0 z3@5.0.0 z3@4.16.0 z3@4.15.4 z3@4.15.3 \
  z3@4.13.0 z3@4.13.1 z3@4.12.0 z3@4.12.1 z3@4.12.2 z3@4.12.3 z3@4.11.2 z3@4.8.13 \
  z3@4.8.10 z3@4.8.11 z3@4.8.5 cvc5@1.4.2 cvc5@1.4.0 cvc5@1.3.4 cvc5@1.3.3 cvc5@1.3.0 \
  cvc5@1.0.9 yices@2.6.4 yices@2.6.5 bitwuzla@0.9.1 bitwuzla@0.10.0 > /dev/null
if [[ -n ${YICES_HEAD:-} ]]; then
  head_name=yices-head-${YICES_HEAD_COMMIT:?YICES_HEAD_COMMIT: the commit the head was built from}
  "$et" solvers list | awk '{ print $1 }' | grep -qx "$head_name" ||
    "$et" solvers add "$YICES_HEAD" --family yices --name "$head_name" >&2
fi
start=$(date +%s)
"$et" file results/hunt/triage/{core,arrays,ints,bitvectors,reals+realints,strings,fp} \
  results/hunt-configurations/triage/{core,arrays,ints,bitvectors,reals+realints,strings,fp} \
  --out results/bugs --journal "$journal" --jobs 2
echo "et file: $(($(date +%s) - start)) s (calls answered from the journal are not timed again), et built at $(git rev-parse --short HEAD)" | tee results/bugs/time.txt
scripts/check-filed results/bugs
