#!/usr/bin/env python3
"""Start-up cost of solver calls: wall time of N calls per command on a trivial formula.

Usage: scripts/bench-startup.py [N] -- CMD... [-- CMD...]
  scripts/bench-startup.py 100 -- cvc5 -q -- "$ET_HOME/solvers/cvc5-1.4.2/bin/cvc5" -q

Commands run round-robin (one call of each in turn), so load from other processes on a
shared machine hits all of them alike. Prints median, 10th percentile and minimum in ms.
Speed is measured here, never in tests.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

FORMULA = "(set-logic QF_LIA)\n(declare-const a Int)\n(assert (> a 1))\n(check-sat)\n"


def main(argv):
    n = 50
    if argv and argv[0] != "--":
        n = int(argv.pop(0))
    commands, current = [], None
    for arg in argv:
        if arg == "--":
            current = []
            commands.append(current)
        elif current is not None:
            current.append(arg)
    commands = [c for c in commands if c]
    if not commands:
        sys.exit(__doc__)
    with tempfile.NamedTemporaryFile("w", suffix=".smt2", delete=False) as f:
        f.write(FORMULA)
    try:
        times = [[] for _ in commands]
        for c in commands:  # warm the page cache
            subprocess.run(c + [f.name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(n):
            for i, c in enumerate(commands):
                start = time.perf_counter()
                subprocess.run(c + [f.name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times[i].append((time.perf_counter() - start) * 1e3)
    finally:
        os.unlink(f.name)
    for c, t in zip(commands, times):
        t.sort()
        print("%8.2f ms median %8.2f ms p10 %8.2f ms min   %s"
              % (statistics.median(t), t[len(t) // 10], t[0], " ".join(c)))


if __name__ == "__main__":
    main(sys.argv[1:])
