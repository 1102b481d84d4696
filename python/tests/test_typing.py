"""The package's types as a user's code sees them: `mypy --strict` on `typed_example.py`
(which uses the whole API with annotations) passes, and the example runs."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent  # python/: holds git_checkpoint/ with _native.pyi and py.typed


def mypy(tmp_path: Path, *targets: Path) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy not installed")
    env = {**os.environ, "MYPYPATH": str(PACKAGE_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
         "--cache-dir", str(tmp_path / "mypy-cache"), *map(str, targets)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )


def test_mypy_strict_accepts_the_typed_example(tmp_path: Path) -> None:
    done = mypy(tmp_path, HERE / "typed_example.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_accepts_the_package(tmp_path: Path) -> None:
    done = mypy(tmp_path, PACKAGE_ROOT / "git_checkpoint")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_catches_a_wrong_use(tmp_path: Path) -> None:
    """The stubs are really read: a wrong keyword and a wrong type are errors."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from git_checkpoint import Checkpoints\n"
        "from git_checkpoint.compat.chimera import CheckpointManager\n"
        "Checkpoints('.').save(mesage='x')\n"
        "n: int = CheckpointManager('.').create().name\n"
    )
    done = mypy(tmp_path, bad)
    assert done.returncode == 1
    assert 'Unexpected keyword argument "mesage"' in done.stdout
    assert "Incompatible types in assignment" in done.stdout


def test_the_typed_example_runs(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(HERE))
    try:
        import typed_example
    finally:
        sys.path.remove(str(HERE))
    monkeypatch.chdir(repo)
    typed_example.exercise(repo, tmp_path / "storage")
