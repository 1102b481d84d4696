#!/usr/bin/env python3
"""git-checkpoint in the four repository formats: SHA-1/SHA-256 object ids x files/reftable refs.

    python3 bench/formats.py                      # 10k files, 500 checkpoints, 15 runs
    python3 bench/formats.py --files 100000 --runs 7

Builds the release binary, then for each combination (chosen with GIT_DEFAULT_HASH and
GIT_DEFAULT_REF_FORMAT, as the test matrix does) generates the same repository as
bench/bench.py, applies the same agent change (40 files edited, 20 added) and measures, as
medians of repeated runs:

  - `git status --untracked-files=all` (the floor);
  - `git checkpoint save` of that change, and a save with nothing changed;
  - `list` of 500 checkpoints, right after the saves (loose objects) and after `git gc`;
  - how many git processes one save, one no-change save and one list start (counted in a
    separate run through a `git` wrapper on PATH, so the timings above are not affected);
  - what those git processes cost: a `git --version` spawn, the one `for-each-ref` listing
    and one `update-ref --stdin` transaction, timed by themselves on the 500 refs.

Prints a Markdown table.
"""

import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the generator, the runner and the formatting of bench.py)

COMBOS = [("sha1", "files"), ("sha256", "files"), ("sha1", "reftable"), ("sha256", "reftable")]

COUNTING_GIT = """#!/bin/sh
echo "$*" >> "{log}"
exec "{git}" "$@"
"""


def git_processes(cmd, path, tmp):
    """How many times `cmd` runs git (through a counting wrapper first on PATH)."""
    wrapper_dir = os.path.join(tmp, "counting-git")
    log = os.path.join(tmp, "git-calls.log")
    os.makedirs(wrapper_dir, exist_ok=True)
    real = shutil.which("git", path=os.environ.get("PATH", ""))
    with open(os.path.join(wrapper_dir, "git"), "w") as f:
        f.write(COUNTING_GIT.format(log=log, git=real))
    os.chmod(os.path.join(wrapper_dir, "git"), 0o755)
    if os.path.exists(log):
        os.remove(log)
    env = dict(bench.ENV, PATH=wrapper_dir + os.pathsep + bench.ENV["PATH"])
    bench.run(cmd, path, env=env)
    if not os.path.exists(log):
        return 0, []
    with open(log) as f:
        calls = [subcommand(line.split()) for line in f if line.strip()]
    return len(calls), calls


def subcommand(words):
    """The git subcommand of an argument list (`-C <dir> --git-dir=… -c k=v update-ref …`)."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in ("-C", "-c"):
            skip = True
        elif not word.startswith("-"):
            return word
    return "?"


def bench_combo(hash_name, ref_format, files, runs, checkpoints, tmp):
    bench.ENV["GIT_DEFAULT_HASH"] = hash_name
    bench.ENV["GIT_DEFAULT_REF_FORMAT"] = ref_format
    path = os.path.join(tmp, f"repo-{hash_name}-{ref_format}")
    bench.make_repo(path, files)
    assert bench.git(path, "rev-parse", "--show-object-format") == hash_name
    assert bench.git(path, "rev-parse", "--show-ref-format") == ref_format
    bench.agent_change(path, files, 0)
    out = {}
    out["status"] = bench.median_of(runs, ["git", "status", "--untracked-files=all", "--porcelain"], path)[0]
    bench.run([bench.BIN, "save", "-q", "--allow-empty"], path)
    out["save"] = bench.median_of(runs, [bench.BIN, "save", "-q", "--allow-empty"], path)[0]
    out["nochange"] = bench.median_of(runs, [bench.BIN, "save", "-q"], path)[0]
    out["git_save"] = git_processes([bench.BIN, "save", "-q", "--allow-empty"], path, tmp)
    out["git_nochange"] = git_processes([bench.BIN, "save", "-q"], path, tmp)

    lpath = os.path.join(tmp, f"list-{hash_name}-{ref_format}")
    bench.make_repo(lpath, 100)
    for i in range(checkpoints):
        bench.run([bench.BIN, "save", "-q", "--allow-empty", "-m", f"checkpoint {i}"], lpath)
    out["list_loose"] = bench.median_of(runs, [bench.BIN, "list"], lpath)[0]
    out["git_list"] = git_processes([bench.BIN, "list"], lpath, tmp)
    bench.git(lpath, "gc", "-q")
    out["list_packed"] = bench.median_of(runs, [bench.BIN, "list"], lpath)[0]

    # The git commands a reftable repository pays for (run here in every combination, to
    # compare): the one listing and one transaction, and a spawn of git doing nothing.
    head = bench.git(lpath, "rev-parse", "HEAD")
    out["spawn"] = bench.median_of(runs, ["git", "--version"], lpath)[0]
    out["for_each_ref"] = bench.median_of(runs, [
        "git", "for-each-ref", "--include-root-refs", "--format=%(refname)%00%(objectname)%00%(symref)",
        "HEAD", "refs/notes/checkpoints", "refs/checkpoints/"], lpath)[0]
    tx = f"start\ncreate refs/checkpoints/bench-tx {head}\nprepare\ncommit\n"
    out["update_ref"] = bench.median_of(
        runs,
        f"printf '{tx}' | git -c core.logAllRefUpdates=false update-ref --no-deref --stdin >/dev/null",
        lpath,
        before=lambda: bench.run(["git", "update-ref", "-d", "refs/checkpoints/bench-tx"], lpath),
    )[0]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--checkpoints", type=int, default=500)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    args = parser.parse_args()

    import subprocess

    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=bench.ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="git-checkpoint-formats-")
    print(f"{bench.git(bench.ROOT, '--version')}; {os.cpu_count()} cores; medians of {args.runs} runs; "
          f"{args.files:,} files, 40 edited + 20 added; list of {args.checkpoints} checkpoints.\n")
    try:
        results = {}
        for hash_name, ref_format in COMBOS:
            print(f"{hash_name} / {ref_format}...", file=sys.stderr)
            results[(hash_name, ref_format)] = bench_combo(
                hash_name, ref_format, args.files, args.runs, args.checkpoints, tmp
            )
        print("| objects / refs | `git status -uall` | save | no-change save | list (loose) | list (packed) "
              "| git processes: save / no-change save / list |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for (hash_name, ref_format), r in results.items():
            print(
                f"| {hash_name.upper()} / {ref_format} | {bench.fmt_ms(r['status'])} | {bench.fmt_ms(r['save'])} | "
                f"{bench.fmt_ms(r['nochange'])} | {bench.fmt_ms(r['list_loose'])} | "
                f"{bench.fmt_ms(r['list_packed'])} | "
                f"{r['git_save'][0]} / {r['git_nochange'][0]} / {r['git_list'][0]} |"
            )
        print()
        print("| objects / refs | `git --version` | `for-each-ref --include-root-refs` (500 refs) "
              "| `update-ref --stdin` transaction (sh + printf included) |")
        print("|---|---:|---:|---:|")
        for (hash_name, ref_format), r in results.items():
            print(f"| {hash_name.upper()} / {ref_format} | {bench.fmt_ms(r['spawn'])} | "
                  f"{bench.fmt_ms(r['for_each_ref'])} | {bench.fmt_ms(r['update_ref'])} |")
        print()
        for (hash_name, ref_format), r in results.items():
            print(f"- {hash_name} / {ref_format}: save runs git {' '.join(r['git_save'][1]) or '-'}; "
                  f"no-change save: {' '.join(r['git_nochange'][1]) or '-'}; list: {' '.join(r['git_list'][1]) or '-'}")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}", file=sys.stderr)


if __name__ == "__main__":
    main()
