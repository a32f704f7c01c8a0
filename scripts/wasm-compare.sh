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
# Builds the module with simd128 in vutf8 and the module's own crate ($1 = simd128) or
# without (scalar), in target/wasm-example, and copies it to
# target/wasm-example/vutf8_wasm-$1.wasm; prints that path. The standard library (built from
# source) has no simd128 in either, as rustup's prebuilt one has none: it is built once for
# both (the feature is a profile's `rustflags` for the two crates, not RUSTFLAGS).
build() {
    local dir="$root/target/wasm-example" simd_config=()
    [ "$1" = scalar ] \
        || for package in vutf8 vutf8-wasm; do
            simd_config+=(--config "profile.release.package.$package.rustflags=[\"-C\", \"target-feature=+simd128\"]")
        done
    env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$dir" \
        RUSTFLAGS="-C linker=$lld" \
        cargo build -q --release --manifest-path examples/wasm/Cargo.toml \
        --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort \
        -Zprofile-rustflags "${simd_config[@]}" >&2 \
        || die "build of the $1 module"
    cp "$dir/wasm32-unknown-unknown/release/vutf8_wasm.wasm" "$dir/vutf8_wasm-$1.wasm"
    echo "$dir/vutf8_wasm-$1.wasm"
}
simd=$(build simd128)
scalar=$(build scalar)
ls -l "$simd" "$scalar" | awk '{ print "wasm-compare: built " $NF " (" $5 " bytes)" }'

if [ -n "$check_only" ]; then
    node scripts/wasm-compare.mjs --check-only "$simd" "$scalar"
else
    node scripts/wasm-compare.mjs "$simd" "$scalar"
fi
