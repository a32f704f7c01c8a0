#!/usr/bin/env bash
# Checks what can be checked of the MSRV promise (`rust-version` in Cargo.toml) without an
# older toolchain, which these machines cannot download (README, "Minimum Rust version"):
#
#  1. clippy's `incompatible_msrv` lint, which reads `rust-version`, denied: no standard
#     library item stabilised after it is used (every crate of the workspace, every target);
#  2. every package a crate of the workspace builds with (its dependencies, dev- and
#     build-dependencies, and theirs) declares a `rust-version` no newer than that crate's
#     own (`.cargo/config.toml` makes the resolver prefer such versions, so `cargo update`
#     keeps it so). The library, the CLI and the corpus crate promise 1.85; vutf8-datafusion
#     promises what DataFusion and Ballista need (1.94);
#  3. no language feature stabilised after it, from a list of the ones this code base could
#     reach for: `#[target_feature]` on a safe function (1.86), `cfg(true)`/`cfg(false)`
#     (1.88), `#[unsafe(naked)]` (1.88), `asm_goto` blocks (1.87), inferred const
#     arguments `::<_>` in a const position (1.89), AVX-512 target features (1.89).
#     Let chains (1.88) need edition 2024, which the crates do not use. The one exception:
#     the AVX-512 backend behind the cargo feature `avx512`, which documents that it needs
#     1.89: its target features may appear only in src/arch/x86/avx512.rs (a module declared
#     under `#[cfg(feature = "avx512")]`) and on a line right after that cfg.
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
echo "check-msrv: rust-version = $msrv"

echo "check-msrv: 1. clippy::incompatible_msrv"
cargo clippy -q --workspace --all-targets --all-features -- -D clippy::incompatible_msrv

echo "check-msrv: 2. rust-version of every package each crate builds with"
cargo metadata --format-version 1 --locked --all-features | python3 -c '
import json, sys
meta = json.load(sys.stdin)
pkgs = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
version = lambda rv: (tuple(int(x) for x in rv.split(".")) + (0, 0))[:3]
fail = False
for member in meta["workspace_members"]:
    own = pkgs[member]
    msrv = own.get("rust_version")
    if not msrv:
        print("check-msrv: %s declares no rust-version" % own["name"])
        fail = True
        continue
    # Everything the member builds with: its dependencies of every kind (dev- included, for
    # its tests), then theirs of the kinds a build uses (normal and build).
    seen, todo = set(), [(member, True)]
    while todo:
        node, is_member = todo.pop()
        for dep in nodes[node]["deps"]:
            kinds = {k["kind"] for k in dep["dep_kinds"]}
            if (is_member or kinds - {"dev"}) and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                todo.append((dep["pkg"], False))
    bad = [
        "%s %s needs %s" % (pkgs[p]["name"], pkgs[p]["version"], pkgs[p]["rust_version"])
        for p in sorted(seen)
        if pkgs[p].get("rust_version") and version(pkgs[p]["rust_version"]) > version(msrv)
    ]
    print("check-msrv: %s (rust-version %s): %d packages, %d newer" % (own["name"], msrv, len(seen), len(bad)))
    for b in bad:
        print("  " + b)
    fail = fail or bool(bad)
sys.exit(1 if fail else 0)
'

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
# AVX-512 target features only behind the cargo feature `avx512` (see above).
# shellcheck disable=SC2086
if awk '
    /^[[:space:]]*\/\// { prev = $0; next }
    /"avx512[a-z0-9]+"/ && FILENAME != "src/arch/x86/avx512.rs" \
        && prev !~ /#\[cfg\(feature = "avx512"\)\]/ {
        print FILENAME ":" FNR ": an AVX-512 target feature outside the avx512 cargo feature (Rust 1.89)"
        bad = 1
    }
    { prev = $0 }
    END { exit bad }' $(git ls-files 'src/*.rs'); then :; else fail=1; fi
grep -B1 -E '^pub\(crate\) mod avx512;' src/arch/x86/mod.rs | grep -q '#\[cfg(feature = "avx512")\]' \
    || { echo "check-msrv: src/arch/x86/avx512.rs must be declared under #[cfg(feature = \"avx512\")]"; fail=1; }
[ $fail = 0 ] && echo "check-msrv: ok"
exit $fail
