"""`vutf8.Validator` on random chunkings against one-shot `bytes.decode`, its state after an
error and after `finish`, and the stream helpers `validate_stream` and `validate_file`."""

from __future__ import annotations

import io

import pytest
from conftest import BUFFER_KINDS, PAD, any_bytes, cpython_error
from hypothesis import given
from hypothesis import strategies as st

import vutf8


def cut(data: bytes, cuts: list[int]) -> list[bytes]:
    """`data` cut at the given offsets (taken modulo its length + 1, sorted)."""
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]


def stream_error(chunks: list[object]) -> vutf8.Utf8Error | None:
    validator = vutf8.Validator()
    try:
        for chunk in chunks:
            validator.update(chunk)
        validator.finish()
    except vutf8.Utf8Error as e:
        return e
    return None


@given(data=any_bytes, cuts=st.lists(st.integers(0, 10_000), max_size=12))
def test_any_chunking_against_one_shot_decode(data: bytes, cuts: list[int]) -> None:
    chunks = cut(data, cuts)
    expected = cpython_error(data)
    got = stream_error(chunks)
    if expected is None:
        assert got is None
        return
    assert got is not None
    assert (got.encoding, got.start, got.end, got.reason) == (
        "utf-8",
        expected.start,
        expected.end,
        expected.reason,
    )
    # The stream is not kept: the object is the bytes at fault.
    assert got.object == data[got.start : got.end]


@given(data=any_bytes)
def test_byte_by_byte(data: bytes) -> None:
    expected = cpython_error(data)
    got = stream_error([data[i : i + 1] for i in range(len(data))])
    assert (got is None) == (expected is None)
    if got is not None:
        assert (got.start, got.end, got.reason) == (expected.start, expected.end, expected.reason)


@pytest.mark.parametrize("kind", sorted(BUFFER_KINDS))
def test_chunks_of_every_buffer_kind(kind: str) -> None:
    data = PAD[:300] + b"\xf0\x9f\x98" + b"x"
    expected = cpython_error(data)
    validator = vutf8.Validator()
    for start in range(0, len(data), 7):
        with BUFFER_KINDS[kind](data[start : start + 7]) as chunk:
            try:
                validator.update(chunk)
            except vutf8.Utf8Error as got:
                assert (got.start, got.end, got.reason) == (
                    expected.start,
                    expected.end,
                    expected.reason,
                )
                return
    pytest.fail("no error raised")


def test_after_an_error_the_same_error_again() -> None:
    validator = vutf8.Validator()
    validator.update(b"ab\xe2\x82")
    with pytest.raises(vutf8.Utf8Error) as first:
        validator.update(b"x")
    for again in (lambda: validator.update(b"valid"), validator.finish):
        with pytest.raises(vutf8.Utf8Error) as later:
            again()
        assert later.value is not first.value
        assert (later.value.start, later.value.end, later.value.object) == (2, 4, b"\xe2\x82")
    assert validator.valid_up_to == validator.bytes_seen == 2


def test_finish_reports_a_cut_character_and_then_refuses_updates() -> None:
    validator = vutf8.Validator()
    validator.update(b"ok \xf0\x9f")
    assert (validator.bytes_seen, validator.valid_up_to) == (5, 3)
    for _ in range(2):
        with pytest.raises(vutf8.Utf8Error) as got:
            validator.finish()
        assert (got.value.start, got.value.end, got.value.reason) == (3, 5, "unexpected end of data")
        assert got.value.object == b"\xf0\x9f"
    with pytest.raises(ValueError, match="after finish"):
        validator.update(b"\x98\x80")
    validator.reset()
    validator.update(b"fresh")
    validator.finish()
    assert "5 bytes seen" in repr(validator)


def test_long_chunks_without_the_gil() -> None:
    big = (PAD * (vutf8.DETACH_MIN // len(PAD) + 2))[: vutf8.DETACH_MIN + 10]
    data = big + b"\xed\xa0\x80" + big
    expected = cpython_error(data)
    got = stream_error([data[:100], data[100:]])
    assert (got.start, got.end, got.reason) == (expected.start, expected.end, expected.reason)


def test_validate_stream_and_validate_file(tmp_path) -> None:
    data = PAD * 50
    assert vutf8.validate_stream(io.BytesIO(data), chunk_size=1000) == len(data)
    path = tmp_path / "text.txt"
    path.write_bytes(data)
    assert vutf8.validate_file(path) == len(data)
    (tmp_path / "empty").write_bytes(b"")
    assert vutf8.validate_file(tmp_path / "empty") == 0
    bad = data + b"\xc0\xaf" + data
    expected = cpython_error(bad)
    path.write_bytes(bad)
    with pytest.raises(vutf8.Utf8Error) as got:
        vutf8.validate_file(path)
    assert (got.value.start, got.value.end, got.value.object) == (
        expected.start,
        expected.end,
        bad,
    )
    with pytest.raises(vutf8.Utf8Error) as got:
        vutf8.validate_stream(io.BytesIO(bad), chunk_size=999)
    assert (got.value.start, got.value.end) == (expected.start, expected.end)
