"""The Checkpoints Module's API (`CheckpointService`, `CheckpointConfig`) on git-checkpoint.

Code written for the Checkpoints Module runs unchanged but for its import line::

    from git_checkpoint.compat.module import CheckpointConfig, CheckpointService

    service = CheckpointService(
        workspace_dir="/path/to/project",
        config=CheckpointConfig(max_checkpoints=50, exclude_patterns=["*.log", "data/"]),
    )
    service.initialize()
    cp = service.save("Before refactoring", conversation=agent.messages)
    ...                                  # the agent changes files, the conversation goes on
    print(service.diff(cp.id).diff_content)
    restored = service.restore(cp.id)
    agent.messages = restored.conversation   # files and conversation back together

Files and conversation state together: `save(message, conversation=...)` keeps the agent's
conversation with the checkpoint (git-checkpoint's `save(conversation=...)`): a list of
`{"role", "content"}` messages (any JSON value), or `bytes`, or a transcript file (an
`os.PathLike`, or a `str` naming one: a `str` is never taken as the text itself). It is
stored beside the snapshot, not in the workspace, so a restore never writes it into the
files. `restore(checkpoint_id)` gives it back as `Restored.conversation` (JSON as its value,
such as the list of messages given; anything else, a JSON-lines transcript, as text; `None`
when the checkpoint kept none);
`get(checkpoint_id).conversation` reads it without restoring. The Module's own restore put
its conversation state back where it kept it; here the caller puts it back into its agent.

How it differs from the Module's shadow repository:

- The checkpoints live where `git checkpoint` keeps them: in the repository itself when
  `workspace_dir` is in one (plain git objects under `refs/checkpoints/`), else in a private
  store under `${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores/`. With `storage_dir`,
  the store is `storage_dir/<dirname>-<12 hex digits of the directory's path hash>`, one per
  workspace, so one `storage_dir` serves many workspaces as it did in the Module. The command
  line, hooks and MCP server see the same checkpoints.
- `restore` never runs `git clean` or `git reset --hard`: it saves the state it replaces as a
  safety checkpoint first (undo it with `service.checkpoints.undo()`), never deletes ignored
  or excluded files, and never moves the workspace's branch or index.
- `save` with a message always records a checkpoint, even when nothing changed since the last.
- `max_checkpoints` is git-checkpoint's `checkpoint.keep`: at most that many of each kind
  (agents' automatic saves never push out manual ones), pinned ones never removed, and none
  younger than `checkpoint.minAge` (1 hour by default) removed by a count.
"""

from __future__ import annotations

import pathlib
import builtins
import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from git_checkpoint import _native
from git_checkpoint._native import (
    Checkpoint,
    CheckpointDiff,
    CheckpointEvent,
    CheckpointNotFound,
    Checkpoints,
    Restored,
)

__all__ = [
    "Checkpoint",
    "Conversation",
    "CheckpointConfig",
    "CheckpointDiff",
    "CheckpointEvent",
    "CheckpointService",
]

_StrPath = Union[str, "os.PathLike[str]"]
_Setting = Union[str, int, bool]
_Callback = Callable[[CheckpointEvent], object]
# What `save(conversation=...)` keeps: JSON messages, bytes, or a transcript file.
Conversation = Union[builtins.list[Any], dict[str, Any], bytes, str, "os.PathLike[str]"]


@dataclass
class CheckpointConfig:
    """Configuration of a `CheckpointService`.

    - `auto_checkpoint`: whether the agent loop should checkpoint before changes (the loop
      reads it; `git checkpoint hooks <agent> --install` does it for coding agents).
    - `max_checkpoints`: most checkpoints kept of each kind (`checkpoint.keep`).
    - `exclude_patterns`: gitignore patterns left out of every checkpoint and never touched
      by a restore (`checkpoint.exclude`, one value per pattern).
    """

    auto_checkpoint: bool = True
    max_checkpoints: int = 100
    exclude_patterns: list[str] = field(default_factory=list)

    def settings(self) -> dict[str, Union[_Setting, list[str]]]:
        """The git-checkpoint settings this configuration stands for, as
        `Checkpoints(config=...)` takes them (a list: a multi-valued setting)."""
        out: dict[str, Union[_Setting, list[str]]] = {"checkpoint.keep": self.max_checkpoints}
        if self.exclude_patterns:
            out["checkpoint.exclude"] = list(self.exclude_patterns)
        return out


def store_for(workspace_dir: _StrPath, storage_dir: _StrPath) -> str:
    """The store of `workspace_dir` under `storage_dir`: `<dirname>-<12 hex digits>`.

    The digits are the SHA-1 of the directory's canonical path, as for git-checkpoint's own
    private stores, so two workspaces with the same name get different stores.
    """
    canonical = os.path.realpath(os.fspath(workspace_dir))
    digest = hashlib.sha1(os.fsencode(canonical)).hexdigest()[:12]
    name = os.path.basename(canonical) or "root"
    root = os.path.expanduser(os.fspath(storage_dir))
    return os.path.join(root, f"{name}-{digest}")


class CheckpointService:
    """Checkpoints of `workspace_dir`, saved, listed, diffed and restored.

    `storage_dir` (optional) is where the checkpoints are kept when they should not go into
    the repository (or the default private store); `config` a `CheckpointConfig`. Every
    method opens the store on first use if `initialize()` was not called.
    """

    def __init__(
        self,
        workspace_dir: _StrPath,
        storage_dir: Optional[_StrPath] = None,
        config: Optional[CheckpointConfig] = None,
    ) -> None:
        self.workspace_dir = os.path.expanduser(os.fspath(workspace_dir))
        self.storage_dir = (
            None if storage_dir is None else os.path.expanduser(os.fspath(storage_dir))
        )
        self.config = config if config is not None else CheckpointConfig()
        self._checkpoints: Optional[Checkpoints] = None
        self._pending_callbacks: list[_Callback] = []

    @property
    def is_initialized(self) -> bool:
        """Whether the store is open."""
        return self._checkpoints is not None

    @property
    def checkpoints(self) -> Checkpoints:
        """The underlying `git_checkpoint.Checkpoints` (opened on first use): undo, redo,
        revert, pin, prune and the rest of the full API."""
        return self.initialize()

    @property
    def store(self) -> Optional[pathlib.Path]:
        """The store's path (a git directory), or `None` when the repository itself is used."""
        return self.checkpoints.store

    def initialize(self) -> Checkpoints:
        """Open the store, making it when missing; idempotent. Returns the open object."""
        if self._checkpoints is None:
            store = None
            if self.storage_dir is not None:
                store = store_for(self.workspace_dir, self.storage_dir)
            opened = _native.Checkpoints(
                self.workspace_dir, store=store, config=self.config.settings()
            )
            for callback in self._pending_callbacks:
                opened.on_event(callback)
            self._pending_callbacks.clear()
            self._checkpoints = opened
        return self._checkpoints

    def save(
        self,
        message: str,
        *,
        metadata: Optional[Mapping[str, Any]] = None,
        conversation: Optional[Conversation] = None,
    ) -> Checkpoint:
        """Save every file of the workspace as a checkpoint with `message`; returns it.

        `conversation` is the agent's conversation at this point, kept with the checkpoint
        (a list of `{"role", "content"}` messages or any JSON value, `bytes`, or a
        transcript file, as a path or a `str` naming one): `restore` gives it back with the
        files.
        """
        return self.checkpoints.save(message, meta=metadata, conversation=conversation)

    def restore(self, checkpoint_id: Union[str, Checkpoint]) -> Restored:
        """Make the workspace what checkpoint `checkpoint_id` holds, and give back the
        conversation saved with it: `Restored.conversation` (`None` when none was).

        The state it replaces is saved first (`Restored.safety`), so the restore is undone
        by `service.checkpoints.undo()`. Raises `CheckpointNotFound` for an unknown id.
        """
        return self.checkpoints.restore(checkpoint_id)

    def diff(
        self,
        from_id: Union[str, Checkpoint],
        to_id: Union[str, Checkpoint, None] = None,
    ) -> CheckpointDiff:
        """What changed from `from_id` to `to_id` (`None`: to the workspace as it is now)."""
        return self.checkpoints.diff(from_id, to_id)

    def list(self) -> builtins.list[Checkpoint]:
        """Every checkpoint of the workspace, newest first (safety checkpoints included)."""
        return self.checkpoints.list()

    def get(self, checkpoint_id: Union[str, Checkpoint]) -> Optional[Checkpoint]:
        """The checkpoint `checkpoint_id` names (an id, unique prefix or name), or `None`.

        An ambiguous prefix still raises `AmbiguousCheckpoint`, naming the candidates.
        """
        try:
            return self.checkpoints.get(checkpoint_id)
        except _native.AmbiguousCheckpoint:
            raise
        except CheckpointNotFound:
            return None

    def delete(self, checkpoint_id: Union[str, Checkpoint]) -> bool:
        """Delete a checkpoint; `False` when there is no such checkpoint."""
        try:
            self.checkpoints.drop(checkpoint_id)
        except _native.AmbiguousCheckpoint:
            raise
        except CheckpointNotFound:
            return False
        return True

    def on_event(self, callback: _Callback) -> _Callback:
        """Call `callback(event)` after each save, restore, prune, drop or pin of this
        service (a `CheckpointEvent`); returns `callback`, so it can be a decorator."""
        if self._checkpoints is None:
            self._pending_callbacks.append(callback)
            return callback
        return self._checkpoints.on_event(callback)

    def close(self) -> None:
        """Release the store; the next call opens it again."""
        if self._checkpoints is not None:
            self._checkpoints.close()
            self._checkpoints = None

    def __enter__(self) -> CheckpointService:
        self.initialize()
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"CheckpointService({self.workspace_dir!r}, storage_dir={self.storage_dir!r})"
