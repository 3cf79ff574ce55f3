#!/usr/bin/env bash
# One setup command for a fresh Debian machine that has Rust: system packages, a release
# build of et, and the solvers et's tests run against, pinned to exact releases (z3
# 4.8.5, 4.8.7, 4.8.8, 4.8.10, 4.16.0, cvc5 1.4.2, yices 2.6.5, bitwuzla 0.9.1 (its
# wheel's Python module behind et's runner); cvc5 1.1.2 for the Python-runner test), installed into <repo>/.cache/et-home. Runs as root (CI,
# containers: no sudo needed) or as a user with sudo (asked for only to install
# missing packages).
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
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

# python3 + pip download the wheels; libgomp1 is needed by z3 4.8.5's binary.
# slurmctld, slurmd, slurm-client and munge: the one-node Slurm (scripts/slurm-local.sh)
# on which the tests submit a real sharded study with `et slurm`.
packages=(python3 python3-pip libgomp1 ca-certificates z3 cvc4 cvc5
  slurmctld slurmd slurm-client munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  # Root needs no sudo (a fresh root machine has none); anyone else needs it.
  if [[ $(id -u) -eq 0 ]]; then
    as_root=(env)
  elif command -v sudo > /dev/null; then
    as_root=(sudo env)
  else
    echo "setup.sh: packages ${missing[*]} are missing; run this script as root, or install sudo" >&2
    exit 1
  fi
  echo "setup.sh: installing ${missing[*]}" >&2
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v cargo > /dev/null || { echo "setup.sh: cargo not found; install Rust first (https://rustup.rs)" >&2; exit 1; }
cargo build --release --bins --manifest-path "$repo/Cargo.toml"
et="$repo/target/release/et"

# Installs only what is missing (exact versions already installed need no network) and
# refreshes the drivers et places in installs (cvc5's, bitwuzla's) from this build.
"$et" solvers install --test-pool
$with_debian && "$et" solvers install debian
"$et" solvers check --pool "$ET_HOME/pool.toml"
"$et" solvers check --pool "$ET_HOME/extra-pool.toml"
echo "setup.sh: done; solvers in $ET_HOME (use ET_HOME=$ET_HOME et solvers list)" >&2
