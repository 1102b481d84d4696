"""Adapters with the class and method names of the checkpoint libraries git-checkpoint replaces.

Each seed's users switch by changing one import line; underneath, every adapter is a thin
layer over `git_checkpoint.Checkpoints`, so the checkpoints are the same ones the command
line (`git checkpoint list`), the hooks and the MCP server see, with the same retention,
safety checkpoint and undo.

- `git_checkpoint.compat.module`: the Checkpoints Module's `CheckpointService`,
  `CheckpointConfig`, `CheckpointEvent`.
- `git_checkpoint.compat.chimera`: Chimera's `CheckpointManager`, `CheckpointInfo`,
  `GhostCommitManager`, `GhostSnapshot` (``from chimera.checkpoints import ...``,
  ``from chimera.checkpoints_ghost import ...``).
- `git_checkpoint.compat.skill`: the checkpoint-manager skill's async `CheckpointManager`
  (``from scripts.checkpoint_manager import CheckpointManager``).

The submodules are independent: importing one does not import the others.
"""
