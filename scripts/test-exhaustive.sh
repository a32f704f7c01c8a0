#!/usr/bin/env bash
# The exhaustive test tier (docs/RELIABILITY.md, "Test tiers"), compiled in release:
#  1. VUTF8_EXHAUSTIVE=full over the tests that have a full tier (those that read
#     `common::tier()`): every 1-, 2- and 3-byte string at every offset of a 64-byte block
#     and every 4-byte string from F0 to F4, in four contexts (tests/exhaustive.rs); every
#     error class at every offset of every length of the full boundary sweep
#     (tests/boundary_sweep.rs); every cut of a parallel validation (tests/parallel.rs);
#     records of every length at every alignment (tests/records.rs); far into a long input
#     (tests/far_schedule.rs); inputs that ask for the bytes ahead, every 7th offset of
#     their windows (tests/long_inputs.rs, about 10 s). The rest of the suite has one
#     tier, which the README's test command runs (its test profile is at opt-level 3
#     too); it is not built again here.
#  2. Every 4-byte string that starts with a lead byte C0..FF (2^30; one that starts with
#     ASCII is a character and a 3-byte string, one that starts with a continuation byte
#     is that byte's error whatever follows: part 1 checks both) inside long inputs on the
#     selected backend (tests/exhaustive_u32.rs, an ignored test; VUTF8_U32_FIRST=00..FF
#     for all 2^32).
# About 13 minutes on 2 cores of a Zen 1 (the slowest CPU seen), 6 on a Zen 5. `cargo test`
# alone runs the sample tier (a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
tiered=(--test exhaustive --test boundary_sweep --test parallel --test records --test far_schedule
    --test long_inputs)
# Every test file that reads the tier must be in the list.
for f in $(grep -l 'full_tier()\|tier()' tests/*.rs); do
    name=$(basename "$f" .rs)
    printf '%s\n' "${tiered[@]}" | grep -qx "$name" \
        || { echo "test-exhaustive: tests/$name.rs has a full tier but is not run here"; exit 1; }
done
VUTF8_EXHAUSTIVE=full cargo test --release -p vutf8 --all-features "${tiered[@]}"
echo "exhaustive tier, part 1 (VUTF8_EXHAUSTIVE=full): $(( $(date +%s) - start )) s"
mid=$(date +%s)
cargo test --release -p vutf8 --all-features --test exhaustive_u32 -- --ignored
echo "exhaustive tier, part 2 (the 4-byte strings in long inputs): $(( $(date +%s) - mid )) s"
echo "exhaustive tier: $(( $(date +%s) - start )) s in all"
