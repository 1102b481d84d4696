"""Errors as Python sees them: the message of each exception is the command line's (`str(err)`
is what `git checkpoint` prints after `error:`), and the lock the library really takes makes
`CheckpointLocked`."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from git_checkpoint import (
    AmbiguousCheckpoint,
    CheckpointConflict,
    CheckpointError,
    CheckpointLocked,
    CheckpointNotFound,
    Checkpoints,
    NothingToUndo,
)

from conftest import git


def cli_command() -> list[str]:
    """The command line the wheel ships: its `git-checkpoint` console script, beside this
    interpreter in its virtual environment; else the same CLI run through `main()`."""
    script = Path(sys.executable).with_name("git-checkpoint")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-c", "import sys, git_checkpoint; sys.exit(git_checkpoint.main())"]


def cli_error(repo: Path, *args: str) -> str:
    """What `git-checkpoint ARGS` prints after `error: ` (up to its `hint:`), having failed."""
    done = subprocess.run(
        [*cli_command(), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("error: "))
    message = [lines[start].removeprefix("error: ")]
    for line in lines[start + 1 :]:
        if line.startswith("hint: "):
            break
        message.append(line)
    return "\n".join(message)


def raised(call: Callable[[], object], kind: type[CheckpointError]) -> str:
    with pytest.raises(kind) as caught:
        call()
    return str(caught.value)


def test_unknown_name_says_what_the_cli_says(repo: Path) -> None:
    cps = Checkpoints(repo)
    cps.save("one")
    python = raised(lambda: cps.get("no-such-name"), CheckpointNotFound)
    assert "no-such-name" in python
    assert python == cli_error(repo, "show", "no-such-name")
    assert raised(lambda: cps.restore("no-such-name"), CheckpointNotFound) == cli_error(
        repo, "restore", "no-such-name"
    )


def test_ambiguous_prefix_says_what_the_cli_says(repo: Path) -> None:
    cps = Checkpoints(repo)
    ids = []
    for i in range(3):
        (repo / "a.txt").write_text(f"{i}\n")
        ids.append(cps.save().id)
    prefix = os.path.commonprefix(ids)
    if len(prefix) < 9:
        pytest.skip(f"SKIPPED: the saves crossed midnight, their ids share no date: {ids}")
    python = raised(lambda: cps.get(prefix), AmbiguousCheckpoint)
    assert python == cli_error(repo, "show", prefix)


def test_nothing_to_undo_says_what_the_cli_says(repo: Path) -> None:
    cps = Checkpoints(repo)
    python = raised(cps.undo, NothingToUndo)
    assert python.startswith("nothing to undo")
    assert python == cli_error(repo, "undo")
    # And with checkpoints but no restore to take back.
    cps.save("one")
    assert raised(cps.undo, NothingToUndo) == cli_error(repo, "undo")


def test_a_revert_conflict_says_what_the_cli_says(repo: Path) -> None:
    cps = Checkpoints(repo)
    before = cps.save("before")
    (repo / "README.md").write_text("# agent's title\n")
    after = cps.save("after")
    (repo / "README.md").write_text("# my own title\n")
    with pytest.raises(CheckpointConflict) as caught:
        cps.revert(before, after)
    assert caught.value.paths == ["README.md"]
    assert str(caught.value) == cli_error(repo, "revert", before.id, after.id)
    assert (repo / "README.md").read_text() == "# my own title\n"


# --- CheckpointLocked --------------------------------------------------------------------


def test_a_running_restore_makes_checkpoint_locked(repo: Path) -> None:
    """The restore lock is an `flock` on `checkpoint-restore` in the git directory, held by a
    restore from start to end; this test holds it, as a restore in another process would."""
    cps = Checkpoints(repo)
    saved = cps.save("one")
    (repo / "README.md").write_text("# changed\n")
    lock = repo / ".git" / "checkpoint-restore"
    with open(lock, "a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        python = raised(lambda: cps.restore(saved), CheckpointLocked)
        assert "another restore is running" in python
        assert python == cli_error(repo, "restore", saved.id)
        assert raised(cps.undo, CheckpointLocked) == python
        assert (repo / "README.md").read_text() == "# changed\n"
        fcntl.flock(held.fileno(), fcntl.LOCK_UN)
    cps.restore(saved)
    assert (repo / "README.md").read_text() == "# demo\n"


def test_a_held_ref_lock_makes_checkpoint_locked(repo: Path) -> None:
    """A save updates `refs/notes/checkpoints` in a ref transaction; while another git
    process holds that ref's lock file (kept fresh here, as a live process's is), the save
    retries for a few seconds, then raises `CheckpointLocked` naming the file."""
    cps = Checkpoints(repo)
    cps.save("first")  # the notes ref exists
    lock = repo / ".git" / "refs" / "notes" / "checkpoints.lock"
    stop = threading.Event()

    def hold() -> None:
        while not stop.is_set():
            lock.touch()
            stop.wait(0.2)

    lock.touch()
    holder = threading.Thread(target=hold)
    holder.start()
    try:
        (repo / "README.md").write_text("# changed\n")
        started = time.monotonic()
        message = raised(lambda: cps.save("blocked"), CheckpointLocked)
        waited = time.monotonic() - started
    finally:
        stop.set()
        holder.join()
        lock.unlink()
    assert f"the lock file `{lock}` exists" in message, message
    assert waited < 60
    assert [c.message for c in cps.list()] == ["first"]
    assert cps.save("after").message == "after"
    git(repo, "fsck", "--strict")
