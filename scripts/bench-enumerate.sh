#!/usr/bin/env bash
# Whole-binary enumeration figures quoted in the README:
#   - wall time to stream 10^6 `strings` formulas to /dev/null (best of 5);
#   - peak RSS while streaming 10^7 formulas;
#   - `et index` at 10^1000, whole process (cold: includes the cardinality tables).
# In-process figures (warm random access, rank) come from `cargo bench --bench enumeration`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
et=target/release/et
python3 - "$et" <<'PY'
import resource, subprocess, sys, time
et = sys.argv[1]
def run(args):
    t = time.perf_counter()
    subprocess.run([et, *args], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t
best = min(run(["enumerate", "--grammar", "strings", "--n", "1000000"]) for _ in range(5))
print(f"stream 10^6 strings formulas to /dev/null: {best:.3f} s (best of 5)")
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
subprocess.run([et, "enumerate", "--grammar", "strings", "--n", "10000000"], stdout=subprocess.DEVNULL, check=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"peak RSS streaming 10^7 strings formulas: {rss / 1024:.1f} MiB")
best = min(run(["index", "--grammar", "strings", "10^1000"]) for _ in range(3))
print(f"et index --grammar strings 10^1000 (whole process, cold tables): {best * 1000:.0f} ms")
PY
