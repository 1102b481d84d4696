"""The checkpoint-manager skill's async `CheckpointManager` on git-checkpoint.

Code written for the skill runs unchanged but for its import line::

    from git_checkpoint.compat.skill import CheckpointManager

    manager = CheckpointManager(project_dir)
    checkpoint = await manager.create_checkpoint(
        name="before-refactor",
        description="State before major refactoring",
    )
    ...                                           # the risky operation
    await manager.rollback(checkpoint.id)         # or: await manager.rollback_to_latest()

How it differs from the skill:

- The skill's rollback ran `git reset` to the checkpoint's commit: it moved the branch and
  lost every uncommitted change (and the commits made since). Here a rollback restores the
  working tree only: the files are put back exactly as they were (modified, untracked and
  deleted files included), the state it replaces is kept as a safety checkpoint (take the
  rollback back with `manager.checkpoints.undo()`, or `git checkpoint undo`), and `HEAD`,
  the branch, the index and the stash never move.
- A checkpoint holds every file that is not ignored, so a feature list or progress file in
  the project is saved and restored with the code; for ignored state files, set
  `checkpoint.include` (`git config --add checkpoint.include '.claude/state/'`).
- Checkpoints are git commits in the repository (or, outside one, in a private store), shared
  with the command line, the hooks and the MCP server, kept by git-checkpoint's retention.
"""

from __future__ import annotations

import asyncio
import builtins
import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional, Union

from git_checkpoint import aio
from git_checkpoint._native import Checkpoint, CheckpointNotFound, Restored

__all__ = ["CheckpointManager", "GitState", "SkillCheckpoint"]

_StrPath = Union[str, "os.PathLike[str]"]


@dataclass
class GitState:
    """The repository's state when the checkpoint was taken.

    `commit_hash` and `branch` are `None` in a plain directory (and `branch` on a detached
    `HEAD`); `dirty_files` are the paths that differed from that commit.
    """

    commit_hash: Optional[str]
    branch: Optional[str]
    dirty_files: list[str] = field(default_factory=list)


@dataclass
class SkillCheckpoint:
    """A checkpoint as the skill describes it; `to_dict()` gives the skill's JSON shape."""

    id: str
    name: str
    description: str
    timestamp: datetime
    git_state: GitState

    @classmethod
    def from_checkpoint(
        cls, checkpoint: Checkpoint, *, plain_directory: bool = False
    ) -> SkillCheckpoint:
        """Describe a `git_checkpoint.Checkpoint` (reads its changed files: call it off the
        event loop). In a plain directory (a private store) there is no branch."""
        return cls(
            id=checkpoint.id,
            name=checkpoint.name or checkpoint.id,
            description=checkpoint.message or "",
            timestamp=checkpoint.created_at,
            git_state=GitState(
                commit_hash=checkpoint.head,
                branch=None if plain_directory else _short_branch(checkpoint.branch),
                dirty_files=checkpoint.files_changed,
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        """`{"id", "name", "description", "timestamp", "git_state": {...}}`, JSON-ready."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "timestamp": self.timestamp.isoformat(),
            "git_state": {
                "commit_hash": self.git_state.commit_hash,
                "branch": self.git_state.branch,
                "dirty_files": list(self.git_state.dirty_files),
            },
        }


def _short_branch(ref: Optional[str]) -> Optional[str]:
    """`main` for `refs/heads/main`, as the skill recorded it."""
    prefix = "refs/heads/"
    return ref[len(prefix) :] if ref is not None and ref.startswith(prefix) else ref


async def _describe(checkpoints: aio.Checkpoints, checkpoint: Checkpoint) -> SkillCheckpoint:
    plain = checkpoints.store is not None
    return await asyncio.to_thread(
        SkillCheckpoint.from_checkpoint, checkpoint, plain_directory=plain
    )


class CheckpointManager:
    """Checkpoints of `project_dir` for safe experimentation; every method is awaitable.

    The checkpoints it lists and rolls back to are the store's named checkpoints (every one
    `create_checkpoint` makes has a name), so those made by an earlier process count too.
    """

    def __init__(self, project_dir: _StrPath) -> None:
        self.project_dir = os.fsdecode(project_dir)
        self._checkpoints: Optional[aio.Checkpoints] = None

    async def _open(self) -> aio.Checkpoints:
        if self._checkpoints is None:
            opened = await aio.Checkpoints.open(self.project_dir)
            if self._checkpoints is None:
                self._checkpoints = opened
        return self._checkpoints

    @property
    def checkpoints(self) -> aio.Checkpoints:
        """The underlying `git_checkpoint.aio.Checkpoints` (opened on first use): the full
        API, e.g. `await manager.checkpoints.undo()` to take a rollback back."""
        if self._checkpoints is None:
            self._checkpoints = aio.Checkpoints(self.project_dir)
        return self._checkpoints

    async def create_checkpoint(self, name: str, description: str = "") -> SkillCheckpoint:
        """Save every file of the project as a checkpoint called `name`, and describe it."""
        checkpoints = await self._open()
        saved = await checkpoints.save(description or None, name=name)
        return await _describe(checkpoints, saved)

    async def rollback(self, checkpoint_id: Union[str, SkillCheckpoint, Checkpoint]) -> Restored:
        """Put the project's files back as checkpoint `checkpoint_id` holds them.

        Only the working tree changes (never `HEAD`, the branch or the index); the state it
        replaces is saved first, so `await manager.checkpoints.undo()` takes it back. Raises
        `CheckpointNotFound` for an unknown id.
        """
        spec = checkpoint_id.id if isinstance(checkpoint_id, SkillCheckpoint) else checkpoint_id
        checkpoints = await self._open()
        return await checkpoints.restore(spec)

    async def rollback_to_latest(self) -> Restored:
        """Roll back to the most recent named checkpoint; raises `CheckpointNotFound` when
        there is none."""
        checkpoints = await self._open()
        latest = await self._latest(checkpoints)
        if latest is None:
            raise CheckpointNotFound("no checkpoint to roll back to: none was created")
        return await checkpoints.restore(latest)

    async def list_checkpoints(self) -> builtins.list[SkillCheckpoint]:
        """The named checkpoints, oldest first."""
        checkpoints = await self._open()
        named = [c for c in await checkpoints.list() if c.name is not None]
        return [await _describe(checkpoints, c) for c in reversed(named)]

    @staticmethod
    async def _latest(checkpoints: aio.Checkpoints) -> Optional[Checkpoint]:
        return next((c for c in await checkpoints.list() if c.name is not None), None)

    def __repr__(self) -> str:
        return f"CheckpointManager({self.project_dir!r})"
