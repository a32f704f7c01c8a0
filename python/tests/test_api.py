"""The package's surface: every native name is in the type stubs and the other way round,
`__all__` is what exists, every function and class has a docstring, and the wheel ships
the stubs and the `py.typed` marker."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
from pathlib import Path

import vutf8
import vutf8.arrow
from vutf8 import _vutf8

PACKAGE = Path(vutf8.__file__).parent


def stub_names(name: str) -> set[str]:
    """The top-level names a stub file defines or re-exports."""
    tree = ast.parse((PACKAGE / name).read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("vutf8"):
            names.update(a.asname or a.name for a in node.names if a.asname)
    return names


def test_native_stub_matches_the_module() -> None:
    native = {n for n in dir(_vutf8) if not n.startswith("_") or n == "__version__"}
    aliases = {"Policy", "ArrowPolicy", "Delimiter", "ArrowData"}  # names of the stub only
    public = {n for n in stub_names("_vutf8.pyi") if not n.startswith("_") or n == "__version__"}
    assert public - aliases == native


def test_package_stub_matches_all() -> None:
    assert set(vutf8.__all__) <= stub_names("__init__.pyi")
    assert all(hasattr(vutf8, n) for n in vutf8.__all__)
    assert all(hasattr(vutf8.arrow, n) for n in vutf8.arrow.__all__)


def test_every_function_and_class_is_documented() -> None:
    for module in (vutf8, vutf8.arrow, _vutf8):
        for name, obj in vars(module).items():
            if name.startswith("_") or not (inspect.isroutine(obj) or inspect.isclass(obj)):
                continue
            assert (obj.__doc__ or "").strip(), f"{module.__name__}.{name} has no docstring"
    for cls in (vutf8.Validator, _vutf8.ArrowArray, _vutf8.ArrowChunkedArray):
        for name, member in vars(cls).items():
            if not name.startswith("__") or name in {"__arrow_c_array__", "__arrow_c_stream__"}:
                if callable(member) or inspect.isgetsetdescriptor(member):
                    assert (member.__doc__ or "").strip(), f"{cls.__name__}.{name}"


def test_the_wheel_ships_the_stubs_and_py_typed() -> None:
    for name in ("py.typed", "__init__.pyi", "_vutf8.pyi", "arrow.py"):
        assert (PACKAGE / name).is_file(), name


def test_version_and_licence_metadata() -> None:
    # One version for both halves (the Rust crate's), the licence as an SPDX expression
    # and both licence texts in the installed distribution.
    dist = importlib.metadata.distribution("vutf8")
    assert vutf8.__version__ == dist.version
    assert dist.metadata["License-Expression"] == "MIT OR Apache-2.0"
    files = {Path(f).name for f in dist.metadata.get_all("License-File") or []}
    assert files == {"LICENSE-MIT", "LICENSE-APACHE"}
    shipped = {f.name for f in dist.files or [] if f.name.startswith("LICENSE-")}
    assert shipped == {"LICENSE-MIT", "LICENSE-APACHE"}
