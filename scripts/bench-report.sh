#!/usr/bin/env bash
# Benchmark of `et report`, `et plot` and `et merge` on a synthetic study: ROWS rows
# (default 10^7: 714,286 formulas × 14 solvers of two families), the rows of each
# formula shuffled in blocks of 64 formulas as a worker pool writes them. Prints wall
# time and peak RSS of each command (release build), for docs/performance.md.
#
#   scripts/bench-report.sh [ROWS]
#
# Needs python3 (installed by scripts/setup.sh) and about 1.5 GB in $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
cargo build --release --quiet --bin et
et=$PWD/target/release/et
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/study" "$rows" <<'EOF'
import os, random, sys
out, rows = sys.argv[1], int(sys.argv[2])
random.seed(7)
solvers = [("z3", f"4.{8 + i // 4}.{i % 4}") for i in range(8)] + [("cvc5", f"1.{i}.0") for i in range(6)]
formulas = rows // len(solvers)
os.makedirs(out)
with open(f"{out}/run.toml", "w") as f:
    f.write(f'et_version = "0.1.0"\ngrammar = "core"\nstart = "0"\nn = {formulas}\ntimeout_s = 8.0\n')
    for fam, v in solvers:
        f.write(f'\n[[solvers]]\nname = "{fam}-{v}"\nfamily = "{fam}"\nversion = "{v}"\ncommand = ["x"]\n')
statuses = ["sat"] * 40 + ["unsat"] * 40 + ["timeout"] * 10 + ["unknown", "crash", "rejected", "memout"]
with open(f"{out}/runs.csv", "w") as f:
    f.write("grammar,index,size,solver,family,version,status,verdict,reference,reference_status,"
            "time_s,cpu_s,max_rss_kb,exit_code,signal\n")
    for block in range(0, formulas, 64):
        lines = []
        for i in range(block, min(block + 64, formulas)):
            for fam, v in solvers:
                st = random.choice(statuses)
                verdict = {"crash": "crash", "timeout": "timeout", "unknown": "unknown"}.get(st, "")
                if st == "sat" and random.random() < 0.01:
                    verdict = "invalid_model"
                t = 8.0 if st == "timeout" else random.random() * 0.5
                lines.append(f"core,{i},{i % 40},{fam}-{v},{fam},{v},{st},{verdict},,,{t:.4f},{t * 0.9:.4f},20000,0,\n")
        random.shuffle(lines)
        f.writelines(lines)
EOF

measure() {
    local label=$1
    shift
    /usr/bin/time -f "$label: %e s wall, %U s user + %S s system CPU, %M KiB peak RSS" "$@" > /dev/null 2> "$work/time.txt" || {
        cat "$work/time.txt"
        exit 1
    }
    tail -n 1 "$work/time.txt"
}

echo "$(wc -l < "$work/study/runs.csv") lines, $(du -m "$work/study/runs.csv" | cut -f1) MiB; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
measure "et report (runs.csv)" "$et" report "$work/study"
measure "et report --clock cpu" "$et" report "$work/study" --clock cpu
measure "et report --window 2 (every row spilled)" "$et" report "$work/study" --window 2
measure "et plot (SVG)" "$et" plot "$work/study" --out "$work/plots"
gzip -c "$work/study/runs.csv" > "$work/study.csv.gz"
mkdir "$work/gz" && cp "$work/study/run.toml" "$work/gz/" && mv "$work/study.csv.gz" "$work/gz/runs.csv.gz"
echo "runs.csv.gz: $(du -m "$work/gz/runs.csv.gz" | cut -f1) MiB"
measure "et report (runs.csv.gz)" "$et" report "$work/gz"
measure "et merge (plain → gzip)" "$et" merge "$work/study" --out "$work/merged" --gzip
