#!/usr/bin/env python3
"""What keeping the agent's conversation costs: 200 hook saves over a growing transcript.

    python3 bench/conversation.py                 # 200 saves, the transcript growing to 5 MB
    python3 bench/conversation.py --saves 50 --mb 1 --no-build

Builds the release binary (unless --no-build), makes a repository of 200 files, then runs
`git checkpoint save --from-hook` the way Claude Code runs it before a tool call (its
PreToolUse JSON on stdin, naming the transcript), each time after the transcript grew by a
turn (Claude Code's JSONL lines) and one file changed. The same run again with
`checkpoint.conversation=false` is the baseline. Reports: the disk the conversations take
(`du --json`, and the pack after `git gc`) against the sum of the transcripts' sizes at each
save (what copying the file each time would cost) and against its final size; the median time
of a hook save with and without the conversation. Load average at the start and the end.
"""

import argparse
import json
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

SESSION = "6e0c1f7a-3b2d-4c5e-9f80-1a2b3c4d5e6f"


def turn(n, size):
    """One turn of a Claude Code transcript: a user line and an assistant line with a tool
    call, about `size` bytes together."""
    text = ("lorem ipsum dolor sit amet " * (size // 54 + 1))[: size // 2]
    user = {
        "type": "user",
        "sessionId": SESSION,
        "uuid": f"u{n}",
        "timestamp": "2026-11-28T07:00:00.000Z",
        "message": {"role": "user", "content": f"step {n}: {text}"},
    }
    assistant = {
        "type": "assistant",
        "sessionId": SESSION,
        "uuid": f"a{n}",
        "parentUuid": f"u{n}",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "text", "text": text},
                {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": f"make step{n}"}},
            ],
        },
    }
    return json.dumps(user) + "\n" + json.dumps(assistant) + "\n"


def run(repo, transcript, saves, step_bytes):
    times = []
    sizes = []
    with open(transcript, "w"):
        pass
    for n in range(saves):
        with open(transcript, "a") as f:
            f.write(turn(n, step_bytes))
        with open(os.path.join(repo, bench.tracked(n % 200)), "a") as f:
            f.write(f"edit {n}\n")
        hook = json.dumps({
            "session_id": SESSION,
            "transcript_path": transcript,
            "cwd": repo,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": f"make step{n}"},
        })
        start = time.perf_counter()
        done = subprocess.run(
            [bench.BIN, "save", "--from-hook=claude-code"],
            cwd=repo, input=hook.encode(), env=bench.ENV, capture_output=True,
        )
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(done.stderr.decode(errors="replace"))
        sizes.append(os.path.getsize(transcript))
    return times, sizes


def pack_kib(repo):
    bench.git(repo, "gc", "-q")
    out = bench.git(repo, "count-objects", "-v")
    return next(int(line.split()[1]) for line in out.splitlines() if line.startswith("size-pack:"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--mb", type=float, default=5.0, help="the transcript's final size")
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "-q"], cwd=bench.ROOT, check=True)
    step = int(args.mb * 1e6 / args.saves)
    tmp = tempfile.mkdtemp(prefix="gcp-bench-conv-")
    try:
        load = os.getloadavg()[0]
        results = {}
        for keep in (True, False):
            repo = os.path.join(tmp, f"repo-{keep}")
            bench.make_repo(repo, 200)
            bench.git(repo, "config", "checkpoint.conversation", "true" if keep else "false")
            transcript = os.path.join(tmp, f"session-{keep}.jsonl")
            times, sizes = run(repo, transcript, args.saves, step)
            du = json.loads(bench.run([bench.BIN, "du", "--json"], repo)[2])
            results[keep] = (times, sizes, du, pack_kib(repo))
        times, sizes, du, pack = results[True]
        base_times, _, base_du, base_pack = results[False]
        total = sum(sizes)
        conv = du["conversations"]["bytes"]
        print(f"\n{args.saves} hook saves, the transcript growing to {sizes[-1] / 1e6:.1f} MB "
              f"(load {load:.1f} → {os.getloadavg()[0]:.1f})\n")
        print("| | bytes | vs the sum of the transcripts | vs the final transcript |")
        print("|---|---:|---:|---:|")
        print(f"| the transcripts at each save, summed | {total / 1e6:.1f} MB | 1 | {total / sizes[-1]:.0f} × |")
        print(f"| conversations kept (`du`, loose objects) | {conv / 1e6:.1f} MB | {conv / total:.3f} | {conv / sizes[-1]:.2f} × |")
        print(f"| the repository's pack after `git gc`, with them | {pack / 1e3:.1f} MB | | |")
        print(f"| … without them (`checkpoint.conversation=false`) | {base_pack / 1e3:.1f} MB | | |")
        print("\n| hook save | median | p90 |")
        print("|---|---:|---:|")
        for name, t in (("keeping the conversation", times), ("without (`checkpoint.conversation=false`)", base_times)):
            q = statistics.quantiles(t, n=10)
            print(f"| {name} | {bench.fmt_ms(statistics.median(t))} | {bench.fmt_ms(q[-1])} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
