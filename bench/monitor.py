#!/usr/bin/env python3
"""git-checkpoint with a file-system monitor: saves at Watchman's speed, next to git's own.

    python3 bench/monitor.py                     # 100,000 files, and the untracked case
    python3 bench/monitor.py --million           # also 1,000,000 files (several minutes)
    python3 bench/monitor.py --sizes 20000 --runs 5 --no-build

For each size, a repository of N files (bench/generate.py) is watched by a Watchman server of
its own (a `watchman` wrapper first on PATH passes `--sockname` and `--statefile` in a
temporary directory: Debian's Watchman 4.9 ignores WATCHMAN_SOCK), through git's own sample
hook, as git's documentation sets it up:

    git config core.fsmonitor .git/hooks/query-watchman   # fsmonitor-watchman.sample
    git config core.untrackedCache true

Then, as medians of interleaved runs (each round runs every command once, in turn):

  - `git status --untracked-files=all` with that monitor and untracked cache (the floor);
  - `git checkpoint save` with the monitor, and the same save told not to use it
    (GIT_CONFIG_COUNT sets core.fsmonitor=false for that process only);
  - both with nothing changed, and after 40 files were edited (a new edit before each run);
  - `restore` of a checkpoint 40 files away, with the monitor (its cost must not grow with the
    tree);
  - peak memory (max RSS) of each, from one more round under GNU time.

Then the untracked case of bench.py (10,000 tracked + 20,000 untracked files in 200
directories, `save --allow-empty` repeated) with the monitor, next to `git status` with it.
Needs watchman and perl; prints Markdown tables and the load average.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

from bench import BIN, ENV, fmt_mb, fmt_ms, git, interleaved, make_repo, run, tracked  # noqa: E402

HOOK = ".git/hooks/query-watchman"
# Our save told not to use the monitor, for that process only.
NO_MONITOR = ["env", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false"]


def sample_hook():
    exec_path = subprocess.run(["git", "--exec-path"], capture_output=True, text=True).stdout.strip()
    for candidate in [
        os.path.join(os.path.dirname(os.path.dirname(exec_path)), "share/git-core/templates/hooks/fsmonitor-watchman.sample"),
        "/usr/share/git-core/templates/hooks/fsmonitor-watchman.sample",
    ]:
        if os.path.exists(candidate):
            return candidate
    sys.exit("git's fsmonitor-watchman.sample hook is not installed")


class Watchman:
    """A Watchman server of this benchmark's own, found through a wrapper first on PATH."""

    def __init__(self):
        real = shutil.which("watchman")
        if not real or not shutil.which("perl"):
            sys.exit("watchman and perl are needed (apt-get install watchman)")
        self.state = tempfile.mkdtemp(prefix="wm", dir="/tmp")
        bin_dir = os.path.join(self.state, "bin")
        os.mkdir(bin_dir)
        self.wrapper = os.path.join(bin_dir, "watchman")
        s = self.state
        with open(self.wrapper, "w") as f:
            f.write(
                f"#!/bin/sh\nexec '{real}' --sockname='{s}/sock' --statefile='{s}/state' "
                f"--logfile='{s}/log' --pidfile='{s}/pid' \"$@\"\n"
            )
        os.chmod(self.wrapper, 0o755)
        ENV["PATH"] = bin_dir + os.pathsep + ENV["PATH"]

    def watch(self, path):
        hook = os.path.join(path, HOOK)
        shutil.copy(sample_hook(), hook)
        os.chmod(hook, 0o755)
        git(path, "config", "core.fsmonitor", HOOK)
        git(path, "config", "core.untrackedCache", "true")
        run([self.wrapper, "watch", path], path)

    def stop(self):
        subprocess.run([self.wrapper, "shutdown-server"], capture_output=True)
        shutil.rmtree(self.state, ignore_errors=True)


def edit_40(path, files, counter=[0]):
    """Edit 40 tracked files, a new line each time (every run sees 40 fresh edits)."""
    counter[0] += 1
    step = max(files // 40, 1)
    for k in range(40):
        with open(os.path.join(path, tracked((k * step + counter[0]) % files)), "a") as f:
            f.write(f"edit {counter[0]}\n")


def warm(path):
    """The first status and saves with the monitor: Watchman's crawl, git's untracked cache
    and its index extension, our stat cache and token; then let times settle."""
    for _ in range(2):
        run(bench.STATUS, path)
        run([BIN, "save", "-q", "--allow-empty"], path)
    time.sleep(1.1)
    run(bench.STATUS, path)
    run([BIN, "save", "-q", "--allow-empty"], path)


def measure(path, files, runs):
    warm(path)
    status = bench.STATUS
    save = [BIN, "save", "-q"]
    nochange = interleaved(
        runs,
        {
            "status": status,
            "save": save,
            "save_nomon": [*NO_MONITOR, *save],
        },
        path,
    )
    edit = lambda: edit_40(path, files)
    edited = interleaved(
        runs,
        {
            "status": (status, edit),
            "save": ([*save, "--allow-empty"], edit),
            "save_nomon": (
                [*NO_MONITOR, *save, "--allow-empty"],
                edit,
            ),
        },
        path,
    )
    # Restore 40 files away: B = now, A = before 40 more edits.
    a = run([BIN, "save", "-q", "--allow-empty", "--name", "mon-a"], path)[2].strip()
    edit_40(path, files)
    b = run([BIN, "save", "-q", "--allow-empty", "--name", "mon-b"], path)[2].strip()
    back_to_b = lambda: run([BIN, "restore", "-q", "--no-save", b], path)
    restored = interleaved(runs, {"restore": ([BIN, "restore", "-q", a], back_to_b)}, path)
    return nochange, edited, restored


def untracked_case(runs, tmp, watchman):
    path = os.path.join(tmp, "untracked")
    make_repo(path, 10000, 20000)
    watchman.watch(path)
    warm(path)
    return interleaved(
        runs,
        {
            "status": bench.STATUS,
            "save": [BIN, "save", "-q", "--allow-empty"],
            "save_nomon": [*NO_MONITOR, BIN, "save", "-q", "--allow-empty"],
        },
        path,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100000")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 files")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-untracked", action="store_true", help="skip the untracked case")
    parser.add_argument("--no-build", action="store_true", help="use target/release as it is")
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "-q"], cwd=bench.ROOT, check=True)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.million:
        sizes.append(1_000_000)
    load = os.getloadavg()
    tmp = tempfile.mkdtemp(prefix="gcp-monitor-")
    watchman = Watchman()
    results = []
    try:
        for files in sizes:
            path = os.path.join(tmp, f"repo-{files}")
            t0 = time.perf_counter()
            make_repo(path, files)
            watchman.watch(path)
            print(f"  {files} files generated and watched in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            results.append((files, *measure(path, files, args.runs), os.getloadavg()))
            if not args.keep:
                run([watchman.wrapper, "watch-del", path], path, check=False)
                shutil.rmtree(path, ignore_errors=True)
        untracked = None if args.no_untracked else untracked_case(args.runs, tmp, watchman)
    finally:
        watchman.stop()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    version = git(bench.ROOT, "--version")
    print("# git-checkpoint with a file-system monitor\n")
    print(
        f"{os.uname().sysname} {os.uname().release}, {os.cpu_count()} cores; {version}; Watchman through git's "
        f"fsmonitor-watchman hook, core.untrackedCache=true; medians of {args.runs} interleaved runs; "
        f"load average at the start {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.\n"
    )
    print("| files | | `git status -uall` (monitor) | save (monitor) | save / status | save without the monitor | speed-up |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for files, nochange, edited, _, _ in results:
        for label, rows in (("nothing changed", nochange), ("40 files edited", edited)):
            st, sv, nm = rows["status"][0], rows["save"][0], rows["save_nomon"][0]
            print(f"| {files:,} | {label} | {fmt_ms(st)} | {fmt_ms(sv)} | {sv / st:.2f} | {fmt_ms(nm)} | {nm / sv:.1f}× |")
    print("\nPeak memory (max RSS), and `restore` of a checkpoint 40 files away with the monitor:\n")
    print("| files | `git status` | save (monitor) | save without | restore 40 | load after |")
    print("|---:|---:|---:|---:|---:|---|")
    for files, nochange, edited, restored, after in results:
        print(
            f"| {files:,} | {fmt_mb(edited['status'][1])} | {fmt_mb(edited['save'][1])} | "
            f"{fmt_mb(edited['save_nomon'][1])} | {fmt_ms(restored['restore'][0])} | "
            f"{after[0]:.1f} / {after[1]:.1f} |"
        )
    if untracked:
        st, sv, nm = untracked["status"][0], untracked["save"][0], untracked["save_nomon"][0]
        print("\nUntracked directory (10,000 tracked + 20,000 untracked files), `save --allow-empty` repeated:\n")
        print("| `git status -uall` (monitor) | save (monitor) | save / status | save without the monitor |")
        print("|---:|---:|---:|---:|")
        print(f"| {fmt_ms(st)} | {fmt_ms(sv)} | {sv / st:.2f} | {fmt_ms(nm)} |")


if __name__ == "__main__":
    main()
