"""`git_checkpoint.compat.module`: the Checkpoints Module's `CheckpointService` on our store.

The seed's documentation (../shared/seeds/001_*) names four usage examples (basic
checkpointing, with an agent, automatic checkpointing, excluding files) whose code blocks our
copy lost; each is written here from its API tables, with only the import line ours.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import git_checkpoint
from _helpers import checkpoint_refs, data_home, files_of, git, oracle_tree, tree_of
from git_checkpoint.compat.module import (
    Checkpoint,
    CheckpointConfig,
    CheckpointDiff,
    CheckpointEvent,
    CheckpointService,
)


def test_basic_checkpointing(repo: Path) -> None:
    service = CheckpointService(workspace_dir=str(repo))
    service.initialize()

    cp = service.save("Before refactoring")
    assert isinstance(cp, Checkpoint)
    assert cp.message == "Before refactoring"
    assert cp.timestamp.tzinfo is not None
    assert isinstance(cp.files_changed, list)
    assert isinstance(cp.metadata, dict)

    (repo / "src" / "app.py").write_text("print('refactored')\n")
    (repo / "new.py").write_text("x = 1\n")
    (repo / "README.md").unlink()

    diff = service.diff(cp.id)
    assert isinstance(diff, CheckpointDiff)
    assert diff.from_id == cp.id and diff.to_id is None
    assert diff.added_files == ["new.py"]
    assert diff.modified_files == ["src/app.py"]
    assert diff.deleted_files == ["README.md"]
    assert "+print('refactored')" in diff.diff_content

    service.restore(cp.id)
    assert (repo / "src" / "app.py").read_text() == "print('hello')\n"
    assert (repo / "README.md").read_text() == "# demo\n"
    assert not (repo / "new.py").exists()


def test_save_holds_what_git_add_would(repo: Path, tmp_path: Path) -> None:
    service = CheckpointService(repo)
    (repo / "untracked.txt").write_text("u\n")
    (repo / "src" / "app.py").write_text("changed\n")
    cp = service.save("state")
    assert tree_of(repo, cp.commit) == oracle_tree(repo, tmp_path)


def test_diff_between_two_checkpoints(repo: Path) -> None:
    service = CheckpointService(repo)
    first = service.save("first")
    (repo / "src" / "app.py").write_text("print('second')\n")
    (repo / "b.txt").write_text("b\n")
    second = service.save("second")
    diff = service.diff(first.id, second.id)
    assert (diff.from_id, diff.to_id) == (first.id, second.id)
    assert diff.added_files == ["b.txt"]
    assert diff.modified_files == ["src/app.py"]
    assert diff.deleted_files == []
    expected = git(repo, "diff", "--name-only", first.commit, second.commit).split()
    assert sorted(diff.added_files + diff.modified_files) == sorted(expected)


def test_restore_is_undoable_and_leaves_git_alone(repo: Path) -> None:
    service = CheckpointService(repo)
    cp = service.save("clean")
    (repo / "src" / "app.py").write_text("agent's work\n")
    git(repo, "add", "src/app.py")
    head = git(repo, "rev-parse", "HEAD")
    staged = git(repo, "diff", "--cached", "--name-only")

    restored = service.restore(cp.id)
    assert (repo / "src" / "app.py").read_text() == "print('hello')\n"
    assert restored.safety is not None
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert git(repo, "diff", "--cached", "--name-only") == staged

    service.checkpoints.undo()
    assert (repo / "src" / "app.py").read_text() == "agent's work\n"


def test_list_get_delete(repo: Path) -> None:
    service = CheckpointService(repo)
    a = service.save("a")
    (repo / "a.txt").write_text("a\n")
    b = service.save("b")
    listed = service.list()
    assert [c.id for c in listed] == [b.id, a.id]

    got = service.get(a.id)
    assert got is not None and got.id == a.id and got.message == "a"
    unique = next(a.id[:n] for n in range(16, 23) if not b.id.startswith(a.id[:n]))
    assert service.get(unique) == a
    assert service.get("20000101-000000-000000") is None

    assert service.delete(a.id) is True
    assert service.get(a.id) is None
    assert service.delete(a.id) is False
    assert [c.id for c in service.list()] == [b.id]
    assert f"refs/checkpoints/{a.id}" not in checkpoint_refs(repo)


def test_with_agent(repo: Path) -> None:
    """An agent loop: a checkpoint before each step, a restore when the step fails."""
    service = CheckpointService(workspace_dir=str(repo))
    service.initialize()

    def step(n: int) -> bool:
        (repo / f"step{n}.py").write_text(f"step = {n}\n")
        (repo / "src" / "app.py").write_text(f"print({n})\n")
        return n != 2

    for n in range(1, 4):
        before = service.save(f"Before step {n}")
        if not step(n):
            service.restore(before.id)
    assert sorted(p.name for p in repo.glob("step*.py")) == ["step1.py", "step3.py"]
    assert (repo / "src" / "app.py").read_text() == "print(3)\n"
    messages = [c.message for c in service.list() if c.kind == "manual"]
    assert messages == ["Before step 3", "Before step 2", "Before step 1"]


def test_files_and_conversation_restored_together(repo: Path, tmp_path: Path) -> None:
    """The seed's "restore files and conversation state together": an agent's messages are
    saved with the checkpoint and come back with its files."""

    class Agent:
        def __init__(self) -> None:
            self.messages: list[dict[str, str]] = [{"role": "system", "content": "be careful"}]

    agent = Agent()
    service = CheckpointService(workspace_dir=str(repo))
    service.initialize()
    agent.messages.append({"role": "user", "content": "refactor app.py"})
    cp = service.save("Before refactoring", conversation=agent.messages)
    saved_messages = [dict(m) for m in agent.messages]

    agent.messages.append({"role": "assistant", "content": "rewrote app.py, broke it"})
    (repo / "src" / "app.py").write_text("broken\n")
    later = service.save("after the refactor", conversation=agent.messages)

    restored = service.restore(cp.id)
    agent.messages = restored.conversation
    assert agent.messages == saved_messages
    assert (repo / "src" / "app.py").read_text() == "print('hello')\n"
    # Kept beside the snapshot, never among the workspace's files.
    assert files_of(repo, cp.commit) == ["README.md", "src/app.py"]
    assert tree_of(repo, cp.commit) == oracle_tree(repo, tmp_path)
    # Each checkpoint has its own; reading one needs no restore.
    got = service.get(later.id)
    assert got is not None and got.conversation is not None
    assert got.conversation[-1]["content"] == "rewrote app.py, broke it"
    # A transcript file (JSON lines) comes back as text; none kept: None.
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text('{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n')
    from_file = service.save("from a file", conversation=transcript)
    assert service.restore(from_file.id).conversation == transcript.read_text()
    plain = service.save("no conversation")
    assert service.restore(plain.id).conversation is None
    # An undo of the restore gives the files back; the conversation stays the caller's.
    assert service.checkpoints.undo().conversation is None


def test_automatic_checkpointing(repo: Path) -> None:
    """`auto_checkpoint` is the loop's flag; events say what the service did."""
    config = CheckpointConfig(auto_checkpoint=True)
    service = CheckpointService(repo, config=config)
    events: list[CheckpointEvent] = []
    service.on_event(events.append)  # before initialize: registered when it opens
    service.initialize()

    def write_file(path: str, text: str) -> None:
        if service.config.auto_checkpoint:
            service.save(f"before write_file {path}")
        (repo / path).write_text(text)

    write_file("notes.md", "one\n")
    write_file("notes.md", "two\n")
    assert [e.type for e in events] == ["saved", "saved"]
    first = events[0].checkpoint
    assert first is not None and first.message == "before write_file notes.md"

    service.restore(first.id)
    assert not (repo / "notes.md").exists()
    assert events[-1].type == "restored"
    assert events[-1].target == first.id


def test_excluding_files(repo: Path) -> None:
    (repo / "logs").mkdir()
    (repo / "logs" / "run.log").write_text("log\n")
    (repo / "debug.log").write_text("debug\n")
    (repo / "data,x").write_text("a comma is part of a pattern\n")
    config = CheckpointConfig(exclude_patterns=["logs/", "*.log"])
    service = CheckpointService(repo, config=config)
    cp = service.save("without logs")
    assert files_of(repo, cp.commit) == ["README.md", "data,x", "src/app.py"]

    (repo / "debug.log").write_text("changed\n")
    (repo / "src" / "app.py").write_text("changed\n")
    restored = service.restore(cp.id)
    assert (repo / "src" / "app.py").read_text() == "print('hello')\n"
    assert (repo / "debug.log").read_text() == "changed\n"  # excluded: never touched
    assert (repo / "logs" / "run.log").read_text() == "log\n"
    assert "debug.log" not in restored.written + restored.deleted


def test_config_settings() -> None:
    settings = CheckpointConfig(max_checkpoints=7, exclude_patterns=["a/", "*.b"]).settings()
    assert settings == {"checkpoint.keep": 7, "checkpoint.exclude": ["a/", "*.b"]}
    assert CheckpointConfig() == CheckpointConfig(True, 100, [])


def test_max_checkpoints_is_retention(repo: Path) -> None:
    service = CheckpointService(repo, config=CheckpointConfig(max_checkpoints=2))
    for n in range(4):
        (repo / "n.txt").write_text(f"{n}\n")
        service.save(f"save {n}")
    assert [c.message for c in service.list()] == ["save 3", "save 2"]


def test_plain_directory_default_store(plain_dir: Path) -> None:
    service = CheckpointService(str(plain_dir))
    cp = service.save("notes")
    store = service.store
    assert store is not None
    assert Path(store).parent == data_home()
    assert sorted(os.listdir(plain_dir)) == ["draft.md", "todo.txt"]  # nothing written there
    (plain_dir / "draft.md").write_text("second draft\n")
    service.restore(cp.id)
    assert (plain_dir / "draft.md").read_text() == "first draft\n"


def test_storage_dir_holds_one_store_per_workspace(tmp_path: Path, repo: Path) -> None:
    storage = tmp_path / "storage"
    one = tmp_path / "one"
    two = tmp_path / "two"
    for d in (one, two):
        d.mkdir()
        (d / "f.txt").write_text(d.name)
    first = CheckpointService(one, storage_dir=str(storage))
    second = CheckpointService(two, storage_dir=storage)
    a = first.save("one")
    b = second.save("two")
    assert first.store != second.store
    assert {Path(s).parent for s in (first.store, second.store) if s} == {storage}
    assert [c.id for c in first.list()] == [a.id]
    assert [c.id for c in second.list()] == [b.id]

    # In a git repository too, storage_dir keeps the checkpoints out of the repository.
    in_repo = CheckpointService(repo, storage_dir=storage)
    cp = in_repo.save("kept apart")
    assert checkpoint_refs(repo) == []
    assert in_repo.store is not None and Path(in_repo.store).parent == storage
    (repo / "README.md").write_text("changed\n")
    in_repo.restore(cp.id)
    assert (repo / "README.md").read_text() == "# demo\n"


def test_errors(repo: Path, tmp_path: Path) -> None:
    service = CheckpointService(repo)
    with pytest.raises(git_checkpoint.CheckpointNotFound):
        service.restore("20000101-000000-000000")
    with pytest.raises(git_checkpoint.CheckpointError):
        CheckpointService(tmp_path / "missing").initialize()


def test_context_manager_and_lazy_open(repo: Path) -> None:
    with CheckpointService(repo) as service:
        assert service.is_initialized
        service.save("inside")
    assert not service.is_initialized
    assert len(service.list()) == 1  # opened again on use
