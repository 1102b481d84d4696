"""Fixtures shared by the package's tests: real git repositories made with the git CLI, plain
directories, and an environment where nothing of the user's (config, stores) is read or
written."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest


def git(cwd: Path, *args: str) -> str:
    """Run git in `cwd` and return its standard output; fail the test when git fails."""
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"git {' '.join(args)} failed: {done.stderr}"
    return done.stdout


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Home, XDG directories and git config all inside the test's own temporary directory."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CHECKPOINT_STORE"):
        monkeypatch.delenv(name, raising=False)
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    # Tests prune young checkpoints by count: no minimum age.
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'checkpoint.minAge'='0'")
    yield


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one commit (`README.md`, `src/app.py`)."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("# demo\n")
    (path / "src").mkdir()
    (path / "src" / "app.py").write_text("print('hello')\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "init")
    return path


@pytest.fixture
def plain_dir(tmp_path: Path) -> Path:
    """A directory in no git repository, with two files."""
    path = tmp_path / "notes"
    path.mkdir()
    (path / "draft.md").write_text("first draft\n")
    (path / "todo.txt").write_text("- write\n")
    return path
