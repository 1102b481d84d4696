"""`git_checkpoint.compat.chimera`: Chimera's `CheckpointManager` and `GhostCommitManager`.

The seed's examples (../shared/seeds/002_*) run as documented, with the import lines ours and
`LocalEnvironment` a stand-in holding `working_dir`; in a git repository and in a plain
directory alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

import pytest

import git_checkpoint
from _helpers import LocalEnvironment, checkpoint_refs, git
from git_checkpoint.compat.chimera import (
    CheckpointInfo,
    CheckpointManager,
    GhostCommitManager,
    GhostSnapshot,
)

TIME_STR = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


@pytest.fixture(params=["repo", "plain_dir"])
def workdir(request: pytest.FixtureRequest) -> Path:
    """A git repository, then a plain directory: every test here runs in both."""
    path: Path = request.getfixturevalue(request.param)
    (path / "main.py").write_text("print('v1')\n")
    return path


def test_quick_start_example(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = LocalEnvironment(working_dir=str(workdir))
    manager = CheckpointManager(env)
    # Save a checkpoint
    cp = manager.create(name="before-refactor", description="Clean state before refactoring")
    print(cp.time_str)  # "2026-03-06 14:30:00"
    # ... make changes ...
    (workdir / "main.py").write_text("print('refactored')\n")
    (workdir / "helper.py").write_text("x = 1\n")
    # Undo to the most recent checkpoint
    manager.undo()

    assert TIME_STR.fullmatch(capsys.readouterr().out.strip())
    assert (workdir / "main.py").read_text() == "print('v1')\n"
    assert not (workdir / "helper.py").exists()


def test_lookup_restore_undo_example(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = LocalEnvironment(working_dir=str(workdir))
    manager = CheckpointManager(env)
    cp1 = manager.create(name="initial", description="Starting state")
    (workdir / "main.py").write_text("print('tests pass')\n")
    cp2 = manager.create(name="after-tests", description="All tests passing")
    for cp in manager.list_checkpoints():
        print(f"{cp.name} ({cp.time_str}): {cp.description}")
    # Restore by name (finds most recent match)
    restored = manager.restore_by_name("initial")
    print(f"Restored to: {restored.name}")
    assert (workdir / "main.py").read_text() == "print('v1')\n"
    # Restore by raw checkpoint ID
    (workdir / "main.py").write_text("print('scratch')\n")
    restored = manager.restore_by_id(cp1.id)
    assert (workdir / "main.py").read_text() == "print('v1')\n"
    result = manager.undo()
    if result:
        print(f"Undone to: {result.name}")
    else:
        print("No checkpoints to undo to")

    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(rf"initial \({TIME_STR.pattern}\): Starting state", lines[0])
    assert re.fullmatch(rf"after-tests \({TIME_STR.pattern}\): All tests passing", lines[1])
    assert lines[2:] == ["Restored to: initial", "Undone to: after-tests"]
    assert result == manager.get(cp2.id)
    assert (workdir / "main.py").read_text() == "print('tests pass')\n"


def test_sequential_names_example(workdir: Path) -> None:
    manager = CheckpointManager(LocalEnvironment(working_dir=str(workdir)))
    cp = manager.create()  # name = "checkpoint-1"
    assert cp.name == "checkpoint-1"
    cp = manager.create()  # name = "checkpoint-2"
    assert cp.name == "checkpoint-2"
    # A later manager (another process) continues after the names in the store.
    again = CheckpointManager(str(workdir))
    assert again.create().name == "checkpoint-3"
    assert again.create(name="named").name == "named"
    assert again.create().name == "checkpoint-4"


def test_get_example(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manager = CheckpointManager(LocalEnvironment(working_dir=str(workdir)))
    assert manager.get("before-refactor") is None
    made = manager.create(name="before-refactor")
    info = manager.get("before-refactor")
    if info:
        print(f"Checkpoint exists: {info.id} at {info.time_str}")
    assert capsys.readouterr().out.startswith(f"Checkpoint exists: {made.id} at ")
    assert manager.get(made.id) == info
    assert manager.get("20000101-000000-000000") is None


def test_undo_with_nothing_to_undo(workdir: Path) -> None:
    manager = CheckpointManager(workdir)
    assert manager.undo() is None
    # Checkpoints of others do not make this manager's undo do something.
    CheckpointManager(workdir).create(name="someone-else")
    assert manager.undo() is None


def test_undo_restores_the_newest_of_this_managers(workdir: Path) -> None:
    manager = CheckpointManager(workdir)
    manager.create(name="one")
    (workdir / "main.py").write_text("print('v2')\n")
    two = manager.create(name="two")
    (workdir / "main.py").write_text("print('v3')\n")
    assert manager.undo() == two
    assert (workdir / "main.py").read_text() == "print('v2')\n"
    # The manager's restore is undoable through the full API.
    manager.checkpoints.undo()
    assert (workdir / "main.py").read_text() == "print('v3')\n"
    # A deleted checkpoint is skipped.
    manager.checkpoints.drop(two.id)
    undone = manager.undo()
    assert undone is not None and undone.name == "one"
    assert (workdir / "main.py").read_text() == "print('v1')\n"


def test_restore_by_name_finds_the_most_recent(workdir: Path) -> None:
    manager = CheckpointManager(workdir)
    manager.create(name="green")
    (workdir / "main.py").write_text("print('v2')\n")
    newer = manager.create(name="green")
    (workdir / "main.py").write_text("print('v3')\n")
    assert manager.restore_by_name("green") == newer
    assert (workdir / "main.py").read_text() == "print('v2')\n"
    assert manager.get("green") == newer
    assert [c.name for c in manager.list_checkpoints()] == ["green", "green"]
    with pytest.raises(git_checkpoint.CheckpointNotFound):
        manager.restore_by_name("never-made")
    with pytest.raises(git_checkpoint.CheckpointNotFound):
        manager.restore_by_id("20000101-000000-000000")


def test_list_checkpoints_oldest_first_named_only(workdir: Path) -> None:
    manager = CheckpointManager(workdir)
    manager.checkpoints.save("an agent's unnamed save", kind="auto")
    first = manager.create(name="first", description="1")
    (workdir / "main.py").write_text("print('v2')\n")
    second = manager.create(description="2")
    listed = manager.list_checkpoints()
    assert listed == [first, second]
    assert [c.description for c in listed] == ["1", "2"]
    assert listed[1].name == "checkpoint-1"


def test_checkpoint_info() -> None:
    moment = datetime(2026, 3, 6, 14, 30, 0, tzinfo=timezone.utc)
    info = CheckpointInfo(id="x", name="n", timestamp=moment, description="d")
    assert info.time_str == moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def test_environment_forms(workdir: Path) -> None:
    directory = workdir

    class Workdir:
        workdir = str(directory)

    class Cwd:
        cwd = directory

    for env in (str(workdir), workdir, LocalEnvironment(str(workdir)), Workdir(), Cwd()):
        manager = CheckpointManager(env)
        assert Path(manager.checkpoints.path) == workdir
        assert manager.auto_checkpoint is False
    with pytest.raises(TypeError):
        CheckpointManager(object())


def test_constructing_makes_no_store(plain_dir: Path, tmp_path: Path) -> None:
    CheckpointManager(plain_dir)
    GhostCommitManager(plain_dir)
    assert not (tmp_path / "home" / ".local" / "share" / "git-checkpoint").exists()


@dataclass
class LoopConfig:
    """A stand-in for `chimera.core.loop_config.LoopConfig`."""

    ghost_commits: Optional[GhostCommitManager] = None


def test_ghost_example(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir=str(workdir), max_snapshots=50)
    config = LoopConfig(ghost_commits=ghost)
    # After the loop runs:
    ghost.snapshot("write_file: main.py", paths=["main.py"])
    # ... main.py modified ...
    (workdir / "main.py").write_text("print('modified')\n")
    ghost.undo()  # restores main.py
    assert (workdir / "main.py").read_text() == "print('v1')\n"
    assert config.ghost_commits is ghost and ghost.depth == 0


def test_ghost_undo_restores_only_the_paths(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir)
    (workdir / "other.py").write_text("other v1\n")
    ghost.snapshot("write_file: main.py", paths=["main.py"])
    (workdir / "main.py").write_text("print('v2')\n")
    (workdir / "other.py").write_text("other v2\n")
    popped = ghost.undo()
    assert [s.label for s in popped] == ["write_file: main.py"]
    assert (workdir / "main.py").read_text() == "print('v1')\n"
    assert (workdir / "other.py").read_text() == "other v2\n"


def test_ghost_undo_n_ends_at_the_oldest_state(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir)
    main = workdir / "main.py"
    ghost.snapshot("write_file: main.py", paths=["main.py"])
    main.write_text("print('v2')\n")
    ghost.snapshot("create new.py", paths=["new.py"])
    (workdir / "new.py").write_text("new\n")
    ghost.snapshot("write_file: main.py again", paths=[Path("main.py")])
    main.write_text("print('v3')\n")
    ghost.snapshot("bash: anything", paths=None)
    main.write_text("print('v4')\n")
    (workdir / "scratch.txt").write_text("made by a shell command\n")

    assert ghost.depth == 4
    assert [s.label for s in ghost.history][0] == "write_file: main.py"
    top = ghost.peek()
    assert top is not None and top.label == "bash: anything" and top.paths is None

    popped = ghost.undo(1)  # the whole directory back as it was before `bash`
    assert [s.label for s in popped] == ["bash: anything"]
    assert main.read_text() == "print('v3')\n"
    assert not (workdir / "scratch.txt").exists()

    popped = ghost.undo(5)  # more than there are: all three
    assert [s.label for s in popped] == [
        "write_file: main.py again",
        "create new.py",
        "write_file: main.py",
    ]
    assert main.read_text() == "print('v1')\n"
    assert not (workdir / "new.py").exists()
    assert ghost.depth == 0 and ghost.peek() is None and ghost.undo() == []

    # Every undo saved what it replaced: the last restore is taken back by the full API.
    ghost.checkpoints.undo()
    assert main.read_text() == "print('v2')\n"


def test_ghost_snapshot_of_a_file_never_created(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir)
    ghost.snapshot("write_file: never.py (failed)", paths=["never.py", "main.py"])
    (workdir / "main.py").write_text("print('v2')\n")
    ghost.undo()
    assert (workdir / "main.py").read_text() == "print('v1')\n"
    assert not (workdir / "never.py").exists()


def test_ghost_snapshot_records_kind_label_and_paths(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir)
    snap = ghost.snapshot("edit: main.py", paths="main.py")
    assert isinstance(snap, GhostSnapshot)
    assert snap.paths == ["main.py"]
    saved = ghost.checkpoints.get(snap.id)
    assert saved.kind == "ghost"
    assert saved.message == "edit: main.py"
    assert saved.metadata == {"ghost": {"label": "edit: main.py", "paths": ["main.py"]}}
    assert snap.timestamp == saved.created_at


def test_ghost_eviction_is_fifo_and_drops_the_checkpoint(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir, max_snapshots=2)
    snaps = [ghost.snapshot(f"step {n}") for n in range(3)]
    assert [s.label for s in ghost.history] == ["step 1", "step 2"]
    with pytest.raises(git_checkpoint.CheckpointNotFound):
        ghost.checkpoints.get(snaps[0].id)
    ghost.checkpoints.get(snaps[1].id)


def test_agents_auto_saves_do_not_prune_the_ghost_stack(workdir: Path) -> None:
    """60 `auto` saves (a hook's, another loop's) go beyond `checkpoint.keep` (50): retention
    removes the oldest `auto` ones, never the stack's snapshots, so `undo(3)` still works."""
    (workdir / "main.py").write_text("v0\n")
    ghost = GhostCommitManager(workdir)
    snaps = []
    for n in range(1, 4):
        snaps.append(ghost.snapshot(f"write_file: main.py ({n})", paths=["main.py"]))
        (workdir / "main.py").write_text(f"v{n}\n")
    hook = git_checkpoint.Checkpoints(workdir)
    for n in range(60):
        (workdir / "log.txt").write_text(f"{n}\n")
        hook.save(f"before tool call {n}", kind="auto")
    autos = hook.list(kind="auto")
    assert len(autos) == 50, "retention did run on the auto saves"
    assert [c.id for c in hook.list(kind="ghost")] == [s.id for s in reversed(snaps)]
    popped = ghost.undo(3)
    assert [s.id for s in popped] == [s.id for s in reversed(snaps)]
    assert (workdir / "main.py").read_text() == "v0\n"
    assert (workdir / "log.txt").read_text() == "59\n"  # not in the snapshots' paths


def test_max_snapshots_is_the_ghost_budget(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stack deeper than `checkpoint.keep` (here 3): the manager's own saves keep all of
    it, since `max_snapshots` is the `ghost` kind's budget."""
    monkeypatch.setenv(
        "GIT_CONFIG_PARAMETERS", "'checkpoint.minAge'='0' 'checkpoint.keep'='3'"
    )
    (workdir / "depth.txt").write_text("0\n")
    ghost = GhostCommitManager(workdir, max_snapshots=5)
    for n in range(1, 6):
        ghost.snapshot(f"step {n}", paths=["depth.txt"])
        (workdir / "depth.txt").write_text(f"{n}\n")
    assert ghost.depth == 5
    assert len(ghost.checkpoints.list(kind="ghost")) == 5
    ghost.undo(5)
    assert (workdir / "depth.txt").read_text() == "0\n"
    # checkpoint.keep was 3 indeed: other saves keep to it.
    other = git_checkpoint.Checkpoints(workdir)
    for n in range(5):
        (workdir / "other.txt").write_text(f"{n}\n")
        other.save(f"other {n}")
    assert len(other.list(kind="manual")) == 3


def test_ghost_undo_of_a_removed_snapshot_changes_nothing(workdir: Path) -> None:
    (workdir / "main.py").write_text("v0\n")
    ghost = GhostCommitManager(workdir)
    first = ghost.snapshot("one", paths=["main.py"])
    (workdir / "main.py").write_text("v1\n")
    ghost.snapshot("two", paths=["main.py"])
    (workdir / "main.py").write_text("v2\n")
    ghost.checkpoints.drop(first.id)  # as `git checkpoint drop` would
    with pytest.raises(git_checkpoint.CheckpointNotFound, match="`one`.*nothing was undone"):
        ghost.undo(2)
    assert (workdir / "main.py").read_text() == "v2\n"
    assert ghost.depth == 2
    assert [s.label for s in ghost.undo(1)] == ["two"]
    assert (workdir / "main.py").read_text() == "v1\n"


def test_ghost_clear_keeps_the_checkpoints(workdir: Path) -> None:
    ghost = GhostCommitManager(workdir)
    snap = ghost.snapshot("before")
    ghost.clear()
    assert ghost.depth == 0 and ghost.history == [] and ghost.undo() == []
    assert ghost.checkpoints.get(snap.id).id == snap.id


def test_ghost_in_a_repository_leaves_git_alone(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD")
    status = git(repo, "status", "--porcelain")
    ghost = GhostCommitManager(repo)
    ghost.snapshot("edit README", paths=["README.md"])
    (repo / "README.md").write_text("changed\n")
    ghost.undo()
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == status
    assert len(checkpoint_refs(repo)) >= 1  # the snapshot is a checkpoint in the repository


def test_bad_arguments(workdir: Path) -> None:
    with pytest.raises(ValueError):
        GhostCommitManager(workdir, max_snapshots=0)
    with pytest.raises(ValueError):
        GhostCommitManager(workdir).undo(-1)
