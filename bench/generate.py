#!/usr/bin/env python3
"""Generate a synthetic repository of N files quickly, deterministically.

    python3 bench/generate.py DIR FILES [--untracked N]

The files go into nested directories (`dNN/sNN/fI.txt`, 100 files a directory, 100 such
directories a top-level directory, so a million files make 100 × 100 directories of 100),
with a few lines of text each. The commit is built by `git fast-import` from a stream (one
pack, no loose object, no hashing of files by `git add`), then checked out with parallel
checkout: a million files take about a minute on two cores, most of it writing the files.
Author, committer and dates are fixed, so the same N gives the same commit id everywhere.

`--untracked N` then adds N untracked files in `generated/uNNNN/` (100 a directory), written
directly.
"""

import argparse
import os
import subprocess
import sys

FIXED_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_AUTHOR_DATE": "1700000000 +0000",
    "GIT_COMMITTER_DATE": "1700000000 +0000",
    "LC_ALL": "C",
}

PER_DIR = 100


def tracked_path(i):
    """The path of tracked file `i`, relative to the top of the working tree."""
    return f"d{i // (PER_DIR * PER_DIR) % 100:02}/s{i // PER_DIR % 100:02}/f{i}.txt"


def tracked_content(i):
    return (f"file {i}\n" + "some content line\n" * (i % 7 + 1)).encode()


# The environment to start from (bench.py passes its own, which may choose the object and ref
# formats); `None`: this process's.
BASE_ENV = None


def env():
    e = dict(BASE_ENV if BASE_ENV is not None else os.environ)
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        e.pop(var, None)
    e.update(FIXED_ENV)
    return e


def git(path, *args, **kw):
    return subprocess.run(["git", *args], cwd=path, env=env(), check=True, capture_output=True, **kw).stdout


def generate(path, files, untracked=0):
    """Create the repository at `path` (which must not exist) with `files` committed files and
    `untracked` untracked ones."""
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "gc.auto", "0")
    git(path, "config", "checkpoint.keep", "100000")
    proc = subprocess.Popen(
        ["git", "fast-import", "--quiet", "--depth=0"],
        cwd=path,
        env=env(),
        stdin=subprocess.PIPE,
    )
    out = proc.stdin
    chunk = []
    size = 0
    for i in range(files):
        data = tracked_content(i)
        chunk.append(b"blob\nmark :%d\ndata %d\n%s\n" % (i + 1, len(data), data))
        size += len(data)
        if size > 1 << 20:
            out.write(b"".join(chunk))
            chunk, size = [], 0
    out.write(b"".join(chunk))
    message = b"base\n"
    out.write(
        b"commit refs/heads/main\n"
        b"author Bench <bench@example.com> 1700000000 +0000\n"
        b"committer Bench <bench@example.com> 1700000000 +0000\n"
        b"data %d\n%s" % (len(message), message)
    )
    chunk = []
    for i in range(files):
        chunk.append(b"M 100644 :%d %s\n" % (i + 1, tracked_path(i).encode()))
        if len(chunk) >= 10000:
            out.write(b"".join(chunk))
            chunk = []
    out.write(b"".join(chunk))
    out.write(b"\n")
    out.close()
    if proc.wait() != 0:
        sys.exit("git fast-import failed")
    git(path, "-c", "checkout.workers=0", "reset", "-q", "--hard", "main")
    for i in range(untracked):
        d = os.path.join(path, "generated", f"u{i // PER_DIR:04}")
        if i % PER_DIR == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"g{i}.txt"), "w") as f:
            f.write(f"untracked {i}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir")
    parser.add_argument("files", type=int)
    parser.add_argument("--untracked", type=int, default=0)
    args = parser.parse_args()
    generate(args.dir, args.files, args.untracked)


if __name__ == "__main__":
    main()
