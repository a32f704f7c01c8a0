#!/usr/bin/env bash
# Mutation testing of the generic algorithm, the grammar and the reference decoder
# (.cargo/mutants.toml says which files and which tests): each mutant of those files is
# built and run against the library's sample tier; a mutant the tests do not catch is
# "missed". docs/RELIABILITY.md ("Mutation testing") has the counts and, for every missed
# mutant, the test that now kills it or why it is equivalent.
#
#   scripts/mutants.sh [ARGS...]     # e.g. --file src/reference/grammar.rs, --list, --shard 1/4
#
# Results go to target/mutants/mutants.out (outcomes.json, caught.txt, missed.txt, ...).
# Hours on 2 cores: run it in the background. Not in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || cargo install --locked cargo-mutants
exec cargo mutants --output target/mutants --timeout-multiplier 3 "$@"
