#!/usr/bin/env bash
# The tactic hunt of results/hunt-tactics/: z3 5.4.1 deciding the smallest formulas of
# a grammar with each of its tactics (`et options tactics`; `--configurations
# z3-5.4.1:tactics`, every single tactic as `(check-sat-using (then T smt))`), each
# judged against z3 5.4.1's default check-sat and et's own oracle (models, witnesses),
# correctness verdicts only. Then `et triage` on each grammar's run (fresh re-runs, the
# releases of z3 installed for the range).
#
# It goes a grammar at a time; a finished grammar has runs.csv.gz and can be committed,
# an interrupted one is resumed (`--resume`) by the next invocation. Run it again until
# it says the hunt is complete.
#
#   scripts/hunt-tactics.sh                    # go on with the hunt
#   ONLY=reals-5v2a scripts/hunt-tactics.sh    # one grammar
#   N=500 TACTICS=tactics:0..400 scripts/hunt-tactics.sh
#   ET=path/to/et ET_BUILD=1a2b3c4 OUT=dir scripts/hunt-tactics.sh
#
# ET_BUILD names the commit the et binary was built from, for times.txt.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
et=${ET:-$repo/target/release/et}
build=${ET_BUILD:-$(git -C "$repo" rev-parse --short HEAD)}
out=${OUT:-$repo/results/hunt-tactics}
n=${N:-200}
tactics=${TACTICS:-tactics}
jobs=${JOBS:-2}
cpu=${CPU_TIMEOUT:-2}
wall=${TIMEOUT:-10}
z3=z3-5.4.1
# Where the trackers' tactic bugs are: arithmetic with division (z3's qfidl, nla2bv,
# purify-arith), quantifiers (qe, qsat, nlqsat), then the other theories.
all_grammars=(reals-5v2a ints-5v2a realints-5v2a quantifiers-reals quantifiers-ints
              bitvectors-5v2a core-5v2a arrays-5v2a uf-ints strings-5v2a fp-5v2a)
grammars=("${all_grammars[@]}")
[[ -n ${ONLY:-} ]] && grammars=("$ONLY")
# The first two grammars' runs were made by an et (f32f5e3) that read only the first 106
# of z3 5.4.1's 122 tactics (its listing was cut at 1 MiB): their last 16 tactics run as
# a step of their own, in runs/<grammar>+t106 (`--configurations z3-5.4.1:tactics:106..122`,
# 122 being the single tactics z3 5.4.1 lists).
declare -A rest=([reals-5v2a]=106 [ints-5v2a]=106)

export ET_HOME="${ET_HOME:-$HOME/.local/share/et}"
mkdir -p "$out/runs"
"$et" solvers install "${z3/-/@}" >&2
[[ -f $out/pool.toml ]] || { "$et" solvers convert "$ET_HOME/pool.toml" > "$out/pool.toml.tmp" \
  && mv "$out/pool.toml.tmp" "$out/pool.toml"; }

for g in "${grammars[@]}"; do
  dir=$out/runs/$g
  if [[ ! -f $dir/runs.csv.gz ]]; then
    resume=(); [[ -f $dir/run.toml ]] && resume=(--resume)
    start=$(date +%s)
    "$et" run --grammar "$g" --n "$n" --timeout "$wall" --cpu-timeout "$cpu" --jobs "$jobs" \
      --pool "$out/pool.toml" --solvers "$z3" --configurations "$z3:$tactics" \
      --out "$dir" "${resume[@]}" > "$dir.summary.txt" 2> /dev/null
    gzip -9 "$dir/runs.csv" "$dir/reference.csv"
    mv "$dir.summary.txt" "$dir/summary.txt"
    echo "$g: $n formulas, $tactics, $(($(date +%s) - start)) s, et built at $build" |
      tee -a "$out/times.txt" >&2
  fi
  # Its triage (fresh re-runs, the z3 releases installed for the range): a step of its
  # own, which an interrupted invocation starts again.
  if [[ ! -f $out/triage/$g/groups.csv ]]; then
    mkdir -p "$out/triage"
    "$et" triage "$dir" --out "$out/triage/$g" --jobs "$jobs" \
      --journal "$out/triage/$g.journal" >&2
  fi
  if [[ -n ${rest[$g]:-} && $tactics == tactics ]]; then
    from=${rest[$g]}
    more=$out/runs/$g+t$from
    if [[ ! -f $more/runs.csv.gz ]]; then
      resume=(); [[ -f $more/run.toml ]] && resume=(--resume)
      start=$(date +%s)
      "$et" run --grammar "$g" --n "$n" --timeout "$wall" --cpu-timeout "$cpu" --jobs "$jobs" \
        --pool "$out/pool.toml" --configurations "$z3:tactics:$from..122" \
        --out "$more" "${resume[@]}" > "$more.summary.txt" 2> /dev/null
      gzip -9 "$more/runs.csv" "$more/reference.csv"
      mv "$more.summary.txt" "$more/summary.txt"
      echo "$g: $n formulas, tactics $from on, $(($(date +%s) - start)) s, et built at $build" |
        tee -a "$out/times.txt" >&2
    fi
    if [[ ! -f $out/triage/$g+t$from/groups.csv ]]; then
      "$et" triage "$more" --out "$out/triage/$g+t$from" --jobs "$jobs" \
        --journal "$out/triage/$g+t$from.journal" >&2
    fi
  fi
done
echo "hunt-tactics: done: ${grammars[*]}" >&2
