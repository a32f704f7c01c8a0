"""A leak and crash check: thousands of calls of every kind (valid and invalid input, every
buffer kind, exceptions raised and caught, streams, Arrow columns in and out) in a loop,
with the memory Python traces (`tracemalloc`) and the process's peak RSS
(`resource.getrusage`) measured before and after: both must stay flat. The inputs are of
100 KB, so one leaked copy per round would show as 30 MB over the 300 measured rounds."""

from __future__ import annotations

import gc
import resource
import tracemalloc

import numpy as np
import polars as pl
import pyarrow as pa
from conftest import PAD

import vutf8
import vutf8.arrow as va

BIG = (PAD * 40)[: 100_000].decode("utf-8", "ignore").encode()
BAD = BIG[:50_000] + b"\xed\xa0\x80" + BIG[50_000:]
LINES = b"\n".join([PAD[:80], b"caf\xe9", PAD[:200], b"\xc0\xaf"] * 300)
COLUMN = pa.array([PAD[:100], b"\xff", None, PAD[:30]] * 500, pa.binary())
SERIES = pl.Series("s", [PAD[:50], b"\xc3", None] * 100, dtype=pl.Binary)


def one_round() -> None:
    for data in (BIG, BAD, bytearray(BAD), np.frombuffer(BAD, dtype=np.uint8), memoryview(BIG)):
        vutf8.is_valid(data)
        try:
            vutf8.validate(data)
        except vutf8.Utf8Error as e:
            assert len(e.object) == len(BAD)
    try:
        vutf8.validate(memoryview(BIG)[::2])
    except ValueError:
        pass
    vutf8.line_verdicts(LINES)
    vutf8.invalid_lines(LINES)
    for policy in ("replace", "escape", "windows-1252", "drop"):
        vutf8.repair(LINES, policy)
    try:
        vutf8.repair(LINES, "strict")
    except vutf8.Utf8Error:
        pass
    validator = vutf8.Validator()
    try:
        validator.update(BAD[:70_000])
        validator.update(BAD[70_000:])
    except vutf8.Utf8Error:
        pass
    va.is_valid(COLUMN)
    va.error_offsets(COLUMN)
    va.error_reasons(COLUMN)
    va.to_string(COLUMN, "escape")
    try:
        va.to_string(COLUMN)
    except vutf8.Utf8Error:
        pass
    va.to_string(pa.chunked_array([COLUMN, COLUMN]), "drop")
    va.is_valid(SERIES)


def peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_many_calls_keep_memory_flat() -> None:
    for _ in range(30):  # warm up: caches, interned names, allocator pools
        one_round()
    gc.collect()
    tracemalloc.start()
    traced_before, _ = tracemalloc.get_traced_memory()
    rss_before = peak_rss_kib()
    for _ in range(300):
        one_round()
    gc.collect()
    traced_after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_growth_mib = (peak_rss_kib() - rss_before) / 1024
    assert traced_after - traced_before < 256 * 1024, "Python objects leaked"
    assert rss_growth_mib < 32, f"peak RSS grew by {rss_growth_mib:.0f} MiB"
