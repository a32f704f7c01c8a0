#!/usr/bin/env bash
# Instructions per byte of each validator on 1 MiB of random 1-4-byte text, counted by
# callgrind (deterministic, unlike time): the difference between 12 and 2 rounds, divided
# by 10 MiB, so start-up and input generation cancel out.
# Usage: scripts/instructions-per-byte.sh [VALIDATOR...]   (default: avx2 sse4.2 simdutf8 std)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
cargo build -q --release -p vutf8-bench --example instructions
bin=target/release/examples/instructions
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
len=$((1 << 20))
printf '| validator | instructions per byte |\n|---|---:|\n'
for v in "${@:-avx2 sse4.2 simdutf8 std}"; do
    for name in $v; do
        lo=$(count "$name" 2)
        hi=$(count "$name" 12)
        awk -v n="$name" -v a="$lo" -v b="$hi" -v l="$len" \
            'BEGIN { printf "| %s | %.3f |\n", n, (b - a) / (10 * l) }'
    done
done
