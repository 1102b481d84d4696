#!/usr/bin/env python3
"""git-checkpoint benchmark: synthetic repositories, git-checkpoint against the git CLI.

    python3 bench/bench.py                       # 10k, 100k and 200k files
    python3 bench/bench.py --sizes 10000 --runs 5

Builds the release binary, then for each size generates a repository of N files in nested
directories, commits it, applies a typical agent change (40 files edited, 20 added) and
measures, as medians of repeated runs in the same process, side by side:

  - `git status --untracked-files=all` (the floor);
  - `git checkpoint save` against the git CLI doing the same job (copy the index, `git add -A`,
    `git write-tree`, `git commit-tree`, `git update-ref`, `git notes add`);
  - a save with nothing changed (what agents hit most);
  - `git checkpoint restore` of a checkpoint 40 files away against
    `git restore --source=<commit> --worktree -- . && git clean -fd`;
  - peak memory (max RSS) of every command measured.

With `--plain N`: a plain directory (no git repository) of N files, whose checkpoints go to a
private store, against `git status -uall` in a repository of the same files: the first save
(which hashes every file), a save after the agent change, and a save with nothing changed.

Then a large untracked directory that is not ignored, and `list` of 500 checkpoints against
`git log --no-walk --notes=checkpoints` over the same refs, both right after the saves (loose
objects) and after `git gc` (packed, as a repository usually is). Prints Markdown tables.
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "git-checkpoint")

ENV = dict(os.environ)
for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
    ENV.pop(var, None)
ENV.update(
    GIT_CONFIG_NOSYSTEM="1",
    GIT_AUTHOR_NAME="Bench",
    GIT_AUTHOR_EMAIL="bench@example.com",
    GIT_COMMITTER_NAME="Bench",
    GIT_COMMITTER_EMAIL="bench@example.com",
    LC_ALL="C",
    NO_COLOR="1",
)
ENV["PATH"] = os.path.dirname(BIN) + os.pathsep + ENV.get("PATH", "")


def run(cmd, cwd, env=None, check=True):
    """Run a command; return (seconds, max RSS in KiB, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        env=env or ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        shell=isinstance(cmd, str),
    )
    out, err = proc.communicate()
    elapsed = time.perf_counter() - start
    # Peak memory of the whole process tree is not available per child; wait4 gives the
    # child's own (for shell pipelines: the largest of the processes it waited for).
    rss = resource_usage_of(proc)
    if check and proc.returncode != 0:
        sys.exit(f"failed: {cmd}\n{err.decode(errors='replace')}")
    return elapsed, rss, out.decode(errors="replace")


_last_rusage = {}


def resource_usage_of(proc):
    return _last_rusage.pop(proc.pid, 0)


_orig_wait = subprocess.Popen._try_wait


def _try_wait(self, wait_flags):
    # Popen uses waitpid; use wait4 instead to keep the child's peak memory.
    try:
        pid, status, usage = os.wait4(self.pid, wait_flags)
    except ChildProcessError:
        pid, status = self.pid, 0
        usage = None
    if pid == self.pid and usage is not None:
        _last_rusage[pid] = usage.ru_maxrss
    return (pid, status)


subprocess.Popen._try_wait = _try_wait


def median_of(runs, cmd, cwd, before=None):
    times, rss = [], []
    for _ in range(runs):
        if before:
            before()
        t, m, _ = run(cmd, cwd)
        times.append(t)
        rss.append(m)
    return statistics.median(times), max(rss)


def git(cwd, *args):
    return run(["git", *args], cwd)[2].strip()


def make_repo(path, files, untracked=0):
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "checkpoint.keep", "100000")
    git(path, "config", "gc.auto", "0")
    per_dir = 100
    for i in range(files):
        d = os.path.join(path, f"d{i // (per_dir * per_dir) % 100:02}", f"s{i // per_dir % 100:02}")
        if i % per_dir == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"f{i}.txt"), "w") as f:
            f.write(f"file {i}\n" + "some content line\n" * (i % 7 + 1))
    git(path, "add", "-A")
    git(path, "commit", "-qm", "base")
    # A real repository is packed; without this, git's own auto-gc (started by the commit
    # above, or by a save) would repack in the background during the measurements.
    git(path, "gc", "-q")
    git(path, "config", "--unset", "gc.auto")
    for i in range(untracked):
        d = os.path.join(path, "generated", f"u{i // 100:04}")
        if i % 100 == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"g{i}.txt"), "w") as f:
            f.write(f"untracked {i}\n")


def agent_change(path, files, round_no):
    """40 files edited, 20 added."""
    step = max(files // 40, 1)
    for k in range(40):
        i = (k * step + round_no) % files
        p = os.path.join(path, f"d{i // 10000 % 100:02}", f"s{i // 100 % 100:02}", f"f{i}.txt")
        with open(p, "a") as f:
            f.write(f"edited in round {round_no}\n")
    os.makedirs(os.path.join(path, "new"), exist_ok=True)
    for k in range(20):
        with open(os.path.join(path, "new", f"r{round_no}-n{k}.txt"), "w") as f:
            f.write(f"new file {k} of round {round_no}\n")


GIT_PIPELINE = r"""
set -e
idx=$(mktemp)
cp "$(git rev-parse --git-path index)" "$idx"
GIT_INDEX_FILE="$idx" git add -A
tree=$(GIT_INDEX_FILE="$idx" git write-tree)
id="$RANDOM$RANDOM$RANDOM"
commit=$(git commit-tree "$tree" -p HEAD -m "checkpoint: bench $id")
git update-ref "refs/bench/$id" "$commit"
git notes --ref=bench add -m '{"schema":1,"kind":"bench"}' "$commit"
rm -f "$idx"
"""

GIT_ADD_ONLY = r"""
idx=$(mktemp)
cp "$(git rev-parse --git-path index)" "$idx"
GIT_INDEX_FILE="$idx" exec git add -A
"""


def fmt_ms(s):
    return f"{s * 1000:.0f} ms" if s >= 0.01 else f"{s * 1000:.1f} ms"


def fmt_mb(kib):
    return f"{kib / 1024:.0f} MB"


def bench_size(files, runs, tmp, untracked=0):
    path = os.path.join(tmp, f"repo-{files}-{untracked}")
    t0 = time.perf_counter()
    make_repo(path, files, untracked)
    time.sleep(1.1)  # let file times settle before the first save, as in real use
    print(f"  generated {files} files (+{untracked} untracked) in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    agent_change(path, files, 0)
    rows = {}
    rows["status"] = median_of(runs, ["git", "status", "--untracked-files=all", "--porcelain"], path)
    # Warm up: the first save writes the new blobs once, as the first git add does.
    run([BIN, "save", "-q", "--allow-empty"], path)
    rows["save"] = median_of(runs, [BIN, "save", "-q", "--allow-empty"], path)
    rows["git"] = median_of(runs, ["bash", "-c", GIT_PIPELINE], path)
    rows["git_add"] = median_of(runs, ["bash", "-c", GIT_ADD_ONLY], path)
    rows["nochange"] = median_of(runs, [BIN, "save", "-q"], path)

    result = {"rows": rows}
    if untracked == 0:
        # Restore 40 files away: A = before the change, B = after it.
        b = run([BIN, "save", "-q", "--allow-empty", "--name", "bench-b"], path)[2].strip()
        git(path, "stash", "-u", "-q")
        a = run([BIN, "save", "-q", "--allow-empty", "--name", "bench-a"], path)[2].strip()
        git(path, "stash", "pop", "-q")
        a_commit = git(path, "rev-parse", f"refs/checkpoints/{a}")
        b_restore = lambda: run([BIN, "restore", "-q", "--no-save", b], path)
        rows["restore"] = median_of(runs, [BIN, "restore", "-q", a], path, before=b_restore)
        rows["git_restore"] = median_of(
            runs,
            ["bash", "-c", f"git restore --source={a_commit} --worktree -- . && git clean -fdq"],
            path,
            before=b_restore,
        )
    return result


def bench_plain(files, runs, tmp):
    """A plain directory of `files` files against `git status` in a repository of the same."""
    repo = os.path.join(tmp, f"plain-repo-{files}")
    make_repo(repo, files)
    plain = os.path.join(tmp, f"plain-{files}")
    shutil.copytree(repo, plain, ignore=shutil.ignore_patterns(".git"))
    env = dict(ENV, HOME=os.path.join(tmp, "plain-home"), XDG_DATA_HOME=os.path.join(tmp, "plain-data"))
    env.pop("GIT_CHECKPOINT_STORE", None)
    time.sleep(1.1)
    rows = {}
    first_t, first_m, _ = run([BIN, "save", "-q"], plain, env=env)
    rows["first"] = (first_t, first_m)
    agent_change(plain, files, 0)
    agent_change(repo, files, 0)
    rows["status"] = median_of(runs, ["git", "status", "--untracked-files=all", "--porcelain"], repo)

    def median_env(cmd):
        times, rss = [], []
        for _ in range(runs):
            t, m, _ = run(cmd, plain, env=env)
            times.append(t)
            rss.append(m)
        return statistics.median(times), max(rss)

    run([BIN, "save", "-q", "--allow-empty"], plain, env=env)
    rows["save"] = median_env([BIN, "save", "-q", "--allow-empty"])
    rows["nochange"] = median_env([BIN, "save", "-q"])
    return rows


def bench_list(runs, tmp, count=500):
    path = os.path.join(tmp, "repo-list")
    make_repo(path, 100)
    for i in range(count):
        run([BIN, "save", "-q", "--allow-empty", "-m", f"checkpoint {i}"], path)
    # An argument list, not a shell line: a shell's start-up would count against git.
    git_list = ["git", "log", "--no-walk", "--notes=checkpoints", "--format=%H %s%n%N", "--glob=refs/checkpoints/*"]
    loose = (median_of(runs, [BIN, "list"], path), median_of(runs, git_list, path))
    git(path, "gc", "-q")
    packed = (median_of(runs, [BIN, "list"], path), median_of(runs, git_list, path))
    return loose, packed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,200000")
    parser.add_argument("--untracked", type=int, default=20000, help="files in the untracked-directory case (0: skip)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    parser.add_argument("--plain", type=int, default=0, help="files in the plain-directory case (0: skip)")
    parser.add_argument("--no-list", action="store_true", help="skip the `list` measurement")
    args = parser.parse_args()

    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    tmp = tempfile.mkdtemp(prefix="git-checkpoint-bench-")
    git_version = git(ROOT, "--version")
    cpu = platform.processor() or platform.machine()
    print(f"# git-checkpoint benchmark\n")
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {cpu}; {git_version}; "
          f"medians of {args.runs} runs; 40 files edited + 20 added.\n")
    try:
        results = {}
        for n in sizes:
            print(f"size {n}...", file=sys.stderr)
            results[n] = bench_size(n, args.runs, tmp)
        print("| files | `git status -uall` | save | git CLI save | save / git CLI | save / status | no-change save | no-change / status | restore 40 | git restore + clean | restore / git | save peak RSS | `git add -A` peak RSS |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n, r in results.items():
            rows = r["rows"]
            st, sv, gc, nc = rows["status"][0], rows["save"][0], rows["git"][0], rows["nochange"][0]
            rs, grs = rows["restore"][0], rows["git_restore"][0]
            print(
                f"| {n:,} | {fmt_ms(st)} | {fmt_ms(sv)} | {fmt_ms(gc)} | {sv / gc:.2f} | {sv / st:.2f} | "
                f"{fmt_ms(nc)} | {nc / st:.2f} | {fmt_ms(rs)} | {fmt_ms(grs)} | {rs / grs:.2f} | "
                f"{fmt_mb(rows['save'][1])} | {fmt_mb(rows['git_add'][1])} |"
            )
        print("\nPeak memory (max RSS) of each command, same runs:\n")
        print("| files | `git status -uall` | save | git CLI save | `git add -A` | no-change save | restore 40 | git restore + clean | save / `git add -A` |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for n, r in results.items():
            rows = r["rows"]
            mem = {k: v[1] for k, v in rows.items()}
            print(
                f"| {n:,} | {fmt_mb(mem['status'])} | {fmt_mb(mem['save'])} | {fmt_mb(mem['git'])} | "
                f"{fmt_mb(mem['git_add'])} | {fmt_mb(mem['nochange'])} | {fmt_mb(mem['restore'])} | "
                f"{fmt_mb(mem['git_restore'])} | {mem['save'] / mem['git_add']:.2f} |"
            )
        if args.untracked and sizes:
            n = sizes[0]
            print(f"size {n} + {args.untracked} untracked...", file=sys.stderr)
            r = bench_size(n, args.runs, tmp, untracked=args.untracked)["rows"]
            print(f"\nUntracked directory that is not ignored ({n:,} tracked + {args.untracked:,} untracked files):\n")
            print("| `git status -uall` | save | git CLI save | save / git CLI | no-change save | no-change / status |")
            print("|---:|---:|---:|---:|---:|---:|")
            print(f"| {fmt_ms(r['status'][0])} | {fmt_ms(r['save'][0])} | {fmt_ms(r['git'][0])} | "
                  f"{r['save'][0] / r['git'][0]:.2f} | {fmt_ms(r['nochange'][0])} | {r['nochange'][0] / r['status'][0]:.2f} |")
        if args.plain:
            n = args.plain
            print(f"plain directory of {n} files...", file=sys.stderr)
            r = bench_plain(n, args.runs, tmp)
            print(f"\nPlain directory (no repository, private store) of {n:,} files, against `git status -uall` in a repository of the same files:\n")
            print("| `git status -uall` (repository) | first save | save | save / status | no-change save | no-change / status | save peak RSS |")
            print("|---:|---:|---:|---:|---:|---:|---:|")
            st = r["status"][0]
            print(f"| {fmt_ms(st)} | {fmt_ms(r['first'][0])} | {fmt_ms(r['save'][0])} | {r['save'][0] / st:.2f} | "
                  f"{fmt_ms(r['nochange'][0])} | {r['nochange'][0] / st:.2f} | {fmt_mb(r['save'][1])} |")
        if args.no_list:
            return
        print("size list...", file=sys.stderr)
        loose, packed = bench_list(args.runs, tmp)
        print("\n`list` of 500 checkpoints:\n")
        print("| objects | `git checkpoint list` | `git log --no-walk --notes=checkpoints` | ratio | peak RSS (ours / git) |")
        print("|---|---:|---:|---:|---:|")
        for label, (ours, theirs) in (("loose, right after the saves", loose), ("packed, after `git gc`", packed)):
            print(f"| {label} | {fmt_ms(ours[0])} | {fmt_ms(theirs[0])} | {ours[0] / theirs[0]:.2f} | "
                  f"{fmt_mb(ours[1])} / {fmt_mb(theirs[1])} |")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}", file=sys.stderr)


if __name__ == "__main__":
    main()
