#!/usr/bin/env python3
"""git-checkpoint benchmark: synthetic repositories, git-checkpoint against the git CLI.

    python3 bench/bench.py                       # 5k and 100k files, and the rest below
    python3 bench/bench.py --sizes 10000 --runs 5 --no-build
    python3 bench/bench.py --million             # also 1,000,000 files (a few minutes)

Builds the release binary (unless --no-build), then for each size generates a repository of N
files in nested directories (bench/generate.py), applies a typical agent change (40 files
edited, 20 added) and measures, as medians of repeated runs in the same process, side by side.
The sides are interleaved (each round runs every command once, in turn), so that a change of
load on a shared machine falls on all of them alike:

  - `git status --untracked-files=all` (the floor);
  - `git checkpoint save` against the git CLI doing the same job (copy the index, `git add -A`,
    `git write-tree`, `git commit-tree`, `git update-ref`, `git notes add`);
  - a save with nothing changed (what agents hit most);
  - `git checkpoint restore` of a checkpoint 40 files away against
    `git restore --source=<commit> --worktree -- . && git clean -fd`;
  - peak memory (max RSS) of every command measured (with GNU time, /usr/bin/time).

With `--plain N`: a plain directory (no git repository) of N files, whose checkpoints go to a
private store, against a repository of the same files (`git status -uall` there, and the same
saves there): the first save (which hashes every file), a save with `--allow-empty`, a save with
nothing changed, and an agent's turn (a new change, then a save).

Then a large untracked directory that is not ignored; a real-shaped tree (crate sources from
the local cargo registry, about 9,000 files, when there is one); `list` of 500 checkpoints
against `git log --no-walk --notes=checkpoints` over the same refs, both right after the saves
(loose objects) and after `git gc` (packed, as a repository usually is); and the peer baseline:
the shadow repository most agents use (a separate git directory with `core.worktree` = the
project, `git add -A && git commit` per turn), its first snapshot, per-turn time and disk, next
to ours on the same tree and the same turns. Prints Markdown tables.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no bench/__pycache__ from importing generate.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

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


TIME = "/usr/bin/time"


def run(cmd, cwd, env=None, check=True, rss=False):
    """Run a command; return (seconds, peak RSS in KiB or 0, stdout).

    Peak memory comes from /usr/bin/time (GNU time) when it is installed: a child of this
    process inherits Python's own peak RSS (about 15 MB) until it executes the command, so
    wait4 on it never reports less; a child of `time` starts small. `time` costs the same
    fork and exec, a few milliseconds here, so times are measured without it."""
    measure = rss and os.path.exists(TIME)
    rss_file = None
    if measure:
        fd, rss_file = tempfile.mkstemp(prefix="bench-rss-")
        os.close(fd)
        argv = ["bash", "-c", cmd] if isinstance(cmd, str) else cmd
        cmd = [TIME, "-f", "%M", "-o", rss_file, *argv]
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
    peak = 0
    if rss_file:
        with open(rss_file) as f:
            lines = f.read().split()
        os.unlink(rss_file)
        peak = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    if check and proc.returncode != 0:
        sys.exit(f"failed: {cmd}\n{err.decode(errors='replace')}")
    return elapsed, peak, out.decode(errors="replace")


def interleaved(runs, cmds, cwd):
    """Run each of `cmds` (name -> command, or (command, setup run before it)) once per round,
    in turn, for `runs` rounds, then one more round under GNU time for the peak memory (which
    adds a few milliseconds to a run); return name -> (median seconds, peak RSS in KiB)."""
    times = {name: [] for name in cmds}
    peak = {}
    for round_no in range(runs + 1):
        for name, cmd in cmds.items():
            before = None
            if isinstance(cmd, tuple):
                cmd, before = cmd
            if before:
                before()
            t, m, _ = run(cmd, cwd, rss=round_no == runs)
            if round_no == runs:
                peak[name] = m
            else:
                times[name].append(t)
    return {name: (statistics.median(times[name]), peak[name]) for name in cmds}


def median_of(runs, cmd, cwd, before=None):
    """One command alone (bench/formats.py): its median time and peak RSS."""
    return interleaved(runs, {"cmd": (cmd, before)}, cwd)["cmd"]


def git(cwd, *args):
    return run(["git", *args], cwd)[2].strip()


def settle(path):
    """Let file times fall in an earlier second than the index's, and refresh the index, as a
    repository in use is (a freshly checked-out one makes every entry racily clean)."""
    time.sleep(1.1)
    git(path, "update-index", "-q", "--refresh")
    git(path, "status", "--porcelain", "-uno")


def make_repo(path, files, untracked=0):
    generate.BASE_ENV = ENV  # GIT_DEFAULT_HASH and the like, as callers (formats.py) set them
    generate.generate(path, files, untracked)
    settle(path)


def tracked(i):
    return generate.tracked_path(i)


def agent_change(path, files, round_no, paths=None):
    """40 files edited, 20 added (in `paths`, when given, else in the generated layout)."""
    count = len(paths) if paths else files
    step = max(count // 40, 1)
    for k in range(40):
        i = (k * step + round_no) % count
        p = os.path.join(path, paths[i] if paths else tracked(i))
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

STATUS = ["git", "status", "--untracked-files=all", "--porcelain"]


def fmt_ms(s):
    if s >= 10:
        return f"{s:.1f} s"
    return f"{s * 1000:.0f} ms" if s >= 0.01 else f"{s * 1000:.1f} ms"


def fmt_mb(kib):
    return f"{kib / 1024:.0f} MB"


def measure(path, runs, paths=None, files=0, restore=True, git_side=True):
    """The measurements on the repository at `path`, after an agent change."""
    agent_change(path, files, 0, paths)
    # Warm up: the first save writes the new blobs once, as the first git add does; the second
    # leaves a stat cache whose entries are all settled.
    run([BIN, "save", "-q", "--allow-empty"], path)
    time.sleep(1.1)
    run([BIN, "save", "-q", "--allow-empty"], path)
    cmds = {"status": STATUS, "save": [BIN, "save", "-q", "--allow-empty"]}
    if git_side:
        cmds["git"] = ["bash", "-c", GIT_PIPELINE]
        cmds["git_add"] = ["bash", "-c", GIT_ADD_ONLY]
    # Right after a save, nothing changed: what agents hit most.
    cmds["nochange"] = [BIN, "save", "-q"]
    rows = interleaved(runs, cmds, path)
    if restore:
        # Restore 40 files away: A = before the change, B = after it.
        b = run([BIN, "save", "-q", "--allow-empty", "--name", "bench-b"], path)[2].strip()
        git(path, "stash", "-u", "-q")
        a = run([BIN, "save", "-q", "--allow-empty", "--name", "bench-a"], path)[2].strip()
        git(path, "stash", "pop", "-q")
        a_commit = git(path, "rev-parse", f"refs/checkpoints/{a}")
        b_restore = lambda: run([BIN, "restore", "-q", "--no-save", b], path)
        restores = {"restore": ([BIN, "restore", "-q", a], b_restore)}
        if git_side:
            restores["git_restore"] = (
                ["bash", "-c", f"git restore --source={a_commit} --worktree -- . && git clean -fdq"],
                b_restore,
            )
        rows.update(interleaved(runs, restores, path))
    return rows


def bench_size(files, runs, tmp, untracked=0):
    path = os.path.join(tmp, f"repo-{files}-{untracked}")
    t0 = time.perf_counter()
    make_repo(path, files, untracked)
    print(f"  generated {files} files (+{untracked} untracked) in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return measure(path, runs, files=files, restore=untracked == 0)


def real_shape(tmp, target=9000):
    """A repository of real crate sources (the local cargo registry), about `target` files."""
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    src = os.path.join(home, "registry", "src")
    if not os.path.isdir(src):
        return None, []
    path = os.path.join(tmp, "repo-real")
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "gc.auto", "0")
    git(path, "config", "checkpoint.keep", "100000")
    count = 0
    for index in sorted(os.listdir(src)):
        for crate in sorted(os.listdir(os.path.join(src, index))):
            if count >= target:
                break
            shutil.copytree(os.path.join(src, index, crate), os.path.join(path, crate), symlinks=True)
            count += sum(len(f) for _, _, f in os.walk(os.path.join(path, crate)))
    git(path, "add", "-A")
    git(path, "commit", "-qm", "base")
    git(path, "gc", "-q")
    settle(path)
    paths = [p for p in git(path, "ls-files").splitlines() if not p.endswith(".gitignore")]
    return path, paths


def bench_plain(files, runs, tmp):
    """A plain directory of `files` files against a repository of the same files: its `git
    status`, and git-checkpoint's saves there."""
    repo = os.path.join(tmp, f"plain-repo-{files}")
    make_repo(repo, files)
    plain = os.path.join(tmp, f"plain-{files}")
    shutil.copytree(repo, plain, ignore=shutil.ignore_patterns(".git"))
    env = dict(ENV, HOME=os.path.join(tmp, "plain-home"), XDG_DATA_HOME=os.path.join(tmp, "plain-data"))
    env.pop("GIT_CHECKPOINT_STORE", None)
    time.sleep(1.1)
    rows = {}
    first_t, first_m, _ = run([BIN, "save", "-q"], plain, env=env, rss=True)
    rows["first"] = (first_t, first_m)
    # The same warm-up on both sides as `measure`: the change saved once, then, a second later,
    # a save that leaves every stat cache entry settled.
    for path, e in ((plain, env), (repo, None)):
        agent_change(path, files, 0)
        run([BIN, "save", "-q", "--allow-empty"], path, env=e)
    time.sleep(1.1)
    for path, e in ((plain, env), (repo, None)):
        run([BIN, "save", "-q", "--allow-empty"], path, env=e)
    # Interleaved, as everywhere here: status in the repository, the saves on both sides.
    sides = (
        ("status", STATUS, repo, None),
        ("save", [BIN, "save", "-q", "--allow-empty"], plain, env),
        ("repo_save", [BIN, "save", "-q", "--allow-empty"], repo, None),
        ("nochange", [BIN, "save", "-q"], plain, env),
        ("repo_nochange", [BIN, "save", "-q"], repo, None),
    )
    times = {name: [] for name, *_ in sides}
    rss = {name: [] for name, *_ in sides}
    for round_no in range(runs + 1):
        for name, cmd, cwd, e in sides:
            # The last round, under GNU time, for the peak memory only.
            t, m, _ = run(cmd, cwd, env=e, rss=round_no == runs)
            if round_no == runs:
                rss[name].append(m)
            else:
                times[name].append(t)
    rows.update({name: (statistics.median(times[name]), max(rss[name])) for name in times})
    # An agent's turn: a new change (40 files edited, 20 added), then the save, on both sides.
    turns = {"turn": [], "repo_turn": []}
    for round_no in range(1, runs + 1):
        for name, cwd, e in (("turn", plain, env), ("repo_turn", repo, None))[:: 1 if round_no % 2 else -1]:
            agent_change(cwd, files, round_no)
            turns[name].append(run([BIN, "save", "-q"], cwd, env=e)[0])
    rows.update({name: (statistics.median(v), 0) for name, v in turns.items()})
    return rows


def bench_list(runs, tmp, count=500):
    path = os.path.join(tmp, "repo-list")
    make_repo(path, 100)
    for i in range(count):
        run([BIN, "save", "-q", "--allow-empty", "-m", f"checkpoint {i}"], path)
    # An argument list, not a shell line: a shell's start-up would count against git.
    git_list = ["git", "log", "--no-walk", "--notes=checkpoints", "--format=%H %s%n%N", "--glob=refs/checkpoints/*"]
    cmds = {"ours": [BIN, "list"], "git": git_list}
    loose = interleaved(runs, cmds, path)
    git(path, "gc", "-q")
    packed = interleaved(runs, cmds, path)
    return loose, packed


GIT_DU = r"""
git rev-list --objects --glob='refs/checkpoints/*' --not --branches --tags HEAD \
  | git cat-file --batch-check='%(objectsize)' | awk '{n++; s += $1} END {print n, s}'
"""


def bench_du(runs, tmp, count=1000, files=1000):
    """`du` over `count` checkpoints (each a few edited files and one new one), next to git's
    own count of the objects only checkpoints reach; and what checkpoint.maxSize adds to a
    save, far from its limit and at it (where every save removes the oldest)."""
    path = os.path.join(tmp, "repo-du")
    make_repo(path, files)
    git(path, "config", "checkpoint.keep", "100000")
    for i in range(count):
        for k in range(3):
            with open(os.path.join(path, tracked((i * 7 + k) % files)), "a") as f:
                f.write(f"checkpoint {i}\n")
        with open(os.path.join(path, f"new-{i}.txt"), "w") as f:
            f.write(f"a file of checkpoint {i}\n" * 50)
        run([BIN, "save", "-q"], path)
    cmds = {"du": [BIN, "du"], "git": GIT_DU}
    du = interleaved(runs, cmds, path)
    size = json.loads(run([BIN, "du", "--json"], path)[2])["total"]["bytes"]

    def edit(n=[0]):
        n[0] += 1
        with open(os.path.join(path, tracked(n[0] % files)), "a") as f:
            f.write(f"bench edit {n[0]}\n")

    far = f"{size * 2}"
    at = f"{size}"

    def with_max(value):
        """checkpoint.maxSize for one command, through the environment."""
        return dict(ENV, GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="checkpoint.maxSize", GIT_CONFIG_VALUE_0=value)

    times = {"plain": [], "far": [], "at": []}
    for _ in range(runs):
        for name, env in (("plain", ENV), ("far", with_max(far)), ("at", with_max(at))):
            edit()
            t, _, _ = run([BIN, "save", "-q"], path, env=env)
            times[name].append(t)
    save = {name: statistics.median(v) for name, v in times.items()}
    return du, save, count


def disk_kib(path):
    """Disk space taken (allocated blocks, as `du -sk`)."""
    return int(run(["du", "-sk", path], ROOT)[2].split()[0])


def bench_shadow(files, turns, tmp):
    """The shadow repository of peers against ours, on the same tree and the same turns."""
    path = os.path.join(tmp, f"repo-shadow-{files}")
    make_repo(path, files)
    shadow = os.path.join(tmp, f"shadow-{files}.git")
    git(tmp, "init", "-q", "--bare", shadow)
    git(tmp, f"--git-dir={shadow}", "config", "core.bare", "false")
    git(tmp, f"--git-dir={shadow}", "config", "core.worktree", path)
    git(tmp, f"--git-dir={shadow}", "config", "gc.auto", "0")
    turn = ["bash", "-c", f'git --git-dir="{shadow}" add -A && git --git-dir="{shadow}" commit -q --allow-empty -m turn']
    ours_before = disk_kib(os.path.join(path, ".git"))
    shadow_before = disk_kib(shadow)
    first = {"shadow": run(turn, path)[0], "ours": run([BIN, "save", "-q", "--allow-empty"], path)[0]}
    disk_first = {"shadow": disk_kib(shadow) - shadow_before, "ours": disk_kib(os.path.join(path, ".git")) - ours_before}
    per_turn = {"shadow": [], "ours": []}
    for r in range(1, turns + 1):
        agent_change(path, files, r)
        order = ["shadow", "ours"] if r % 2 else ["ours", "shadow"]
        for side in order:
            cmd = turn if side == "shadow" else [BIN, "save", "-q"]
            per_turn[side].append(run(cmd, path)[0])
    disk_after = {"shadow": disk_kib(shadow) - shadow_before, "ours": disk_kib(os.path.join(path, ".git")) - ours_before}
    return first, {k: statistics.median(v) for k, v in per_turn.items()}, disk_first, disk_after


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5000,100000")
    parser.add_argument("--untracked", type=int, default=20000, help="files in the untracked-directory case (0: skip)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-real", action="store_true", help="skip the real-shaped tree")
    parser.add_argument("--no-list", action="store_true", help="skip `list`")
    parser.add_argument("--shadow", type=int, default=100000, help="files in the shadow-repository baseline (0: skip)")
    parser.add_argument("--turns", type=int, default=10, help="agent turns in the shadow baseline")
    parser.add_argument("--million", action="store_true", help="also 1,000,000 files")
    parser.add_argument("--plain", type=int, default=0, help="files in the plain-directory case (0: skip)")
    parser.add_argument("--du", type=int, default=0, help="checkpoints in the `du` and checkpoint.maxSize case (0: skip)")
    parser.add_argument("--no-build", action="store_true", help="use target/release as it is")
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    args = parser.parse_args()

    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    tmp = tempfile.mkdtemp(prefix="git-checkpoint-bench-")
    git_version = git(ROOT, "--version")
    cpu = platform.processor() or platform.machine()
    load = os.getloadavg()
    print("# git-checkpoint benchmark\n")
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, {cpu}; {git_version}; "
          f"medians of {args.runs} interleaved runs; 40 files edited + 20 added; "
          f"load average at the start {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.\n", flush=True)
    try:
        results = {}
        for n in sizes:
            print(f"size {n}...", file=sys.stderr)
            results[n] = bench_size(n, args.runs, tmp)
        if args.million:
            print("size 1000000...", file=sys.stderr)
            results[1000000] = bench_size(1000000, max(args.runs // 2, 3), tmp)
        if results:
            print("| files | `git status -uall` | save | git CLI save | save / git CLI | save / status | no-change save | no-change / status | restore 40 | git restore + clean | restore / git |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for n, rows in results.items():
                st, sv, gc, nc = rows["status"][0], rows["save"][0], rows["git"][0], rows["nochange"][0]
                rs, grs = rows["restore"][0], rows["git_restore"][0]
                print(
                    f"| {n:,} | {fmt_ms(st)} | {fmt_ms(sv)} | {fmt_ms(gc)} | {sv / gc:.2f} | {sv / st:.2f} | "
                    f"{fmt_ms(nc)} | {nc / st:.2f} | {fmt_ms(rs)} | {fmt_ms(grs)} | {rs / grs:.2f} |"
                )
            print("\nPeak memory (max RSS) of each command, same runs; and time per file:\n")
            print("| files | `git status -uall` | save | git CLI save | `git add -A` | no-change save | restore 40 | git restore + clean | save / `git add -A` | save µs/file | status µs/file |")
            print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for n, rows in results.items():
                mem = {k: v[1] for k, v in rows.items()}
                print(
                    f"| {n:,} | {fmt_mb(mem['status'])} | {fmt_mb(mem['save'])} | {fmt_mb(mem['git'])} | "
                    f"{fmt_mb(mem['git_add'])} | {fmt_mb(mem['nochange'])} | {fmt_mb(mem['restore'])} | "
                    f"{fmt_mb(mem['git_restore'])} | {mem['save'] / mem['git_add']:.2f} | "
                    f"{rows['save'][0] / n * 1e6:.2f} | {rows['status'][0] / n * 1e6:.2f} |"
                )
            sys.stdout.flush()
        if args.untracked:
            n = 10000
            print(f"size {n} + {args.untracked} untracked...", file=sys.stderr)
            r = bench_size(n, args.runs, tmp, untracked=args.untracked)
            print(f"\nUntracked directory that is not ignored ({n:,} tracked + {args.untracked:,} untracked files):\n")
            print("| `git status -uall` | save | git CLI save | save / git CLI | save / status | no-change save | no-change / status |")
            print("|---:|---:|---:|---:|---:|---:|---:|")
            print(f"| {fmt_ms(r['status'][0])} | {fmt_ms(r['save'][0])} | {fmt_ms(r['git'][0])} | "
                  f"{r['save'][0] / r['git'][0]:.2f} | {r['save'][0] / r['status'][0]:.2f} | "
                  f"{fmt_ms(r['nochange'][0])} | {r['nochange'][0] / r['status'][0]:.2f} |", flush=True)
        if not args.no_real:
            print("real shape...", file=sys.stderr)
            path, paths = real_shape(tmp)
            if path:
                r = measure(path, args.runs, paths=paths)
                print(f"\nReal-shaped tree ({len(paths):,} files of crate sources from the cargo registry):\n")
                print("| `git status -uall` | save | save / status | git CLI save | no-change save | no-change / status | restore 40 | git restore + clean | restore / git | restore / status |")
                print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
                print(f"| {fmt_ms(r['status'][0])} | {fmt_ms(r['save'][0])} | {r['save'][0] / r['status'][0]:.2f} | "
                      f"{fmt_ms(r['git'][0])} | {fmt_ms(r['nochange'][0])} | {r['nochange'][0] / r['status'][0]:.2f} | "
                      f"{fmt_ms(r['restore'][0])} | {fmt_ms(r['git_restore'][0])} | "
                      f"{r['restore'][0] / r['git_restore'][0]:.2f} | {r['restore'][0] / r['status'][0]:.2f} |", flush=True)
        if args.plain:
            n = args.plain
            print(f"plain directory of {n} files...", file=sys.stderr)
            r = bench_plain(n, args.runs, tmp)
            print(f"\nPlain directory (no repository, private store) of {n:,} files, against a repository of the "
                  f"same files (`git status -uall` there, and git-checkpoint's saves there):\n")
            print("| | `git status -uall` (repository) | save in the repository | save in the plain directory | plain / repository | plain / status |")
            print("|---|---:|---:|---:|---:|---:|")
            st = r["status"][0]
            for label, ours, theirs in (
                ("save (`--allow-empty`)", "save", "repo_save"),
                ("no-change save", "nochange", "repo_nochange"),
                ("agent turn (60 files changed, then save)", "turn", "repo_turn"),
            ):
                print(f"| {label} | {fmt_ms(st)} | {fmt_ms(r[theirs][0])} | {fmt_ms(r[ours][0])} | "
                      f"{r[ours][0] / r[theirs][0]:.2f} | {r[ours][0] / st:.2f} |", flush=True)
            print(f"\nFirst save of the plain directory (hashes every file): {fmt_ms(r['first'][0])}, "
                  f"{fmt_mb(r['first'][1])} peak; peak memory of a save: plain {fmt_mb(r['save'][1])}, "
                  f"repository {fmt_mb(r['repo_save'][1])}, `git status` {fmt_mb(r['status'][1])}.", flush=True)
        if not args.no_list:
            print("size list...", file=sys.stderr)
            loose, packed = bench_list(max(args.runs, 15), tmp)
            print("\n`list` of 500 checkpoints:\n")
            print("| objects | `git checkpoint list` | `git log --no-walk --notes=checkpoints` | ratio | peak RSS (ours / git) |")
            print("|---|---:|---:|---:|---:|")
            for label, r in (("loose, right after the saves", loose), ("packed, after `git gc`", packed)):
                ours, theirs = r["ours"], r["git"]
                print(f"| {label} | {fmt_ms(ours[0])} | {fmt_ms(theirs[0])} | {ours[0] / theirs[0]:.2f} | "
                      f"{fmt_mb(ours[1])} / {fmt_mb(theirs[1])} |", flush=True)
        if args.du:
            print(f"du of {args.du} checkpoints...", file=sys.stderr)
            du, save, count = bench_du(args.runs, tmp, count=args.du)
            print(f"\n`du` of {count:,} checkpoints (1,000 files; each checkpoint 3 edited files and a new one), "
                  f"next to git counting the objects only checkpoints reach (`rev-list --objects | cat-file "
                  f"--batch-check`):\n")
            print("| `git checkpoint du` | git's count | ratio | peak RSS (ours / git) |")
            print("|---:|---:|---:|---:|")
            print(f"| {fmt_ms(du['du'][0])} | {fmt_ms(du['git'][0])} | {du['du'][0] / du['git'][0]:.2f} | "
                  f"{fmt_mb(du['du'][1])} / {fmt_mb(du['git'][1])} |")
            print(f"\nA save among them: {fmt_ms(save['plain'])} without checkpoint.maxSize, "
                  f"{fmt_ms(save['far'])} with it far from its limit, {fmt_ms(save['at'])} at its limit "
                  f"(each save then removes the oldest).", flush=True)
        if args.shadow:
            print("shadow...", file=sys.stderr)
            first, turn, disk_first, disk_after = bench_shadow(args.shadow, args.turns, tmp)
            print(f"\nPeer baseline, {args.shadow:,} files: a shadow repository (`core.worktree` = the project, "
                  f"`git add -A && git commit` per turn) against `git checkpoint save`, {args.turns} turns of 40 "
                  f"edited + 20 new files, alternating which goes first:\n")
            print("| | first snapshot | disk after it | per turn (median) | disk after the turns |")
            print("|---|---:|---:|---:|---:|")
            for side, label in (("shadow", "shadow repository"), ("ours", "git checkpoint")):
                print(f"| {label} | {fmt_ms(first[side])} | {disk_first[side] / 1024:.1f} MB | "
                      f"{fmt_ms(turn[side])} | {disk_after[side] / 1024:.1f} MB |", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}", file=sys.stderr)


if __name__ == "__main__":
    main()
