"""The signatures of `Checkpoints`' methods as Python sees them at run time (`inspect`,
`help()`), for the native class and for `git_checkpoint.aio`: keyword names, which are
keyword-only, and defaults are part of the contract (issue 33). Extra keyword-only parameters
(`hunks`, `agent`, `session`) may follow the contract's."""

from __future__ import annotations

import inspect
import pydoc
import re
from pathlib import Path
from typing import Any

import pytest

import git_checkpoint
import git_checkpoint.aio

P = inspect.Parameter
POS = P.POSITIONAL_OR_KEYWORD
KW = P.KEYWORD_ONLY
REQUIRED = P.empty

# name: [(parameter, kind, default)], in order, after `self`.
CONTRACT: dict[str, list[tuple[str, Any, Any]]] = {
    "save": [
        ("message", POS, None),
        ("name", KW, None),
        ("kind", KW, "manual"),
        ("meta", KW, None),
        ("pin", KW, False),
        ("conversation", KW, None),
    ],
    "list": [("kind", KW, None), ("session", KW, None), ("limit", KW, None)],
    "get": [("spec", POS, REQUIRED)],
    "diff": [("a", POS, REQUIRED), ("b", POS, None)],
    "restore": [("spec", POS, REQUIRED), ("paths", KW, None), ("dry_run", KW, False)],
    "undo": [("n", POS, 1)],
    "redo": [("n", POS, 1)],
    # `a` is `a=None` rather than required: `revert(agent="claude-code")` takes no `a`.
    "revert": [("a", POS, None), ("b", POS, None)],
    "drop": [("spec", POS, REQUIRED)],
    "pin": [("spec", POS, REQUIRED)],
    "unpin": [("spec", POS, REQUIRED)],
    "prune": [("keep", KW, None), ("older_than", KW, None), ("dry_run", KW, False)],
}

# Keyword-only parameters beyond the contract, each with its default.
EXTRA: dict[str, dict[str, Any]] = {
    "save": {"session": None},
    "restore": {"hunks": None},
    "revert": {"hunks": None, "agent": None},
}

CLASSES = [
    pytest.param(git_checkpoint.Checkpoints, id="native"),
    pytest.param(git_checkpoint.aio.Checkpoints, id="aio"),
]


def parameters(cls: type, method: str) -> list[inspect.Parameter]:
    params = list(inspect.signature(getattr(cls, method)).parameters.values())
    assert params and params[0].name == "self", f"{method}: {params}"
    return params[1:]


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("method", sorted(CONTRACT))
def test_each_method_has_the_contracts_signature(cls: type, method: str) -> None:
    params = parameters(cls, method)
    contract = CONTRACT[method]
    got = [(p.name, p.kind, p.default) for p in params[: len(contract)]]
    assert got == contract, f"{cls.__module__}.{cls.__name__}.{method}{inspect.signature(getattr(cls, method))}"
    extra = {p.name: p.default for p in params[len(contract) :]}
    assert extra == EXTRA.get(method, {}), method
    assert all(p.kind == KW for p in params[len(contract) :]), method


@pytest.mark.parametrize("cls", CLASSES)
def test_help_shows_the_default_kind(cls: type) -> None:
    """`kind`'s default is spelled out, not `kind=...` (PyO3 writes `...` for a default that
    is not a literal unless told the text)."""
    shown = pydoc.render_doc(cls.save, renderer=pydoc.plaintext)
    assert re.search(r"kind(: '\w+')?( = |=)'manual'", shown), shown
    assert "..." not in str(inspect.signature(cls.save))


def test_name_and_the_rest_are_keyword_only(repo: Path) -> None:
    cps = git_checkpoint.Checkpoints(repo)
    with pytest.raises(TypeError):
        cps.save("message", "a-name")  # type: ignore[misc]
    with pytest.raises(TypeError):
        cps.restore("@", ["README.md"])  # type: ignore[misc]
    with pytest.raises(TypeError):
        cps.prune(3)  # type: ignore[misc]
    with pytest.raises(TypeError):
        cps.list("auto")  # type: ignore[misc]
    assert cps.list() == []


def test_aio_name_is_keyword_only(repo: Path) -> None:
    import asyncio

    async def main() -> None:
        cps = git_checkpoint.aio.Checkpoints(repo)
        with pytest.raises(TypeError):
            await cps.save("message", "a-name")  # type: ignore[misc]
        assert await cps.list() == []

    asyncio.run(main())
