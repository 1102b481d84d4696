"""Helpers of the adapter and aio tests (the fixtures are conftest.py's)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional


def git(cwd: Path, *args: str, env: Optional[dict[str, str]] = None) -> str:
    """Run git in `cwd` and return its standard output; fail the test when git fails."""
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )
    assert done.returncode == 0, f"git {' '.join(args)} failed: {done.stderr}"
    return done.stdout


def oracle_tree(repo: Path, tmp: Path) -> str:
    """The tree `git add -A` into a copy of the index would write now: what a save holds."""
    index = tmp / "oracle-index"
    git_dir = Path(git(repo, "rev-parse", "--absolute-git-dir").strip())
    shutil.copy2(git_dir / "index", index)  # keeps the timestamp git's racy check needs
    env = {"GIT_INDEX_FILE": str(index)}
    git(repo, "add", "-A", env=env)
    return git(repo, "write-tree", env=env).strip()


def tree_of(repo: Path, commit: str, git_dir: Optional[Path] = None) -> str:
    """The tree id of `commit`."""
    args = [] if git_dir is None else [f"--git-dir={git_dir}"]
    return git(repo, *args, "rev-parse", f"{commit}^{{tree}}").strip()


def files_of(repo: Path, commit: str, git_dir: Optional[Path] = None) -> list[str]:
    """The paths in `commit`'s tree, sorted."""
    args = [] if git_dir is None else [f"--git-dir={git_dir}"]
    return sorted(git(repo, *args, "ls-tree", "-r", "--name-only", commit).split())


def checkpoint_refs(repo: Path) -> list[str]:
    """The `refs/checkpoints/*` of the repository at `repo`."""
    out = git(repo, "for-each-ref", "--format=%(refname)", "refs/checkpoints/")
    return out.split()


def data_home() -> Path:
    """Where private stores go in this test: `$XDG_DATA_HOME/git-checkpoint/stores`."""
    return Path(os.environ["XDG_DATA_HOME"]) / "git-checkpoint" / "stores"


class LocalEnvironment:
    """A stand-in for Chimera's `chimera.env.local.LocalEnvironment`: a working directory."""

    def __init__(self, working_dir: str) -> None:
        self.working_dir = working_dir
