"""vutf8 for Python against what Python programs use today, on real text and real logs.

    python python/bench.py [--corpus DIR] [--logs DIR] [--runs N] [--alone] [--only PART]

Prints one table (the CPU, vutf8's backend, the library versions; per case the median time
of one call over N interleaved runs, the throughput, and the speed relative to the case's
baseline, the first contender):

- decoding (`--only decode`): `vutf8.decode(b, errors)` against `b.decode('utf-8', errors)`
  on valid real text (100 bytes, 64 KiB, the whole file; ASCII and four scripts) and on
  damaged text (real Latin-1 text, 8 MiB of seeded random bytes) with the handlers
  `replace`, `backslashreplace`, `surrogateescape` and `ignore`, then the geometric means
  that the targets of docs/PYTHON.md are about;
- the transcoder (`--only transcoder`): valid text decoded by simdutf's UTF-8 to Latin-1,
  UTF-16 and UTF-32 (`_vutf8._decode_simdutf`), with UCS-2 and UCS-4 by vutf8's AVX2
  conversions instead (`_vutf8._convert_avx2`), by vutf8's own loop (`_vutf8._decode_own`)
  and by `vutf8.decode`, which chooses between them: the measurement behind the choice in
  docs/PYTHON.md;
- one buffer: `vutf8.is_valid` and `vutf8.validate` against `bytes.decode('utf-8')` and
  `str(b, 'utf-8')`, on 100 bytes and on 64 KiB and whole files of real non-ASCII text
  (target/real-corpus, from scripts/real-corpus.sh);
- an Arrow column of real log lines (target/real-logs, from scripts/real-logs.sh):
  `vutf8.arrow.is_valid` and `to_string` against `pyarrow.compute.cast(col, pa.string())`
  and Polars' `cast(pl.String)`;
- line verdicts of a buffer of log lines: `vutf8.line_verdicts` against a Python loop over
  `splitlines()` and `decode`.

Every contender's answer is checked once before it is timed. Runs are interleaved (each
run times every contender of a case, in a rotating order), so a slow moment of the machine
spreads over all of them. With `--alone`, each contender's runs are taken together instead,
as one library alone in a process would run: the figures to compare with a peer's own.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

import vutf8
import vutf8.arrow as va
from bench_texts import DECODE_TEXTS, TEXTS, cpu_model, middle, valid_prefix

ROOT = Path(__file__).resolve().parents[1]
KIB = 1024


@dataclass
class Contender:
    """One way to answer a case: a name and a call."""

    name: str
    call: Callable[[], object]


@dataclass
class Case:
    """What is measured: a name, the bytes it covers, and its contenders (the first is the
    baseline)."""

    name: str
    size: int
    contenders: list[Contender]


def non_ascii_share(data: bytes) -> float:
    return sum(1 for b in data if b >= 0x80) / max(len(data), 1)


def py_line_verdicts(buf: bytes) -> list[bool]:
    """What a Python program writes today: split, then decode each line."""
    out = []
    for line in buf.splitlines():
        try:
            line.decode("utf-8")
            out.append(True)
        except UnicodeDecodeError:
            out.append(False)
    return out


def decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def text_cases(corpus: Path) -> list[Case]:
    cases = []
    for name, rel in TEXTS:
        path = corpus / rel
        if not path.is_file():
            print(f"bench: {path} not found (scripts/real-corpus.sh), skipped", file=sys.stderr)
            continue
        whole = path.read_bytes()
        assert vutf8.is_valid(whole) and decodes(whole), path
        for size in (100, 64 * KIB, len(whole)):
            data = valid_prefix(whole[middle(whole) :] if size == 100 else whole, size)
            label = f"{name}, {len(data):,} B ({non_ascii_share(data):.0%} non-ASCII)"
            cases.append(Case(label, len(data), buffer_contenders(data)))
    return cases


HANDLERS = ["replace", "backslashreplace", "surrogateescape", "ignore"]


def decode_cases(corpus: Path) -> list[Case]:
    """`vutf8.decode` against `bytes.decode` on valid real text and on damaged text."""
    cases = []
    for name, rel in DECODE_TEXTS:
        path = corpus / rel
        if not path.is_file():
            print(f"bench: {path} not found (scripts/real-corpus.sh), skipped", file=sys.stderr)
            continue
        whole = path.read_bytes()
        for size in (100, 64 * KIB, len(whole)):
            data = valid_prefix(whole[middle(whole) :] if size == 100 else whole, size)
            data = data.decode("utf-8", "ignore").encode()  # (an ASCII file: a few stray bytes)
            label = f"decode: {name}, {len(data):,} B ({non_ascii_share(data):.0%} non-ASCII)"
            cases.append(Case(label, len(data), decode_contenders(data, "strict")))
    latin1 = corpus / "damaged" / "manpages-de.latin1.man"
    damaged = []
    if latin1.is_file():
        damaged.append(("real Latin-1 text (German man pages)", latin1.read_bytes()))
    rng = random.Random(74)
    damaged.append(("random bytes", rng.randbytes(8 << 20)))
    for name, data in damaged:
        for errors in HANDLERS:
            label = f"decode {errors}: {name}, {len(data):,} B"
            cases.append(Case(label, len(data), decode_contenders(data, errors)))
    return cases


def transcoder_cases(corpus: Path) -> list[Case]:
    """simdutf against vutf8's own loop, on valid real text of each kind, and on French text
    with its characters beyond Latin-1 taken out (a Latin-1 string)."""
    cases = []
    texts: list[tuple[str, Path, Callable[[str], str]]] = [
        (name, corpus / rel, str) for name, rel in DECODE_TEXTS
    ]
    texts.append(
        (
            "fr text, Latin-1 only",
            corpus / "text/debian-reference.fr.txt",
            lambda t: "".join(c for c in t if ord(c) < 0x100),
        )
    )
    for name, path, keep in texts:
        if not path.is_file():
            continue
        whole = keep(path.read_bytes().decode("utf-8", "ignore")).encode()
        for size in (64 * KIB, len(whole)):
            data = valid_prefix(whole, size)
            label = f"transcoder: {name}, {len(data):,} B ({non_ascii_share(data):.0%} non-ASCII)"
            cases.append(Case(label, len(data), transcoder_contenders(data)))
    return cases


def transcoder_contenders(data: bytes) -> list[Contender]:
    from vutf8 import _vutf8

    def converted(avx2: bool | None) -> str:
        """`data` measured, then converted by simdutf, with vutf8's AVX2 conversions into
        UCS-2 and UCS-4 (True), without them (False) or as the CPU decides (None)."""
        _vutf8._convert_avx2(avx2)
        try:
            return _vutf8._decode_simdutf(data)
        finally:
            _vutf8._convert_avx2(None)

    assert _vutf8._decode_own(data) == converted(False) == converted(True) == data.decode()
    return [
        Contender("bytes.decode('utf-8')", lambda: data.decode("utf-8")),
        Contender("simdutf", lambda: converted(False)),
        Contender("simdutf, UCS-2/4 by vutf8's AVX2", lambda: converted(True)),
        Contender("vutf8's own loop", lambda: _vutf8._decode_own(data)),
        Contender("vutf8.decode (the choice)", lambda: vutf8.decode(data)),
    ]


def decode_contenders(data: bytes, errors: str) -> list[Contender]:
    assert vutf8.decode(data, errors) == data.decode("utf-8", errors)
    return [
        Contender(f"bytes.decode('utf-8', {errors!r})", lambda: data.decode("utf-8", errors)),
        Contender(f"vutf8.decode(b, {errors!r})", lambda: vutf8.decode(data, errors)),
    ]


def decode_summary(results: list[tuple[Case, list[float]]]) -> None:
    """The geometric means the targets are about: non-ASCII text of 64 KiB and more, each
    handler on damaged text, and the smallest ratio on ASCII and 100-byte text."""
    def ratio(medians: list[float]) -> float:
        return medians[0] / medians[1]

    decode = [(c, m) for c, m in results if c.name.startswith("decode")]
    if not decode:
        return
    print("\nSummary (vutf8.decode / bytes.decode, higher is better):")
    long_non_ascii = [
        ratio(m) for c, m in decode
        if c.name.startswith("decode: ") and "(ASCII)" not in c.name and c.size >= 64 * KIB
    ]  # fmt: skip
    if long_non_ascii:
        print(f"  non-ASCII text of 64 KiB and more, geometric mean: {geomean(long_non_ascii):.2f}x")
    for errors in HANDLERS:
        ratios = [ratio(m) for c, m in decode if c.name.startswith(f"decode {errors}:")]
        if ratios:
            each = ", ".join(f"{r:.1f}x" for r in ratios)
            print(f"  {errors} on damaged text: {each} (geometric mean {geomean(ratios):.2f}x)")
    small = [ratio(m) for c, m in decode if c.name.startswith("decode: ") and c.size <= 100]
    ascii_text = [ratio(m) for c, m in decode if "(ASCII)" in c.name]
    if small:
        print(f"  100-byte text, lowest: {min(small):.2f}x")
    if ascii_text:
        print(f"  ASCII text, lowest: {min(ascii_text):.2f}x")


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def buffer_contenders(data: bytes) -> list[Contender]:
    assert vutf8.is_valid(data) is True and vutf8.validate(data) is None
    return [
        Contender("bytes.decode('utf-8')", lambda: data.decode("utf-8")),
        Contender("str(b, 'utf-8')", lambda: str(data, "utf-8")),
        Contender("vutf8.is_valid", lambda: vutf8.is_valid(data)),
        Contender("vutf8.validate", lambda: vutf8.validate(data)),
    ]


def log_lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def arrow_cases(logs: Path) -> list[Case]:
    cases = []
    for name in ("ascii.log", "multilingual.log"):
        path = logs / name
        if not path.is_file():
            print(f"bench: {path} not found (scripts/real-logs.sh), skipped", file=sys.stderr)
            continue
        lines = log_lines(path)
        column = pa.array(lines, pa.binary())
        series = pl.Series("log", lines, dtype=pl.Binary)
        assert va.is_valid(column).to_pylist() == [True] * len(lines)
        assert va.to_string(column).equals(pc.cast(column, pa.string()))
        assert va.is_valid(series).all() and series.cast(pl.String).len() == len(lines)
        label = f"Arrow column: {name}, {len(lines):,} lines, {column.nbytes:,} B"
        cases.append(Case(label, sum(map(len, lines)), arrow_contenders(column, series)))
    return cases


def arrow_contenders(column: pa.Array, series: pl.Series) -> list[Contender]:
    # (A function of its own, so that each case's calls hold its own column: lambdas made
    # in the loop above would all see the loop's last column.)
    return [
        Contender("pc.cast(col, pa.string())", lambda: pc.cast(column, pa.string())),
        Contender("polars s.cast(pl.String)", lambda: series.cast(pl.String)),
        Contender("vutf8.arrow.is_valid(col)", lambda: va.is_valid(column)),
        Contender("vutf8.arrow.to_string(col)", lambda: va.to_string(column)),
        Contender("vutf8.arrow.is_valid(series)", lambda: va.is_valid(series)),
    ]


def line_cases(logs: Path) -> list[Case]:
    cases = []
    for name in ("multilingual.log", "damaged.log"):
        path = logs / name
        if not path.is_file():
            continue
        buf = path.read_bytes()
        expected = py_line_verdicts(buf)
        assert vutf8.line_verdicts(buf) == expected, "line rules differ on this file"
        bad = expected.count(False)
        label = f"line verdicts: {name}, {len(expected):,} lines ({bad:,} invalid)"
        cases.append(Case(label, len(buf), line_contenders(buf)))
    return cases


def line_contenders(buf: bytes) -> list[Contender]:
    # (A function of its own: see `arrow_contenders`.)
    return [
        Contender("splitlines() + decode loop", lambda: py_line_verdicts(buf)),
        Contender("vutf8.line_verdicts", lambda: vutf8.line_verdicts(buf)),
        Contender("vutf8.invalid_lines", lambda: vutf8.invalid_lines(buf)),
    ]


def calls_per_run(call: Callable[[], object], at_least: float = 0.02) -> int:
    """Enough calls for one timing to take `at_least` seconds."""
    number = 1
    while True:
        if timeit.timeit(call, number=number) >= at_least:
            return number
        number *= 4


def median_times(case: Case, runs: int, alone: bool) -> list[float]:
    """The median seconds per call of each contender, over `runs` interleaved runs (or, when
    `alone`, over `runs` runs of each contender in turn)."""
    numbers = [calls_per_run(c.call) for c in case.contenders]
    times: list[list[float]] = [[] for _ in case.contenders]
    if alone:
        for i, c in enumerate(case.contenders):
            for _ in range(runs):
                times[i].append(timeit.timeit(c.call, number=numbers[i]) / numbers[i])
        return [statistics.median(t) for t in times]
    for run in range(runs):
        order = list(range(len(case.contenders)))
        order = order[run % len(order) :] + order[: run % len(order)]
        for i in order:
            c = case.contenders[i]
            times[i].append(timeit.timeit(c.call, number=numbers[i]) / numbers[i])
    return [statistics.median(t) for t in times]


def human_time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.2f} {unit}"
    return f"{seconds * 1e9:.0f} ns"


def print_case(case: Case, medians: list[float]) -> None:
    print(f"\n{case.name}")
    base = medians[0]
    for c, t in zip(case.contenders, medians):
        rate = case.size / t / 1e9
        print(f"  {c.name:32} {human_time(t):>11} {rate:9.2f} GB/s {base / t:8.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "target" / "real-corpus")
    parser.add_argument("--logs", type=Path, default=ROOT / "target" / "real-logs")
    parser.add_argument("--runs", type=int, default=7, help="interleaved runs (median)")
    parser.add_argument(
        "--alone",
        action="store_true",
        help="time each contender's runs together, not interleaved with the others' (what"
        " one library alone in a process sees: its data stays in the caches)",
    )
    parser.add_argument(
        "--only",
        choices=["all", "decode", "transcoder", "validate", "arrow", "lines"],
        default="all",
        help="one part of the comparison",
    )
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}; vutf8 backend: {vutf8.backend()}")
    print(
        f"Python {platform.python_version()}, pyarrow {pa.__version__}, polars {pl.__version__};"
        f" median of {args.runs} {'runs of each alone' if args.alone else 'interleaved runs'};"
        " the last column: speed relative to the"
        " first line of each case"
    )
    parts = {
        "decode": lambda: decode_cases(args.corpus),
        "transcoder": lambda: transcoder_cases(args.corpus),
        "validate": lambda: text_cases(args.corpus),
        "arrow": lambda: arrow_cases(args.logs),
        "lines": lambda: line_cases(args.logs),
    }
    results = []
    for part, make in parts.items():
        if args.only in ("all", part):
            for case in make():
                medians = median_times(case, args.runs, args.alone)
                print_case(case, medians)
                results.append((case, medians))
    decode_summary(results)


if __name__ == "__main__":
    main()
