#!/usr/bin/env bash
# The per-call sweep (bench/benches/sweep.rs) built with every loop and every function aligned
# to 64 bytes, in its own target folder, then run.
#
# Usage: scripts/sweep.sh [--no-avx512] [--no-run] [-- SWEEP-OPTIONS]
#   --no-avx512: vutf8 built without its `avx512` feature (the path of an AVX2-only CPU).
#   --no-run: build only, and print the binary's path (for scripts/sweep-cores.sh, or to
#   carry the binary to another machine with the corpus).
#   SWEEP-OPTIONS: the sweep's own (--rounds, --min, --max, --step, --kinds, --no-plot...).
#
# Why aligned: built plainly, where the link happens to put vutf8's functions moves the
# sweep's ratios (scripts/lib/aligned.sh, which holds the flags, says more).
# SWEEP_RUSTFLAGS replaces the flags; SWEEP_TARGET_DIR the folder (default target/aligned,
# so that the plain build's cache in target/ is kept). To compare two builds, run them in
# alternating order (A B, B A, ...): run always in the same order, the second of two copies
# of one binary reads faster (docs/PERFORMANCE.md#method-sweep); `scripts/ab-compare.sh
# --messages` compares two commits in one process, as a first look.
set -euo pipefail
cd "$(dirname "$0")/.."
features=()
if [ "${1:-}" = "--no-avx512" ]; then
    features=(--no-default-features)
    shift
fi
no_run=false
if [ "${1:-}" = "--no-run" ]; then
    no_run=true
    shift
fi
if [ "${1:-}" = "--" ]; then
    shift
fi
# shellcheck source=scripts/lib/aligned.sh
source scripts/lib/aligned.sh
export CARGO_TARGET_DIR="${SWEEP_TARGET_DIR:-$ALIGNED_TARGET_DIR}"
export RUSTFLAGS="${SWEEP_RUSTFLAGS-$ALIGNED_RUSTFLAGS}"
if $no_run; then
    cargo bench -q -p vutf8-bench --bench sweep "${features[@]}" --no-run --message-format=json |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "sweep" and m.get("executable"):
        print(m["executable"])'
    exit
fi
exec cargo bench -q -p vutf8-bench --bench sweep "${features[@]}" -- "$@"
