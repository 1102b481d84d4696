"""Chimera's checkpoint API (`CheckpointManager`, `GhostCommitManager`) on git-checkpoint.

Code written for Chimera runs unchanged but for its import lines::

    from git_checkpoint.compat.chimera import CheckpointManager, GhostCommitManager

    manager = CheckpointManager(env)      # env: a path, or an object with `working_dir`
    cp = manager.create(name="before-refactor", description="Clean state before refactoring")
    print(cp.time_str)
    ...                                   # make changes
    manager.undo()                        # back to the most recent checkpoint

How it differs from Chimera:

- Chimera delegates to its environment: git commits for a `GitEnvironment`, container
  snapshots for Docker, and for a `LocalEnvironment` (a plain directory) copies of the files
  held in memory, lost when the process ends. Here every checkpoint, in a git repository or
  a plain directory, is a git commit in a store on disk (the repository itself, or a private
  store under `${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores/`): deduplicated, kept
  across processes, listed by `git checkpoint list`, subject to the same retention.
- A restore first saves the state it replaces as a safety checkpoint, never touches ignored
  files, the branch or the index, and is itself undoable: `manager.checkpoints.undo()`
  (`git checkpoint undo` on the command line) takes the last restore back.
- The checkpoints the managers list and find by name are the store's named checkpoints, so a
  checkpoint made by another process (or `git checkpoint save --name`) is found too.
"""

from __future__ import annotations

import builtins
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Optional, Union

from git_checkpoint import _native
from git_checkpoint._native import Checkpoint, CheckpointNotFound, Checkpoints, InvalidArgument

__all__ = [
    "CheckpointInfo",
    "CheckpointManager",
    "GhostCommitManager",
    "GhostSnapshot",
]

_StrPath = Union[str, "os.PathLike[str]"]
_UNNAMED = re.compile(r"checkpoint-([0-9]+)")
# The kind of a `GhostCommitManager`'s snapshots: a retention budget of their own.
GHOST_KIND = "ghost"
_WORKDIR_ATTRIBUTES = ("working_dir", "workdir", "cwd")


def _workdir(env: object) -> str:
    """The directory of `env`: a path, or an environment's `working_dir` (or `workdir`, `cwd`)."""
    if isinstance(env, (str, bytes, os.PathLike)):
        return os.fsdecode(env)
    for attribute in _WORKDIR_ATTRIBUTES:
        value: Any = getattr(env, attribute, None)
        if value is not None:
            return os.fsdecode(value)
    raise TypeError(
        "CheckpointManager takes a directory or an environment with a `working_dir`, "
        f"not a {type(env).__name__}"
    )


class _Lazy:
    """The `Checkpoints` of one directory, opened on first use (so that constructing a
    manager makes no store in a plain directory), with `config` for this object only."""

    def __init__(
        self,
        directory: str,
        checkpoints: Optional[Checkpoints],
        config: Optional[dict[str, int]] = None,
    ) -> None:
        self.directory = directory
        self._checkpoints = checkpoints
        self._config = config

    def get(self) -> Checkpoints:
        if self._checkpoints is None:
            self._checkpoints = _native.Checkpoints(self.directory, config=self._config)
        return self._checkpoints


@dataclass
class CheckpointInfo:
    """A checkpoint as Chimera describes it: `id`, `name`, `timestamp`, `description`."""

    id: str
    name: str
    timestamp: datetime
    description: str = ""

    @property
    def time_str(self) -> str:
        """The time it was taken, in local time: `"2026-03-06 14:30:00"`."""
        return self.timestamp.astimezone().strftime("%Y-%m-%d %H:%M:%S")

    @classmethod
    def from_checkpoint(cls, checkpoint: Checkpoint) -> CheckpointInfo:
        """The description of a `git_checkpoint.Checkpoint` (its message is the description)."""
        return cls(
            id=checkpoint.id,
            name=checkpoint.name or checkpoint.id,
            timestamp=checkpoint.created_at,
            description=checkpoint.message or "",
        )


def _named(checkpoints: Checkpoints) -> list[Checkpoint]:
    """The store's named checkpoints, newest first."""
    return [c for c in checkpoints.list() if c.name is not None]


def _newest_named(checkpoints: Checkpoints, name: str) -> Optional[Checkpoint]:
    """The newest checkpoint called `name` (names only: never an id or a prefix)."""
    return next((c for c in checkpoints.list() if c.name == name), None)


class CheckpointManager:
    """Named checkpoints of an environment's working directory, with lookup, restore and undo.

    `env` is a directory (str or path) or an object with a `working_dir` (or `workdir`,
    `cwd`) attribute, such as Chimera's `LocalEnvironment`. `auto_checkpoint` is a flag for
    the calling loop, which creates checkpoints when it is set (default False).
    """

    def __init__(self, env: object, *, checkpoints: Optional[Checkpoints] = None) -> None:
        self.env = env
        self.auto_checkpoint = False
        self._store = _Lazy(_workdir(env), checkpoints)
        self._created: list[str] = []
        self._last_number = 0

    @property
    def checkpoints(self) -> Checkpoints:
        """The underlying `git_checkpoint.Checkpoints`: the full API (undo of a restore,
        diff, pin, ...)."""
        return self._store.get()

    def create(self, name: Optional[str] = None, description: str = "") -> CheckpointInfo:
        """Save the working directory as a checkpoint called `name` and describe it.

        Without a name it is called `checkpoint-N`: N counts this manager's unnamed
        checkpoints, after any `checkpoint-N` already in the store.
        """
        if name is None:
            name = self._next_name()
        saved = self.checkpoints.save(description or None, name=name)
        self._created.append(saved.id)
        return CheckpointInfo.from_checkpoint(saved)

    def list_checkpoints(self) -> builtins.list[CheckpointInfo]:
        """The named checkpoints, oldest first (the order they were created in)."""
        named = _named(self.checkpoints)
        return [CheckpointInfo.from_checkpoint(c) for c in reversed(named)]

    def restore_by_name(self, name: str) -> CheckpointInfo:
        """Restore the most recent checkpoint called `name`; raises `CheckpointNotFound`."""
        found = _newest_named(self.checkpoints, name)
        if found is None:
            raise CheckpointNotFound(f"no checkpoint named `{name}`")
        return self._restore(found)

    def restore_by_id(self, checkpoint_id: str) -> CheckpointInfo:
        """Restore the checkpoint with this id (or unique id prefix); raises
        `CheckpointNotFound`."""
        return self._restore(self.checkpoints.get(checkpoint_id))

    def undo(self) -> Optional[CheckpointInfo]:
        """Restore the most recent checkpoint this manager created, and describe it.

        Returns `None` when this manager created none (or all it created were deleted).
        The checkpoint stays: undo again and the same state comes back. To take a restore
        itself back, use `manager.checkpoints.undo()`.
        """
        while self._created:
            try:
                checkpoint = self.checkpoints.get(self._created[-1])
            except CheckpointNotFound:
                self._created.pop()
                continue
            return self._restore(checkpoint)
        return None

    def get(self, name_or_id: str) -> Optional[CheckpointInfo]:
        """The checkpoint called `name_or_id` (the newest of that name), else the one with that
        id (or unique id prefix); `None` when there is none."""
        found = _newest_named(self.checkpoints, name_or_id)
        if found is None:
            try:
                found = self.checkpoints.get(name_or_id)
            except CheckpointNotFound:
                return None
        return CheckpointInfo.from_checkpoint(found)

    def _restore(self, checkpoint: Checkpoint) -> CheckpointInfo:
        self.checkpoints.restore(checkpoint)
        return CheckpointInfo.from_checkpoint(checkpoint)

    def _next_name(self) -> str:
        taken = [0]
        for checkpoint in self.checkpoints.list():
            match = _UNNAMED.fullmatch(checkpoint.name or "")
            if match:
                taken.append(int(match.group(1)))
        self._last_number = max(self._last_number, *taken) + 1
        return f"checkpoint-{self._last_number}"

    def __repr__(self) -> str:
        return f"CheckpointManager({self._store.directory!r})"


@dataclass
class GhostSnapshot:
    """One entry of a `GhostCommitManager`'s stack: the checkpoint `id` taken under `label`,
    the `paths` an undo restores (`None`: the whole directory) and when it was taken."""

    id: str
    label: str
    paths: Optional[list[str]]
    timestamp: datetime


class GhostCommitManager:
    """A stack of snapshots taken before each file-modifying tool call, popped by `undo`.

    `snapshot(label, paths)` saves the whole working directory as a checkpoint of kind
    `ghost` (message: the label; metadata: the paths) and pushes it; `undo(n)` pops the last
    `n` and puts each one's paths (or the whole directory) back as they were. At most
    `max_snapshots` are kept: beyond that the oldest is forgotten and its checkpoint deleted.

    Retention counts each kind on its own, so agents' `auto` saves (hooks, other loops) never
    push the stack's snapshots out: the `ghost` kind has its own budget,
    `checkpoint.ghost.keep`, which a manager that opens its own store sets to
    `max_snapshots` (else `checkpoint.keep`, 50, applies). Should a snapshot still be
    removed under the stack (`git checkpoint drop`, another process's retention with a
    smaller budget), `undo` raises `CheckpointNotFound` before changing any file.

    How it differs from Chimera's: Chimera keeps a plain directory's file contents in memory
    (lost with the process, and copied again for every snapshot); here every snapshot, in a
    repository or a plain directory, is a checkpoint in a git store on disk (unchanged files
    cost nothing), so nothing is lost, and each undo saves the state it replaces first:
    `ghost.checkpoints.undo()` takes an undo back. `clear()` forgets the stack but keeps the
    checkpoints, which retention (`checkpoint.ghost.keep`, `checkpoint.keep`) removes in time.
    """

    def __init__(
        self,
        workdir: _StrPath,
        max_snapshots: int = 50,
        *,
        checkpoints: Optional[Checkpoints] = None,
    ) -> None:
        if max_snapshots < 1:
            raise ValueError(f"max_snapshots must be at least 1, not {max_snapshots}")
        self.workdir = os.fsdecode(workdir)
        self.max_snapshots = max_snapshots
        self._store = _Lazy(self.workdir, checkpoints, {"checkpoint.ghost.keep": max_snapshots})
        self._stack: list[GhostSnapshot] = []

    @property
    def checkpoints(self) -> Checkpoints:
        """The underlying `git_checkpoint.Checkpoints`."""
        return self._store.get()

    def snapshot(
        self,
        label: str,
        paths: Union[_StrPath, Iterable[_StrPath], None] = None,
    ) -> GhostSnapshot:
        """Save the directory before a change to `paths` (`None`: anything) and push it."""
        recorded = _path_list(paths)
        meta = {"ghost": {"label": label, "paths": recorded}}
        saved = self.checkpoints.save(label, kind=GHOST_KIND, meta=meta)
        snapshot = GhostSnapshot(saved.id, label, recorded, saved.created_at)
        self._stack.append(snapshot)
        self._evict()
        return snapshot

    def undo(self, n: int = 1) -> builtins.list[GhostSnapshot]:
        """Pop the last `n` snapshots (fewer if the stack is shorter), newest first, putting
        each one's paths back as they were when it was taken: every file ends as it was
        before the oldest change popped. Returns the popped snapshots, newest first."""
        if n < 0:
            raise ValueError(f"n must not be negative, not {n}")
        # Every snapshot to pop must still be there: an undo that stopped half-way would
        # leave some files put back and others not.
        for snapshot in self._stack[len(self._stack) - min(n, len(self._stack)) :]:
            try:
                self.checkpoints.get(snapshot.id)
            except CheckpointNotFound:
                raise CheckpointNotFound(
                    f"the snapshot `{snapshot.label}` (checkpoint {snapshot.id}) is no longer "
                    "in the store: it was dropped or pruned; nothing was undone"
                ) from None
        popped: list[GhostSnapshot] = []
        while self._stack and len(popped) < n:
            snapshot = self._stack[-1]
            self._restore(snapshot)
            popped.append(self._stack.pop())
        return popped

    def peek(self) -> Optional[GhostSnapshot]:
        """The most recent snapshot, not popped; `None` when the stack is empty."""
        return self._stack[-1] if self._stack else None

    @property
    def depth(self) -> int:
        """How many snapshots the stack holds."""
        return len(self._stack)

    @property
    def history(self) -> builtins.list[GhostSnapshot]:
        """Every snapshot on the stack, oldest first."""
        return list(self._stack)

    def clear(self) -> None:
        """Forget every snapshot; their checkpoints stay in the store for retention."""
        self._stack.clear()

    def _restore(self, snapshot: GhostSnapshot) -> None:
        """Put `snapshot`'s paths back. A path absent when it was taken and absent now
        (the tool call never created it) has nothing to put back, where git-checkpoint's
        restore refuses a path that matches nothing: such paths are skipped."""
        if snapshot.paths is None:
            self.checkpoints.restore(snapshot.id)
            return
        if not snapshot.paths:
            return
        try:
            self.checkpoints.restore(snapshot.id, paths=snapshot.paths)
        except InvalidArgument:
            absent = [p for p in snapshot.paths if not self._exists(p)]
            if not absent:
                raise
            for path in snapshot.paths:
                self._restore_one(snapshot.id, path, absent_now=path in absent)

    def _restore_one(self, checkpoint_id: str, path: str, *, absent_now: bool) -> None:
        try:
            self.checkpoints.restore(checkpoint_id, paths=[path])
        except InvalidArgument:
            if not absent_now:
                raise

    def _exists(self, path: str) -> bool:
        return os.path.lexists(os.path.join(self.workdir, path))

    def _evict(self) -> None:
        while len(self._stack) > self.max_snapshots:
            evicted = self._stack.pop(0)
            try:
                self.checkpoints.drop(evicted.id)
            except CheckpointNotFound:
                pass

    def __repr__(self) -> str:
        return f"GhostCommitManager({self.workdir!r}, max_snapshots={self.max_snapshots})"


def _path_list(paths: Union[_StrPath, Iterable[_StrPath], None]) -> Optional[list[str]]:
    """`paths` as a list of str (one path alone is a list of one)."""
    if paths is None:
        return None
    if isinstance(paths, (str, os.PathLike)):
        return [os.fsdecode(paths)]
    return [os.fsdecode(p) for p in paths]
