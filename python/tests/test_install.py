"""The wheel installs the whole tool: into a fresh virtual environment, with no cargo (and no
other git-checkpoint) on PATH, `git checkpoint save`, `list`, `restore` and `undo` work
through git, run by the package's console script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import git

HERE = Path(__file__).resolve().parent.parent


def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `ci/test-matrix` built (GIT_CHECKPOINT_WHEEL), else one built here with
    maturin (the dev profile: the release one takes many minutes)."""
    given = os.environ.get("GIT_CHECKPOINT_WHEEL")
    if given:
        path = Path(given)
        assert path.is_file(), f"GIT_CHECKPOINT_WHEEL={given} is not a file"
        return path
    maturin = shutil.which("maturin")
    if maturin is None:
        pytest.skip("SKIPPED: no wheel given (GIT_CHECKPOINT_WHEEL) and no maturin to build one")
    out = tmp_path_factory.mktemp("wheels")
    subprocess.run([maturin, "build", "-q", "-o", str(out)], cwd=HERE, check=True)
    (built,) = out.glob("*.whl")
    return built


def bare_path(tmp_path: Path, venv_bin: Path) -> str:
    """PATH with the virtual environment's scripts and git, and nothing else."""
    tools = tmp_path / "tools"
    tools.mkdir()
    real_git = shutil.which("git")
    assert real_git is not None
    (tools / "git").symlink_to(real_git)
    path = f"{venv_bin}{os.pathsep}{tools}"
    assert shutil.which("cargo", path=path) is None
    assert shutil.which("rustc", path=path) is None
    return path


def test_the_wheel_gives_git_checkpoint_without_rust(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, repo: Path
) -> None:
    built = wheel(tmp_path_factory)
    assert "abi3" in built.name, f"not an abi3 wheel: {built.name}"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    venv_bin = venv / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run(
        [str(venv_bin / "python"), "-m", "pip", "install", "-q", "--no-index", str(built)],
        check=True,
    )
    script = venv_bin / "git-checkpoint"
    assert script.is_file()

    env = dict(os.environ, PATH=bare_path(tmp_path, venv_bin), GIT_PAGER="cat", PAGER="cat")

    def cp(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "checkpoint", *args], cwd=repo, env=env, capture_output=True, text=True
        )

    (repo / "README.md").write_text("# the good version\n")
    saved = cp("save", "-m", "good", "--json")
    assert saved.returncode == 0, saved.stderr
    (repo / "README.md").write_text("# ruined\n")
    (repo / "stray.txt").write_text("stray\n")

    listed = cp("list")
    assert listed.returncode == 0, listed.stderr
    assert "good" in listed.stdout

    restored = cp("restore", "@")
    assert restored.returncode == 0, restored.stderr
    assert (repo / "README.md").read_text() == "# the good version\n"
    assert not (repo / "stray.txt").exists()

    undone = cp("undo")
    assert undone.returncode == 0, undone.stderr
    assert (repo / "README.md").read_text() == "# ruined\n"
    assert (repo / "stray.txt").read_text() == "stray\n"

    # Errors and usage errors keep the CLI's exit codes.
    assert cp("show", "no-such-checkpoint").returncode == 1
    assert cp("save", "--no-such-flag").returncode == 2
    version = cp("--version")
    assert version.returncode == 0 and "git-checkpoint" in version.stdout

    # The library imports in the same environment.
    imported = subprocess.run(
        [str(venv_bin / "python"), "-c",
         "import git_checkpoint, sys; print(len(git_checkpoint.Checkpoints(sys.argv[1]).list()))",
         str(repo)],
        env=env, capture_output=True, text=True,
    )
    assert imported.returncode == 0, imported.stderr
    assert int(imported.stdout) >= 2
    git(repo, "fsck", "--strict")
