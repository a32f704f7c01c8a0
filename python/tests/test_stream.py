"""`vutf8.Validator` on random chunkings against CPython's incremental UTF-8 decoder (the
same exception for the same chunks) and one-shot `bytes.decode` (`stream_offset`), its state
after an error and after `finish`, and the stream helpers `validate_stream` and
`validate_file` (regular files, pipes, /proc files, sockets)."""

from __future__ import annotations

import codecs
import io
import os
import socket
import subprocess
import sys
import threading

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


def incremental_error(chunks: list[bytes]) -> UnicodeDecodeError | None:
    """What CPython's incremental UTF-8 decoder raises for these chunks, then the end."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for chunk in chunks:
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as e:
        return e
    return None


def assert_as_cpython(chunks: list[bytes]) -> None:
    """The Validator's error for `chunks` is the incremental decoder's (every field and
    the message), and its `stream_offset` is where one-shot decoding puts the error."""
    expected = incremental_error(chunks)
    got = stream_error(chunks)
    one_shot = cpython_error(b"".join(chunks))
    assert (got is None) == (expected is None) == (one_shot is None)
    if got is None:
        return
    assert (got.encoding, got.object, got.start, got.end, got.reason) == (
        expected.encoding,
        expected.object,
        expected.start,
        expected.end,
        expected.reason,
    )
    assert str(got) == str(expected)
    assert got.stream_offset == one_shot.start
    assert got.end - got.start == one_shot.end - one_shot.start


@given(data=any_bytes, cuts=st.lists(st.integers(0, 10_000), max_size=12))
def test_any_chunking_against_the_incremental_decoder(data: bytes, cuts: list[int]) -> None:
    assert_as_cpython(cut(data, cuts))


@given(data=any_bytes)
def test_byte_by_byte(data: bytes) -> None:
    assert_as_cpython([data[i : i + 1] for i in range(len(data))])


@pytest.mark.parametrize("kind", sorted(BUFFER_KINDS))
def test_chunks_of_every_buffer_kind(kind: str) -> None:
    data = PAD[:300] + b"\xf0\x9f\x98" + b"x"
    chunks = [data[start : start + 7] for start in range(0, len(data), 7)]
    expected = incremental_error(chunks)
    validator = vutf8.Validator()
    for chunk in chunks:
        with BUFFER_KINDS[kind](chunk) as buffer:
            try:
                validator.update(buffer)
            except vutf8.Utf8Error as got:
                assert (got.object, got.start, got.end, got.reason) == (
                    expected.object,
                    expected.start,
                    expected.end,
                    expected.reason,
                )
                assert got.stream_offset == cpython_error(data).start
                return
    pytest.fail("no error raised")


def test_the_old_message_is_gone() -> None:
    """The error of a chunk that completes an earlier chunk's bad start holds the bytes it
    names: CPython's "position 0-1" with `object[start:end]` the two bytes at fault."""
    validator = vutf8.Validator()
    validator.update(b"abcd\xe2\x82")
    with pytest.raises(vutf8.Utf8Error) as got:
        validator.update(b"x")
    assert str(got.value) == "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte"
    assert got.value.object[got.value.start : got.value.end] == b"\xe2\x82"
    assert got.value.stream_offset == 4


def test_after_an_error_the_same_error_again() -> None:
    validator = vutf8.Validator()
    validator.update(b"ab\xe2\x82")
    with pytest.raises(vutf8.Utf8Error) as first:
        validator.update(b"x")
    for again in (lambda: validator.update(b"valid"), validator.finish):
        with pytest.raises(vutf8.Utf8Error) as later:
            again()
        assert later.value is not first.value
        assert (later.value.start, later.value.end, later.value.object) == (0, 2, b"\xe2\x82x")
        assert later.value.stream_offset == 2
    assert validator.valid_up_to == validator.bytes_seen == 2


def test_finish_reports_a_cut_character_and_then_refuses_updates() -> None:
    validator = vutf8.Validator()
    validator.update(b"ok \xf0\x9f")
    assert (validator.bytes_seen, validator.valid_up_to) == (5, 3)
    for _ in range(2):
        with pytest.raises(vutf8.Utf8Error) as got:
            validator.finish()
        assert (got.value.start, got.value.end, got.value.reason) == (0, 2, "unexpected end of data")
        assert got.value.object == b"\xf0\x9f" and got.value.stream_offset == 3
    with pytest.raises(ValueError, match="after finish"):
        validator.update(b"\x98\x80")
    validator.reset()
    validator.update(b"fresh")
    validator.finish()
    assert "5 bytes seen" in repr(validator)


def test_long_chunks_without_the_gil() -> None:
    big = (PAD * (vutf8.DETACH_MIN // len(PAD) + 2))[: vutf8.DETACH_MIN + 10]
    data = big + b"\xed\xa0\x80" + big
    assert_as_cpython([data[:100], data[100:]])


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
    assert got.value.stream_offset == expected.start
    with pytest.raises(vutf8.Utf8Error) as got:
        vutf8.validate_stream(io.BytesIO(bad), chunk_size=999)
    assert got.value.stream_offset == expected.start
    assert got.value.start == expected.start % 999


CHILD = "import sys, vutf8; print(vutf8.validate_file(sys.argv[1]))"


@pytest.mark.parametrize("payload", [b"ok\xff", b"ok", b"x" * 300_000 + b"\xc3"])
def test_validate_file_reads_a_pipe(payload: bytes) -> None:
    """`printf 'ok\\xff' | python -c "vutf8.validate_file('/dev/stdin')"`: the pipe is read,
    not trusted as empty (its st_size is 0)."""
    run = subprocess.run(
        [sys.executable, "-c", CHILD, "/dev/stdin"], input=payload, capture_output=True, timeout=120
    )
    if cpython_error(payload) is None:
        assert run.returncode == 0 and run.stdout.strip() == str(len(payload)).encode()
    else:
        assert run.returncode != 0 and b"Utf8Error" in run.stderr


def test_validate_file_reads_a_fifo(tmp_path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    payload = PAD * 10 + b"\xed\xa0\x80"

    def writer() -> None:
        with open(fifo, "wb") as f:
            f.write(payload)

    thread = threading.Thread(target=writer)
    thread.start()
    with pytest.raises(vutf8.Utf8Error) as got:
        vutf8.validate_file(fifo)
    thread.join(timeout=60)
    assert got.value.stream_offset == cpython_error(payload).start


def test_validate_file_reads_proc_files() -> None:
    """/proc files say they hold 0 bytes: their text is read."""
    path = "/proc/self/status"
    if not os.path.exists(path):
        pytest.skip("no /proc")
    assert os.stat(path).st_size == 0
    size = vutf8.validate_file(path)
    assert size > 0


@pytest.mark.parametrize("how", ["fd", "/proc/self/fd", "/dev/fd"])
def test_validate_file_reads_a_socket(how: str) -> None:
    """A socket, which no path reopens: through its descriptor or a path that names it."""
    left, right = socket.socketpair()
    payload = b"caf\xc3\xa9 " * 1000 + b"\xff"
    right.sendall(payload)
    right.close()
    target = left.fileno() if how == "fd" else f"{how}/{left.fileno()}"
    try:
        with pytest.raises(vutf8.Utf8Error) as got:
            vutf8.validate_file(target)
        assert got.value.stream_offset == len(payload) - 1
        assert left.fileno() >= 0  # left open
    finally:
        left.close()


def test_validate_file_reads_a_socket_as_stdin() -> None:
    left, right = socket.socketpair()
    right.sendall(b"ok\xff")
    right.close()
    with left:
        run = subprocess.run(
            [sys.executable, "-c", CHILD, "/dev/stdin"], stdin=left, capture_output=True, timeout=120
        )
    assert run.returncode != 0 and b"Utf8Error" in run.stderr
