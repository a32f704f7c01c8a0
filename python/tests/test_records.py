"""The records API: `line_verdicts`, `invalid_lines` and `repair` against per-line
`bytes.decode` (strict, 'replace', 'backslashreplace'), the WHATWG windows-1252 table, and
the line rules of `vutf8 repair --policy` (each line keeps its line end; a dropped line
loses it)."""

from __future__ import annotations

import pytest
from conftest import BUFFER_KINDS, PAD, cpython_error, edgy_bytes, error_fields, lines_bytes
from hypothesis import given
from hypothesis import strategies as st

import vutf8


def reference_records(data: bytes, delimiter: int | None = None) -> list[tuple[bytes, bytes]]:
    """Each record with its end, by the rules of docs/RECORDS.md: cut at the delimiter (for
    lines `\\n`, with a `\\r` just before it moved to the end); the last record needs no
    delimiter; none after a final delimiter, none in an empty buffer."""
    sep = b"\n" if delimiter is None else bytes([delimiter])
    records, pos = [], 0
    while pos < len(data):
        i = data.find(sep, pos)
        if i < 0:
            records.append((data[pos:], b""))
            break
        record, end = data[pos:i], sep
        if delimiter is None and record.endswith(b"\r"):
            record, end = record[:-1], b"\r\n"
        records.append((record, end))
        pos = i + 1
    return records


def windows_1252_table() -> list[str]:
    """The WHATWG windows-1252 table: Python's cp1252, and for the five bytes it leaves
    undefined (81 8D 8F 90 9D) the C1 control of the same number, as the WHATWG (and
    encoding_rs) map them."""
    table = []
    for b in range(256):
        try:
            table.append(bytes([b]).decode("cp1252"))
        except UnicodeDecodeError:
            table.append(chr(b))
    return table


WINDOWS_1252 = windows_1252_table()


def reference_text(record: bytes, policy: str) -> bytes | None:
    """The record under `policy`, None when it is left out."""
    if cpython_error(record) is None:
        return record
    if policy == "replace":
        return record.decode("utf-8", "replace").encode()
    if policy == "escape":
        return record.decode("utf-8", "backslashreplace").encode()
    if policy == "ignore":
        return record.decode("utf-8", "ignore").encode()
    if policy == "backslashreplace":
        return record.decode("utf-8", "backslashreplace").encode()
    if policy == "windows-1252":
        return "".join(WINDOWS_1252[b] for b in record).encode()
    assert policy == "drop"
    return None


def reference_repair(data: bytes, policy: str, delimiter: int | None = None) -> bytes:
    out = []
    for record, end in reference_records(data, delimiter):
        text = reference_text(record, policy)
        if text is not None:
            out.append(text + end)
    return b"".join(out)


def test_the_windows_1252_table_differs_from_cp1252_in_five_bytes() -> None:
    undefined = []
    for b in range(256):
        try:
            bytes([b]).decode("cp1252")
        except UnicodeDecodeError:
            undefined.append(b)
    assert undefined == [0x81, 0x8D, 0x8F, 0x90, 0x9D]
    assert [ord(WINDOWS_1252[b]) for b in undefined] == undefined
    assert WINDOWS_1252[0x80] == "\u20ac" and WINDOWS_1252[0xE9] == "é"


@given(lines_bytes)
def test_verdicts_against_decode_per_line(data: bytes) -> None:
    verdicts = [cpython_error(r) is None for r, _ in reference_records(data)]
    assert vutf8.line_verdicts(data) == verdicts
    assert vutf8.invalid_lines(data) == [i for i, ok in enumerate(verdicts) if not ok]


@pytest.mark.parametrize(
    "policy", ["replace", "escape", "backslashreplace", "ignore", "windows-1252", "drop"]
)
@given(data=lines_bytes)
def test_repair_against_references(policy: str, data: bytes) -> None:
    assert vutf8.repair(data, policy) == reference_repair(data, policy)


@given(lines_bytes)
def test_replace_and_escape_equal_python_codecs_on_each_line(data: bytes) -> None:
    """`replace` per line is `.decode('utf-8', 'replace')` per line; the line ends are
    ASCII, so on the whole buffer too; so are CPython's names for the handlers."""
    assert vutf8.repair(data, "replace") == data.decode("utf-8", "replace").encode()
    assert vutf8.repair(data, "escape") == data.decode("utf-8", "backslashreplace").encode()
    for handler in ("backslashreplace", "ignore"):
        assert vutf8.repair(data, handler) == data.decode("utf-8", handler).encode()


@given(lines_bytes)
def test_invalid_lines_as_byte_offsets(data: bytes) -> None:
    records = reference_records(data)
    starts, pos = [], 0
    for record, end in records:
        starts.append(pos)
        pos += len(record) + len(end)
    expected = [starts[i] for i, (r, _) in enumerate(records) if cpython_error(r) is not None]
    assert vutf8.invalid_lines(data, offsets=True) == expected
    assert vutf8.invalid_lines(bytearray(data), None, offsets=True) == expected
    for at in expected:  # each offset is where a damaged line starts
        assert at == 0 or data[at - 1 : at] == b"\n"


def test_surrogateescape_is_refused_where_bytes_are_written() -> None:
    with pytest.raises(ValueError, match="lone surrogates"):
        vutf8.repair(b"caf\xe9", "surrogateescape")  # type: ignore[arg-type]


@given(lines_bytes)
def test_strict_raises_the_first_error_of_the_buffer(data: bytes) -> None:
    expected = cpython_error(data)
    if expected is None:
        assert vutf8.repair(data, "strict") == data
    else:
        with pytest.raises(vutf8.Utf8Error) as got:
            vutf8.repair(data, "strict")
        assert error_fields(got.value) == error_fields(expected)


@pytest.mark.parametrize("delimiter", [0x00, 0x1E, ord(","), ord("\t"), ord("\r")])
@given(parts=st.lists(edgy_bytes, max_size=10), final=st.booleans())
def test_split_at_any_ascii_delimiter(delimiter: int, parts: list[bytes], final: bool) -> None:
    sep = bytes([delimiter])
    data = sep.join(parts) + (sep if final and parts else b"")
    records = reference_records(data, delimiter)
    verdicts = [cpython_error(r) is None for r, _ in records]
    for given_as in (delimiter, sep):
        assert vutf8.line_verdicts(data, delimiter=given_as) == verdicts
        assert vutf8.invalid_lines(data, given_as) == [i for i, ok in enumerate(verdicts) if not ok]
        for policy in ("replace", "escape", "ignore", "windows-1252", "drop"):
            expected = reference_repair(data, policy, delimiter)
            assert vutf8.repair(data, policy, delimiter=given_as) == expected


@pytest.mark.parametrize("kind", sorted(BUFFER_KINDS))
def test_every_buffer_kind(kind: str) -> None:
    data = b"ok\r\ncaf\xe9\n\xff\xfe bad\n\xed\xa0\x80\nlast \xe2\x82"
    with BUFFER_KINDS[kind](data) as buffer:
        assert vutf8.line_verdicts(buffer) == [True, False, False, False, False]
        assert vutf8.invalid_lines(buffer) == [1, 2, 3, 4]
        assert vutf8.repair(buffer, "escape") == reference_repair(data, "escape")


def test_valid_bytes_come_back_as_the_same_object() -> None:
    data = b"one\ntwo\n"
    assert vutf8.repair(data) is data
    assert vutf8.repair(bytearray(data)) == data


def test_long_buffers_without_the_gil() -> None:
    lines = [PAD[: 50 + i % 200].decode("utf-8", "ignore").encode() for i in range(3000)]
    for i in range(0, 3000, 97):
        lines[i] = lines[i][:7] + b"\xc0\xaf" + lines[i][7:]
    data = b"\n".join(lines)
    assert len(data) > vutf8.DETACH_MIN
    assert vutf8.invalid_lines(data) == [i for i, r in enumerate(lines) if cpython_error(r)]
    assert vutf8.repair(data, "drop") == reference_repair(data, "drop")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="not ASCII"):
        vutf8.line_verdicts(b"a", delimiter=0xC3)
    with pytest.raises(ValueError, match="not ASCII"):
        vutf8.repair(b"a", delimiter=b"\xff")
    with pytest.raises(ValueError):
        vutf8.invalid_lines(b"a", delimiter=256)
    with pytest.raises(TypeError):
        vutf8.line_verdicts(b"a", delimiter=b"ab")
    with pytest.raises(TypeError):
        vutf8.line_verdicts(b"a", delimiter="\t")
    with pytest.raises(ValueError, match="unknown policy"):
        vutf8.repair(b"a", "latin-1")
    assert vutf8.POLICIES == (
        "replace", "escape", "windows-1252", "utf8-or-windows-1252", "drop", "strict"
    )  # fmt: skip
