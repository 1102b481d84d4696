"""Snapshots of a git working tree (or any directory), and a safe way back, in process.

`git_checkpoint` is the Python face of `git checkpoint`: the same library, called in this
process (no subprocess, the GIL released while it works), on the same store. A checkpoint is
a plain git commit under `refs/checkpoints/` with a JSON note; your branch, index and stash
are never touched. Outside any git repository a directory gets a private store under
`${XDG_DATA_HOME:-~/.local/share}/git-checkpoint/stores/`.

Example::

    from git_checkpoint import Checkpoints

    with Checkpoints("path/to/project") as cps:
        before = cps.save("before the agent's edit", name="before-edit")
        ...                                   # let the agent change files
        print(cps.diff(before).diff_content)  # what changed since, as a patch
        cps.restore(before)                   # every file back; the state now is saved first
        cps.undo()                            # changed your mind: the restore is taken back

`git_checkpoint.aio` has the same API awaitable; `git_checkpoint.compat` has adapters with
the names of the Checkpoints Module, Chimera and the checkpoint-manager skill. Errors are
exceptions under `CheckpointError`, with the command line's messages.
"""

from __future__ import annotations

import signal
import sys

from git_checkpoint import _native
from git_checkpoint._native import (
    AmbiguousCheckpoint,
    Checkpoint,
    CheckpointConflict,
    CheckpointDiff,
    CheckpointError,
    CheckpointEvent,
    CheckpointLocked,
    CheckpointNotFound,
    CheckpointOSError,
    Checkpoints,
    DiskUsage,
    FileDiff,
    Hunk,
    InvalidArgument,
    NothingToRedo,
    NothingToUndo,
    Pruned,
    Restored,
    Reverted,
    Stats,
    __version__,
    main,
)

__all__ = [
    "AmbiguousCheckpoint",
    "Checkpoint",
    "CheckpointConflict",
    "CheckpointDiff",
    "CheckpointError",
    "CheckpointEvent",
    "CheckpointLocked",
    "CheckpointNotFound",
    "CheckpointOSError",
    "Checkpoints",
    "DiskUsage",
    "FileDiff",
    "Hunk",
    "InvalidArgument",
    "NothingToRedo",
    "NothingToUndo",
    "Pruned",
    "Restored",
    "Reverted",
    "Stats",
    "__version__",
    "main",
]


def _console() -> None:
    """The `git-checkpoint` console script: the whole command line, run in this process.

    Ctrl-C gets its default action back first (Python turns it into `KeyboardInterrupt`,
    which the command line would never see), so an interrupted command stops as the native
    binary does.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_native.main(sys.argv[1:]))
