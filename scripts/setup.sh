#!/usr/bin/env bash
# One setup command for a fresh Debian machine that has Rust: system packages, a release
# build of et, and the solvers et's tests run against (newest z3 4.x, newest cvc5,
# z3 4.8.5, 4.8.7 and 4.8.8), installed into <repo>/.cache/et-home. Run as root in CI.
# Idempotent: a second run only rebuilds incrementally and re-checks the solvers.
#
#   scripts/setup.sh               # packages (with Debian's z3 4.8.12, cvc4 1.8 and
#                                  # cvc5 1.0.3, whose real outputs tests replay), build,
#                                  # test pool
#   scripts/setup.sh --debian      # also add Debian's solvers to the pool
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ET_HOME="${ET_HOME:-$repo/.cache/et-home}"
with_debian=false
for arg in "$@"; do
  case $arg in
    --debian) with_debian=true ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

# python3 + pip download the wheels; libgomp1 is needed by z3 4.8.5's binary.
packages=(python3 python3-pip libgomp1 ca-certificates z3 cvc4 cvc5)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    sudo=sudo
  else
    sudo=
  fi
  echo "setup.sh: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v cargo > /dev/null || { echo "setup.sh: cargo not found; install Rust first (https://rustup.rs)" >&2; exit 1; }
cargo build --release --bins --manifest-path "$repo/Cargo.toml"
et="$repo/target/release/et"

# Installs only what is missing; once complete, needs no network.
"$et" solvers install --test-pool
$with_debian && "$et" solvers install debian
"$et" solvers check --pool "$ET_HOME/pool.toml"
echo "setup.sh: done; solvers in $ET_HOME (use ET_HOME=$ET_HOME et solvers list)" >&2
