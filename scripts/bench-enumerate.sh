#!/usr/bin/env bash
# Whole-binary enumeration figures quoted in docs/performance.md:
#   - wall time to stream 10^6 `strings` formulas to /dev/null (best of 5);
#   - peak RSS while streaming 10^7 formulas;
#   - `et index` far out (10^1000 … 10^10000), whole process, wall and CPU time (the
#     cardinality tables are built on both cores, so CPU time can exceed wall time).
# In-process figures (warm random access, rank) come from `cargo bench --bench enumeration`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
et=target/release/et
python3 - "$et" <<'PY'
import resource, subprocess, sys, time
et = sys.argv[1]
def run(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([et, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.returncode
best = min(run(["enumerate", "--grammar", "strings", "--n", "1000000"])[0] for _ in range(5))
print(f"stream 10^6 strings formulas to /dev/null: {best:.3f} s (best of 5)")
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
subprocess.run([et, "enumerate", "--grammar", "strings", "--n", "10000000"], stdout=subprocess.DEVNULL, check=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"peak RSS streaming 10^7 strings formulas: {rss / 1024:.1f} MiB")
for grammar, exponents in [("strings", [1000, 2000, 4000, 5000, 10000]),
                           ("fp", [10000]),
                           ("ints-5v2a", [275, 1700])]:
    for k in exponents:
        wall, cpu, rc = run(["index", "--grammar", grammar, f"10^{k}"])
        what = "refused (beyond size 4096)" if rc == 2 else "ok" if rc == 0 else f"exit {rc}"
        print(f"et index --grammar {grammar} 10^{k}: {wall:.2f} s wall, {cpu:.2f} s CPU, {what}")
PY
