#!/usr/bin/env bash
# Checks what can be checked of the MSRV promise (`rust-version` in Cargo.toml) without an
# older toolchain, which these machines cannot download (README, "Minimum Rust version"):
#
#  1. clippy's `incompatible_msrv` lint, which reads `rust-version`, denied: no standard
#     library item stabilised after it is used (every crate of the workspace, every target);
#  2. every package in Cargo.lock (dependencies, dev- and build-dependencies) declares a
#     `rust-version` no newer than ours (`.cargo/config.toml` makes the resolver prefer such
#     versions, so `cargo update` keeps it so);
#  3. no language feature stabilised after it, from a list of the ones this code base could
#     reach for: `#[target_feature]` on a safe function (1.86), `cfg(true)`/`cfg(false)`
#     (1.88), `#[unsafe(naked)]` (1.88), `asm_goto` blocks (1.87), inferred const
#     arguments `::<_>` in a const position (1.89), AVX-512 target features (1.89).
#     Let chains (1.88) need edition 2024, which the crates do not use.
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
echo "check-msrv: rust-version = $msrv"

echo "check-msrv: 1. clippy::incompatible_msrv"
cargo clippy -q --workspace --all-targets --all-features -- -D clippy::incompatible_msrv

echo "check-msrv: 2. rust-version of every locked package"
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
msrv = tuple(int(x) for x in sys.argv[1].split("."))
bad = []
pkgs = json.load(sys.stdin)["packages"]
for p in pkgs:
    rv = p.get("rust_version")
    if rv and tuple(int(x) for x in rv.split(".")) > msrv:
        bad.append("%s %s needs %s" % (p["name"], p["version"], rv))
print(f"check-msrv: {len(pkgs)} packages, {len(bad)} newer than {sys.argv[1]}")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
' "$msrv"

echo "check-msrv: 3. language features newer than $msrv"
files=$(git ls-files '*.rs')
fail=0
# A #[target_feature] attribute whose function (within the next 3 lines) is not unsafe.
# shellcheck disable=SC2086
if awk '
    /#\[target_feature\(/ { pending = 4; where = FILENAME ":" FNR; next }
    pending > 0 {
        pending--
        if ($0 ~ /(^|[^a-z_])fn /) {
            if ($0 !~ /unsafe fn /) { print where ": #[target_feature] on a safe fn (Rust 1.86)"; bad = 1 }
            pending = 0
        }
    }
    END { exit bad }' $files; then :; else fail=1; fi
# shellcheck disable=SC2086
if grep -nE 'cfg\((true|false)\)|#\[unsafe\(naked\)\]|asm!\([^)]*label|enable = "[^"]*avx512' $files \
    | grep -v '^scripts/check-msrv.sh'; then
    echo "check-msrv: the lines above use a feature newer than $msrv"
    fail=1
fi
[ $fail = 0 ] && echo "check-msrv: ok"
exit $fail
