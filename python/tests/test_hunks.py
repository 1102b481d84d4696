"""Hunks and sessions from Python: `CheckpointDiff.hunks`, `restore(hunks=...)`,
`revert(hunks=...)`, `revert("session:<ID>")` and `revert(agent=...)`, against real
repositories, with the command line's `diff --json` as the oracle for the ids."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from git_checkpoint import (
    Checkpoint,
    CheckpointConflict,
    Checkpoints,
    Hunk,
    InvalidArgument,
    aio,
)

from conftest import git

# Twenty lines: a change near the top and one near the bottom are two hunks (git's three lines
# of context on each side leave them apart).
ORIGINAL = [f"line {n}\n" for n in range(1, 21)]


def text(*changes: tuple[int, str]) -> str:
    """ORIGINAL with line `n` (1-based) replaced, for each change given."""
    lines = list(ORIGINAL)
    for n, new in changes:
        lines[n - 1] = new
    return "".join(lines)


def cli(repo: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The package's own command line, run as a process in `repo`."""
    return subprocess.run(
        [sys.executable, "-c", "import sys, git_checkpoint; sys.exit(git_checkpoint.main())",
         *args],
        cwd=repo, input=stdin, capture_output=True, text=True, check=False,
    )


def refs(repo: Path) -> list[str]:
    return git(repo, "for-each-ref", "--format=%(refname)", "refs/checkpoints/").split()


@pytest.fixture
def lines_repo(repo: Path) -> Path:
    """`repo` with `f.txt` (ORIGINAL) committed."""
    (repo / "f.txt").write_text(text())
    git(repo, "add", "f.txt")
    git(repo, "commit", "-q", "-m", "f.txt")
    return repo


# --- CheckpointDiff.hunks -----------------------------------------------------------------


def test_each_hunk_has_the_id_the_command_line_gives(lines_repo: Path) -> None:
    cp = Checkpoints(lines_repo)
    good = cp.save("good")
    f = lines_repo / "f.txt"
    f.write_text(text((2, "line 2 changed\n"), (18, "line 18 changed\n")))
    diff = cp.diff(good)
    assert [type(h) for h in diff.hunks] == [Hunk, Hunk]
    top, bottom = diff.hunks
    assert (top.path, top.header) == ("f.txt", "@@ -1,5 +1,5 @@")
    assert (top.old_start, top.old_lines, top.new_start, top.new_lines) == (1, 5, 1, 5)
    assert top.lines == [
        " line 1", "-line 2", "+line 2 changed", " line 3", " line 4", " line 5",
    ]
    # git's function line: the last line before the hunk that starts with a letter.
    assert bottom.header == "@@ -15,6 +15,6 @@ line 14"
    assert str(top) == "@@ -1,5 +1,5 @@\n" + "\n".join(top.lines) + "\n"
    assert top.to_dict()["id"] == top.id and top.to_dict()["lines"] == top.lines
    assert repr(top).startswith("Hunk(") and top.id in repr(top)
    # The oracle: the command line's `diff --json` of the same comparison.
    listed = cli(lines_repo, "diff", "--json", good.id)
    assert listed.returncode == 0, listed.stderr
    (file,) = json.loads(listed.stdout)["files"]
    assert [h["id"] for h in file["hunks"]] == [top.id, bottom.id]
    assert [h["header"] for h in file["hunks"]] == [top.header, bottom.header]
    assert [h["lines"] for h in file["hunks"]] == [top.lines, bottom.lines]
    # Frozen, comparable, hashable; the same hunk found again is equal.
    with pytest.raises(AttributeError):
        top.id = "x"  # type: ignore[misc]
    assert cp.diff(good).hunks[0] == top and len({top, cp.diff(good).hunks[0]}) == 1
    assert top != bottom


# --- restore(hunks=...) -------------------------------------------------------------------


def test_restore_one_hunk_keeps_the_other_and_is_undoable(lines_repo: Path) -> None:
    cp = Checkpoints(lines_repo)
    good = cp.save("good")
    f = lines_repo / "f.txt"
    changed = text((2, "line 2 changed\n"), (18, "line 18 changed\n"))
    f.write_text(changed)
    (lines_repo / "other.txt").write_text("other\n")
    top, bottom = [h for h in cp.diff(good).hunks if h.path == "f.txt"]

    dry = cp.restore(good, hunks=[top.id], dry_run=True)
    assert dry.dry_run and dry.written == ["f.txt"] and dry.deleted == []
    assert f.read_text() == changed

    restored = cp.restore(good, hunks=(top.id,))
    assert f.read_text() == text((18, "line 18 changed\n"))
    assert (lines_repo / "other.txt").read_text() == "other\n"
    assert restored.written == ["f.txt"] and restored.deleted == []
    assert restored.safety is not None and restored.safety.kind == "pre-restore"
    # The hunk taken back is no longer a difference; the other one still is, with its id.
    assert [h.id for h in cp.diff(good).hunks if h.path == "f.txt"] == [bottom.id]

    undone = cp.undo()
    assert undone.checkpoint == restored.safety
    assert f.read_text() == changed
    assert (lines_repo / "other.txt").read_text() == "other\n"


def test_restore_of_an_unknown_hunk_names_it_and_changes_nothing(lines_repo: Path) -> None:
    cp = Checkpoints(lines_repo)
    good = cp.save("good")
    f = lines_repo / "f.txt"
    changed = text((2, "line 2 changed\n"))
    f.write_text(changed)
    before = refs(lines_repo)
    with pytest.raises(InvalidArgument) as raised:
        cp.restore(good, hunks=["0123456789abcdef"])
    assert "0123456789abcdef" in str(raised.value)
    assert f.read_text() == changed
    assert refs(lines_repo) == before, "not even a safety checkpoint"
    # The id of another comparison names nothing here either.
    (hunk,) = cp.diff(good).hunks
    f.write_text(text((3, "line 3 instead\n")))
    with pytest.raises(InvalidArgument, match=hunk.id):
        cp.restore(good, hunks=[hunk.id])
    assert f.read_text() == text((3, "line 3 instead\n"))
    assert refs(lines_repo) == before


def test_the_hunks_argument_is_checked_before_anything_runs(lines_repo: Path) -> None:
    cp = Checkpoints(lines_repo)
    good = cp.save("good")
    f = lines_repo / "f.txt"
    f.write_text(text((2, "line 2 changed\n")))
    (hunk,) = cp.diff(good).hunks
    with pytest.raises(TypeError, match="list of hunk ids, not a str"):
        cp.restore(good, hunks=hunk.id)
    with pytest.raises(TypeError, match="hunk id is a str"):
        cp.restore(good, hunks=[hunk])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        cp.restore(good, hunks=42)  # type: ignore[arg-type]
    # An empty list is not read as "everything".
    with pytest.raises(InvalidArgument, match="empty"):
        cp.restore(good, hunks=[])
    with pytest.raises(InvalidArgument, match="paths"):
        cp.restore(good, hunks=[hunk.id], paths=["f.txt"])
    with pytest.raises(TypeError, match="not a str"):
        cp.revert(good, hunks=hunk.id)
    assert f.read_text() == text((2, "line 2 changed\n"))


# --- revert(hunks=...) --------------------------------------------------------------------


def test_revert_one_hunk_of_a_step_keeps_the_rest(lines_repo: Path) -> None:
    cp = Checkpoints(lines_repo)
    before = cp.save("before the agent")
    f = lines_repo / "f.txt"
    f.write_text(text((2, "agent 2\n"), (18, "agent 18\n")))
    after = cp.save("after the agent")
    # Later work of the user's, in the same file and another.
    f.write_text(text((2, "agent 2\n"), (10, "mine 10\n"), (18, "agent 18\n")))
    (lines_repo / "mine.txt").write_text("mine\n")
    top, bottom = cp.diff(before, after).hunks

    reverted = cp.revert(before, after, hunks=[bottom.id])
    assert f.read_text() == text((2, "agent 2\n"), (10, "mine 10\n"))
    assert (lines_repo / "mine.txt").read_text() == "mine\n"
    assert reverted.from_checkpoint == before and reverted.to_checkpoint == after
    assert reverted.steps == 1 and reverted.written == ["f.txt"]
    assert reverted.safety is not None
    cp.undo()
    assert f.read_text() == text((2, "agent 2\n"), (10, "mine 10\n"), (18, "agent 18\n"))

    # `b` left out: the step after `a`, as without hunks.
    cp.revert(before, hunks=[top.id])
    assert f.read_text() == text((10, "mine 10\n"), (18, "agent 18\n"))


def test_revert_of_a_hunk_whose_lines_changed_since_refuses(lines_repo: Path) -> None:
    cp = Checkpoints(lines_repo)
    before = cp.save("before")
    f = lines_repo / "f.txt"
    f.write_text(text((18, "agent 18\n")))
    after = cp.save("after")
    f.write_text(text((18, "mine 18\n")))
    (hunk,) = cp.diff(before, after).hunks
    saved = refs(lines_repo)
    with pytest.raises(CheckpointConflict) as raised:
        cp.revert(before, after, hunks=[hunk.id])
    assert raised.value.paths == ["f.txt"]
    assert hunk.id in str(raised.value)
    assert f.read_text() == text((18, "mine 18\n"))
    assert refs(lines_repo) == saved
    with pytest.raises(InvalidArgument, match="0123456789abcdef"):
        cp.revert(before, after, hunks=["0123456789abcdef"])


# --- sessions and agents -------------------------------------------------------------------


def hook_save(repo: Path, session: str, path: str) -> Checkpoint:
    """What Claude Code's PreToolUse hook does before an edit of `path` in `session`: the
    command line's `save --from-hook=claude-code` with the hook's JSON on stdin."""
    event = {
        "session_id": session,
        "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": str(repo / path)},
        "cwd": str(repo),
        "transcript_path": "",
    }
    done = cli(repo, "save", "--from-hook=claude-code", stdin=json.dumps(event))
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    saved = Checkpoints(repo).list(limit=1)[0]
    assert (saved.session, saved.agent) == (session, "claude-code"), "a new checkpoint"
    return saved


def two_sessions(repo: Path) -> Path:
    """Sessions A and B of Claude Code taking turns in `f.txt` (A: lines 2 and 6, B: lines
    10 and 14, in that order), then the user's save and the user's own line 18."""
    f = repo / "f.txt"
    edits = [("A", 2), ("B", 10), ("A", 6), ("B", 14)]
    done: list[tuple[int, str]] = []
    for session, n in edits:
        hook_save(repo, session, "f.txt")
        done.append((n, f"{session} {n}\n"))
        f.write_text(text(*done))
    Checkpoints(repo).save("the user's")
    f.write_text(text(*done, (18, "mine 18\n")))
    return f


def test_revert_a_session_takes_back_its_own_steps_only(lines_repo: Path) -> None:
    f = two_sessions(lines_repo)
    everything = f.read_text()
    cp = Checkpoints(lines_repo)
    reverted = cp.revert("session:A")
    assert reverted.steps == 2
    assert f.read_text() == text((10, "B 10\n"), (14, "B 14\n"), (18, "mine 18\n"))
    assert reverted.from_checkpoint.session == "A"
    cp.undo()
    assert f.read_text() == everything

    reverted = cp.revert("session:B")
    assert reverted.steps == 2
    assert f.read_text() == text((2, "A 2\n"), (6, "A 6\n"), (18, "mine 18\n"))


def test_revert_an_agent_takes_back_every_session_of_it(lines_repo: Path) -> None:
    f = two_sessions(lines_repo)
    everything = f.read_text()
    cp = Checkpoints(lines_repo)
    reverted = cp.revert(agent="claude-code")
    assert reverted.steps == 4
    assert f.read_text() == text((18, "mine 18\n"))
    assert reverted.to_dict()["steps"] == 4
    cp.undo()
    assert f.read_text() == everything
    # An agent with no step here, or an agent together with a checkpoint, is refused.
    saved = refs(lines_repo)
    with pytest.raises(InvalidArgument, match="codex"):
        cp.revert(agent="codex")
    with pytest.raises(InvalidArgument):
        cp.revert("session:A", agent="claude-code")
    with pytest.raises(InvalidArgument):
        cp.revert(None, "@", agent="claude-code")
    with pytest.raises(InvalidArgument, match="agent"):
        cp.revert()
    # Hunks are of one step, not of a session's steps.
    with pytest.raises(InvalidArgument):
        cp.revert(agent="claude-code", hunks=["0123456789abcdef"])
    assert f.read_text() == everything
    assert refs(lines_repo) == saved


# --- aio ---------------------------------------------------------------------------------


def test_aio_restores_a_hunk(lines_repo: Path) -> None:
    f = lines_repo / "f.txt"

    async def main() -> None:
        async with aio.Checkpoints(lines_repo) as cps:
            good = await cps.save("good")
            f.write_text(text((2, "line 2 changed\n"), (18, "line 18 changed\n")))
            top, _ = (await cps.diff(good)).hunks
            restored = await cps.restore(good, hunks=[top.id])
            assert restored.written == ["f.txt"]
            assert f.read_text() == text((18, "line 18 changed\n"))
            with pytest.raises(InvalidArgument, match="0123456789abcdef"):
                await cps.restore(good, hunks=["0123456789abcdef"])
            with pytest.raises(TypeError):
                await cps.restore(good, hunks=top.id)
            await cps.undo()
            assert f.read_text() == text((2, "line 2 changed\n"), (18, "line 18 changed\n"))

    asyncio.run(main())


def test_aio_reverts_an_agent_and_a_session(lines_repo: Path) -> None:
    f = two_sessions(lines_repo)

    async def agent() -> None:
        cps = aio.Checkpoints(lines_repo)
        reverted = await cps.revert(agent="claude-code")
        assert reverted.steps == 4
        assert f.read_text() == text((18, "mine 18\n"))
        await cps.undo()
        reverted = await cps.revert("session:B")
        assert f.read_text() == text((2, "A 2\n"), (6, "A 6\n"), (18, "mine 18\n"))

    asyncio.run(agent())
