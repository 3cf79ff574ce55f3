#!/usr/bin/env bash
# The test command: formatting, lints, and the whole test suite (which runs real
# solvers; scripts/setup.sh installs them, and the suite installs what is missing into
# .cache/ on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
