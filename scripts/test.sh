#!/usr/bin/env bash
# The test command: formatting, lints, and the whole test suite, which runs real solvers
# (the pinned test pool that scripts/setup.sh installs into .cache/et-home; a missing
# solver fails its tests with the reason). --no-fail-fast: one failure never hides
# another.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --no-fail-fast
