"""Shared pieces of the vutf8 Python tests: the Hypothesis profile, byte strategies biased to
UTF-8's edges, the buffer kinds, and CPython's own answers (the oracle of every test)."""

from __future__ import annotations

import array
import mmap
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# Deterministic and bounded: the same examples on every run, the whole suite well under
# two minutes. VUTF8_HYPOTHESIS_EXAMPLES raises the bound for a longer local run.
settings.register_profile(
    "vutf8",
    derandomize=True,
    max_examples=int(__import__("os").environ.get("VUTF8_HYPOTHESIS_EXAMPLES", "200")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("vutf8")

# Bytes at the edges of UTF-8's grammar (Unicode Table 3-7): ASCII, the ends of the
# continuation range, the leads with restricted second bytes (E0 ED F0 F4), the bytes that
# never appear (C0 C1 F5..FF), and line ends.
EDGE_BYTES = [
    0x00, 0x0A, 0x0D, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
    0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8,
    0xFE, 0xFF,
]  # fmt: skip

# Classic attacks and limits: surrogates (CESU-8), overlongs of '/', above U+10FFFF, and
# the largest valid sequences (noncharacters are valid).
ADVERSARIAL = [
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\x9f\xbf", b"\xc0\xaf", b"\xc1\xbf",
    b"\xe0\x80\xaf", b"\xe0\x9f\xbf", b"\xf0\x80\x80\xaf", b"\xf0\x8f\xbf\xbf",
    b"\xf4\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xef\xbf\xbf", b"\xef\xbf\xbe",
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xed\xa0\xbd\xed\xb8\x80",
]  # fmt: skip

# Valid text in several scripts, to place errors deep inside long inputs (the vector
# paths) and at every alignment.
PAD = ("Grüße, Ελληνικά, русский, 日本語, 한국어, emoji 😀, ascii text. " * 40).encode()


def valid_prefix(data: bytes, n: int) -> bytes:
    """The longest prefix of the valid UTF-8 `data` of at most `n` bytes that ends on a
    character boundary."""
    n = min(n, len(data))
    while n < len(data) and 0x80 <= data[n] < 0xC0:
        n -= 1
    return data[:n]


def valid_suffix(data: bytes, n: int) -> bytes:
    """The longest suffix of the valid UTF-8 `data` of at most `n` bytes that starts on a
    character boundary."""
    k = len(data) - min(n, len(data))
    while k < len(data) and 0x80 <= data[k] < 0xC0:
        k += 1
    return data[k:]


def _truncated(text: str) -> st.SearchStrategy[bytes]:
    encoded = text.encode("utf-8")
    return st.integers(0, len(encoded)).map(lambda k: encoded[:k])


piece = st.one_of(
    st.sampled_from(EDGE_BYTES).map(lambda b: bytes([b])),
    st.sampled_from(ADVERSARIAL),
    st.text(max_size=4).map(lambda s: s.encode("utf-8")),
    st.text(min_size=1, max_size=2).flatmap(_truncated),
    st.text(max_size=2).map(lambda s: s.encode("utf-8", "surrogatepass")),
)

#: Short byte strings made of edge bytes, attacks and (cut) characters.
edgy_bytes = st.lists(piece, max_size=24).map(b"".join)

#: Edge bytes inside valid text of any length before and after (0 to 700 bytes).
padded_bytes = st.tuples(st.integers(0, 700), edgy_bytes, st.integers(0, 700)).map(
    lambda t: valid_suffix(PAD, t[0]) + t[1] + valid_prefix(PAD, t[2])
)

#: Everything: Hypothesis's own binary(), edgy and padded inputs.
any_bytes = st.one_of(st.binary(max_size=200), edgy_bytes, padded_bytes)

#: Lines: edgy pieces joined with line ends of every kind.
line_end = st.sampled_from([b"\n", b"\r\n", b"\r", b"\n\n", b"\r\r\n"])
lines_bytes = st.lists(st.tuples(edgy_bytes, line_end), max_size=12).flatmap(
    lambda parts: st.booleans().map(
        lambda keep_last_end: b"".join(a + e for a, e in parts)[
            : None if keep_last_end or not parts else -len(parts[-1][1])
        ]
    )
)


def cpython_error(data: bytes) -> UnicodeDecodeError | None:
    """What `bytes(data).decode('utf-8')` raises, or None."""
    try:
        bytes(data).decode("utf-8")
    except UnicodeDecodeError as e:
        return e
    return None


def error_fields(e: UnicodeDecodeError) -> tuple:
    """The fields CPython's exception and vutf8's must share."""
    return (e.encoding, e.start, e.end, e.reason, bytes(e.object))


@contextmanager
def _as_mmap(data: bytes) -> Iterator[object]:
    """An anonymous mmap holding `data` (an empty one cannot exist: a view of length 0)."""
    with mmap.mmap(-1, max(len(data), 1)) as mapped:
        mapped.write(data)
        if data:
            yield mapped
        else:
            with memoryview(mapped)[:0] as view:
                yield view


@contextmanager
def _plain(make: Callable[[bytes], object], data: bytes) -> Iterator[object]:
    yield make(data)


def _memoryview_slice(data: bytes) -> memoryview:
    return memoryview(b"<<" + data + b">>")[2 : 2 + len(data)]


def _numpy_slice(data: bytes) -> np.ndarray:
    return np.frombuffer(b"\x00" + data + b"\x00", dtype=np.uint8)[1 : 1 + len(data)]


#: Every kind of buffer the functions must read in place: name -> context manager factory.
BUFFER_KINDS: dict[str, Callable[[bytes], object]] = {
    "bytes": lambda d: _plain(bytes, d),
    "bytearray": lambda d: _plain(bytearray, d),
    "memoryview": lambda d: _plain(memoryview, d),
    "memoryview slice": lambda d: _plain(_memoryview_slice, d),
    "mmap": _as_mmap,
    "numpy uint8": lambda d: _plain(lambda b: np.frombuffer(b, dtype=np.uint8), d),
    "numpy writable": lambda d: _plain(lambda b: np.array(list(b), dtype=np.uint8), d),
    "numpy slice": lambda d: _plain(_numpy_slice, d),
    "array.array B": lambda d: _plain(lambda b: array.array("B", b), d),
}
