"""`is_valid` and `validate` against CPython's `bytes.decode('utf-8')` on random and
adversarial bytes, in every kind of buffer; `Utf8Error`'s fields and vutf8's details."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conftest import (
    ADVERSARIAL,
    BUFFER_KINDS,
    EDGE_BYTES,
    PAD,
    any_bytes,
    cpython_error,
    error_fields,
)
from hypothesis import given

import vutf8


def vutf8_error(data: object) -> vutf8.Utf8Error | None:
    """What `vutf8.validate(data)` raises, or None."""
    try:
        vutf8.validate(data)
    except vutf8.Utf8Error as e:
        return e
    return None


def assert_same_as_cpython(data: bytes, buffer: object) -> None:
    expected = cpython_error(data)
    got = vutf8_error(buffer)
    assert vutf8.is_valid(buffer) is (expected is None)
    if expected is None:
        assert got is None
    else:
        assert got is not None, f"vutf8 accepted {data!r}"
        assert error_fields(got) == error_fields(expected)
        assert str(got) == str(expected)


@given(any_bytes)
def test_bytes_against_cpython(data: bytes) -> None:
    assert_same_as_cpython(data, data)


@pytest.mark.parametrize("kind", sorted(BUFFER_KINDS))
@given(data=any_bytes)
def test_every_buffer_kind_against_cpython(kind: str, data: bytes) -> None:
    with BUFFER_KINDS[kind](data) as buffer:
        assert_same_as_cpython(data, buffer)


def test_every_byte_pair_and_triple_prefix() -> None:
    """Every 1- and 2-byte string, and every edge byte before them, at the start and deep
    inside valid text (where the vector code runs)."""
    for first in range(256):
        for second in range(256):
            data = bytes([first, second])
            assert_same_as_cpython(data, data)
    for lead in EDGE_BYTES:
        for first in range(256):
            for context in (b"", PAD[:600]):
                data = context + bytes([lead, first]) + b"\x80\xbf"
                assert_same_as_cpython(data, data)


def test_adversarial_at_every_offset() -> None:
    for attack in ADVERSARIAL:
        for offset in range(0, 130):
            data = PAD[:offset].decode("utf-8", "ignore").encode() + attack + b"tail"
            assert_same_as_cpython(data, data)
            assert_same_as_cpython(data[:-4], data[:-4])


def test_object_is_the_input_for_bytes_and_a_copy_otherwise() -> None:
    data = b"abc\xff"
    assert vutf8_error(data).object is data
    source = bytearray(data)
    e = vutf8_error(source)
    assert type(e.object) is bytes and e.object == data
    source[0] = ord("x")  # the exception kept a copy
    assert e.object == data


def test_details_kind_and_code_point() -> None:
    """vutf8's reason on top of CPython's: the classes of Unicode Table 3-7, with the value
    an overlong, surrogate or too-large sequence encodes (computed here from its bits)."""
    cases = {
        b"/\xc0\xaf": ("overlong encoding", ((0xC0 & 0x1F) << 6) | (0xAF & 0x3F)),
        b"\xe0\x80\xaf": ("overlong encoding", 0x2F),
        b"\xed\xa0\x80": ("encoded surrogate", 0xD800),
        b"\xf4\x90\x80\x80": ("code point above U+10FFFF", 0x110000),
        b"\x80": ("unexpected continuation byte", None),
        b"\xff": ("byte that never appears in UTF-8", None),
        b"\xe2\x82x": ("sequence cut short", None),
        b"\xe2\x82": ("input ends inside a sequence", None),
    }
    for data, (kind, code_point) in cases.items():
        e = vutf8_error(data)
        assert (e.kind, e.code_point) == (kind, code_point), data
        assert isinstance(e, UnicodeDecodeError) and isinstance(e, ValueError)


def test_exception_pickles_and_catches_as_unicode_decode_error() -> None:
    e = vutf8_error(b"ok\xff")
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is vutf8.Utf8Error
    assert error_fields(again) == error_fields(e)
    with pytest.raises(UnicodeDecodeError):
        vutf8.validate(b"\xc3")


def test_long_inputs_release_the_gil_and_answer_the_same() -> None:
    """Inputs past DETACH_MIN take the path without the GIL: same answers."""
    n = vutf8.DETACH_MIN * 2
    text = (PAD * (n // len(PAD) + 1))[:n].decode("utf-8", "ignore").encode()
    for data in (text, text + b"\xe2\x82", text[:1000] + b"\xed\xa0\x80" + text):
        assert_same_as_cpython(data, data)
        assert_same_as_cpython(data, bytearray(data))


def test_non_contiguous_buffers_are_refused() -> None:
    strided = memoryview(b"a\xffb\xffc")[::2]
    with pytest.raises(ValueError, match="not C-contiguous"):
        vutf8.is_valid(strided)
    with pytest.raises(ValueError, match="not C-contiguous"):
        vutf8.validate(np.arange(10, dtype=np.uint8)[::3])
    # What the message suggests works, and gives CPython's answer.
    assert vutf8.is_valid(bytes(strided)) is True


def test_not_a_buffer_is_a_type_error() -> None:
    for bad in ("text", 3, None, [1, 2]):
        with pytest.raises(TypeError):
            vutf8.is_valid(bad)
        with pytest.raises(TypeError):
            vutf8.validate(bad)


def test_any_buffer_format_is_read_as_its_bytes() -> None:
    """As bytes(data) does: a buffer of wider items is read as its raw bytes."""
    wide = np.array([0x00E9C3, 0x41], dtype=np.uint32)
    assert vutf8.is_valid(wide) == (cpython_error(bytes(wide)) is None)
    assert_same_as_cpython(bytes(wide), wide)


def test_backend_is_a_known_name() -> None:
    assert vutf8.backend() in {"avx512", "avx2", "sse4.2", "neon", "simd128", "scalar"}


def test_every_attribute_of_the_stub_exists() -> None:
    """`row` and `stream_offset` exist on every Utf8Error, not only where they are set
    (before, `e.row` outside `arrow.to_string` was an AttributeError)."""
    e = vutf8_error(b"ok\xff")
    assert (e.row, e.stream_offset, e.kind, e.code_point) == (None, 2, "byte that never appears in UTF-8", None)
    made = vutf8.Utf8Error("utf-8", b"\xff", 0, 1, "invalid start byte")
    assert (made.row, made.stream_offset, made.kind, made.code_point) == (None, None, None, None)
    again = pickle.loads(pickle.dumps(e))
    assert (again.row, again.stream_offset) == (None, 2)
