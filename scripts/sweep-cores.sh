#!/usr/bin/env bash
# The per-call sweep (bench/benches/sweep.rs) on a machine of many cores: one process per
# kind of text and per sweep binary, each pinned to a core of its own, all at once, so that
# the full sweep of both builds (every size from 1 to 4,160 B, 27 rounds, five kinds) takes
# the time of its slowest kind rather than the sum of ten (docs/PERFORMANCE.md#reproduce
# says how long). Each process writes its own CSV and summary; run it several
# times into different folders and read the runs together with scripts/sweep-median.py.
#
# Usage: scripts/sweep-cores.sh OUT BIN... [-- SWEEP-OPTIONS]
#   OUT   the folder for the outputs: NAME-KIND.csv and NAME-KIND.txt, NAME the binary's
#         file name
#   BIN   sweep binaries: `scripts/sweep.sh [--no-avx512] --no-run` builds one and prints
#         its path (copy it: the other build's binary may take the same path), or copies
#         carried to another machine with the corpus (--dir)
#   SWEEP-OPTIONS  the sweep's own (--rounds, --min, --max, --step, --dir, --backend);
#         --kinds a,b picks the kinds, one process each (default all five). --no-plot and
#         --csv are set here.
# The processes take cores 1, 2, ... (core 0 is left to the system), around again when
# there are more processes than cores: then they share cores, and the times are not to be
# trusted (the script says so).
set -euo pipefail
out=${1:?usage: scripts/sweep-cores.sh OUT BIN... [-- SWEEP-OPTIONS]}
shift
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    bins+=("$(realpath "$1")")
    shift
done
[ "${#bins[@]}" -gt 0 ] || { echo "sweep-cores: no sweep binary given" >&2; exit 2; }
[ "${1:-}" = "--" ] && shift
kinds=(fr en-html ru zh fr-invalid)
opts=()
while [ $# -gt 0 ]; do
    case "$1" in
        --kinds) IFS=, read -r -a kinds <<<"${2:?--kinds a,b}"; shift 2 ;;
        --csv | --no-plot) echo "sweep-cores: $1 is set here" >&2; exit 2 ;;
        *) opts+=("$1"); shift ;;
    esac
done
mkdir -p "$out"
out=$(realpath "$out")
cores=$(nproc)
jobs=$((${#bins[@]} * ${#kinds[@]}))
if [ "$jobs" -ge "$cores" ]; then
    echo "sweep-cores: $jobs processes on $cores cores: they share cores, the times are not to be trusted" >&2
fi
pin=()
command -v taskset >/dev/null && pin=(taskset -c)
start=$(date +%s)
i=0
pids=()
for bin in "${bins[@]}"; do
    name=$(basename "$bin")
    for kind in "${kinds[@]}"; do
        if [ "$cores" -gt 1 ]; then core=$((1 + i % (cores - 1))); else core=0; fi
        ${pin[@]:+"${pin[@]}" "$core"} "$bin" --no-plot --kinds "$kind" --csv "$out/$name-$kind.csv" \
            "${opts[@]}" >"$out/$name-$kind.txt" 2>&1 &
        pids+=($!)
        i=$((i + 1))
    done
done
failed=0
for pid in "${pids[@]}"; do
    wait "$pid" || failed=$((failed + 1))
done
echo "sweep-cores: $jobs processes in $(($(date +%s) - start)) s, $failed failed; outputs in $out"
[ "$failed" = 0 ]
