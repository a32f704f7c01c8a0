#!/usr/bin/env bash
# Checks what can be checked of the MSRV promise (`rust-version` in Cargo.toml) without an
# older toolchain, which these machines cannot download (README, "Minimum Rust version"):
#
#  1. clippy's `incompatible_msrv` lint, which reads `rust-version`, denied: no standard
#     library item stabilised after it is used (every crate of the workspace, every target);
#  2. every package a crate of the workspace builds with (its dependencies, dev- and
#     build-dependencies, and theirs) declares a `rust-version` no newer than that crate's
#     own (`.cargo/config.toml` makes the resolver prefer such versions, so `cargo update`
#     keeps it so). The library and the CLI promise 1.89, the corpus crate 1.85;
#     vutf8-datafusion promises what DataFusion and Ballista need (1.94);
#  3. the corpus crate (1.85) uses none of the language features stabilised after 1.85 that
#     this code base could reach for: `#[target_feature]` (on a safe function, 1.86),
#     `asm_goto` (1.87), `cfg(true)`/`cfg(false)` and `#[unsafe(naked)]` (1.88), AVX-512
#     target features (1.89). The library and the CLI may (their 1.89 was raised for the
#     AVX-512 backend, on by default); let chains (1.88) need edition 2024,
#     which no crate uses.
#
# VUTF8_MSRV_CLIPPY=done leaves part 1 to the caller, which has run clippy over every crate
# and target with `-D clippy::incompatible_msrv` itself (.ci/run, beside -D warnings).
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
echo "check-msrv: rust-version = $msrv"

echo "check-msrv: 1. clippy::incompatible_msrv"
if [ "${VUTF8_MSRV_CLIPPY:-}" = done ]; then
    echo "check-msrv: left to the caller (VUTF8_MSRV_CLIPPY=done)"
else
    cargo clippy -q --workspace --all-targets --all-features -- -D clippy::incompatible_msrv
fi

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

echo "check-msrv: 3. language features newer than 1.85 in the corpus crate"
fail=0
# shellcheck disable=SC2046
if grep -nE 'target_feature|cfg\((true|false)\)|#\[unsafe\(naked\)\]|asm!\(|avx512' \
    $(git ls-files 'corpus/*.rs'); then
    echo "check-msrv: the lines above use a feature newer than the corpus crate's 1.85"
    fail=1
fi
[ $fail = 0 ] && echo "check-msrv: ok"
exit $fail
