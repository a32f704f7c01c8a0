#!/usr/bin/env bash
# Builds vutf8 as a WebAssembly module for JavaScript (examples/wasm, for
# wasm32-unknown-unknown), with simd128 and without, then runs scripts/wasm-compare.mjs
# under Node.js: the modules must agree with Node's own `buffer.isUtf8()` on thousands of
# generated inputs (exit status 1 on any disagreement), and a table of throughput (GB/s)
# compares them with `buffer.isUtf8()` and `TextDecoder` (fatal) for several sizes and
# scripts.
#
# Usage: scripts/wasm-compare.sh [--check-only]
#   --check-only   the agreement check without the speed table
#
# Needs (installed with apt-get, as root, when missing): Debian's Rust 1.96 (`rustc-web`)
# and its sources (`rust-web-src`; the standard library is built with -Zbuild-std),
# Node.js, and rustup's `rust-lld` as the linker. See docs/CROSS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
check_only=
case "${1:-}" in
    "") ;;
    --check-only) check_only=1 ;;
    *) sed -n '9,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
die() { echo "wasm-compare: FAILED: $*" >&2; exit 1; }

missing=()
for p in rustc-web rust-web-src; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' \
        || missing+=("$p")
done
command -v node >/dev/null || missing+=(nodejs)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "wasm-compare: installing ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null
fi
lld="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
[ -x "$lld" ] || die "rustup's rust-lld not found at $lld"

unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER
# Builds the module with target feature $1 (+simd128 or -simd128) into
# target/wasm-example-$2; prints its path.
build() {
    local dir="$root/target/wasm-example-$2"
    env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$dir" \
        RUSTFLAGS="-C target-feature=$1 -C linker=$lld" \
        cargo build -q --release --manifest-path examples/wasm/Cargo.toml \
        --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort >&2 \
        || die "build with $1"
    echo "$dir/wasm32-unknown-unknown/release/vutf8_wasm.wasm"
}
simd=$(build +simd128 simd128)
scalar=$(build -simd128 scalar)
ls -l "$simd" "$scalar" | awk '{ print "wasm-compare: built " $NF " (" $5 " bytes)" }'

if [ -n "$check_only" ]; then
    node scripts/wasm-compare.mjs --check-only "$simd" "$scalar"
else
    node scripts/wasm-compare.mjs "$simd" "$scalar"
fi
