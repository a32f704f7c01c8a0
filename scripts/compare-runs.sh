#!/usr/bin/env bash
# Runs the one-command comparison (`cargo bench -p vutf8-bench --bench compare`) N times and prints its
# tables with every cell replaced by the median of the N runs (ratios included: the median
# of the per-run ratios, each measured side by side). On a shared, noisy machine one run
# can be unlucky as a whole (another job on the other core for minutes); the median of
# separate runs is what docs/PERFORMANCE.md#figures quotes. Each run's own output is kept in
# target/compare-runs/.
#
# Usage: scripts/compare-runs.sh N [--features F] [--no-avx512] [--aligned] [compare
# options, e.g. --min-size 4096]
# `--features F` goes to cargo; `--no-avx512` builds vutf8 without its `avx512` feature (the
# path of an AVX2-only CPU, measured on an AVX-512 one); `--aligned` builds with every
# function and loop on a 64-byte boundary, as scripts/sweep.sh does (scripts/lib/aligned.sh:
# a plain build's figures are those of one layout: docs/PERFORMANCE.md#method-layout);
# everything else to the benchmark. The plot written to docs/compare.svg (with
# --real: docs/compare-real.svg) is the last run's.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: scripts/compare-runs.sh N [--features F] [compare options]}
shift
cargo_args=()
bench_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --features) cargo_args+=(--features "${2:?--features needs a value}"); shift 2 ;;
        --no-avx512) cargo_args+=(--no-default-features); shift ;;
        --aligned)
            # shellcheck source=scripts/lib/aligned.sh
            source scripts/lib/aligned.sh
            export RUSTFLAGS="$ALIGNED_RUSTFLAGS" CARGO_TARGET_DIR="$ALIGNED_TARGET_DIR"
            shift
            ;;
        *) bench_args+=("$1"); shift ;;
    esac
done
out=target/compare-runs
mkdir -p "$out"
rm -f "$out"/run-*.txt
cargo bench -p vutf8-bench "${cargo_args[@]}" --bench compare --no-run -q
for i in $(seq 1 "$n"); do
    echo "compare-runs: run $i of $n" >&2
    cargo bench -q -p vutf8-bench "${cargo_args[@]}" --bench compare -- "${bench_args[@]}" >"$out/run-$i.txt"
done
python3 - "$out"/run-*.txt <<'EOF'
import statistics, sys

runs = [open(p).read().splitlines() for p in sys.argv[1:]]
print(f"medians of {len(runs)} runs of `cargo bench -p vutf8-bench --bench compare`\n")
for lines in zip(*runs):
    first = lines[0]
    if not first.startswith("| "):
        # Titles, table rules and blank lines, as the first run printed them.
        if not first.startswith("plot written"):
            print(first)
        continue
    cells = [l.strip("|").split("|") for l in lines]
    merged = []
    for column in zip(*cells):
        column = [c.strip() for c in column]
        try:
            values = [float(c) for c in column]
        except ValueError:
            if len(set(column)) != 1:
                sys.exit(f"runs disagree on a label: {column}")
            merged.append(column[0])
            continue
        decimals = len(column[0].split(".")[1]) if "." in column[0] else 0
        merged.append(f"{statistics.median(values):.{decimals}f}")
    print("| " + " | ".join(merged) + " |")
EOF
