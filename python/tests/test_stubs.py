"""The hand-written stub `_native.pyi` declares every public name of the extension, and every
public attribute of each class: a name added to the extension without its stub fails here."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import git_checkpoint
from git_checkpoint import _native

STUB = Path(_native.__file__).with_name("_native.pyi")


def stub_names() -> tuple[set[str], dict[str, set[str]]]:
    tree = ast.parse(STUB.read_text())
    names: set[str] = set()
    members: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members[node.name].add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members[node.name].add(item.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names, members


def public(names: list[str]) -> set[str]:
    return {n for n in names if not n.startswith("_") or n == "__version__"}


def test_the_stub_is_installed_beside_the_extension() -> None:
    assert STUB.is_file(), f"{STUB} is missing from the installed package"
    assert STUB.with_name("py.typed").is_file()


def test_every_public_name_is_in_the_stub() -> None:
    names, _ = stub_names()
    missing = public(dir(_native)) - names
    assert not missing, f"in _native but not in _native.pyi: {sorted(missing)}"
    extra = {n for n in names if not n.startswith("_")} - public(dir(_native))
    assert not extra, f"in _native.pyi but not in _native: {sorted(extra)}"


def test_every_public_member_of_each_class_is_in_the_stub() -> None:
    _, members = stub_names()
    for name, declared in members.items():
        runtime = getattr(_native, name)
        if not inspect.isclass(runtime):
            continue
        # What a class inherits (OSError's errno, ValueError's …) is the base class's stub's.
        inherited = {m for b in runtime.__mro__[1:] for m in dir(b)}
        own = set(vars(runtime)) | {
            m for m in dir(runtime) if m not in inherited and not m.startswith("_")
        }
        public_members = {m for m in own if not m.startswith("_")}
        missing = public_members - declared
        assert not missing, f"{name}: not in the stub: {sorted(missing)}"


def test_the_package_reexports_the_extension() -> None:
    for name in public(dir(_native)):
        assert getattr(git_checkpoint, name) is getattr(_native, name), name
    assert set(git_checkpoint.__all__) >= public(dir(_native)) - {"__version__"}


def test_every_class_of_the_stub_has_a_docstring() -> None:
    """What an editor shows on hover comes from the stub: every class says what it is."""
    tree = ast.parse(STUB.read_text())
    bare = [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef) and not ast.get_docstring(node)
    ]
    assert bare == [], f"classes of _native.pyi without a docstring: {bare}"
