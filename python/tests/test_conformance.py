"""The conformance files: every file of the project's specifications (/work/shared/specs,
see its README.md) and Markus Kuhn's UTF-8 decoder stress test (UTF-8-test.txt) where this
machine has a copy: each file whole and each of its lines, every answer against CPython.

Where the files are: $VUTF8_CONFORMANCE_FILES (paths separated by os.pathsep), else the
`shared/specs` folder next to or inside the repository, and a UTF-8-test.txt found at the
known places below. A file that is not there is skipped, with its name in the reason.
"""

from __future__ import annotations

import glob
import os
import random
from pathlib import Path

import pytest
from conftest import cpython_error, error_fields
from test_decode import assert_all_handlers
from test_stream import incremental_error

import vutf8

ROOT = Path(__file__).resolve().parents[2]

# Copies of Kuhn's UTF-8-test.txt that machines often have (the Rust sources' benchmark
# data; Debian's packages of Kuhn's examples).
KUHN_GLOBS = [
    "/usr/src/rustc-*/src/tools/rustc-perf/collector/compile-benchmarks/encoding/src/examples/UTF-8-test.txt",
    "/usr/share/doc/*/examples/UTF-8-test.txt",
    str(ROOT / "target" / "UTF-8-test.txt"),
]


def conformance_files() -> list[Path]:
    if listed := os.environ.get("VUTF8_CONFORMANCE_FILES"):
        return [Path(p) for p in listed.split(os.pathsep) if p]
    files: list[Path] = []
    for specs in (ROOT / "shared" / "specs", ROOT.parent / "shared" / "specs"):
        if specs.is_dir():
            files += sorted(p for p in specs.iterdir() if p.is_file())
            break
    for pattern in KUHN_GLOBS:
        if found := sorted(glob.glob(pattern)):
            files.append(Path(found[0]))
            break
    return files


FILES = conformance_files()


@pytest.mark.parametrize("wanted", ["rfc3629-utf8-2003.txt", "UTF-8-test.txt"])
def test_the_conformance_files_were_found(wanted: str) -> None:
    """A missing file shows as a skip in pytest's summary, not as silence."""
    if wanted not in {p.name for p in FILES}:
        pytest.skip(f"{wanted} not found: name it in VUTF8_CONFORMANCE_FILES")


def check(data: bytes) -> None:
    expected = cpython_error(data)
    assert vutf8.is_valid(data) is (expected is None)
    try:
        vutf8.validate(data)
    except vutf8.Utf8Error as got:
        assert expected is not None
        assert error_fields(got) == error_fields(expected)
    else:
        assert expected is None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_and_each_line(path: Path) -> None:
    data = path.read_bytes()
    check(data)
    lines = data.split(b"\n")
    for line in lines:
        check(line)
        check(line + b"\n")
    # The records functions on the whole file give each line's own answer.
    records = [line.removesuffix(b"\r") for line in lines[:-1]]
    if lines[-1]:
        records.append(lines[-1])
    verdicts = [cpython_error(r) is None for r in records]
    assert vutf8.line_verdicts(data) == verdicts
    assert vutf8.invalid_lines(data) == [i for i, ok in enumerate(verdicts) if not ok]
    for policy, errors in (("replace", "replace"), ("escape", "backslashreplace")):
        expected = b"\n".join(r.decode("utf-8", errors).encode() for r in lines)
        assert vutf8.repair(data, policy) == expected


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_streamed_as_cpythons_incremental_decoder(path: Path) -> None:
    """The file through a Validator, one line per chunk and in 50 random chunkings: the
    error of CPython's incremental decoder for the same chunks, and the one-shot error's
    position as `stream_offset`."""
    data = path.read_bytes()
    rng = random.Random(path.name)
    chunkings = [data.splitlines(keepends=True)]
    for _ in range(50):
        cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randint(1, 40))))
        chunkings.append([data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])])
    one_shot = cpython_error(data)
    for chunks in chunkings:
        expected = incremental_error(chunks)
        validator = vutf8.Validator()
        try:
            for chunk in chunks:
                validator.update(chunk)
            validator.finish()
        except vutf8.Utf8Error as got:
            assert expected is not None and one_shot is not None
            assert (got.object, got.start, got.end, got.reason, str(got)) == (
                expected.object,
                expected.start,
                expected.end,
                expected.reason,
                str(expected),
            )
            assert got.stream_offset == one_shot.start
        else:
            assert expected is None and one_shot is None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_decoded_with_every_handler(path: Path) -> None:
    """`decode` on each file, whole and line by line, with the five handlers."""
    data = path.read_bytes()
    for piece in [data, *data.split(b"\n")]:
        assert_all_handlers(piece)
