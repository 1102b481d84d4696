"""The GIL is released while the library works: a pure-Python thread keeps running during a
long native call. Checked against a call known to hold the GIL (a large `sorted`), so that the
measurement itself is shown to tell the two apart."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Callable

from git_checkpoint import Checkpoints

# The least share of its free-running pace the counting thread must keep during the native
# call. Free, on two cores, it keeps most of it; with the GIL held it keeps about a switch
# interval's worth (5 ms of the whole call). Generous, for a loaded machine.
ENOUGH = 0.15


def counting_during(call: Callable[[], object]) -> tuple[float, float]:
    """Run `call` while another thread counts as fast as it can; return how many counts per
    second that thread made during the call, and how long the call took."""
    count = [0]
    stop = threading.Event()
    running = threading.Event()

    def counter() -> None:
        n = 0
        running.set()
        while not stop.is_set():
            n += 1
            count[0] = n

    thread = threading.Thread(target=counter)
    thread.start()
    running.wait()
    time.sleep(0.02)
    before, started = count[0], time.perf_counter()
    call()
    elapsed = time.perf_counter() - started
    after = count[0]
    stop.set()
    thread.join()
    return (after - before) / elapsed, elapsed


def free_pace() -> float:
    """Counts per second with nothing holding the GIL (this thread sleeps); the best of three."""
    return max(counting_during(lambda: time.sleep(0.2))[0] for _ in range(3))


def many_files(root: Path, start: int, count: int) -> None:
    for n in range(start, start + count):
        directory = root / f"d{n // 100}"
        directory.mkdir(exist_ok=True)
        (directory / f"f{n}.txt").write_text(f"file {n}\n" * 20)


def test_a_long_save_leaves_other_threads_running(repo: Path) -> None:
    cps = Checkpoints(repo)
    pace = free_pace()
    assert pace > 0

    # The control: `sorted` of a shuffled list holds the GIL throughout.
    data = list(range(600_000))
    random.Random(0).shuffle(data)
    held, held_for = counting_during(lambda: sorted(data))
    del data

    # A save of thousands of new files; more when the build is fast enough that it is short.
    total, added = 0, 4000
    for _ in range(4):
        many_files(repo, total, added)
        total += added
        during, took = counting_during(lambda: cps.save(f"{total} files"))
        if took >= 0.25:
            break
        added = total
    assert took >= 0.25, f"a save of {total} files took only {took:.3f}s: too short to measure"
    assert len(cps.list()) >= 1

    free_share, held_share = during / pace, held / pace
    report = (
        f"free pace {pace:.0f}/s; during the save ({took:.2f}s) {during:.0f}/s "
        f"({free_share:.0%}); during sorted ({held_for:.2f}s) {held:.0f}/s ({held_share:.0%})"
    )
    assert free_share >= ENOUGH, report
    # The measurement tells a call that holds the GIL from one that does not.
    assert held_share < free_share, report
