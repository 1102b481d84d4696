#!/usr/bin/env python3
"""The Python package against the CLI: the same save, in process and through the binary.

    python3 bench/python.py                      # 100,000 files, 15 rounds
    python3 bench/python.py --files 5000 --runs 9 --no-build

Builds the release binary and the release wheel (unless --no-build), installs the wheel into a
fresh virtual environment under the temporary directory, generates a repository of N files
(bench/generate.py), makes a typical agent change (40 files edited, 20 added), then measures
side by side, interleaved round by round so that a change of load falls on both alike:

  - `git checkpoint save -q -m …`, a process per save (what a hook or a subprocess call pays);
  - `Checkpoints(path).save(…)` in one long-lived Python process (the object opened once),
    timed inside that process around the call;
  - the same save from a fresh interpreter (`python -c 'import git_checkpoint; …'`), for
    reference: what a script that imports the package for one save pays;
  - `git status --untracked-files=all`, the floor.

Then 100 saves from one Python process, each after a small edit, against 100 CLI processes
doing the same: the Python object keeps the repository open and the stat cache warm between
them. Prints Markdown tables, the load average, the wheel's size and how long it took to build.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

ROOT = bench.ROOT

WORKER = r"""
import sys, time
import git_checkpoint
cp = git_checkpoint.Checkpoints(sys.argv[1])
for line in sys.stdin:
    word = line.strip()
    start = time.perf_counter()
    cp.save(word)
    print(time.perf_counter() - start, flush=True)
"""


def build_wheel(out):
    """`maturin build --release`: the wheel, and how long it took."""
    start = time.perf_counter()
    subprocess.run(
        ["maturin", "build", "--release", "--locked", "-q", "-o", out],
        cwd=os.path.join(ROOT, "python"),
        check=True,
    )
    took = time.perf_counter() - start
    (wheel,) = [os.path.join(out, w) for w in os.listdir(out) if w.endswith(".whl")]
    return wheel, took


def venv_with(wheel, where):
    subprocess.run([sys.executable, "-m", "venv", where], check=True)
    python = os.path.join(where, "bin", "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-index", wheel], check=True)
    return python


class Worker:
    """A Python process holding one `Checkpoints`, saving on request."""

    def __init__(self, python, path):
        self.proc = subprocess.Popen(
            [python, "-c", WORKER, path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=bench.ENV,
        )

    def save(self, message):
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(message + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self):
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def side_by_side(path, python, runs):
    worker = Worker(python, path)
    worker.save("warm-up")
    times = {"cli": [], "python": [], "fresh": [], "status": []}
    fresh = [python, "-c", "import sys, git_checkpoint; git_checkpoint.Checkpoints(sys.argv[1]).save(sys.argv[2])"]
    for r in range(runs):
        times["cli"].append(bench.run([bench.BIN, "save", "-q", "-m", f"cli {r}"], path)[0])
        times["python"].append(worker.save(f"python {r}"))
        times["fresh"].append(bench.run([*fresh, path, f"fresh {r}"], path)[0])
        times["status"].append(bench.run(bench.STATUS, path)[0])
    worker.close()
    return {k: statistics.median(v) for k, v in times.items()}


def hundred(path, python):
    """100 saves after a small edit each: one Python process against 100 CLI processes."""
    target = os.path.join(path, bench.tracked(7))

    def edit(i):
        with open(target, "a") as f:
            f.write(f"edit {i}\n")

    worker = Worker(python, path)
    start = time.perf_counter()
    inside = []
    for i in range(100):
        edit(i)
        inside.append(worker.save(f"py {i}"))
    py_total = time.perf_counter() - start
    worker.close()
    start = time.perf_counter()
    for i in range(100):
        edit(100 + i)
        bench.run([bench.BIN, "save", "-q", "-m", f"cli {i}"], path)
    cli_total = time.perf_counter() - start
    return py_total, cli_total, inside[0], statistics.median(inside[1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-build", action="store_true", help="use the wheel in --wheel-dir")
    parser.add_argument("--wheel-dir", default=os.path.join(ROOT, "target", "wheels"))
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="gcp-bench-py-")
    try:
        took = None
        if args.no_build:
            wheels = [w for w in os.listdir(args.wheel_dir) if w.endswith(".whl")]
            wheel = os.path.join(args.wheel_dir, sorted(wheels)[-1])
        else:
            subprocess.run(["cargo", "build", "--release", "--locked", "-q"], cwd=ROOT, check=True)
            os.makedirs(args.wheel_dir, exist_ok=True)
            for old in os.listdir(args.wheel_dir):
                os.unlink(os.path.join(args.wheel_dir, old))
            wheel, took = build_wheel(args.wheel_dir)
        python = venv_with(wheel, os.path.join(tmp, "venv"))
        path = os.path.join(tmp, "repo")
        bench.make_repo(path, args.files)
        bench.agent_change(path, args.files, 0)
        bench.run([bench.BIN, "save", "-q"], path)
        time.sleep(1.1)
        load = os.getloadavg()[0]
        med = side_by_side(path, python, args.runs)
        py_total, cli_total, first, rest = hundred(path, python)
        load_after = os.getloadavg()[0]

        print(f"\n{args.files:,} files, {args.runs} rounds, load {load:.1f} → {load_after:.1f}\n")
        print("| save | median | vs the CLI |")
        print("|---|---|---|")
        print(f"| `git checkpoint save` (a process) | {bench.fmt_ms(med['cli'])} | 1.00 |")
        print(f"| `Checkpoints.save()` in process | {bench.fmt_ms(med['python'])} | {med['python'] / med['cli']:.2f} |")
        print(f"| a fresh interpreter, import, save | {bench.fmt_ms(med['fresh'])} | {med['fresh'] / med['cli']:.2f} |")
        print(f"| `git status -uall` | {bench.fmt_ms(med['status'])} | {med['status'] / med['cli']:.2f} |")
        print("\n| 100 saves, an edit before each | total | per save |")
        print("|---|---|---|")
        print(f"| one Python process | {py_total:.2f} s | {bench.fmt_ms(py_total / 100)} (first {bench.fmt_ms(first)}, then median {bench.fmt_ms(rest)}) |")
        print(f"| 100 CLI processes | {cli_total:.2f} s | {bench.fmt_ms(cli_total / 100)} |")
        size = os.path.getsize(wheel)
        print(f"\nwheel: {os.path.basename(wheel)}, {size / 1e6:.1f} MB", end="")
        print(f", built in {took:.0f} s" if took is not None else "")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
