"""`git_checkpoint.aio.Checkpoints`: the same API as `git_checkpoint.Checkpoints`, awaitable."""

from __future__ import annotations

import ast
import asyncio
import inspect
import threading
from collections.abc import Awaitable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

import git_checkpoint
from _helpers import git
from git_checkpoint import aio

STUB = Path(git_checkpoint.__file__).with_name("_native.pyi")
T = TypeVar("T")


def run(awaitable: Awaitable[T]) -> T:
    async def wrapper() -> T:
        return await awaitable

    return asyncio.run(wrapper())


def stub_methods() -> dict[str, ast.FunctionDef]:
    """The public methods of `Checkpoints` as the stub declares them."""
    module = ast.parse(STUB.read_text())
    cls = next(
        node
        for node in module.body
        if isinstance(node, ast.ClassDef) and node.name == "Checkpoints"
    )
    return {
        node.name: node
        for node in cls.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
        and not any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)
    }


def stub_parameters(node: ast.FunctionDef) -> list[tuple[str, str, Any]]:
    """(name, kind, default source) of each parameter but `self`."""
    args = node.args
    positional = args.posonlyargs + args.args
    defaults: list[Any] = [None] * (len(positional) - len(args.defaults)) + [
        ast.unparse(d) for d in args.defaults
    ]
    out = [(a.arg, "positional", d) for a, d in zip(positional, defaults)][1:]
    out += [
        (a.arg, "keyword", None if d is None else ast.unparse(d))
        for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    return out


def aio_parameters(method: Any) -> list[tuple[str, str, Any]]:
    out = []
    for p in list(inspect.signature(method).parameters.values())[1:]:
        kind = "keyword" if p.kind is p.KEYWORD_ONLY else "positional"
        default = None if p.default is p.empty else repr(p.default)
        out.append((p.name, kind, default))
    return out


def test_same_methods_and_signatures_as_the_stub() -> None:
    methods = stub_methods()
    assert "save" in methods and "on_event" in methods
    for name, node in methods.items():
        method = getattr(aio.Checkpoints, name)
        assert aio_parameters(method) == stub_parameters(node), name
        if name == "on_event":
            assert not inspect.iscoroutinefunction(method)
        else:
            assert inspect.iscoroutinefunction(method), name
    init = next(
        node
        for node in ast.walk(ast.parse(STUB.read_text()))
        if isinstance(node, ast.FunctionDef) and node.name == "__init__"
        and node.args.kwonlyargs and node.args.kwonlyargs[0].arg == "store"
    )
    assert aio_parameters(aio.Checkpoints.__init__) == stub_parameters(init)


def test_every_method(repo: Path) -> None:
    app = repo / "src" / "app.py"

    async def main() -> None:
        async with aio.Checkpoints(repo) as cps:
            assert Path(cps.path) == repo and cps.store is None
            first = await cps.save("first", name="first", meta={"step": 1})
            assert first.name == "first" and first.metadata == {"step": 1}
            app.write_text("second\n")
            second = await cps.save("second", kind="auto")
            assert [c.id for c in await cps.list()] == [second.id, first.id]
            assert [c.id for c in await cps.list(kind="auto", limit=5)] == [second.id]
            assert await cps.get("first") == first

            diff = await cps.diff(first, second)
            assert diff.modified_files == ["src/app.py"]
            assert not await cps.diff(second)  # the working tree equals the newest

            dry = await cps.restore(first, dry_run=True)
            assert dry.dry_run and dry.written == ["src/app.py"]
            assert app.read_text() == "second\n"
            await cps.restore(first, paths=["src/app.py"])
            assert app.read_text() == "print('hello')\n"
            await cps.undo()
            assert app.read_text() == "second\n"
            await cps.redo()
            assert app.read_text() == "print('hello')\n"
            await cps.undo(1)

            reverted = await cps.revert(first, second)
            assert reverted.from_checkpoint == first and reverted.to_checkpoint == second
            assert app.read_text() == "print('hello')\n"

            assert (await cps.pin(second)).pinned
            assert not (await cps.unpin(second.id)).pinned
            pruned = await cps.prune(keep=1, older_than=timedelta(days=1), dry_run=True)
            assert pruned.dry_run
            assert (await cps.du()).checkpoints >= 2
            assert await cps.drop(second) == second.id
            with pytest.raises(git_checkpoint.CheckpointNotFound):
                await cps.get(second.id)
        with pytest.raises(git_checkpoint.CheckpointError):
            await cps.list()  # closed

    asyncio.run(main())


def test_open_in_a_thread_and_wrap(plain_dir: Path) -> None:
    async def main() -> None:
        cps = await aio.Checkpoints.open(plain_dir, config={"checkpoint.keep": 5})
        saved = await cps.save("notes")
        assert cps.store is not None
        same = aio.Checkpoints.wrap(cps.sync)
        assert (await same.get(saved.id)) == saved
        assert repr(cps).startswith("aio.Checkpoints(")
        await cps.close()

    asyncio.run(main())


def test_events_pass_through(repo: Path) -> None:
    events: list[str] = []
    threads: set[str] = set()

    async def main() -> None:
        cps = aio.Checkpoints(repo)

        @cps.on_event
        def seen(event: git_checkpoint.CheckpointEvent) -> None:
            events.append(event.type)
            threads.add(threading.current_thread().name)

        saved = await cps.save("one")
        (repo / "README.md").write_text("changed\n")
        await cps.restore(saved)
        await cps.drop(saved)
        assert callable(seen)

    asyncio.run(main())
    assert events[0] == "saved" and "restored" in events and events[-1] == "dropped"
    assert threading.main_thread().name not in threads  # run on the worker thread


def test_the_loop_keeps_running(repo: Path) -> None:
    for n in range(200):
        (repo / f"f{n}.txt").write_text(f"{n}\n")

    async def main() -> int:
        ticks = 0
        done = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        await aio.Checkpoints(repo).save("while ticking")
        done.set()
        await task
        return ticks

    assert run(main()) > 1


def test_concurrent_saves_lose_nothing(repo: Path) -> None:
    async def main() -> list[git_checkpoint.Checkpoint]:
        cps = aio.Checkpoints(repo)
        return list(await asyncio.gather(*(cps.save(f"save {n}") for n in range(8))))

    saved = run(main())
    assert len({c.id for c in saved}) == 8
    refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/checkpoints/").split()
    assert sorted(refs) == sorted(f"refs/checkpoints/{c.id}" for c in saved)


def test_errors_are_the_same_exceptions(repo: Path, tmp_path: Path) -> None:
    async def main() -> None:
        cps = aio.Checkpoints(repo)
        with pytest.raises(git_checkpoint.CheckpointNotFound):
            await cps.restore("20000101-000000-000000")
        with pytest.raises(git_checkpoint.NothingToUndo):
            await cps.undo()
        with pytest.raises(TypeError):
            await cps.get(42)  # type: ignore[arg-type]
        with pytest.raises(git_checkpoint.InvalidArgument):
            await cps.undo(0)
        with pytest.raises(git_checkpoint.CheckpointError):
            await aio.Checkpoints.open(tmp_path / "missing")

    asyncio.run(main())
