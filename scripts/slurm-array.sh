#!/usr/bin/env bash
# A sharded study on a Slurm cluster: one array task per shard, then `et merge`.
#
#   sbatch --array=1-16 scripts/slurm-array.sh strings 1000000 8
#   # when all tasks are done:
#   et merge results/strings-1000000-shard-*-of-16 --out results/strings-1000000
#
# Arguments: GRAMMAR N TIMEOUT [extra `et run` flags...]. Each task resumes its own
# shard directory, so a task that was preempted or timed out can simply be resubmitted.
#SBATCH --job-name=et
#SBATCH --cpus-per-task=8
#SBATCH --time=24:00:00
#SBATCH --output=et-%A-%a.log
set -euo pipefail
grammar=${1:?grammar}
n=${2:?number of formulas}
timeout=${3:?timeout in seconds}
shift 3
k=${SLURM_ARRAY_TASK_ID:?run under sbatch --array}
count=${SLURM_ARRAY_TASK_COUNT:?run under sbatch --array}
out="results/${grammar}-${n}-shard-${k}-of-${count}"
resume=()
[ -f "$out/run.toml" ] && resume=(--resume)
exec et run --grammar "$grammar" --n "$n" --timeout "$timeout" \
  --shard "$k/$count" --jobs "${SLURM_CPUS_PER_TASK:-1}" --out "$out" "${resume[@]}" "$@"
