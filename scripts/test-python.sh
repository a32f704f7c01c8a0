#!/usr/bin/env bash
# The Python package (python/, docs/PYTHON.md) from scratch, the one command CI and
# python/README.md call:
#  1. a fresh virtual environment (target/python-venv, removed and made again) with pinned
#     maturin, pytest, Hypothesis, pyarrow, Polars, NumPy and mypy (the stubs' check);
#  2. the wheel, built once, in release (target/wheels), with clippy as the compiler of
#     the workspace's crates (RUSTC_WORKSPACE_WRAPPER=clippy-driver, warnings denied), so
#     the lint check is the same compilation as the build: nothing is compiled twice;
#  3. the wheel installed into the environment with pip;
#  4. the tests of python/tests/ (pytest and Hypothesis, deterministic), spread over the
#     machine's cores by pytest-xdist (`-n auto`; one process each, the tests share no state).
# Each phase prints its time. The crates build in target/python (CARGO_TARGET_DIR to
# change it), apart from the workspace's other builds, whose features differ.
#
# Usage: scripts/test-python.sh [PYTEST ARGS...]
# Environment: PYTHON (default python3, 3.11 or later), VUTF8_PYTHON_VENV (the venv).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=${VUTF8_PYTHON_VENV:-target/python-venv}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/python}
start=$(date +%s)
last=$start

# Prints the time of the phase that just ended.
phase() {
    local now
    now=$(date +%s)
    echo "test-python: $1: $((now - last)) s"
    last=$now
}

rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    maturin==1.16.0 pytest==9.2.0 pytest-xdist==3.8.0 hypothesis==6.170.17 \
    pyarrow==26.0.1 polars==2.1.0 numpy==2.4.6 mypy==2.4.1
phase "venv and pinned tools"

rm -f target/wheels/vutf8-*.whl
# Without the release profile's debug info: a build for the tests, where it only costs time.
CARGO_PROFILE_RELEASE_DEBUG=false RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver" \
    CLIPPY_ARGS='-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__-D__CLIPPY_HACKERY__clippy::incompatible_msrv__CLIPPY_HACKERY__' \
    "$venv/bin/maturin" build --release --out target/wheels -m python/Cargo.toml
phase "wheel (release build and clippy, one compilation)"

"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    target/wheels/vutf8-*.whl
phase "wheel installed"

# From python/, so that pytest's and Hypothesis's caches land there (both ignore themselves).
venv_python="$(cd "$venv" && pwd)/bin/python"
(cd python && "$venv_python" -m pytest tests -q -n auto "$@")
phase "pytest"
echo "test-python: all phases: $(($(date +%s) - start)) s"
