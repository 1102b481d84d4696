#!/usr/bin/env python3
"""git-checkpoint serve benchmark: how fast the HTTP API answers.

    python3 bench/serve.py                      # 500 checkpoints, a 100,000-file repository
    python3 bench/serve.py --files 20000 --runs 15
    python3 bench/serve.py --files 0 --samples 0  # the list only

Builds the release binary, starts `git checkpoint serve --port 0` on generated repositories and
measures, as medians (and the slowest) of repeated requests over one kept-alive connection:

  - `GET /api/checkpoints` (limit 20, the default, and 200) with 500 checkpoints, right after
    the saves (loose objects) and after `git gc` (packed); target: under 50 ms;
  - `GET /api/checkpoints/{A}/diff?to={B}` between two checkpoints 40 edited files apart in a
    repository of 100,000 files (file list and patch); target: under 150 ms; and the same
    checkpoint against the working tree, which must snapshot all 100,000 files first;
  - how long a save by another process takes to reach a client of `GET /api/events`.

Prints Markdown tables. Repositories are made as bench/bench.py makes them.
"""

import argparse
import http.client
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no bench/__pycache__ from importing bench.py
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import BIN, ENV, ROOT, git, make_repo, run  # noqa: E402


class Server:
    """`git checkpoint serve --port 0` in `path`, with one kept-alive connection."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [BIN, "serve", "--port", "0", "-q"], cwd=path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        url = self.proc.stdout.readline().decode().strip()
        rest = url.split("http://127.0.0.1:", 1)[1]
        port, self.token = rest.split("/?token=")
        self.port = int(port)
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def get(self, path):
        start = time.perf_counter()
        self.conn.request("GET", path, headers={"Authorization": f"Bearer {self.token}"})
        response = self.conn.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200:
            sys.exit(f"GET {path}: {response.status} {body[:300]!r}")
        return elapsed, body

    def measure(self, path, runs):
        first, body = self.get(path)
        times = [self.get(path)[0] for _ in range(runs)]
        return {"first": first, "median": statistics.median(times), "max": max(times), "bytes": len(body),
                "json": json.loads(body)}

    def close(self):
        self.conn.close()
        self.proc.kill()
        self.proc.wait()


def ms(s):
    return f"{s * 1000:.1f} ms"


def bench_list(tmp, runs, count):
    path = os.path.join(tmp, "repo-list")
    make_repo(path, 100)
    for i in range(count):
        with open(os.path.join(path, "work.txt"), "w") as f:
            f.write(f"step {i}\n")
        run([BIN, "save", "-q", "-m", f"checkpoint {i}", "--kind", "auto" if i % 3 else "manual"], path)
    rows = []
    for label in ("loose, right after the saves", "packed, after `git gc`"):
        if label.startswith("packed"):
            git(path, "gc", "-q")
        server = Server(path)
        try:
            for query in ("", "?limit=200"):
                r = server.measure(f"/api/checkpoints{query}", runs)
                assert len(r["json"]) == (200 if query else 20), len(r["json"])
                rows.append((label, query or "(limit 20)", r))
        finally:
            server.close()
    return rows


def bench_diff(tmp, runs, files):
    path = os.path.join(tmp, f"repo-{files}")
    t0 = time.perf_counter()
    make_repo(path, files)
    print(f"  generated {files} files in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    time.sleep(1.1)
    a = run([BIN, "save", "-q", "--allow-empty", "-m", "before"], path)[2].strip()
    step = max(files // 40, 1)
    for k in range(40):
        i = (k * step) % files
        p = os.path.join(path, f"d{i // 10000 % 100:02}", f"s{i // 100 % 100:02}", f"f{i}.txt")
        with open(p, "a") as f:
            f.write("edited by the agent\n")
    b = run([BIN, "save", "-q", "-m", "after 40 edits"], path)[2].strip()
    server = Server(path)
    try:
        between = server.measure(f"/api/checkpoints/{a}/diff?to={b}", runs)
        assert len(between["json"]["files"]) == 40, len(between["json"]["files"])
        worktree = server.measure(f"/api/checkpoints/{a}/diff", runs)
        assert len(worktree["json"]["files"]) == 40, len(worktree["json"]["files"])
    finally:
        server.close()
    status = statistics.median(
        run(["git", "status", "--porcelain", "--untracked-files=all"], path)[0] for _ in range(runs)
    )
    return between, worktree, status


def bench_events(tmp, samples):
    """Seconds from the start of a `save` in another process to its `saved` event."""
    path = os.path.join(tmp, "repo-events")
    make_repo(path, 100)
    server = Server(path)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("GET", "/api/events", headers={"Authorization": f"Bearer {server.token}"})
    stream = conn.getresponse()
    assert stream.readline().strip() == b": ready"
    seen = {}

    def read():
        try:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("data: ") and '"id"' in line:
                    seen[json.loads(line[6:])["id"]] = time.perf_counter()
        except (OSError, ValueError, AttributeError):
            return  # the connection was closed at the end

    threading.Thread(target=read, daemon=True).start()
    latencies, saves = [], []
    try:
        for i in range(samples):
            with open(os.path.join(path, "work.txt"), "w") as f:
                f.write(f"sample {i}\n")
            start = time.perf_counter()
            elapsed, _, out = run([BIN, "save", "-q", "-m", f"sample {i}"], path)
            saves.append(elapsed)
            cid = out.strip()
            deadline = time.time() + 10
            while cid not in seen and time.time() < deadline:
                time.sleep(0.01)
            latencies.append(seen[cid] - start)
            time.sleep(0.37)  # land at different points of the watcher's second
    finally:
        conn.close()
        server.close()
    return latencies, saves


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--checkpoints", type=int, default=500)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--samples", type=int, default=8, help="saves timed to their event")
    args = parser.parse_args()

    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="git-checkpoint-serve-bench-")
    load = os.getloadavg()[0]
    print("# git-checkpoint serve benchmark\n")
    print(f"{platform.system()} {platform.release()}, {os.cpu_count()} cores, load average {load:.1f} at the start; "
          f"{git(ROOT, '--version')}; medians of {args.runs} requests on one kept-alive connection, after a first one.\n")
    try:
        print("list...", file=sys.stderr)
        rows = bench_list(tmp, args.runs, args.checkpoints)
        print(f"`GET /api/checkpoints` with {args.checkpoints} checkpoints (target: under 50 ms):\n")
        print("| objects | query | first | median | slowest | response |")
        print("|---|---|---:|---:|---:|---:|")
        for label, query, r in rows:
            print(f"| {label} | `{query}` | {ms(r['first'])} | {ms(r['median'])} | {ms(r['max'])} | {r['bytes'] // 1024} KiB |")
        if args.files:
            print("diff...", file=sys.stderr)
            between, worktree, status = bench_diff(tmp, args.runs, args.files)
            print(f"\nA diff of 40 edited files in a repository of {args.files:,} files (target: under 150 ms):\n")
            print("| request | first | median | slowest | response |")
            print("|---|---:|---:|---:|---:|")
            for label, r in (("`/diff?to=B`: checkpoint to checkpoint", between),
                             ("`/diff`: checkpoint to the working tree", worktree)):
                print(f"| {label} | {ms(r['first'])} | {ms(r['median'])} | {ms(r['max'])} | {r['bytes'] // 1024} KiB |")
            print(f"\n(`git status --untracked-files=all` in that repository: {ms(status)}.)")
        if not args.samples:
            return
        print("events...", file=sys.stderr)
        latencies, saves = bench_events(tmp, args.samples)
        print(f"\nA save by another process, from its start to the `saved` event ({args.samples} samples; "
              f"the watcher looks every second):\n")
        print("| the save itself | to the event: median | fastest | slowest |")
        print("|---:|---:|---:|---:|")
        print(f"| {ms(statistics.median(saves))} | {ms(statistics.median(latencies))} | {ms(min(latencies))} | "
              f"{ms(max(latencies))} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
