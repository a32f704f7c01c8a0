#!/usr/bin/env bash
# The library's unit and integration tests under AddressSanitizer (nightly
# `-Zsanitizer=address`), guard-page test included. Our code (and every crate) is
# instrumented; the precompiled standard library is not (that would need `-Zbuild-std`
# and the rust-src component), but its allocations go through ASan's malloc, so reads past
# a heap buffer in our code are still caught. The exhaustive and boundary-sweep tests run
# with VUTF8_EXHAUSTIVE=reduced (every register boundary, fewer offsets and lengths), as
# under emulation, and the exhaustive 3- and 4-byte string tests are skipped: they take
# the same code paths at the same lengths as the 1- and 2-byte ones, and ASan makes them
# take over 20 minutes (VUTF8_ASAN_ALL=1 runs them too). The full versions run in the
# normal `cargo test`. Own target folder: target/asan.
#
# Usage: scripts/test-sanitizers.sh [cargo test options; default --lib --tests]
#        e.g. scripts/test-sanitizers.sh --test guard_pages
# See docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
fi
host=$(rustup run nightly rustc -vV | sed -n 's/^host: //p')
echo "sanitizers: $(rustup run nightly rustc --version), target $host"

# --target keeps RUSTFLAGS off build scripts and proc macros, which must not be
# instrumented; doctests are left out (rustdoc would need the same flags).
export RUSTFLAGS="-Zsanitizer=address ${RUSTFLAGS:-}"
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:${ASAN_OPTIONS:-}"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/asan}
export VUTF8_EXHAUSTIVE=${VUTF8_EXHAUSTIVE:-reduced}
skip=()
if [ -z "${VUTF8_ASAN_ALL:-}" ]; then
    skip=(--skip every_3_byte_string_at_every_offset --skip every_4_byte_string_from_f0_to_f4)
fi
# Without arguments: the unit tests and every integration test.
[ $# -gt 0 ] || set -- --lib --tests
cargo +nightly test -p vutf8 --all-features --target "$host" "$@" -- "${skip[@]}"
