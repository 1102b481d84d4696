"""`git_checkpoint.Checkpoints` for asyncio: the same API, every call awaitable.

Each method runs the synchronous call in a worker thread (`asyncio.to_thread`), so the event
loop keeps running while a save walks the tree or a restore writes files; the native call
releases the GIL meanwhile. Keyword names and defaults are those of
`git_checkpoint.Checkpoints`; results and exceptions are the same objects.

Example::

    import asyncio
    from git_checkpoint.aio import Checkpoints

    async def main() -> None:
        async with Checkpoints("path/to/project") as cps:
            before = await cps.save("before the tool call")
            ...
            await cps.restore(before)

    asyncio.run(main())

Calls on one object run one at a time (the native object holds a lock for each call), in the
order the worker threads reach it; several objects on one repository work at once, through
the store's own locking. `on_event` callbacks run on the worker thread that made the call.
"""

from __future__ import annotations

import pathlib
import asyncio
import builtins
import datetime
import os
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Optional, Union

from git_checkpoint import _native
from git_checkpoint._native import (
    Checkpoint,
    CheckpointDiff,
    CheckpointEvent,
    DiskUsage,
    Pruned,
    Restored,
    Reverted,
)

__all__ = ["Checkpoints"]

_StrPath = Union[str, "os.PathLike[str]"]
_Spec = Union[str, Checkpoint]
_Callback = Callable[[CheckpointEvent], object]
_Setting = Union[str, int, bool]
# As `git_checkpoint.Checkpoints(config=...)` takes it: a list gives a multi-valued setting.
_Config = Mapping[str, Union[_Setting, Sequence[_Setting]]]


class Checkpoints:
    """The checkpoints of the git repository (or plain directory) containing `path`, awaitable.

    Opening is synchronous (it only finds the repository or store); use
    `await Checkpoints.open(...)` to do it in a worker thread as well.
    """

    def __init__(
        self,
        path: _StrPath = ".",
        *,
        store: Optional[_StrPath] = None,
        config: Optional[_Config] = None,
    ) -> None:
        self._sync = _native.Checkpoints(path, store=store, config=config)

    @classmethod
    async def open(
        cls,
        path: _StrPath = ".",
        *,
        store: Optional[_StrPath] = None,
        config: Optional[_Config] = None,
    ) -> Checkpoints:
        """Open in a worker thread: `Checkpoints(path, store=..., config=...)`, awaited."""
        return await asyncio.to_thread(cls, path, store=store, config=config)

    @classmethod
    def wrap(cls, checkpoints: _native.Checkpoints) -> Checkpoints:
        """An awaitable face for an already open `git_checkpoint.Checkpoints`."""
        wrapped = cls.__new__(cls)
        wrapped._sync = checkpoints
        return wrapped

    @property
    def sync(self) -> _native.Checkpoints:
        """The synchronous `git_checkpoint.Checkpoints` this object calls."""
        return self._sync

    @property
    def path(self) -> pathlib.Path:
        """The directory given (absolute)."""
        return self._sync.path

    @property
    def store(self) -> Optional[pathlib.Path]:
        """A plain directory's private store (a git directory); `None` in a git repository."""
        return self._sync.store

    async def save(
        self,
        message: Optional[str] = None,
        *,
        name: Optional[str] = None,
        kind: str = "manual",
        meta: Optional[Mapping[str, Any]] = None,
        pin: bool = False,
        conversation: Optional[Any] = None,
        session: Optional[str] = None,
    ) -> Checkpoint:
        """Snapshot the working tree as a checkpoint and return it (see `Checkpoints.save`)."""
        return await asyncio.to_thread(
            self._sync.save,
            message,
            name=name,
            kind=kind,
            meta=meta,
            pin=pin,
            conversation=conversation,
            session=session,
        )

    async def list(
        self,
        *,
        kind: Optional[str] = None,
        session: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> builtins.list[Checkpoint]:
        """This worktree's checkpoints, newest first (or one kind's, one session's)."""
        return await asyncio.to_thread(self._sync.list, kind=kind, session=session, limit=limit)

    async def get(self, spec: _Spec) -> Checkpoint:
        """The checkpoint `spec` names; raises `CheckpointNotFound` when there is none."""
        return await asyncio.to_thread(self._sync.get, spec)

    async def diff(self, a: _Spec, b: Optional[_Spec] = None) -> CheckpointDiff:
        """What differs from checkpoint `a` to `b`, or to the working tree when `b` is None."""
        return await asyncio.to_thread(self._sync.diff, a, b)

    async def restore(
        self,
        spec: _Spec,
        *,
        paths: Optional[Sequence[_StrPath]] = None,
        dry_run: bool = False,
        hunks: Optional[Sequence[str]] = None,
    ) -> Restored:
        """Make the working tree (or `paths` of it, or only `hunks`) what `spec` holds; undoable."""
        return await asyncio.to_thread(
            self._sync.restore, spec, paths=paths, dry_run=dry_run, hunks=hunks
        )

    async def undo(self, n: int = 1) -> Restored:
        """Take back the last thing that happened to the working tree, `n` times."""
        return await asyncio.to_thread(self._sync.undo, n)

    async def redo(self, n: int = 1) -> Restored:
        """Take back the last `n` undos, while nothing changed since."""
        return await asyncio.to_thread(self._sync.redo, n)

    async def revert(
        self,
        a: Optional[_Spec] = None,
        b: Optional[_Spec] = None,
        *,
        hunks: Optional[Sequence[str]] = None,
        agent: Optional[str] = None,
    ) -> Reverted:
        """Take back the change from `a` to `b` (or only `hunks` of it), or an agent's own
        steps, keeping everything changed since (see `Checkpoints.revert`)."""
        return await asyncio.to_thread(self._sync.revert, a, b, hunks=hunks, agent=agent)

    async def drop(self, spec: _Spec) -> str:
        """Delete checkpoint `spec`; returns its id."""
        return await asyncio.to_thread(self._sync.drop, spec)

    async def pin(self, spec: _Spec) -> Checkpoint:
        """Pin checkpoint `spec` (never pruned) and return it."""
        return await asyncio.to_thread(self._sync.pin, spec)

    async def unpin(self, spec: _Spec) -> Checkpoint:
        """Unpin checkpoint `spec` and return it."""
        return await asyncio.to_thread(self._sync.unpin, spec)

    async def prune(
        self,
        *,
        keep: Optional[int] = None,
        older_than: Union[str, datetime.timedelta, None] = None,
        dry_run: bool = False,
    ) -> Pruned:
        """Apply retention now (see `Checkpoints.prune`)."""
        return await asyncio.to_thread(
            self._sync.prune, keep=keep, older_than=older_than, dry_run=dry_run
        )

    async def du(self) -> DiskUsage:
        """What the checkpoints cost on disk."""
        return await asyncio.to_thread(self._sync.du)

    def on_event(self, callback: _Callback) -> _Callback:
        """Call `callback(event)` after each event of this object's calls (synchronous).

        The callback runs on the worker thread that made the call; use
        `loop.call_soon_threadsafe` to hand an event to the event loop. Returns `callback`,
        so it can be used as a decorator.
        """
        return self._sync.on_event(callback)

    async def close(self) -> None:
        """Release the repository; any later call raises `CheckpointError`."""
        await asyncio.to_thread(self._sync.close)

    async def __aenter__(self) -> Checkpoints:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"aio.{self._sync!r}"
