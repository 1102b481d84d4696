"""A restore that died part-way (its journal left in the git directory, the working tree half
written) is completed by the next save or restore made through Python, as it is by the
command line's: the same façade. The journal is planted as `tests/cli/restore.rs` plants it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from git_checkpoint import Checkpoint, Checkpoints

from _helpers import oracle_tree, tree_of
from conftest import git


def plant_journal(repo: Path, target: Checkpoint, safety: Checkpoint) -> Path:
    """What a restore of `target` writes in its journal before changing the working tree."""
    journal = repo / ".git" / "checkpoint-restore"
    entry = {
        "version": 1,
        "target": target.id,
        "commit": target.commit,
        "safety": safety.id,
        "paths": [],
        "staged": False,
        "force": False,
    }
    journal.write_text(json.dumps(entry, separators=(",", ":")))
    return journal


def interrupted_restore(repo: Path) -> tuple[Checkpoint, Checkpoint, Path]:
    """A restore of `target` from the state `safety` holds, killed after writing `a.txt` and
    `new.txt`, before `b.txt` and before deleting `extra.txt`."""
    (repo / "a.txt").write_text("a\n")
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "files")
    cps = Checkpoints(repo)
    (repo / "new.txt").write_text("only in the target\n")
    target = cps.save("target")
    (repo / "a.txt").write_text("a before\n")
    (repo / "b.txt").write_text("b before\n")
    (repo / "new.txt").unlink()
    (repo / "extra.txt").write_text("only before\n")
    safety = cps.save(kind="pre-restore")
    cps.close()
    (repo / "a.txt").write_text("a\n")
    (repo / "new.txt").write_text("only in the target\n")
    return target, safety, plant_journal(repo, target, safety)


def cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, git_checkpoint; sys.exit(git_checkpoint.main())",
         *args],
        cwd=repo, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("by", ["python", "cli"])
def test_the_next_save_completes_an_interrupted_restore(
    repo: Path, tmp_path: Path, by: str
) -> None:
    target, safety, journal = interrupted_restore(repo)
    partial_tree = oracle_tree(repo, tmp_path)
    head = git(repo, "rev-parse", "HEAD")
    index = (repo / ".git" / "index").read_bytes()
    before_ids = {c.id for c in Checkpoints(repo).list()}

    if by == "python":
        # Said as the CLI says it, as a warning: the working tree changed.
        with pytest.warns(UserWarning, match=f"completed an interrupted restore of {target.id}"):
            saved_id = Checkpoints(repo).save().id
    else:
        stderr = cli(repo, "save").stderr
        assert f"completed an interrupted restore of {target.id}" in stderr, stderr
        saved_id = Checkpoints(repo).get("@").id

    cps = Checkpoints(repo)
    # Rolled forward: the working tree is the target, and the save is of that state.
    assert oracle_tree(repo, tmp_path) == tree_of(repo, target.commit)
    assert tree_of(repo, cps.get(saved_id).commit) == tree_of(repo, target.commit)
    assert (repo / "b.txt").read_text() == "b\n"
    assert not (repo / "extra.txt").exists()
    assert journal.read_bytes() == b""
    assert git(repo, "rev-parse", "HEAD") == head
    assert (repo / ".git" / "index").read_bytes() == index
    # Nothing is lost: the half-written state is a new pre-restore checkpoint.
    new = [c for c in cps.list() if c.id not in before_ids and c.id != saved_id]
    assert [(c.kind, tree_of(repo, c.commit)) for c in new] == [("pre-restore", partial_tree)]
    # Once completed, never again: the state before comes back from its safety checkpoint.
    cps.restore(safety)
    assert (repo / "b.txt").read_text() == "b before\n"
    assert (repo / "extra.txt").read_text() == "only before\n"
    cps.save("again")
    assert (repo / "b.txt").read_text() == "b before\n"


def test_the_next_restore_through_python_completes_it_first(repo: Path, tmp_path: Path) -> None:
    target, safety, journal = interrupted_restore(repo)
    cps = Checkpoints(repo)
    seen: list[str] = []
    cps.on_event(lambda e: seen.append(e.type))
    restored = cps.restore(safety)
    # Completed, then the restore asked for ran: back to the state before.
    assert restored.checkpoint == safety
    assert oracle_tree(repo, tmp_path) == tree_of(repo, safety.commit)
    assert (repo / "extra.txt").read_text() == "only before\n"
    assert not (repo / "new.txt").exists()
    assert journal.read_bytes() == b""
    assert "restored" in seen
    # The target's state was reached on the way: undo goes back to it.
    cps.undo()
    assert oracle_tree(repo, tmp_path) == tree_of(repo, target.commit)


def test_a_live_restore_is_not_completed_by_a_save(repo: Path) -> None:
    """While the journal's lock is held (the restore still running), a save leaves it alone."""
    import fcntl

    target, safety, journal = interrupted_restore(repo)
    content = journal.read_bytes()
    with open(journal, "r+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        Checkpoints(repo).save("while it runs")
        assert (repo / "b.txt").read_text() == "b before\n"
        assert journal.read_bytes() == content
    Checkpoints(repo).save("after it died")
    assert (repo / "b.txt").read_text() == "b\n"
    assert journal.read_bytes() == b""
    assert os.path.exists(repo / "new.txt")
