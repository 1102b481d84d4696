"""Type stubs of the native extension `git_checkpoint._native` (PyO3, built by maturin).

Every public name of the extension is declared here; `tests/test_stubs.py` fails when one is
missing.
"""

from __future__ import annotations

import datetime
import os
import pathlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, final

__version__: str

_StrPath = str | os.PathLike[str]
_Spec = str | Checkpoint

class CheckpointError(Exception):
    """Base class of every error git-checkpoint raises; `str(err)` is the CLI's message."""

class CheckpointNotFound(CheckpointError):
    """No checkpoint answers to that name, id, prefix or position (or it was pruned)."""

class AmbiguousCheckpoint(CheckpointNotFound):
    """A prefix or name that could be several checkpoints; `candidates` lists them."""

    candidates: list[str]

class CheckpointConflict(CheckpointError):
    """Refused because files stand in the way, changes overlap, or (with
    `checkpoint.secrets=block`) files hold possible secrets; `paths` names them."""

    paths: list[str]

class CheckpointLocked(CheckpointError):
    """Another process holds the lock, or another restore is running in this worktree."""

class NothingToUndo(CheckpointError):
    """`undo` found nothing (more) to take back."""

class NothingToRedo(CheckpointError):
    """`redo` found no undo to take back."""

class InvalidArgument(CheckpointError, ValueError):
    """A value the library refuses: a bad kind, a path outside the tree, a bad setting."""

class CheckpointOSError(CheckpointError, OSError):
    """A file or directory could not be read or written (`errno` set where known)."""

@final
class Stats:
    """Differences from `HEAD` when the checkpoint was taken."""

    files: int
    added: int
    modified: int
    deleted: int
    def to_dict(self) -> dict[str, int]: ...

@final
class Checkpoint:
    """One checkpoint: a commit on `refs/checkpoints/<id>` and its note."""

    id: str
    commit: str
    name: str | None
    message: str | None
    kind: str
    created_at: datetime.datetime
    session: str | None
    agent: str | None
    worktree: str | None
    head: str | None
    branch: str | None
    stats: Stats
    metadata: dict[str, Any]
    pinned: bool
    secrets: dict[str, Any] | None
    """What the save's secret scan found: `{"findings": [{"path", "line", "rule"}]}`, never a
    value; `None` when no scan ran (`checkpoint.secrets=off`)."""
    @property
    def conversation(self) -> Any | None:
        """The conversation kept with it: a JSON one as its value, any other as text."""
    @property
    def files_changed(self) -> list[str]:
        """Paths that differ from the `HEAD` it was taken on (read on first use)."""
    @property
    def timestamp(self) -> datetime.datetime: ...
    def to_dict(self) -> dict[str, Any]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class FileDiff:
    """One file of a `CheckpointDiff`: its `path` (and `old_path` when renamed), its
    `status`, the lines added and deleted (both 0 for a `binary` file), as `git diff
    --numstat` counts them."""

    path: str
    old_path: str | None
    status: Literal["added", "modified", "deleted", "renamed", "type-changed"]
    additions: int
    deletions: int
    binary: bool

@final
class Hunk:
    """One hunk of a comparison: what `restore(hunks=[id])` and `revert(hunks=[id])` take.

    `lines` start with `' '`, `'-'` or `'+'` (and git's `\\ No newline at end of file`
    after a line without one); `header` is `@@ -1,3 +1,4 @@` as git prints it. The id
    depends only on the file's path and the hunk's lines.
    """

    id: str
    path: str
    header: str
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: list[str]
    def to_dict(self) -> dict[str, Any]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class CheckpointDiff:
    """What differs from `from_id` to `to_id` (`None`: the working tree now)."""

    from_id: str
    to_id: str | None
    files: list[FileDiff]
    hunks: list[Hunk]
    added_files: list[str]
    modified_files: list[str]
    deleted_files: list[str]
    renamed_files: list[tuple[str, str]]
    diff_content: str
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...

@final
class Restored:
    """What a restore, undo or redo did (or, with `dry_run`, would do)."""

    checkpoint: Checkpoint
    written: list[str]
    deleted: list[str]
    kept: list[str]
    left_alone: list[str]
    excluded: list[str]
    safety: Checkpoint | None
    dry_run: bool
    steps: int
    head_moved: bool
    @property
    def conversation(self) -> Any | None:
        """The conversation kept with the checkpoint restored (`checkpoint.conversation`):
        a JSON one as its value, any other as text; `None` when none was kept."""
    def to_dict(self) -> dict[str, Any]: ...

@final
class Reverted:
    """What a revert did: the change taken back (`from_checkpoint` → `to_checkpoint`), in
    `steps` steps (a session's or an agent's own steps may be several)."""

    from_checkpoint: Checkpoint
    to_checkpoint: Checkpoint
    conflicts: list[str]
    written: list[str]
    deleted: list[str]
    safety: Checkpoint | None
    dry_run: bool
    steps: int
    def to_dict(self) -> dict[str, Any]: ...

@final
class Pruned:
    """What `prune` removed (or, with `dry_run`, would remove): the checkpoints (`removed`)
    and for each id the rule that removed it (`reasons`, as `git checkpoint prune`
    says it). `len()` is how many."""

    removed: list[Checkpoint]
    reasons: dict[str, str]
    dry_run: bool
    def __len__(self) -> int: ...

@final
class DiskUsage:
    """What the checkpoints cost on disk, counting only what nothing else in the repository
    holds (`git checkpoint du`): `bytes` in `objects` objects for all `checkpoints`, of which
    `notes_bytes` for their notes and `conversations_bytes` for their conversations, and the
    bytes the checkpoints of each kind added (`by_kind`)."""

    checkpoints: int
    bytes: int
    objects: int
    notes_bytes: int
    conversations_bytes: int
    by_kind: dict[str, int]
    def to_dict(self) -> dict[str, Any]: ...

@final
class CheckpointEvent:
    """Something that happened: `type` is saved, restored, pruned, dropped or pinned."""

    type: Literal["saved", "restored", "pruned", "dropped", "pinned"]
    checkpoint: Checkpoint | None
    target: str | None
    safety: str | None
    ids: list[str]
    pinned: bool | None

@final
class Checkpoints:
    """The checkpoints of the git repository (or plain directory) containing `path`."""

    def __init__(
        self,
        path: _StrPath = ".",
        *,
        store: _StrPath | None = None,
        config: Mapping[str, str | int | bool | Sequence[str | int | bool]] | None = None,
    ) -> None: ...
    @property
    def path(self) -> pathlib.Path: ...
    @property
    def store(self) -> pathlib.Path | None: ...
    def save(
        self,
        message: str | None = None,
        *,
        name: str | None = None,
        kind: str = "manual",
        meta: Mapping[str, Any] | None = None,
        pin: bool = False,
        conversation: str | os.PathLike[str] | bytes | dict[str, Any] | list[Any] | None = None,
        session: str | None = None,
    ) -> Checkpoint:
        """Snapshot the working tree as a checkpoint and return it (the newest one, unchanged,
        when nothing changed and nothing new is asked to be recorded). `session` tags it as one
        of an agent session's saves: `list(session=...)`, `revert("session:<ID>")`. A restore
        that was killed part-way is completed first, and a `UserWarning` says so."""
    def list(
        self,
        *,
        kind: str | None = None,
        session: str | None = None,
        limit: int | None = None,
    ) -> list[Checkpoint]: ...
    def get(self, spec: _Spec) -> Checkpoint: ...
    def diff(self, a: _Spec, b: _Spec | None = None) -> CheckpointDiff: ...
    def restore(
        self,
        spec: _Spec,
        *,
        paths: Sequence[_StrPath] | None = None,
        dry_run: bool = False,
        hunks: Sequence[str] | None = None,
    ) -> Restored: ...
    def undo(self, n: int = 1) -> Restored: ...
    def redo(self, n: int = 1) -> Restored: ...
    def revert(
        self,
        a: _Spec | None = None,
        b: _Spec | None = None,
        *,
        hunks: Sequence[str] | None = None,
        agent: str | None = None,
    ) -> Reverted: ...
    def drop(self, spec: _Spec) -> str: ...
    def pin(self, spec: _Spec) -> Checkpoint: ...
    def unpin(self, spec: _Spec) -> Checkpoint: ...
    def prune(
        self,
        *,
        keep: int | None = None,
        older_than: str | datetime.timedelta | None = None,
        dry_run: bool = False,
    ) -> Pruned: ...
    def du(self) -> DiskUsage: ...
    def on_event(
        self, callback: Callable[[CheckpointEvent], object]
    ) -> Callable[[CheckpointEvent], object]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Checkpoints: ...
    def __exit__(self, *args: object) -> None: ...

def main(argv: Sequence[str] | None = None) -> int:
    """Run the `git-checkpoint` command line in this process; returns its exit code."""
