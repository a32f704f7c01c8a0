#!/bin/bash
# Compares two vutf8 binaries on directory trees: wall time of `vutf8 DIR > /dev/null`,
# old and new run alternately (so both see the same machine load), after one warm-up run
# each. The new one runs twice: with --no-ignore --hidden --binary (the same files as a
# walker without ignore rules or binary skipping) and with its defaults.
#
# Usage: cli/compare-walk.sh OLD_BINARY NEW_BINARY RUNS DIR...
# Prints one line per run; take the medians.
set -u
old=$1 new=$2 runs=$3
shift 3
elapsed() {
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
for dir in "$@"; do
    "$old" -q "$dir"
    "$new" -q --no-ignore --hidden --binary "$dir"
    for _ in $(seq "$runs"); do
        echo "$dir old $(elapsed "$old" "$dir") load $(cut -d' ' -f1 /proc/loadavg)"
        echo "$dir new-same $(elapsed "$new" --no-ignore --hidden --binary "$dir")"
        echo "$dir new-default $(elapsed "$new" "$dir")"
    done
done
