"""The whole public API, with annotations: `test_typing.py` runs `mypy --strict` on this file
(so the stubs and `py.typed` are checked as a user's code sees them) and then runs it.

Each function uses one part of the API the way an agent loop would; `exercise(directory)`
calls them all on a git repository or a plain directory whose `README.md` exists.
"""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path
from typing import Any, Optional

import git_checkpoint
from git_checkpoint import (
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
)
from git_checkpoint import aio
from git_checkpoint.compat import chimera, module, skill


def describe(checkpoint: Checkpoint) -> dict[str, Any]:
    """Every attribute of a checkpoint, typed."""
    stats: Stats = checkpoint.stats
    created: datetime.datetime = checkpoint.created_at
    name: Optional[str] = checkpoint.name
    files: list[str] = checkpoint.files_changed
    pinned: bool = checkpoint.pinned
    return {
        "id": checkpoint.id,
        "commit": checkpoint.commit,
        "name": name,
        "message": checkpoint.message,
        "kind": checkpoint.kind,
        "created_at": created.isoformat(),
        "timestamp": checkpoint.timestamp,
        "session": checkpoint.session,
        "agent": checkpoint.agent,
        "worktree": checkpoint.worktree,
        "head": checkpoint.head,
        "branch": checkpoint.branch,
        "stats": stats.to_dict(),
        "files": stats.files + stats.added + stats.modified + stats.deleted,
        "files_changed": files,
        "metadata": checkpoint.metadata,
        "pinned": pinned,
        "conversation": checkpoint.conversation,
        "dict": checkpoint.to_dict(),
        "hash": hash(checkpoint),
    }


def summarize(diff: CheckpointDiff) -> list[str]:
    """A diff's files, one line each."""
    lines: list[str] = []
    for f in diff.files:
        entry: FileDiff = f
        binary = " (binary)" if entry.binary else ""
        lines.append(f"{entry.status} {entry.path} +{entry.additions} -{entry.deletions}{binary}")
        if entry.old_path is not None:
            lines.append(f"  from {entry.old_path}")
    renamed: list[tuple[str, str]] = diff.renamed_files
    lines.extend(f"renamed {a} -> {b}" for a, b in renamed)
    lines.extend(diff.added_files + diff.modified_files + diff.deleted_files)
    for h in diff.hunks:
        hunk: Hunk = h
        first: int = hunk.old_start + hunk.old_lines + hunk.new_start + hunk.new_lines
        lines.append(f"{hunk.id} {hunk.path} {hunk.header} {first}")
        lines.extend(hunk.lines)
        _ = hunk.to_dict()
    to_id: Optional[str] = diff.to_id
    lines.append(f"{diff.from_id}..{to_id or 'working tree'}: {len(diff)} files, {bool(diff)}")
    lines.append(diff.diff_content)
    return lines


def report(restored: Restored) -> list[str]:
    """What a restore, undo or redo did."""
    safety: Optional[Checkpoint] = restored.safety
    lists = [restored.written, restored.deleted, restored.kept]
    lists += [restored.left_alone, restored.excluded]
    steps: int = restored.steps
    moved: bool = restored.head_moved
    return [restored.checkpoint.id, str(safety), str(lists), str(steps), str(moved),
            str(restored.dry_run), str(restored.to_dict())]


def on_event(event: CheckpointEvent) -> None:
    """An event callback, typed."""
    checkpoint: Optional[Checkpoint] = event.checkpoint
    ids: list[str] = event.ids
    _ = (event.type, checkpoint, event.target, event.safety, ids, event.pinned)


def handle(error: CheckpointError) -> str:
    """Every exception class, told apart."""
    if isinstance(error, AmbiguousCheckpoint):
        return "ambiguous: " + ", ".join(error.candidates)
    if isinstance(error, CheckpointNotFound):
        return "not found"
    if isinstance(error, CheckpointConflict):
        return "conflict: " + ", ".join(error.paths)
    if isinstance(error, (CheckpointLocked, NothingToUndo, NothingToRedo)):
        return type(error).__name__
    if isinstance(error, InvalidArgument):
        value_error: ValueError = error
        return str(value_error)
    if isinstance(error, CheckpointOSError):
        os_error: OSError = error
        return str(os_error.errno)
    return str(error)


def agent_loop(directory: Path) -> None:
    """The synchronous API: a checkpoint before each step, back when a step fails."""
    with Checkpoints(directory, config={"checkpoint.keep": 20, "checkpoint.maxAge": "30d"}) as cps:
        cps.on_event(on_event)
        store: Optional[Path] = cps.store
        path: Path = cps.path
        _ = (store, path, repr(cps))
        before: Checkpoint = cps.save("before step 1", name="step-1", meta={"step": 1})
        (directory / "README.md").write_text("step 1 failed half-way\n")
        summarize(cps.diff(before))
        summarize(cps.diff("step-1", None))
        report(cps.restore(before, paths=["README.md"], dry_run=True))
        ids: list[str] = [h.id for h in cps.diff(before).hunks]
        report(cps.restore(before, hunks=ids, dry_run=True))
        report(cps.restore("step-1"))
        report(cps.undo())
        report(cps.redo(1))
        after: Checkpoint = cps.save("after step 1", kind="auto", pin=False, conversation=None,
                                     session="typed-session")
        reverted: Reverted = cps.revert(before, after)
        _ = (reverted.conflicts, reverted.written, reverted.deleted, reverted.safety,
             reverted.dry_run, reverted.steps, reverted.to_dict())
        (directory / "README.md").write_text("step 2\n")
        step_2: Checkpoint = cps.save("after step 2")
        one: Reverted = cps.revert(after, step_2, hunks=[cps.diff(after, step_2).hunks[0].id])
        _ = one.steps
        try:
            cps.revert(agent="claude-code")  # no agent worked here: InvalidArgument
        except CheckpointError as error:
            handle(error)
        listed: list[Checkpoint] = cps.list(kind="manual", session=None, limit=10)
        describe(listed[0])
        describe(cps.get(before))
        pinned: Checkpoint = cps.pin(before)
        cps.unpin(pinned)
        pruned: Pruned = cps.prune(keep=10, older_than=datetime.timedelta(days=30), dry_run=True)
        _ = (pruned.removed, pruned.reasons, pruned.dry_run, len(pruned))
        cps.prune(older_than="30d", dry_run=True)
        usage: DiskUsage = cps.du()
        _ = (usage.checkpoints, usage.bytes, usage.objects, usage.notes_bytes, usage.by_kind)
        dropped: str = cps.drop(after)
        try:
            cps.get(dropped)
        except CheckpointError as error:
            handle(error)


async def async_loop(directory: Path) -> None:
    """The awaitable API."""
    async with aio.Checkpoints(
        directory, config={"checkpoint.keep": 20, "checkpoint.exclude": ["*.log", "dist/"]}
    ) as cps:
        cps.on_event(on_event)
        before: Checkpoint = await cps.save("before", name="async-before", session="typed-async")
        (directory / "README.md").write_text("async change\n")
        diff: CheckpointDiff = await cps.diff(before)
        summarize(diff)
        hunks: list[Hunk] = diff.hunks
        report(await cps.restore(before, hunks=[h.id for h in hunks], dry_run=True))
        restored: Restored = await cps.restore(before)
        report(restored)
        report(await cps.undo(1))
        report(await cps.redo())
        listed: list[Checkpoint] = await cps.list(limit=3)
        got: Checkpoint = await cps.get(listed[0].id)
        await cps.pin(got)
        await cps.unpin(got)
        await cps.prune(dry_run=True)
        await cps.du()
        await cps.drop(await cps.save("to drop", kind="auto"))
    opened: aio.Checkpoints = await aio.Checkpoints.open(directory)
    sync: Checkpoints = opened.sync
    _ = sync
    await opened.close()


def module_adapter(directory: Path, storage: Path) -> None:
    """The Checkpoints Module's service."""
    config = module.CheckpointConfig(auto_checkpoint=True, max_checkpoints=100,
                                     exclude_patterns=["*.log"])
    service = module.CheckpointService(str(directory), storage_dir=str(storage), config=config)
    service.initialize()

    @service.on_event
    def seen(event: module.CheckpointEvent) -> None:
        on_event(event)

    messages = [{"role": "user", "content": "typed"}]
    cp: module.Checkpoint = service.save("module save", conversation=messages)
    diff: module.CheckpointDiff = service.diff(cp.id, None)
    summarize(diff)
    back: Restored = service.restore(cp.id)
    conversation: Any = back.conversation
    assert conversation == messages
    every: list[module.Checkpoint] = service.list()
    found: Optional[module.Checkpoint] = service.get(every[0].id)
    deleted: bool = service.delete(cp.id)
    _ = (found, deleted, service.store, service.checkpoints)
    service.close()


def chimera_adapter(directory: Path) -> None:
    """Chimera's managers."""
    manager = chimera.CheckpointManager(directory)
    manager.auto_checkpoint = True
    cp: chimera.CheckpointInfo = manager.create(name="typed", description="typed example")
    unnamed = manager.create()
    text: str = cp.time_str + unnamed.name
    infos: list[chimera.CheckpointInfo] = manager.list_checkpoints()
    back: chimera.CheckpointInfo = manager.restore_by_name("typed")
    back = manager.restore_by_id(cp.id)
    undone: Optional[chimera.CheckpointInfo] = manager.undo()
    info: Optional[chimera.CheckpointInfo] = manager.get("typed")
    _ = (text, infos, back, undone, info)

    ghost = chimera.GhostCommitManager(workdir=directory, max_snapshots=10)
    snap: chimera.GhostSnapshot = ghost.snapshot("write_file: README.md", paths=["README.md"])
    ghost.snapshot("bash", paths=None)
    top: Optional[chimera.GhostSnapshot] = ghost.peek()
    depth: int = ghost.depth
    history: list[chimera.GhostSnapshot] = ghost.history
    popped: list[chimera.GhostSnapshot] = ghost.undo(2)
    ghost.clear()
    _ = (snap, top, depth, history, popped)


async def skill_adapter(directory: Path) -> None:
    """The checkpoint-manager skill's async manager."""
    manager = skill.CheckpointManager(directory)
    checkpoint: skill.SkillCheckpoint = await manager.create_checkpoint(
        name="typed-skill", description="typed example"
    )
    state: skill.GitState = checkpoint.git_state
    _ = (state.commit_hash, state.branch, state.dirty_files, checkpoint.to_dict())
    restored: Restored = await manager.rollback(checkpoint.id)
    restored = await manager.rollback_to_latest()
    listed: list[skill.SkillCheckpoint] = await manager.list_checkpoints()
    _ = (restored, listed)


def exercise(directory: Path, storage: Path) -> None:
    """Run every part above on `directory` (`storage`: an empty directory for a store)."""
    version: str = git_checkpoint.__version__
    assert version
    agent_loop(directory)
    asyncio.run(async_loop(directory))
    module_adapter(directory, storage)
    chimera_adapter(directory)
    asyncio.run(skill_adapter(directory))
    code: int = git_checkpoint.main(["list"])
    _ = code
