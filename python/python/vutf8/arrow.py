"""vutf8 over Arrow columns: a verdict, an error and a string per row, without copying the
values.

Every function takes any object that exports the Arrow PyCapsule interface
(`__arrow_c_array__` or `__arrow_c_stream__`): a pyarrow Array or ChunkedArray, a Polars
Series, a DuckDB or nanoarrow array, ... holding `binary`, `large_binary` or `binary_view`
data, dictionary-encoded or not (or one of the string types, checked as the bytes they
are); or a table (a pyarrow `RecordBatch` or `Table`, a Polars `DataFrame`, any stream of
record batches) with `column=` naming the column (a table of one column needs no name).

The result is of the input's library: a pyarrow Array for a pyarrow Array or RecordBatch,
a pyarrow ChunkedArray for a ChunkedArray or Table, a Polars Series (the column's name)
for a Series or DataFrame; for anything else, a `vutf8.ArrowArray` or
`vutf8.ArrowChunkedArray`, which export the same interface.

    >>> import pyarrow as pa, vutf8.arrow
    >>> col = pa.array([b"ok", b"caf\\xe9", None], pa.binary())
    >>> vutf8.arrow.is_valid(col).to_pylist()
    [True, False, None]
    >>> vutf8.arrow.to_string(col, "escape").to_pylist()
    ['ok', 'caf\\\\xe9', None]
"""

from __future__ import annotations

import sys
from typing import Any, Literal, Protocol, TypeAlias

from vutf8 import _vutf8

__all__ = [
    "ArrowArrayExportable",
    "ArrowData",
    "ArrowStreamExportable",
    "Policy",
    "error_offsets",
    "error_reasons",
    "is_valid",
    "to_string",
]


class ArrowArrayExportable(Protocol):
    """An object that exports one Arrow array (the Arrow PyCapsule interface): a pyarrow
    Array or RecordBatch, a nanoarrow or arro3 array, `vutf8.ArrowArray`."""

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any: ...


class ArrowStreamExportable(Protocol):
    """An object that exports a stream of Arrow arrays (the Arrow PyCapsule interface): a
    pyarrow ChunkedArray, Table or RecordBatchReader, a Polars Series or DataFrame, a
    DuckDB result, `vutf8.ArrowChunkedArray`."""

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...


#: What the functions of this module take.
ArrowData: TypeAlias = ArrowArrayExportable | ArrowStreamExportable

#: The policies of `to_string`: vutf8's (`vutf8.POLICIES`) and CPython's
#: "backslashreplace", which is "escape".
Policy: TypeAlias = Literal[
    "replace",
    "escape",
    "backslashreplace",
    "windows-1252",
    "utf8-or-windows-1252",
    "drop",
    "strict",
]


def is_valid(data: ArrowData, *, column: str | None = None) -> Any:
    """Each row valid UTF-8 (True) or not (False); null rows stay null. A boolean column of
    the input's library."""
    return _like(_vutf8.arrow_is_valid(data, column=column), data, column)


def error_offsets(data: ArrowData, *, column: str | None = None) -> Any:
    """For each invalid row, the byte offset of its first error (the `start` that
    `value.decode('utf-8')` reports); null for valid and null rows. An int64 column."""
    return _like(_vutf8.arrow_error_offsets(data, column=column), data, column)


def error_reasons(data: ArrowData, *, column: str | None = None) -> Any:
    """For each invalid row, vutf8's reason ('overlong encoding', 'encoded surrogate', ...,
    the `kind` of `vutf8.Utf8Error`); null for valid and null rows. A string column."""
    return _like(_vutf8.arrow_error_reasons(data, column=column), data, column)


def to_string(data: ArrowData, policy: Policy = "strict", *, column: str | None = None) -> Any:
    """The column as strings, sharing the input's values where rows are valid (binary gives
    string, large_binary large_string, binary_view string_view; a dictionary keeps its
    keys).

    An invalid row becomes what `policy` says: "strict" raises `vutf8.Utf8Error` for the
    first one (as `value.decode('utf-8')` would, with its `row` added); "drop" makes it null
    (the column keeps its length); "replace" (U+FFFD), "escape" or "backslashreplace"
    (`\\xNN`), "windows-1252" (the whole row) and "utf8-or-windows-1252" (each ill-formed
    part) write it as that text.
    """
    return _like(_vutf8.arrow_to_string(data, policy, column=column), data, column)


def _like(result: Any, data: Any, column: str | None) -> Any:
    """`result` as an object of `data`'s library, if that is pyarrow or Polars (both
    already imported, since `data` is one of theirs); else `result` as it is."""
    pa = sys.modules.get("pyarrow")
    if pa is not None:
        if isinstance(data, (pa.Array, pa.RecordBatch)):
            return pa.array(result)
        if isinstance(data, (pa.ChunkedArray, pa.Table)):
            return pa.chunked_array(result)
    pl = sys.modules.get("polars")
    if pl is not None:
        if isinstance(data, pl.Series):
            return pl.Series(data.name, result)
        if isinstance(data, pl.DataFrame):
            return pl.Series(column if column is not None else data.columns[0], result)
    return result
