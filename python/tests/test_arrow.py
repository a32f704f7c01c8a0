"""`vutf8.arrow` against pyarrow's `cast(..., pa.string())` and per-row `bytes.decode`: with
nulls, sliced and empty arrays, the three binary layouts and the string types, chunked
arrays, and Polars Series (which come back as Polars). Validity per row is decided by
pyarrow's cast of the row alone (try/except) and by `bytes.decode`, which must agree."""

from __future__ import annotations

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import PAD, any_bytes, cpython_error, error_fields
from hypothesis import given
from hypothesis import strategies as st

import vutf8
import vutf8.arrow as va

LAYOUTS = [pa.binary(), pa.large_binary(), pa.binary_view()]
STRING_OF = {pa.binary(): pa.string(), pa.large_binary(): pa.large_string(), pa.binary_view(): pa.string_view()}  # fmt: skip
ERRORS = {"replace": "replace", "escape": "backslashreplace"}

rows = st.lists(st.one_of(st.none(), any_bytes, st.just(PAD[:40])), max_size=30)


def pyarrow_accepts(value: bytes) -> bool:
    """Whether pyarrow's cast to string accepts the row alone."""
    try:
        pc.cast(pa.array([value], pa.binary()), pa.string())
    except pa.ArrowInvalid:
        return False
    return True


def reference_validity(values: list[bytes | None]) -> list[bool | None]:
    out = []
    for v in values:
        if v is None:
            out.append(None)
        else:
            ok = cpython_error(v) is None
            assert pyarrow_accepts(v) is ok, v
            out.append(ok)
    return out


def reference_text(value: bytes | None, policy: str) -> str | None:
    if value is None:
        return None
    if cpython_error(value) is None:
        return value.decode()
    if policy == "drop":
        return None
    return value.decode("utf-8", ERRORS[policy])


def check_column(column: pa.Array | pa.ChunkedArray, values: list[bytes | None]) -> None:
    """Every function on `column`, whose rows are `values`, against the references."""
    validity = reference_validity(values)
    assert va.is_valid(column).to_pylist() == validity
    errors = [None if v is None else cpython_error(v) for v in values]
    assert va.error_offsets(column).to_pylist() == [e and e.start for e in errors]
    reasons = va.error_reasons(column).to_pylist()
    for value, error, reason in zip(values, errors, reasons):
        if error is None:
            assert reason is None
        else:
            with pytest.raises(vutf8.Utf8Error) as got:
                vutf8.validate(value)
            assert reason == got.value.kind
    for policy in ("replace", "escape", "drop"):
        got = va.to_string(column, policy)
        assert got.to_pylist() == [reference_text(v, policy) for v in values]
    check_strict(column, values, errors)


def check_strict(column, values, errors) -> None:
    """`to_string` strict: pyarrow's cast when every row is valid; else the first invalid
    row's error, as `value.decode()` raises it, with its row."""
    first = next((i for i, e in enumerate(errors) if e is not None), None)
    if first is None:
        assert va.to_string(column).equals(pc.cast(column, STRING_OF.get(column.type, pa.string())))
        return
    with pytest.raises(pa.ArrowInvalid):
        pc.cast(column, pa.string())
    with pytest.raises(vutf8.Utf8Error) as got:
        va.to_string(column)
    assert got.value.row == first
    assert error_fields(got.value) == error_fields(errors[first])


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@given(values=rows)
def test_every_layout_against_cast_and_decode(layout: pa.DataType, values: list) -> None:
    check_column(pa.array(values, layout), values)


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@given(values=rows, start=st.integers(0, 12), length=st.integers(0, 12))
def test_sliced_arrays(layout: pa.DataType, values: list, start: int, length: int) -> None:
    column = pa.array(values, layout).slice(start, length)
    check_column(column, values[start : start + length])


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_the_examples_slice_and_empty_arrays(layout: pa.DataType) -> None:
    values = [b"ok", None, b"caf\xe9", b"\xed\xa0\x80", b"", PAD[:300], b"x\xc0\xaf"] * 3
    check_column(pa.array(values, layout).slice(3, 10), values[3:13])
    check_column(pa.array([], layout), [])
    # An empty slice past the first row: imported with its values buffer empty while its
    # one offset points past the start (the kernels must not index it).
    check_column(pa.array([b"x"], layout).slice(1, 0), [])
    check_column(pa.array(values, layout).slice(len(values), 0), [])
    assert va.to_string(pa.array([], layout)).type == STRING_OF[layout]


@given(chunks=st.lists(rows, max_size=4))
def test_chunked_arrays(chunks: list) -> None:
    column = pa.chunked_array([pa.array(c, pa.binary()) for c in chunks], pa.binary())
    values = [v for c in chunks for v in c]
    result = va.is_valid(column)
    assert isinstance(result, pa.ChunkedArray) and result.num_chunks == len(chunks)
    check_column(column, values)


def test_string_arrays_are_checked_as_bytes() -> None:
    for t in (pa.string(), pa.large_string(), pa.string_view()):
        column = pa.array(["ok", None, "café"], t)
        assert va.is_valid(column).to_pylist() == [True, None, True]
        assert va.to_string(column).to_pylist() == ["ok", None, "café"]


def test_valid_values_are_shared_not_copied() -> None:
    values = [PAD[:100], None, b"plain"]
    column = pa.array(values, pa.binary())
    strings = va.to_string(column)
    assert strings.buffers()[2].address == column.buffers()[2].address
    views = pa.array(values, pa.binary_view())
    shared = va.to_string(views, "replace")
    assert shared.buffers()[2].address == views.buffers()[2].address


@given(values=rows)
def test_polars_series_in_polars_out(values: list) -> None:
    series = pl.Series("logs", values, dtype=pl.Binary)
    result = va.is_valid(series)
    assert isinstance(result, pl.Series) and result.name == "logs"
    assert result.to_list() == reference_validity(values)
    offsets = va.error_offsets(series).to_list()
    assert offsets == [None if v is None else (e := cpython_error(v)) and e.start for v in values]
    for policy in ("replace", "escape", "drop"):
        strings = va.to_string(series, policy)
        assert strings.dtype == pl.String
        assert strings.to_list() == [reference_text(v, policy) for v in values]
    cast_ok = all(v is None or cpython_error(v) is None for v in values)
    if cast_ok:
        assert va.to_string(series).equals(series.cast(pl.String))


def test_other_producers_get_the_capsule_objects() -> None:
    """An object that only exports the interface gets vutf8's objects back, which any
    Arrow library reads."""

    class Producer:
        def __init__(self, array):
            self.array = array

        def __arrow_c_array__(self, requested_schema=None):
            return self.array.__arrow_c_array__(requested_schema)

    class Stream:
        def __init__(self, chunked):
            self.chunked = chunked

        def __arrow_c_stream__(self, requested_schema=None):
            return self.chunked.__arrow_c_stream__(requested_schema)

    column = pa.array([b"a", b"\xff", None])
    result = va.is_valid(Producer(column))
    assert type(result) is vutf8._vutf8.ArrowArray and len(result) == 3
    assert pa.array(result).to_pylist() == [True, False, None]
    chunked = va.to_string(Stream(pa.chunked_array([column, column])), "escape")
    assert type(chunked) is vutf8._vutf8.ArrowChunkedArray and len(chunked) == 6
    assert pa.chunked_array(chunked).to_pylist() == ["a", "\\xff", None] * 2
    assert pa.chunked_array(chunked).num_chunks == 2  # readable again


def test_bad_input() -> None:
    with pytest.raises(TypeError, match="Arrow array, table or stream"):
        va.is_valid(b"bytes are not a column")
    with pytest.raises(TypeError, match="binary or string"):
        va.is_valid(pa.array([1, 2, 3]))
    with pytest.raises(ValueError, match="unknown policy"):
        va.to_string(pa.array([b"a"]), "latin-1")


def test_large_columns_without_the_gil() -> None:
    values = [PAD[: 20 + i % 300] for i in range(2000)]
    values[1234] = values[1234] + b"\xf4\x90\x80\x80"
    column = pa.array(values, pa.large_binary())
    assert column.nbytes > vutf8.DETACH_MIN
    check_column(column, values)


@given(values=rows, other=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=30))
def test_tables_and_frames_by_column_name(values: list, other: list) -> None:
    """A RecordBatch, a Table (of several chunks) and a Polars DataFrame give the named
    column's results, in the input's library; the result is the column's own."""
    other = (other + [0] * len(values))[: len(values)]
    batch = pa.record_batch({"n": pa.array(other, pa.int64()), "raw": pa.array(values, pa.binary())})
    expected = [None if v is None else cpython_error(v) is None for v in values]
    got = va.is_valid(batch, column="raw")
    assert isinstance(got, pa.Array) and got.to_pylist() == expected
    table = pa.Table.from_batches([batch, batch])
    got = va.to_string(table, "replace", column="raw")
    assert isinstance(got, pa.ChunkedArray) and got.num_chunks == (2 if values else got.num_chunks)
    assert got.to_pylist() == [reference_text(v, "replace") for v in values] * 2
    frame = pl.DataFrame({"n": pl.Series(other, dtype=pl.Int64), "raw": pl.Series(values, dtype=pl.Binary)})
    got = va.error_offsets(frame, column="raw")
    assert isinstance(got, pl.Series) and got.name == "raw"
    assert got.to_list() == [None if v is None else (e := cpython_error(v)) and e.start for v in values]


def test_table_column_errors() -> None:
    batch = pa.record_batch({"a": pa.array([b"x"]), "b": pa.array([b"\xff"])})
    with pytest.raises(TypeError, match="name one with column="):
        va.is_valid(batch)
    with pytest.raises(KeyError, match='no column "c"'):
        va.is_valid(batch, column="c")
    with pytest.raises(TypeError, match="binary or string"):
        va.is_valid(pa.record_batch({"n": pa.array([1])}), column="n")
    with pytest.raises(TypeError, match="names a column of a table"):
        va.is_valid(pa.array([b"x"]), column="a")
    # A table of one column needs no name; a strict error names the row across chunks.
    one = pa.Table.from_batches([pa.record_batch({"b": pa.array([b"ok", b"ok"])}), batch.select(["b"])])
    assert va.is_valid(one).to_pylist() == [True, True, False]
    with pytest.raises(vutf8.Utf8Error) as got:
        va.to_string(one)
    assert got.value.row == 2 and (got.value.start, got.value.end) == (0, 1)


@pytest.mark.parametrize("index", [pa.int8(), pa.int32(), pa.uint16(), pa.int64()], ids=str)
@given(values=rows)
def test_dictionary_encoded_columns(index: pa.DataType, values: list) -> None:
    """A dictionary of binary values: results per row as for the plain column;
    `to_string` keeps the keys and converts the dictionary."""
    plain = pa.array(values, pa.binary())
    column = pc.dictionary_encode(plain).cast(pa.dictionary(index, pa.binary()))
    assert va.is_valid(column).to_pylist() == va.is_valid(plain).to_pylist()
    assert va.error_offsets(column).to_pylist() == va.error_offsets(plain).to_pylist()
    assert va.error_reasons(column).to_pylist() == va.error_reasons(plain).to_pylist()
    for policy in ("replace", "escape", "drop"):
        got = va.to_string(column, policy)
        assert pa.types.is_dictionary(got.type) and got.type.index_type == index
        assert got.to_pylist() == [reference_text(v, policy) for v in values]
    errors = [None if v is None else cpython_error(v) for v in values]
    first = next((i for i, e in enumerate(errors) if e is not None), None)
    if first is None:
        assert va.to_string(column).to_pylist() == [reference_text(v, "strict") for v in values]
    else:
        with pytest.raises(vutf8.Utf8Error) as got:
            va.to_string(column)
        assert got.value.row == first
        assert error_fields(got.value) == error_fields(errors[first])


def test_a_dictionary_value_no_row_points_to_is_not_an_error() -> None:
    column = pa.DictionaryArray.from_arrays(pa.array([0, 0, None], pa.int32()), pa.array([b"ok", b"\xff"]))
    assert va.to_string(column).to_pylist() == ["ok", "ok", None]
    assert va.is_valid(column).to_pylist() == [True, True, None]
    polars_dict = pl.Series("d", ["a", "b", "a"], dtype=pl.Categorical)
    assert va.is_valid(polars_dict).to_list() == [True, True, True]


def test_cpython_names_for_policies() -> None:
    column = pa.array([b"caf\xe9", None])
    assert va.to_string(column, "backslashreplace").to_pylist() == ["caf\\xe9", None]
    with pytest.raises(ValueError, match="surrogateescape"):
        va.to_string(column, "surrogateescape")  # type: ignore[arg-type]
    assert vutf8.Utf8Error("utf-8", b"", 0, 1, "x").row is None
