#!/usr/bin/env bash
# The Python package's distributions (docs/PYTHON.md, "Wheels"): abi3 manylinux wheels for
# x86-64 and aarch64 and the sdist, into target/dist, from what the package registries
# give (no container image, no download of a toolchain):
#  1. a virtual environment (target/wheel-venv) with pinned maturin, Zig (PyPI's `ziglang`,
#     the C and C++ compiler and linker for glibc 2.17) and auditwheel;
#  2. the x86-64 wheel with rustup's toolchain; the aarch64 wheel with Debian's rustc 1.96
#     and its arm64 standard library (the same ones scripts/test-cross.sh uses; installed
#     with apt-get when missing), both linked by Zig against glibc 2.17, so that they are
#     manylinux2014 (manylinux_2_17) wheels;
#  3. the sdist (maturin sdist: the package and the workspace crates it needs);
#  4. `auditwheel show` of each wheel, which must name manylinux_2_17 for its architecture,
#     and each wheel's size, which must be at most 4 MB;
#  5. with --test, the x86-64 wheel installed into a fresh virtual environment
#     (target/wheel-test-venv) and the package's tests run there.
#
# Usage: scripts/python-wheels.sh [--test] [--no-aarch64] [--no-avx512]
#   --no-avx512  the wheels without vutf8's and simdutf's AVX-512 code (AVX2 at most: the
#                build whose speed docs/PYTHON.md gives beside the default one)
# Environment: PYTHON (default python3, 3.11 or later).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=target/wheel-venv
dist=target/dist
max_bytes=$((4 * 1000 * 1000))
test=0 aarch64=1 features=()
for arg in "$@"; do
    case "$arg" in
        --test) test=1 ;;
        --no-aarch64) aarch64=0 ;;
        --no-avx512)
            features=(--no-default-features)
            # simdutf's AVX-512 kernels too (it chooses at run time, as vutf8 does).
            export CXXFLAGS="${CXXFLAGS:-} -DSIMDUTF_IMPLEMENTATION_ICELAKE=0"
            ;;
        *) echo "python-wheels: unknown argument $arg" >&2; exit 2 ;;
    esac
done
start=$(date +%s)
say() { echo "python-wheels: $*"; }

if [ ! -x "$venv/bin/maturin" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    maturin==1.16.0 ziglang==0.12.1 auditwheel==6.8.2
# maturin finds Zig as `python -m ziglang` of the interpreter on PATH.
export PATH="$PWD/$venv/bin:$PATH"

if [ "$aarch64" = 1 ] && [ ! -d /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib ]; then
    say "installing Debian's rustc-web and its arm64 standard library"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    dpkg --print-foreign-architectures | grep -qx arm64 || "${sudo[@]}" dpkg --add-architecture arm64
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq rustc-web libstd-rust-web-dev:arm64 >/dev/null
fi

rm -rf "$dist"
mkdir -p "$dist"
# A build of its own (Zig links, other features than the test build's).
export CARGO_TARGET_DIR=target/python-dist CARGO_PROFILE_RELEASE_DEBUG=false

build() {
    local triple=$1
    shift
    say "wheel for $triple"
    "$@" maturin build --release --zig --compatibility manylinux2014 --target "$triple" \
        -m python/Cargo.toml --out "$dist" "${features[@]}"
}
build x86_64-unknown-linux-gnu env
if [ "$aarch64" = 1 ]; then
    # Debian's compiler, whose standard library for aarch64 is installed (rustup's has none
    # here); rustup's cargo drives it.
    build aarch64-unknown-linux-gnu env RUSTC=/usr/bin/rustc
fi
say "sdist"
maturin sdist -m python/Cargo.toml --out "$dist"

status=0
for wheel in "$dist"/*.whl; do
    size=$(stat -c %s "$wheel")
    report=$(auditwheel show "$wheel" 2>&1)
    arch=$(basename "$wheel" | sed -E 's/.*_(x86_64|aarch64)\.whl/\1/')
    if ! tr '\n' ' ' <<<"$report" | grep -q "platform tag: *\"manylinux_2_17_$arch\""; then
        say "FAIL: auditwheel does not give $(basename "$wheel") manylinux_2_17_$arch:"
        echo "$report"
        status=1
    fi
    if [ "$size" -gt "$max_bytes" ]; then
        say "FAIL: $(basename "$wheel") is $size bytes, over $max_bytes"
        status=1
    fi
    tag=$(tr '\n' ' ' <<<"$report" | grep -o 'platform tag: *"[^"]*"' | grep -o '"[^"]*"' || echo '?')
    say "$(basename "$wheel"): $size bytes; auditwheel: $tag"
done
ls -l "$dist"

if [ "$test" = 1 ]; then
    say "the x86-64 wheel in a fresh virtual environment, and the tests"
    tvenv=target/wheel-test-venv
    rm -rf "$tvenv"
    "$python" -m venv "$tvenv"
    "$tvenv/bin/python" -m pip install --quiet --disable-pip-version-check \
        pytest==9.2.0 hypothesis==6.170.17 pyarrow==26.0.1 polars==2.1.0 numpy==2.4.6 mypy==2.4.1
    "$tvenv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        "$dist"/vutf8-*manylinux*x86_64.whl
    tpython="$(cd "$tvenv" && pwd)/bin/python"
    (cd python && "$tpython" -m pytest tests -q -p no:cacheprovider) || status=1
fi
say "done in $(($(date +%s) - start)) s"
exit "$status"
