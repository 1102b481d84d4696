#!/usr/bin/env python3
"""What the secret scan costs a save, and what it finds in ordinary code.

    python3 bench/secrets.py                    # 100,000 files, 40 edited + 20 new per save
    python3 bench/secrets.py --files 20000 --runs 5 --no-build
    python3 bench/secrets.py --code ~/.cargo/registry/src   # also: findings in real code

1. Cost. A repository of N files (bench/generate.py); 40 tracked files are edited and 20 new
   ones written before every save (each run edits them again, so every save hashes and scans
   new content). Medians of interleaved runs of `git checkpoint save` with the scan
   (`checkpoint.secrets=warn`, the default) and without it (`off`, for that process only,
   through GIT_CONFIG_COUNT), next to `git status`. The ratio is the issue's bar: at most
   1.1.

2. Ordinary code (with --code DIR): every file below DIR is copied into a plain directory and
   saved once, so that everything is scanned (a plain directory has no HEAD); the findings are
   counted by rule. Real code holds test keys and example tokens, so this is a count to read,
   not a pass/fail: the corpus test (src/secrets/tests.rs) is the precision check.
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

from bench import BIN, ENV, ROOT, fmt_ms, interleaved, make_repo, run, tracked  # noqa: E402

SCAN_OFF = ["env", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=checkpoint.secrets", "GIT_CONFIG_VALUE_0=off"]


def edit(path, files, counter):
    """40 tracked files edited, 20 new ones written: new content for every run."""
    counter[0] += 1
    n = counter[0]
    step = max(files // 40, 1)
    for k in range(40):
        with open(os.path.join(path, tracked((k * step) % files)), "a") as f:
            f.write(f"// edited in run {n}: let total = items.iter().map(|i| i.price).sum();\n")
    os.makedirs(os.path.join(path, "new"), exist_ok=True)
    for k in range(20):
        with open(os.path.join(path, "new", f"n{k}.py"), "w") as f:
            f.write(f"# new file {k}, run {n}\nimport os\n\ndef main():\n    return os.environ.get('HOME')\n")


def cost(files, runs, tmp, untracked=0):
    path = os.path.join(tmp, f"repo-{files}-{untracked}")
    t0 = time.perf_counter()
    make_repo(path, files, untracked)
    print(f"  generated {files} files in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    counter = [0]
    edit(path, files, counter)
    # Warm up both: objects written once, a settled stat cache.
    for _ in range(2):
        run([BIN, "save", "-q", "--allow-empty"], path)
        time.sleep(1.1)
    before = lambda: edit(path, files, counter)  # noqa: E731
    rows = interleaved(
        runs,
        {
            "status": (["git", "status", "--porcelain", "--untracked-files=all"], before),
            "scan": ([BIN, "save", "-q", "--allow-empty"], before),
            "off": ([*SCAN_OFF, BIN, "save", "-q", "--allow-empty"], before),
        },
        path,
    )
    listed = json.loads(run([BIN, "list", "--json", "-n", "4"], path)[2])
    scanned = next((c["secrets"] for c in listed if "secrets" in c), None)
    return rows, scanned


def ordinary_code(source, tmp):
    """The first save of a copy of `source` as a plain directory, scan off and scan on (each on
    its own copy, so each is a first save); the scanned one's findings."""
    env = dict(ENV, HOME=os.path.join(tmp, "home"))
    os.makedirs(env["HOME"], exist_ok=True)
    took = {}
    for mode in ("off", "on"):
        dest = os.path.join(tmp, f"code-{mode}")
        shutil.copytree(source, dest, symlinks=True, ignore_dangling_symlinks=True)
        cmd = [BIN, "save", "-q", "-m", "everything"]
        t0 = time.perf_counter()
        run(SCAN_OFF + cmd if mode == "off" else cmd, dest, env=env)
        took[mode] = time.perf_counter() - t0
    files = sum(len(f) for _, _, f in os.walk(dest))
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, fs in os.walk(dest) for n in fs
               if os.path.isfile(os.path.join(d, n)))
    note = json.loads(run([BIN, "show", "@", "--json"], dest, env=env)[2]).get("secrets") or {}
    # The saves after it: the scan's cache answers for every file that did not change.
    again = [BIN, "save", "-q", "--allow-empty"]
    took["again_on"] = min(run(again, dest, env=env)[0] for _ in range(3))
    took["again_off"] = min(run(SCAN_OFF + again, dest, env=env)[0] for _ in range(3))
    by_rule = collections.Counter(f["rule"] for f in note.get("findings", []))
    return files, size, took, note, by_rule


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--untracked", type=int, default=20000,
                        help="also 10,000 tracked files with this many untracked ones (0: skip)")
    parser.add_argument("--code", help="a directory of ordinary code to count findings in")
    parser.add_argument("--no-build", action="store_true", help="use target/release as it is")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="git-checkpoint-secrets-")
    load = os.getloadavg()
    try:
        print("# The secret scan's cost\n")
        print(f"{os.cpu_count()} cores; medians of {args.runs} interleaved runs; 40 files edited and "
              f"20 new before every run; load average at the start {load[0]:.1f}.\n")
        rows, scanned = cost(args.files, args.runs, tmp)
        st, on, off = rows["status"][0], rows["scan"][0], rows["off"][0]
        print("| files | `git status -uall` | save, scan off | save, scan on | on / off | on / status |")
        print("|---:|---:|---:|---:|---:|---:|")
        print(f"| {args.files:,} | {fmt_ms(st)} | {fmt_ms(off)} | {fmt_ms(on)} | {on / off:.2f} | {on / st:.2f} |")
        if args.untracked:
            rows, _ = cost(10000, args.runs, tmp, args.untracked)
            st, on, off = rows["status"][0], rows["scan"][0], rows["off"][0]
            print(f"| 10,000 + {args.untracked:,} untracked | {fmt_ms(st)} | {fmt_ms(off)} | {fmt_ms(on)} | "
                  f"{on / off:.2f} | {on / st:.2f} |")
        print(f"\nThe last scanned save's note: `{json.dumps(scanned)}` (the edits hold no secret).")
        if args.code:
            files, size, took, note, by_rule = ordinary_code(args.code, tmp)
            print(f"\n# Findings in ordinary code\n\n{files:,} files, {size / 1e6:.0f} MB from `{args.code}`, "
                  f"saved as a plain directory (a first save: every file is scanned): "
                  f"{fmt_ms(took['on'])} with the scan, {fmt_ms(took['off'])} without "
                  f"({took['on'] / took['off']:.2f}); a later save with nothing changed "
                  f"{fmt_ms(took['again_on'])} with the scan, {fmt_ms(took['again_off'])} without.\n")
            total = len(note.get("findings", [])) + note.get("omitted", 0)
            print(f"{total} findings ({note.get('omitted', 0)} beyond the note's 100 not listed by rule), "
                  f"{note.get('unscanned', 0)} files too large to scan.\n")
            print("| rule | findings |\n|---|---:|")
            for rule, n in by_rule.most_common():
                print(f"| {rule} | {n} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
