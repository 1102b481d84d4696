"""`git_checkpoint.Checkpoints`: every method, against real repositories, with git as the
oracle; threads, events, errors, plain directories and bad input."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import git_checkpoint
from git_checkpoint import (
    AmbiguousCheckpoint,
    Checkpoint,
    CheckpointDiff,
    CheckpointError,
    CheckpointEvent,
    CheckpointNotFound,
    CheckpointOSError,
    Checkpoints,
    InvalidArgument,
    NothingToRedo,
    NothingToUndo,
    Restored,
)

from conftest import git


def oracle_tree(repo: Path) -> str:
    """The tree `git add -A && git write-tree` gives on a copy of the index."""
    index = repo / ".git" / "index"
    scratch = repo.parent / "oracle-index"
    if index.exists():
        shutil.copy(index, scratch)
    elif scratch.exists():
        scratch.unlink()
    env = dict(os.environ, GIT_INDEX_FILE=str(scratch))
    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
    tree = subprocess.run(
        ["git", "write-tree"], cwd=repo, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()
    scratch.unlink()
    return tree


def tree_of(repo: Path, checkpoint: Checkpoint) -> str:
    return git(repo, "rev-parse", f"{checkpoint.commit}^{{tree}}").strip()


# --- save, get, list -------------------------------------------------------------------


def test_save_writes_the_tree_git_add_would_and_nothing_else(repo: Path) -> None:
    (repo / "README.md").write_text("# changed\n")
    (repo / "new.txt").write_text("untracked\n")
    (repo / "src" / "app.py").unlink()
    index_before = (repo / ".git" / "index").read_bytes()
    head_before = git(repo, "rev-parse", "HEAD")

    cp = Checkpoints(repo)
    saved = cp.save("before the refactor", name="base", meta={"step": 3, "tags": ["a"]})

    assert tree_of(repo, saved) == oracle_tree(repo)
    assert git(repo, "rev-parse", f"refs/checkpoints/{saved.id}").strip() == saved.commit
    assert (repo / ".git" / "index").read_bytes() == index_before
    assert git(repo, "rev-parse", "HEAD") == head_before
    assert git(repo, "stash", "list") == ""
    assert saved.message == "before the refactor"
    assert saved.name == "base"
    assert saved.kind == "manual"
    assert saved.metadata == {"step": 3, "tags": ["a"]}
    assert saved.branch == "main"
    assert saved.head == head_before.strip()
    assert (saved.stats.added, saved.stats.modified, saved.stats.deleted) == (1, 1, 1)
    assert sorted(saved.files_changed) == ["README.md", "new.txt", "src/app.py"]
    assert saved.created_at.tzinfo is not None
    assert abs(datetime.datetime.now(datetime.timezone.utc) - saved.created_at) < datetime.timedelta(minutes=5)
    assert saved.timestamp == saved.created_at
    assert saved.conversation is None
    assert git(repo, "for-each-ref", "refs/checkpoint-conversations") == ""
    # The note is the one the CLI reads.
    note = git(repo, "notes", "--ref=checkpoints", "show", saved.commit)
    assert '"name":"base"' in note
    git(repo, "fsck", "--strict")
    git(repo, "gc", "-q")


def test_save_of_an_unchanged_tree_returns_the_newest(repo: Path) -> None:
    cp = Checkpoints(repo)
    first = cp.save()
    again = cp.save()
    assert again == first
    assert len(cp.list()) == 1
    # A message of one's own is something to record: a new checkpoint.
    third = cp.save("kept apart")
    assert third != first
    assert len(cp.list()) == 2


def test_get_by_every_naming_rule(repo: Path) -> None:
    cp = Checkpoints(repo)
    (repo / "a.txt").write_text("1\n")
    first = cp.save(name="first")
    (repo / "a.txt").write_text("2\n")
    second = cp.save()
    assert cp.get(first.id) == first
    assert cp.get(first.id[:-1]) == first
    assert cp.get("first") == first
    assert cp.get("@") == second
    assert cp.get("@{1}") == first
    assert cp.get(first) == first
    with pytest.raises(CheckpointNotFound, match="no checkpoint named `nothing`"):
        cp.get("nothing")
    with pytest.raises(CheckpointNotFound):
        cp.get("@{5}")
    assert issubclass(CheckpointNotFound, CheckpointError)


def test_ambiguous_prefix(repo: Path) -> None:
    cp = Checkpoints(repo)
    ids = []
    for i in range(3):
        (repo / "a.txt").write_text(f"{i}\n")
        ids.append(cp.save().id)
    prefix = os.path.commonprefix(ids)
    if len(prefix) < 9:
        pytest.skip(f"SKIPPED: the saves crossed midnight, their ids share no date: {ids}")
    with pytest.raises(AmbiguousCheckpoint) as raised:
        cp.get(prefix)
    assert len(raised.value.candidates) >= 2
    assert set(raised.value.candidates) <= set(ids)
    assert isinstance(raised.value, CheckpointNotFound)


def test_list_filters_and_limits(repo: Path) -> None:
    cp = Checkpoints(repo)
    (repo / "a.txt").write_text("1\n")
    manual = cp.save("by hand")
    (repo / "a.txt").write_text("2\n")
    auto = cp.save(kind="auto")
    listed = cp.list()
    assert [c.id for c in listed] == [auto.id, manual.id]
    assert [c.id for c in cp.list(kind="auto")] == [auto.id]
    assert [c.id for c in cp.list(limit=1)] == [auto.id]
    assert cp.list(limit=0) == []
    with pytest.raises(InvalidArgument):
        cp.list(limit=-1)
    # The CLI sees the same checkpoints.
    out = subprocess.run(
        ["git", "log", "--no-walk", "--format=%H", "--glob=refs/checkpoints"],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout.split()
    assert sorted(out) == sorted(c.commit for c in listed)


def test_a_conversation_travels_with_the_checkpoint(repo: Path) -> None:
    cp = Checkpoints(repo)
    chat = [{"role": "user", "content": "rename the function"}, {"role": "assistant", "content": "done"}]
    first = cp.save("turn 1", conversation=chat)
    assert cp.get(first.id).conversation == chat
    transcript = repo.parent / "transcript.jsonl"
    transcript.write_text('{"type":"user","text":"hi"}\n{"type":"assistant","text":"hello"}\n')
    second = cp.save("turn 2", conversation=transcript)
    assert cp.get(second.id).conversation == transcript.read_text()
    third = cp.save("turn 3", conversation=b"plain bytes\n")
    assert cp.get(third.id).conversation == "plain bytes\n"
    # Stored beside the checkpoint, not in its tree: the save oracle holds.
    assert tree_of(repo, third) == oracle_tree(repo)
    refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/checkpoint-conversations").split()
    assert sorted(refs) == sorted(f"refs/checkpoint-conversations/{c.id}" for c in (first, second, third))
    # The command line (the package's own, run in process) shows it.
    shown = subprocess.run(
        [sys.executable, "-c", "import sys, git_checkpoint; sys.exit(git_checkpoint.main())",
         "show", second.id, "--conversation"],
        cwd=repo, capture_output=True, text=True,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == transcript.read_text()
    # Dropped with its checkpoint; gc keeps what is left, fsck is clean.
    cp.drop(first)
    assert git(repo, "for-each-ref", f"refs/checkpoint-conversations/{first.id}") == ""
    git(repo, "gc", "-q", "--prune=now")
    git(repo, "fsck", "--strict")
    assert cp.get(second.id).conversation == transcript.read_text()


# --- diff --------------------------------------------------------------------------------


def test_diff_matches_git_diff(repo: Path) -> None:
    cp = Checkpoints(repo)
    first = cp.save("start")
    (repo / "README.md").write_text("# demo\nmore\n")
    (repo / "added.txt").write_text("new\n")
    (repo / "src" / "app.py").unlink()
    second = cp.save("after")
    d = cp.diff(first, second)
    assert isinstance(d, CheckpointDiff)
    assert (d.from_id, d.to_id) == (first.id, second.id)
    assert d.added_files == ["added.txt"]
    assert d.modified_files == ["README.md"]
    assert d.deleted_files == ["src/app.py"]
    assert len(d) == 3 and bool(d)
    expected = git(repo, "diff", first.commit, second.commit)
    assert d.diff_content == expected
    # The patch applies with git apply, from the first state.
    git(repo, "checkout", "-q", "--", ".")
    (repo / "README.md").write_text("# demo\n")
    (repo / "added.txt").unlink()
    patch = repo.parent / "p.diff"
    patch.write_text(d.diff_content)
    git(repo, "apply", "--check", str(patch))


def test_diff_against_the_working_tree_writes_nothing(repo: Path) -> None:
    cp = Checkpoints(repo)
    first = cp.save()
    (repo / "README.md").write_text("# edited\n")
    objects_before = git(repo, "count-objects", "-v")
    d = cp.diff(first)
    assert d.to_id is None
    assert d.modified_files == ["README.md"]
    assert git(repo, "count-objects", "-v") == objects_before
    assert not cp.diff(first, first)


# --- restore, undo, redo --------------------------------------------------------------------


def test_restore_brings_back_and_is_undoable(repo: Path) -> None:
    cp = Checkpoints(repo)
    (repo / "notes.txt").write_text("unsaved idea\n")
    good = cp.save("good")
    (repo / "README.md").write_text("# broken\n")
    (repo / "notes.txt").unlink()
    (repo / "junk.txt").write_text("junk\n")

    r = cp.restore(good)
    assert isinstance(r, Restored)
    assert (repo / "README.md").read_text() == "# demo\n"
    assert (repo / "notes.txt").read_text() == "unsaved idea\n"
    assert not (repo / "junk.txt").exists()
    assert sorted(r.written) == ["README.md", "notes.txt"]
    assert r.deleted == ["junk.txt"]
    assert r.safety is not None and r.safety.kind == "pre-restore"
    assert tree_of(repo, good) == oracle_tree(repo)

    u = cp.undo()
    assert (repo / "README.md").read_text() == "# broken\n"
    assert (repo / "junk.txt").read_text() == "junk\n"
    assert not (repo / "notes.txt").exists()
    assert u.checkpoint == r.safety

    cp.redo()
    assert (repo / "README.md").read_text() == "# demo\n"
    with pytest.raises(NothingToRedo):
        cp.redo()


def test_restore_paths_and_dry_run(repo: Path) -> None:
    cp = Checkpoints(repo)
    good = cp.save()
    (repo / "README.md").write_text("# changed\n")
    (repo / "src" / "app.py").write_text("broken\n")
    dry = cp.restore(good, paths=["src"], dry_run=True)
    assert dry.dry_run and dry.written == ["src/app.py"]
    assert (repo / "src" / "app.py").read_text() == "broken\n"
    cp.restore(good, paths=[repo / "src" / "app.py"])
    assert (repo / "src" / "app.py").read_text() == "print('hello')\n"
    assert (repo / "README.md").read_text() == "# changed\n"
    with pytest.raises(InvalidArgument):
        cp.restore(good, paths=["../outside"])
    with pytest.raises(TypeError):
        cp.restore(good, paths="src")  # type: ignore[arg-type]


def test_undo_with_nothing_to_undo(repo: Path) -> None:
    cp = Checkpoints(repo)
    with pytest.raises(NothingToUndo):
        cp.undo()
    with pytest.raises(InvalidArgument):
        cp.undo(0)


# --- revert, drop, pin, prune, du ---------------------------------------------------------


def test_revert_takes_back_one_step_and_keeps_later_work(repo: Path) -> None:
    cp = Checkpoints(repo)
    before = cp.save("before the agent")
    (repo / "README.md").write_text("# demo\nagent line\n")
    cp.save("after the agent")
    (repo / "mine.txt").write_text("my own work\n")
    reverted = cp.revert(before)
    assert reverted.from_checkpoint == before
    assert (repo / "README.md").read_text() == "# demo\n"
    assert (repo / "mine.txt").read_text() == "my own work\n"
    assert reverted.safety is not None
    cp.undo()
    assert (repo / "README.md").read_text() == "# demo\nagent line\n"


def test_drop_pin_unpin(repo: Path) -> None:
    cp = Checkpoints(repo)
    (repo / "a.txt").write_text("1\n")
    one = cp.save()
    assert cp.pin(one).pinned
    assert cp.get(one).pinned
    assert not cp.unpin(one.id).pinned
    assert cp.drop(one) == one.id
    with pytest.raises(CheckpointNotFound):
        cp.get(one.id)
    assert git(repo, "for-each-ref", "refs/checkpoints") == ""


def test_secrets_are_found_at_save_and_block_refuses(repo: Path) -> None:
    # A fake key, put together here so that this file holds none.
    key = "AKIA" + "Q7ZK4WX2MRTB5NJL"
    c = Checkpoints(repo)
    (repo / "deploy.sh").write_text(f"export AWS_ID={key}\n")
    saved = c.save("with a key")
    assert saved.secrets == {
        "findings": [{"path": "deploy.sh", "line": 1, "rule": "aws-access-token"}]
    }
    assert key not in repr(saved.to_dict())
    (repo / "deploy.sh").write_text("echo clean\n")
    assert c.save("clean").secrets == {"findings": []}
    git(repo, "config", "checkpoint.secrets", "block")
    (repo / "deploy.sh").write_text(f"export AWS_ID={key}\n")
    c = Checkpoints(repo)
    with pytest.raises(git_checkpoint.CheckpointConflict) as refused:
        c.save("refused")
    assert refused.value.paths == ["deploy.sh"]
    assert "aws-access-token" in str(refused.value) and key not in str(refused.value)
    git(repo, "config", "checkpoint.secrets", "off")
    assert Checkpoints(repo).save("unscanned").secrets is None


def test_prune_keep_older_than_and_dry_run(repo: Path) -> None:
    cp = Checkpoints(repo)
    made = []
    for i in range(4):
        (repo / "a.txt").write_text(f"{i}\n")
        made.append(cp.save())
    cp.pin(made[0])
    dry = cp.prune(keep=1, dry_run=True)
    assert dry.dry_run and len(dry) == 2
    assert len(cp.list()) == 4
    pruned = cp.prune(keep=1)
    assert sorted(c.id for c in pruned.removed) == sorted([made[1].id, made[2].id])
    assert all("keep" in why for why in pruned.reasons.values())
    assert {c.id for c in cp.list()} == {made[0].id, made[3].id}
    assert len(cp.prune(older_than=datetime.timedelta(days=1))) == 0
    assert len(cp.prune(older_than="30d")) == 0
    with pytest.raises(InvalidArgument):
        cp.prune(older_than="soon")
    with pytest.raises(TypeError):
        cp.prune(older_than=3)  # type: ignore[arg-type]
    git(repo, "fsck", "--strict")


def test_du(repo: Path) -> None:
    cp = Checkpoints(repo)
    (repo / "big.txt").write_text("x" * 10000)
    cp.save()
    usage = cp.du()
    assert usage.checkpoints == 1
    assert usage.bytes > 0 and usage.objects > 0
    assert set(usage.by_kind) == {"manual"}
    assert usage.to_dict()["checkpoints"] == 1


# --- events ------------------------------------------------------------------------------


def test_events_reach_the_callback_after_the_call(repo: Path) -> None:
    cp = Checkpoints(repo)
    seen: list[CheckpointEvent] = []
    listed_inside: list[int] = []

    @cp.on_event
    def record(event: CheckpointEvent) -> None:
        seen.append(event)
        # The object is usable from inside a callback (no lock is held).
        listed_inside.append(len(cp.list()))

    saved = cp.save("one")
    (repo / "README.md").write_text("# x\n")
    cp.restore(saved)
    cp.pin(saved)
    cp.drop(cp.list()[0])
    kinds = [e.type for e in seen]
    assert kinds == ["saved", "saved", "restored", "pinned", "dropped"]
    assert seen[0].checkpoint == saved
    assert seen[2].target == saved.id and seen[2].safety == seen[1].ids[0]
    assert seen[3].pinned is True
    assert listed_inside[0] == 1
    with pytest.raises(TypeError):
        cp.on_event(42)  # type: ignore[arg-type]


def test_a_failing_callback_does_not_undo_the_save(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cp = Checkpoints(repo)
    reported: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))

    def boom(event: CheckpointEvent) -> None:
        raise RuntimeError("callback failed")

    cp.on_event(boom)
    # Reported as Python reports an exception it cannot raise, and the save stands.
    saved = cp.save("kept")
    assert [str(e) for e in reported] == ["callback failed"]
    assert cp.get(saved.id) == saved


# --- threads -----------------------------------------------------------------------------


def test_eight_threads_saving_at_once_lose_nothing(repo: Path) -> None:
    shared = Checkpoints(repo)
    errors: list[BaseException] = []
    saved: list[Checkpoint] = []
    lock = threading.Lock()

    def work(n: int) -> None:
        try:
            own = Checkpoints(repo) if n % 2 else shared
            for i in range(5):
                (repo / f"t{n}-{i}.txt").write_text(f"{n} {i}\n")
                c = own.save(f"thread {n} step {i}")
                with lock:
                    saved.append(c)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    ids = {c.id for c in saved}
    assert len(ids) == 40
    refs = git(repo, "for-each-ref", "--format=%(refname)", "refs/checkpoints").split()
    assert {r.removeprefix("refs/checkpoints/") for r in refs} >= ids
    # Each thread's checkpoint holds that thread's file as it was written.
    for c in saved:
        n, i = c.message.split()[1], c.message.split()[3]
        assert git(repo, "show", f"{c.commit}:t{n}-{i}.txt") == f"{n} {i}\n"
    git(repo, "fsck", "--strict")


# --- plain directories ---------------------------------------------------------------------


def test_plain_directory_uses_a_private_store(plain_dir: Path) -> None:
    cp = Checkpoints(plain_dir)
    assert cp.store is not None
    assert isinstance(cp.store, Path) and cp.store.is_dir()
    assert cp.path == plain_dir
    saved = cp.save("first")
    (plain_dir / "draft.md").write_text("ruined\n")
    (plain_dir / "extra.txt").write_text("x\n")
    cp.restore(saved)
    assert (plain_dir / "draft.md").read_text() == "first draft\n"
    assert not (plain_dir / "extra.txt").exists()
    # Nothing was written into the directory itself.
    assert sorted(p.name for p in plain_dir.iterdir()) == ["draft.md", "todo.txt"]
    cp.undo()
    assert (plain_dir / "draft.md").read_text() == "ruined\n"
    # The CLI finds the same store.
    out = subprocess.run(
        ["git", f"--git-dir={cp.store}", "for-each-ref", "refs/checkpoints"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert saved.commit in out


def test_a_given_store_and_config(plain_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "store.git"
    (plain_dir / "debug.log").write_text("noise\n")
    cp = Checkpoints(
        plain_dir,
        store=store,
        config={"checkpoint.keep": 2, "checkpoint.exclude": ["*.txt", "*.log"]},
    )
    assert Path(cp.store or "") == store
    for i in range(4):
        (plain_dir / "draft.md").write_text(f"{i}\n")
        cp.save(str(i))
    assert len(cp.list()) == 2
    newest = cp.list()[0]
    names = git(plain_dir, f"--git-dir={store}", "ls-tree", "--name-only", newest.commit).split()
    assert names == ["draft.md"]
    with pytest.raises(TypeError):
        Checkpoints(plain_dir, config={"checkpoint.keep": object()})  # type: ignore[dict-item]


# --- bad input ---------------------------------------------------------------------------


def test_bad_input_raises_never_crashes(repo: Path, tmp_path: Path) -> None:
    with pytest.raises(CheckpointOSError) as raised:
        Checkpoints(tmp_path / "does-not-exist")
    assert isinstance(raised.value, OSError) and raised.value.errno == 2
    assert "does-not-exist" in str(raised.value)
    with pytest.raises(InvalidArgument, match="not a directory"):
        Checkpoints(repo / "README.md")
    with pytest.raises(TypeError):
        Checkpoints(42)  # type: ignore[arg-type]
    cp = Checkpoints(repo)
    with pytest.raises(TypeError):
        cp.save(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cp.save(meta={"f": object()})
    with pytest.raises(TypeError):
        cp.save(meta={1: "x"})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        cp.get(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cp.save(unknown=True)  # type: ignore[call-arg]
    with pytest.raises(InvalidArgument):
        cp.save(kind="not a kind!")
    with pytest.raises(TypeError):
        cp.save(conversation={"when": datetime.datetime.now()})
    with pytest.raises(CheckpointError):
        cp.save(conversation=repo / "no-such-transcript.jsonl")
    with pytest.raises(InvalidArgument):
        cp.save(name="")


def test_an_id_of_another_repository_is_not_found(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    (other / "x.txt").write_text("x\n")
    foreign = Checkpoints(other).save()
    with pytest.raises(CheckpointNotFound):
        Checkpoints(repo).get(foreign.id)
    with pytest.raises(CheckpointNotFound):
        Checkpoints(repo).restore(foreign)


def test_closed_object_and_context_manager(repo: Path) -> None:
    with Checkpoints(repo) as cp:
        cp.save()
    with pytest.raises(CheckpointError, match="closed"):
        cp.list()


def test_values_are_frozen_and_comparable(repo: Path) -> None:
    cp = Checkpoints(repo)
    saved = cp.save("x")
    with pytest.raises(AttributeError):
        saved.id = "other"  # type: ignore[misc]
    assert saved == cp.get(saved.id)
    assert len({saved, cp.get(saved.id)}) == 1
    assert "Checkpoint(" in repr(saved) and saved.id in repr(saved)
    assert str(saved) == saved.id
    assert saved.to_dict()["id"] == saved.id
    assert repr(cp).startswith("Checkpoints(")
    assert git_checkpoint.__version__


# --- pin at save, pruned events, sessions --------------------------------------------------


def test_save_pinned_survives_prune(repo: Path) -> None:
    cp = Checkpoints(repo)
    (repo / "a.txt").write_text("0\n")
    pinned = cp.save("keep me", pin=True)
    assert pinned.pinned
    assert cp.get(pinned.id).pinned
    note = git(repo, "notes", "--ref=checkpoints", "show", pinned.commit)
    assert '"pinned":true' in note
    later = []
    for i in range(1, 4):
        (repo / "a.txt").write_text(f"{i}\n")
        later.append(cp.save(f"step {i}"))
    pruned = cp.prune(keep=1)
    assert pinned.id not in {c.id for c in pruned.removed}
    assert sorted(c.id for c in pruned.removed) == sorted(c.id for c in later[:2])
    assert {c.id for c in cp.list()} == {pinned.id, later[2].id}
    # Even keep=0 leaves it.
    cp.prune(keep=0)
    assert [c.id for c in cp.list()] == [pinned.id]


def test_pruned_events_from_prune_and_from_retention_after_a_save(repo: Path) -> None:
    cp = Checkpoints(repo, config={"checkpoint.keep": 2})
    seen: list[CheckpointEvent] = []
    cp.on_event(seen.append)
    made = []
    for i in range(2):
        (repo / "a.txt").write_text(f"{i}\n")
        made.append(cp.save(f"save {i}"))
    assert [e.type for e in seen] == ["saved", "saved"]
    # A third save goes beyond checkpoint.keep: the save prunes the oldest, and says so.
    (repo / "a.txt").write_text("2\n")
    third = cp.save("save 2")
    assert [e.type for e in seen[2:]] == ["saved", "pruned"]
    assert seen[2].checkpoint == third
    assert seen[3].ids == [made[0].id]
    assert seen[3].checkpoint is None
    assert [c.id for c in cp.list()] == [third.id, made[1].id]
    # prune() reports what it removed; a dry run removes nothing and reports nothing.
    del seen[:]
    cp.prune(keep=1, dry_run=True)
    assert seen == []
    cp.prune(keep=1)
    assert [e.type for e in seen] == ["pruned"]
    assert seen[0].ids == [made[1].id]


def test_save_with_a_session_is_listed_and_reverted_as_the_sessions(repo: Path) -> None:
    cp = Checkpoints(repo)
    cp.save("the user's start")
    # An agent loop tags its own saves, one before each tool call.
    before = cp.save("before edit", kind="auto", session="loop-1", meta={"tool": "edit"})
    assert before.session == "loop-1"
    (repo / "README.md").write_text("# demo\nagent line\n")
    cp.save("before write", kind="auto", session="loop-1", meta={"tool": "write"})
    (repo / "agent.txt").write_text("made by the agent\n")
    cp.save("the user takes over")  # ends the agent's last step
    (repo / "mine.txt").write_text("the user's own\n")
    assert [c.session for c in cp.list(session="loop-1")] == ["loop-1", "loop-1"]
    reverted = cp.revert("session:loop-1")
    assert reverted.steps == 2
    assert (repo / "README.md").read_text() == "# demo\n"
    assert not (repo / "agent.txt").exists()
    assert (repo / "mine.txt").read_text() == "the user's own\n"
    with pytest.raises(InvalidArgument):
        cp.save(session="not a session id\n")
