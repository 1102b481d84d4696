#!/usr/bin/env python3
"""git-checkpoint revert benchmark: taking back one agent step, against `git revert`.

    python3 bench/revert.py                      # a 40-file step in a 100,000-file repository
    python3 bench/revert.py --files 20000 --runs 5 --no-build

Builds the release binary (unless --no-build), generates a repository of N files as
bench/bench.py does (bench/generate.py), and makes the history of an agent's session:

  - checkpoint A, the step's start;
  - the step: 40 files edited (a line added at the end of each); checkpoint B, its end;
  - later work that the revert must keep: 20 other files edited, 10 files added.

Then it measures, as medians of interleaved runs (each round runs each command once, in turn,
after putting the working tree back), side by side:

  - `git status --untracked-files=all` (the floor: reading every file's stat once);
  - `git checkpoint revert A B`: the three-way merge of the working tree's snapshot, plus
    its safety checkpoint and the restore of the 40 files;
  - `git revert --no-commit <B>` of the equivalent commits: the same three states committed
    (A, B on A, the later work on B), HEAD at the later work, reverting B's commit.

Both must leave the same tree: it is checked after the runs (ours: the tree of a checkpoint of
the working tree; git's: `git write-tree` of the index it leaves). Prints a Markdown table.
"""

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no bench/__pycache__ from importing bench.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import BIN, ROOT, STATUS, fmt_mb, fmt_ms, git, interleaved, make_repo, run, tracked  # noqa: E402


def edit(path, rel, line):
    with open(os.path.join(path, rel), "a") as f:
        f.write(line)


def session(path, files):
    """Checkpoints A and B around a 40-file step, later work on top, and the same three states
    as commits; returns (A, B, the later work's checkpoint, B's commit, the later commit)."""
    step = max(files // 40, 1)
    stepped = [tracked((k * step) % files) for k in range(40)]
    later = [tracked((k * step + step // 2 + 1) % files) for k in range(20)]
    assert not set(stepped) & set(later)

    def save(name):
        return run([BIN, "save", "-q", "--allow-empty", "--name", name], path)[2].strip()

    def commit(message):
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", message)
        return git(path, "rev-parse", "HEAD")

    a = save("bench-a")
    for rel in stepped:
        edit(path, rel, "changed by the agent's step\n")
    b = save("bench-b")
    b_commit = commit("the step")
    for rel in later:
        edit(path, rel, "changed later\n")
    os.makedirs(os.path.join(path, "later"), exist_ok=True)
    for k in range(10):
        with open(os.path.join(path, "later", f"n{k}.txt"), "w") as f:
            f.write(f"added later {k}\n")
    w = save("bench-later")
    w_commit = commit("later work")
    return a, b, w, b_commit, w_commit


def tree_of_working_tree(path):
    """The tree a checkpoint of the working tree holds (git's `add -A` + `write-tree`)."""
    cp = run([BIN, "save", "-q", "--allow-empty"], path)[2].strip()
    return git(path, "rev-parse", f"refs/checkpoints/{cp}^{{tree}}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-build", action="store_true", help="use target/release as it is")
    parser.add_argument("--keep", action="store_true", help="keep the generated repository")
    args = parser.parse_args()

    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="git-checkpoint-bench-revert-")
    load = os.getloadavg()
    print("# git-checkpoint revert benchmark\n")
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, "
          f"{platform.processor() or platform.machine()}; {git(ROOT, '--version')}; medians of {args.runs} "
          f"interleaved runs; load average at the start {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.\n", flush=True)
    try:
        path = os.path.join(tmp, f"repo-{args.files}")
        t0 = time.perf_counter()
        make_repo(path, args.files)
        print(f"  generated {args.files} files in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        a, b, w, b_commit, w_commit = session(path, args.files)
        time.sleep(1.1)  # file times in an earlier second than the index's, as in use

        def back_to_the_later_work():
            # Whatever the last command left (a revert in progress, its index): the working
            # tree, index and HEAD of the later work again.
            run(["git", "revert", "--quit"], path, check=False)
            git(path, "reset", "-q", "--hard", w_commit)

        cmds = {
            "status": STATUS,
            "ours": ([BIN, "revert", "-q", a, b], back_to_the_later_work),
            "git": (["git", "revert", "--no-commit", b_commit], back_to_the_later_work),
        }
        rows = interleaved(args.runs, cmds, path)

        # The same result: ours, then git's, from the same start.
        back_to_the_later_work()
        run([BIN, "revert", "-q", a, b], path)
        ours_tree = tree_of_working_tree(path)
        back_to_the_later_work()
        run(["git", "revert", "--no-commit", b_commit], path)
        git_tree = git(path, "write-tree")
        same = "yes" if ours_tree == git_tree else f"NO: {ours_tree} against {git_tree}"
        if ours_tree != git_tree:
            print(f"the trees differ: ours {ours_tree}, git's {git_tree}", file=sys.stderr)

        st, ours, theirs = rows["status"], rows["ours"], rows["git"]
        print("| files | step taken back | later work kept | `git status -uall` | `git checkpoint revert A B` | "
              "`git revert --no-commit` | revert / git | peak RSS (ours / git) | same tree |")
        print("|---:|---|---|---:|---:|---:|---:|---:|---|")
        print(f"| {args.files:,} | 40 files edited | 20 edited, 10 added | {fmt_ms(st[0])} | {fmt_ms(ours[0])} | "
              f"{fmt_ms(theirs[0])} | {ours[0] / theirs[0]:.2f} | {fmt_mb(ours[1])} / {fmt_mb(theirs[1])} | {same} |",
              flush=True)
        if ours_tree != git_tree:
            sys.exit(1)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}", file=sys.stderr)


if __name__ == "__main__":
    main()
