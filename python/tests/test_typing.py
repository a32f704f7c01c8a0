"""The types: stubtest checks the stubs against the installed module (every name, every
signature), and mypy --strict accepts the README's examples and rejects what the types
exist to catch: an unknown policy name, a `bytes` given to an Arrow function."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

HERE = Path(__file__).resolve().parent
README = HERE.parent / "README.md"
CONFIG = """[mypy]
strict = True
[mypy-pyarrow.*]
ignore_missing_imports = True
"""


@pytest.fixture(scope="module")
def mypy_run(tmp_path_factory: pytest.TempPathFactory):
    """Runs mypy --strict on a script; returns (exit code, output). One cache for all."""
    base = tmp_path_factory.mktemp("mypy")
    config = base / "mypy.ini"
    config.write_text(CONFIG)

    def run(name: str, source: str) -> tuple[int, str]:
        script = base / f"{name}.py"
        script.write_text(source)
        done = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
             str(base / "cache"), str(script)],
            capture_output=True, text=True, timeout=600, cwd=base,
        )  # fmt: skip
        return done.returncode, done.stdout + done.stderr

    return run


def test_stubtest() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "vutf8", "--allowlist",
         str(HERE / "stubtest-allowlist.txt")],
        capture_output=True, text=True, timeout=600, cwd=HERE.parent.parent / "target",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def readme_examples() -> str:
    text = README.read_text()
    start = text.index("```python\n") + len("```python\n")
    return text[start : text.index("```", start)]


def test_the_readme_examples_pass_strict(mypy_run) -> None:
    code, out = mypy_run("readme", readme_examples())
    assert code == 0, out


@pytest.mark.parametrize(
    "call",
    [
        'vutf8.repair(b"x", "bogus")',
        'vutf8.repair(b"x", "surrogateescape")',
        'vutf8.arrow.to_string(pa.array([b"x"]), "latin-1")',
    ],
)
def test_an_unknown_policy_is_rejected(mypy_run, call: str) -> None:
    code, out = mypy_run("policy", f"import pyarrow as pa\nimport vutf8, vutf8.arrow\n{call}\n")
    assert code == 1 and "arg-type" in out, out


@pytest.mark.parametrize("function", ["is_valid", "error_offsets", "error_reasons", "to_string"])
def test_bytes_to_an_arrow_function_is_rejected(mypy_run, function: str) -> None:
    code, out = mypy_run("arrow", f'import vutf8.arrow\nvutf8.arrow.{function}(b"ok")\n')
    assert code == 1 and "arg-type" in out, out


def test_what_is_right_is_accepted(mypy_run) -> None:
    source = """
import polars as pl
import vutf8, vutf8.arrow
text: str = vutf8.decode(memoryview(b"x"), "surrogateescape")
fixed: bytes = vutf8.repair(bytearray(b"x"), "utf8-or-windows-1252")
offsets: list[int] = vutf8.invalid_lines(b"x", offsets=True)
error = vutf8.Utf8Error("utf-8", b"", 0, 1, "x")
row: int | None = error.row
where: int = error.stream_offset
vutf8.arrow.is_valid(pl.Series([b"x"]))
vutf8.arrow.to_string(pl.DataFrame({"a": [b"x"]}), "backslashreplace", column="a")
"""
    code, out = mypy_run("right", source)
    assert code == 0, out
