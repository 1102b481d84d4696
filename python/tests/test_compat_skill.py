"""`git_checkpoint.compat.skill`: the checkpoint-manager skill's async `CheckpointManager`.

The skill's Quick Start (../shared/seeds/003_*) runs as documented, with the import line ours;
its rollback no longer runs `git reset`: the branch stays, only the files come back.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import git_checkpoint
from _helpers import git
from git_checkpoint.compat.skill import CheckpointManager, GitState, SkillCheckpoint


def test_quick_start_example(repo: Path) -> None:
    project_dir = repo
    app = repo / "src" / "app.py"

    async def main() -> None:
        manager = CheckpointManager(project_dir)
        checkpoint = await manager.create_checkpoint(
            name="before-refactor",
            description="State before major refactoring"
        )
        app.write_text("print('refactor, attempt 1')\n")
        await manager.rollback(checkpoint.id)
        assert app.read_text() == "print('hello')\n"

        app.write_text("print('refactor, attempt 2')\n")
        # or rollback to latest
        await manager.rollback_to_latest()
        assert app.read_text() == "print('hello')\n"

    asyncio.run(main())


def test_checkpoint_structure(repo: Path) -> None:
    (repo / "src" / "app.py").write_text("dirty\n")
    (repo / "new.txt").write_text("untracked\n")

    async def main() -> SkillCheckpoint:
        return await CheckpointManager(repo).create_checkpoint("before-refactor", "desc")

    checkpoint = asyncio.run(main())
    assert checkpoint.name == "before-refactor"
    assert checkpoint.description == "desc"
    assert checkpoint.timestamp.tzinfo is not None
    assert checkpoint.git_state == GitState(
        commit_hash=git(repo, "rev-parse", "HEAD").strip(),
        branch="main",
        dirty_files=["new.txt", "src/app.py"],
    )
    as_json = json.loads(json.dumps(checkpoint.to_dict()))
    assert as_json["id"] == checkpoint.id
    assert as_json["git_state"]["branch"] == "main"
    assert set(as_json) == {"id", "name", "description", "timestamp", "git_state"}


def test_rollback_keeps_the_branch_and_the_work(repo: Path) -> None:
    """Where the skill's `git reset` moved the branch and lost uncommitted work, a rollback
    here puts the files back, leaves `HEAD` where it is and can be taken back."""
    app = repo / "src" / "app.py"

    async def main() -> None:
        manager = CheckpointManager(repo)
        checkpoint = await manager.create_checkpoint("before")
        app.write_text("committed later\n")
        git(repo, "commit", "-q", "-am", "later")
        head = git(repo, "rev-parse", "HEAD")
        app.write_text("uncommitted work\n")

        restored = await manager.rollback(checkpoint)
        assert app.read_text() == "print('hello')\n"
        assert git(repo, "rev-parse", "HEAD") == head  # no reset
        assert git(repo, "log", "-1", "--format=%s").strip() == "later"
        assert restored.safety is not None  # the uncommitted work, saved first

        await manager.checkpoints.undo()
        assert app.read_text() == "uncommitted work\n"

    asyncio.run(main())


def test_rollback_to_latest_picks_the_newest_named(repo: Path) -> None:
    readme = repo / "README.md"

    async def main() -> None:
        manager = CheckpointManager(repo)
        with pytest.raises(git_checkpoint.CheckpointNotFound):
            await manager.rollback_to_latest()
        await manager.create_checkpoint("one")
        readme.write_text("two\n")
        await manager.create_checkpoint("two")
        readme.write_text("three\n")
        await manager.checkpoints.save("an agent's save", kind="auto")  # not a named one
        readme.write_text("four\n")
        await manager.rollback_to_latest()
        assert readme.read_text() == "two\n"

        listed = await manager.list_checkpoints()
        assert [c.name for c in listed] == ["one", "two"]  # oldest first, named only

    asyncio.run(main())


def test_plain_directory(plain_dir: Path) -> None:
    async def main() -> None:
        manager = CheckpointManager(str(plain_dir))
        checkpoint = await manager.create_checkpoint("notes")
        assert checkpoint.git_state.commit_hash is None
        assert checkpoint.git_state.branch is None
        (plain_dir / "draft.md").write_text("lost?\n")
        await manager.rollback(checkpoint.id)
        assert (plain_dir / "draft.md").read_text() == "first draft\n"
        assert not (plain_dir / ".git").exists()

    asyncio.run(main())


def test_unknown_checkpoint(repo: Path) -> None:
    async def main() -> None:
        with pytest.raises(git_checkpoint.CheckpointNotFound):
            await CheckpointManager(repo).rollback("20000101-000000-000000")

    asyncio.run(main())


def test_concurrent_checkpoints_lose_nothing(repo: Path) -> None:
    async def main() -> list[SkillCheckpoint]:
        manager = CheckpointManager(repo)
        return list(
            await asyncio.gather(*(manager.create_checkpoint(f"cp-{n}") for n in range(8)))
        )

    made = asyncio.run(main())
    assert len({c.id for c in made}) == 8
    listed = asyncio.run(CheckpointManager(repo).list_checkpoints())
    assert sorted(c.name for c in listed) == sorted(f"cp-{n}" for n in range(8))
