"""`vutf8.decode(data, errors)` against `bytes(data).decode('utf-8', errors)`: the same
`str` (equal, of the same PEP 393 kind and size, the same hash) or the same
`UnicodeDecodeError` (type, object, start, end, reason, message), for the five handlers vutf8
runs itself and for others through CPython; on Hypothesis's inputs, 20,000 seeded
mutations of real and adversarial text, the real corpus and the damaged logs where this
machine has them (scripts/real-corpus.sh, scripts/real-logs.sh), every buffer kind, both
ways of making strings, and inputs past DETACH_MIN."""

from __future__ import annotations

import codecs
import itertools
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ADVERSARIAL, BUFFER_KINDS, EDGE_BYTES, PAD, any_bytes
from hypothesis import given
from hypothesis import strategies as st

import vutf8
from vutf8 import _vutf8

HANDLERS = ["strict", "replace", "backslashreplace", "surrogateescape", "ignore"]
ROOT = Path(__file__).resolve().parents[2]
#: How many seeded mutations test_seeded_mutations checks (each with every handler).
MUTATIONS = int(os.environ.get("VUTF8_DECODE_MUTATIONS", "20000"))


def cpython(data: bytes, errors: str) -> str | BaseException:
    try:
        return data.decode("utf-8", errors)
    except (UnicodeDecodeError, LookupError, TypeError) as e:
        return e


def ours(buffer: object, errors: str) -> str | BaseException:
    try:
        return vutf8.decode(buffer, errors)
    except (UnicodeDecodeError, LookupError, TypeError) as e:
        return e


def assert_same(data: bytes, errors: str, buffer: object | None = None) -> None:
    expected = cpython(data, errors)
    got = ours(data if buffer is None else buffer, errors)
    if isinstance(expected, str):
        assert isinstance(got, str), (data, errors, got)
        assert got == expected, (data, errors)
        # The same PEP 393 form: kind and length give the size; the hash is the text's.
        assert sys.getsizeof(got) == sys.getsizeof(expected), (data, errors)
        assert hash(got) == hash(expected)
        return
    assert isinstance(got, type(expected)), (data, errors, got, expected)
    if isinstance(expected, UnicodeDecodeError):
        # vutf8's own for its handlers; another handler's is CPython's, passed through.
        assert (type(got) is vutf8.Utf8Error) is (errors in HANDLERS)
        assert (got.encoding, got.object, got.start, got.end, got.reason) == (
            expected.encoding,
            expected.object,
            expected.start,
            expected.end,
            expected.reason,
        )
        assert str(got) == str(expected)
    else:
        assert str(got) == str(expected)


def assert_all_handlers(data: bytes, buffer: object | None = None) -> None:
    for errors in HANDLERS:
        assert_same(data, errors, buffer)


@given(any_bytes)
def test_every_handler_against_cpython(data: bytes) -> None:
    assert_all_handlers(data)


@pytest.mark.parametrize("kind", sorted(BUFFER_KINDS))
@given(data=any_bytes)
def test_every_buffer_kind(kind: str, data: bytes) -> None:
    with BUFFER_KINDS[kind](data) as buffer:
        assert_all_handlers(data, buffer)


@given(st.lists(st.sampled_from(["a", "é", "\u0100", "\uffff", "😀", "\U0010ffff"]), max_size=80))
def test_every_kind_of_valid_text(chars: list[str]) -> None:
    """Valid text of each PEP 393 kind and their mixes, at lengths around the vector
    blocks: the string's kind is the widest character's."""
    text = "".join(chars)
    for data in (text.encode(), (text * 7).encode(), ("x" * 33 + text).encode()):
        assert_all_handlers(data)


def test_short_text_of_every_shape() -> None:
    """Below `_SHORT_DECODE_BELOW` bytes, text that is not ASCII is decoded in one pass,
    Latin-1 characters on their own and then UCS-2 by a validating conversion, each handing
    over at what it does not take: every such shape, at the lengths on both sides of the
    limit, ending anywhere in a character, dense and mostly ASCII (whose UCS-2 text goes
    through vutf8's loop instead), with an ill-formed sequence at every place of the
    shortest ones."""
    limit = _vutf8._SHORT_DECODE_BELOW
    pieces = ["é", "\u00a0", "ÿ", "\u0080", "\u0100", "ж", "\uffff", "日", "😀", "\U0010ffff"]
    bad = [b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\xbf", b"\xc2", b"\xc3x", b"\xe0\x80\x80",
           b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5", b"\xff"]
    for length in (1, 2, 3, 7, 8, 9, 100, limit - 2, limit - 1, limit, limit + 1):
        for piece, filler in itertools.product(pieces, ("a" * 8, "a" * 40)):
            for first in ("a", piece):
                text = (first + filler + piece) * length
                data = text.encode()[:length]
                for cut in (data, data[:-1], data + piece.encode()[:1]):
                    assert_all_handlers(cut)
                    assert_all_handlers(cut, bytearray(cut))
    for base in [("é" * n).encode()[: 2 * n] for n in (1, 9, 40)] + [
        ("a" * 30 + "日" + "a" * 30).encode()
    ]:
        for b in bad:
            for at in range(0, len(base) + 1):
                assert_all_handlers(base[:at] + b + base[at:])


def mutate(rng: random.Random, data: bytes) -> bytes:
    """`data` with 1 to 4 edits: a byte replaced, inserted or deleted, or an adversarial
    sequence inserted, at random places (some at the ends)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.choice([0, len(out), rng.randint(0, len(out))])
        edit = rng.randrange(4)
        if edit == 0 and at < len(out):
            out[at] = rng.choice(EDGE_BYTES + [rng.randrange(256)])
        elif edit == 1:
            out[at:at] = bytes([rng.choice(EDGE_BYTES + [rng.randrange(256)])])
        elif edit == 2 and at < len(out):
            del out[at]
        else:
            out[at:at] = rng.choice(ADVERSARIAL)
    return bytes(out)


def seeds() -> list[bytes]:
    """Texts to mutate: the padding text, the conformance files and slices of the real
    corpus when this machine has them."""
    texts = [PAD, PAD[:200], b"plain ascii " * 20, "é".encode() * 100, "😀".encode() * 50]
    corpus = ROOT / "target" / "real-corpus" / "text"
    if corpus.is_dir():
        for path in sorted(corpus.iterdir())[:6]:
            whole = path.read_bytes()
            texts += [whole[i : i + 700] for i in range(0, min(len(whole), 70_000), 7_000)]
    return texts


def test_seeded_mutations() -> None:
    rng = random.Random(20_260_001)
    texts = seeds()
    kinds = ["bytes", "bytearray", "memoryview", "mmap"]
    for i in range(MUTATIONS):
        data = mutate(rng, rng.choice(texts))
        with BUFFER_KINDS[kinds[i % len(kinds)]](data) as buffer:
            assert_all_handlers(data, buffer)


def test_both_ways_of_making_strings() -> None:
    """The portable way (CPython's decoders of Latin-1, UTF-16, UTF-32 copying vutf8's
    buffer) gives the same strings as the direct way, lone surrogates included."""
    rng = random.Random(7)
    texts = seeds()
    was = _vutf8._portable()
    try:
        for portable in (True, False):
            _vutf8._portable(portable)
            for _ in range(2000):
                assert_all_handlers(mutate(rng, rng.choice(texts)))
    finally:
        _vutf8._portable(was)


def test_long_inputs_without_the_gil() -> None:
    n = vutf8.DETACH_MIN * 3
    text = (PAD * (n // len(PAD) + 1))[:n].decode("utf-8", "ignore").encode()
    for data in (
        text,
        text + b"\xe2\x82",
        text[:1000] + b"\xed\xa0\x80" + text,
        bytes(random.Random(3).getrandbits(8) for _ in range(n)),
        text.decode().encode("latin-1", "replace"),
        ("é" * n).encode() + "😀".encode() + b"\xff",
    ):
        assert_all_handlers(data)
        assert_all_handlers(data, bytearray(data))


def test_other_handlers_are_cpythons() -> None:
    """Any other name is looked up and called by CPython: registered handlers, ones that
    do not exist (a LookupError only when an error needs a handler), surrogatepass."""
    calls = []

    def question_marks(e: UnicodeDecodeError) -> tuple[str, int]:
        calls.append((e.start, e.end))
        return "?", e.end

    codecs.register_error("vutf8-test-question-marks", question_marks)
    for data in (b"ok \xff and \xc0\xaf", b"\xed\xa0\x80 surrogate", b"valid", b"\xf0\x9f"):
        for errors in ("vutf8-test-question-marks", "surrogatepass", "no-such-handler"):
            assert_same(data, errors)
            assert_same(data, errors, bytearray(data))
    assert calls


def test_refusals() -> None:
    for bad in ("text", 3, None):
        with pytest.raises(TypeError):
            vutf8.decode(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        vutf8.decode(b"x", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not C-contiguous"):
        vutf8.decode(memoryview(b"abcd")[::2])
    with pytest.raises(TypeError, match="Python objects"):
        vutf8.decode(np.array([b"ok"], dtype=object))
    assert vutf8.decode(b"") == "" and vutf8.decode(bytearray()) == ""


def real_files() -> list[Path]:
    """The real corpus and the real logs, where this machine has them."""
    files: list[Path] = []
    for folder in ("real-corpus", "real-logs"):
        base = ROOT / "target" / folder
        if base.is_dir():
            files += sorted(p for p in base.rglob("*") if p.is_file() and p.suffix != ".md")
    return files


@pytest.mark.parametrize("path", real_files() or [None], ids=lambda p: p.name if p else "none")
def test_real_corpus_and_damaged_logs(path: Path | None) -> None:
    if path is None:
        pytest.skip("no target/real-corpus or target/real-logs: run scripts/real-corpus.sh, real-logs.sh")
    data = path.read_bytes()
    assert_all_handlers(data)
    with BUFFER_KINDS["mmap"](data) as mapped:
        assert_same(data, "replace", mapped)


def test_a_numpy_object_array_is_refused_everywhere() -> None:
    """Its bytes are pointers: before, `is_valid` read them (and its answer depended on
    the addresses)."""
    objects = np.array([b"ok"], dtype=object)
    for call in (vutf8.is_valid, vutf8.validate, vutf8.decode, vutf8.line_verdicts):
        with pytest.raises(TypeError, match="Python objects"):
            call(objects)


def test_isolated_bytes_at_every_place_of_a_block() -> None:
    """Latin-1 text read as UTF-8: every non-ASCII byte alone, two apart, two side by side, or
    after a valid character, between ASCII bytes, at each place of two of the loop's steps (`_DECODE_STEP` bytes
    tested at once, the path that writes a step whole and replaces its bytes) and of the
    16-byte blocks after them, and next to a valid character. Every byte at the places
    around a step's edges, bytes of every kind (leads of each length, continuations, bytes
    that lead nothing) at every place."""
    step = _vutf8._DECODE_STEP
    kinds = [0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
    edges = {0, 1, step // 2 - 1, step // 2, step - 2, step - 1, step, 2 * step - 1}
    checked = 0
    for at in range(2 * step + 20):
        for byte in range(0x80, 0x100) if at in edges else kinds:
            for tail in (b"", b"z" * (step + 20), "é".encode() + b"x" * step):
                for data in (
                    b"a" * at + bytes([byte]) + b"b" * 20 + tail,
                    b"a" * at + bytes([byte]) + b"c" + bytes([byte]) + b"d" * 17 + tail,
                    b"a" * at + bytes([byte, byte]) + b"e" * 20 + tail,
                    b"a" * at + "é".encode() + bytes([byte]) + b"g" * 20 + tail,
                ):
                    assert_same(data, "replace")
                    assert_same(data, "surrogateescape")
                    checked += 1
    assert checked == 3 * 4 * (len(edges) * 128 + (2 * step + 20 - len(edges)) * len(kinds))


@pytest.mark.parametrize("wide", [True, False])
def test_isolated_bytes_in_every_width_of_string(wide: bool) -> None:
    """The same loop writing UCS-4 (a character above U+FFFF first) and UCS-2, with and
    without AVX2's wider vectors (`_wide_steps`: the path of CPUs without them)."""
    step = _vutf8._DECODE_STEP
    was = _vutf8._wide_steps()
    try:
        _vutf8._wide_steps(wide)
        for head in (b"", "😀".encode()):
            for at in range(2 * step + 20):
                for byte in (0x80, 0xC3, 0xE9, 0xF0, 0xFF):
                    for data in (
                        b"a" * at + bytes([byte]) + b"b" * (step + 20),
                        b"a" * at + bytes([byte, byte]) + b"e" * (step + 20),
                        b"a" * at + "é".encode() + bytes([byte]) + b"g" * (step + 20),
                    ):
                        for errors in HANDLERS:
                            assert_same(head + data, errors)
    finally:
        _vutf8._wide_steps(was)


def test_dense_damage_with_every_handler() -> None:
    """Random bytes and binary junk (one error in a few bytes: `surrogateescape` and
    `replace` go from error to error by vutf8's search), with valid characters of every
    width among them (a character above U+FFFF makes the string wider on the way), long
    valid runs, and a sequence that the end leaves open, at lengths across the probe
    (4 KiB) and the vector blocks."""
    rng = random.Random(31)
    wide = ["é", "\u20ac", "\U0001f600", "a" * 40, "\u4e2d" * 9]
    checked = 0
    for length in (3, 17, 64, 65, 200, 1000, 4095, 4096, 4097, 20000):
        for mix in range(4):
            data = bytearray(rng.randbytes(length))
            for _ in range(mix * length // 50):
                at = rng.randrange(len(data) + 1)
                data[at:at] = rng.choice(wide).encode()
            for end in (b"", b"\xf0\x9f", b"\xe2", b"z"):
                for errors in HANDLERS:
                    assert_same(bytes(data) + end, errors)
                checked += 1
    assert checked == 160


@pytest.mark.parametrize("on", [True, False, None])
def test_wide_conversions_both_ways(on: bool | None) -> None:
    """Valid text into UCS-2 and UCS-4 by vutf8's AVX2 conversions (`_convert_avx2(True)`:
    wherever the CPU has AVX2), by simdutf (`False`), and as the CPU decides (`None`):
    characters of one to four bytes (the edges of each, surrogates' neighbours) in every
    mix, at every length around the vector steps; sparse text whose first 4 KiB are
    Latin-1, then a wider character (the loop hands the rest over), then valid text, a
    character above U+FFFF or an error; WTF-8 of `surrogateescape` on CJK text with an
    error, and random bytes under every handler (UCS-4 made from the UTF-8 the handlers
    write)."""
    was = _vutf8._convert_avx2()
    rng = random.Random(47)
    pools = [
        [0x0A, 0x20, 0x41, 0x7E, 0x7F],
        [0x80, 0xE9, 0xFF, 0x100, 0x3A9, 0x7FF],
        [0x800, 0x4E2D, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF],
        [0x10000, 0x1F600, 0x10FFFF],
    ]
    try:
        _vutf8._convert_avx2(on)
        for length in [*range(1, 200), 255, 256, 1000, 4095, 4097, 70_000]:
            for widest in (3, 4):
                weights = [rng.random() for _ in pools[:widest]]
                picks = rng.choices(pools[:widest], weights, k=length)
                text = "".join(chr(rng.choice(p)) for p in picks) + "\u0100"
                assert_same(text.encode(), "strict")
        latin = ("Grüße aus Köln, " * 300).encode()
        for at in (0, 1, 15, 16, 17, 31, 100):
            for after in (
                "€ und weiter " * 50,
                "\U0001f600 danach",
                "中文" * 200,
                "€ dann " * 50 + "\U0001f600 danach",
            ):
                data = latin + b"x" * at + after.encode()
                assert_same(data, "strict")
                assert_same(data + b"\xff tail", "strict")
                assert_same(data + b"\xff tail", "replace")
        cjk = ("中文字符" * 500).encode()
        noise = random.Random(5).randbytes(20_000)
        for errors in HANDLERS:
            assert_same(cjk + b"\xff\xc3" + cjk + b"\xed\xa0\x80" + cjk, errors)
            assert_same(noise, errors)
    finally:
        _vutf8._convert_avx2(was)


def test_latin1_pass_at_every_place() -> None:
    """The one-pass Latin-1 decoding ahead of the loop (AVX2) on sparse text of Latin-1
    characters (so the loop starts with a Latin-1 string), then, past the first 4 KiB: a
    character, a pair, a lead
    without its continuation byte, a continuation byte alone, an unencoded Latin-1 byte, a
    lead beyond Latin-1, a sequence of three bytes, at every place across two 32-byte steps
    and at the end of the input, under strict and two other handlers."""
    # 1 continuation byte in 32, past the 4 KiB whose shape chooses the way.
    head = "Die Straße ist lang und breit, ".encode() * 160
    probes = [
        "é".encode(),
        "éü".encode(),
        b"\xc3a",
        b"\xa9",
        b"\xe9",
        "Ā".encode(),
        "€".encode(),
        b"\xc3",
        b"\xc2\xa0\xc3\xbf",
    ]
    checked = 0
    for at in range(70):
        for probe in probes:
            for tail in (b"x" * 100, b""):
                data = head + b"a" * at + probe + tail
                for errors in ("strict", "replace", "surrogateescape"):
                    assert_same(data, errors)
                    checked += 1
    assert checked == 70 * len(probes) * 2 * 3
