"""Rendering speed of the simulator: ``python benchmarks/bench_render.py [--stills N] [--threads T]``.

Prints one table: milliseconds per still at 1280x720 and 1920x1080 (median and worst over
N seeds, random cameras/lights/looks, with and without hands) and per video frame (a game of
a few slides and one illegal swap at 1280x720). The bar: under 500 ms per 1280x720 still.
The sprite caches are warmed first, as they are in any process that renders more than once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from simulator.layouts import easy_slider_layout  # noqa: E402
from simulator.looks import LOOKS  # noqa: E402
from simulator.render import render_table  # noqa: E402
from simulator.video import random_actions, render_game_video  # noqa: E402


def _stills(size, n, hands):
    looks = list(LOOKS)
    times, cpu = [], []
    for seed in range(n):
        layout = easy_slider_layout(seed, ("setup", "midgame", "solved")[seed % 3])
        t0, c0 = time.perf_counter(), time.process_time()
        render_table(layout, seed=1000 + seed, look=looks[seed % len(looks)], size=size, hands=hands)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return times, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stills", type=int, default=12, help="stills per row (default 12)")
    ap.add_argument("--threads", type=int, default=None, help="cv2.setNumThreads (default: OpenCV's choice)")
    args = ap.parse_args(argv)
    if args.threads is not None:
        cv2.setNumThreads(args.threads)
    # warm the sprite caches of every look at the levels these sizes use
    for seed in range(len(LOOKS)):
        for size in ((1280, 720), (1920, 1080)):
            render_table(easy_slider_layout(seed), seed=seed, look=list(LOOKS)[seed], size=size, hands=1)

    rows = []
    for size in ((1280, 720), (1920, 1080)):
        for hands in (0, 2):
            t, cpu = _stills(size, args.stills, hands)
            rows.append((f"still {size[0]}x{size[1]}, {hands} hands", statistics.median(t), max(t), statistics.median(cpu), len(t)))
    with tempfile.TemporaryDirectory() as tmp:
        layout = easy_slider_layout(3)
        actions = random_actions(layout, 3, seed=3, illegal=1)
        t0, c0 = time.perf_counter(), time.process_time()
        truth = render_game_video(layout, actions, seed=3, size=(1280, 720), path=Path(tmp) / "bench.mp4")
        per = (time.perf_counter() - t0) * 1000 / truth["frames"]
        per_cpu = (time.process_time() - c0) * 1000 / truth["frames"]
        rows.append((f"video frame 1280x720 (mean of {truth['frames']})", per, float("nan"), per_cpu, truth["frames"]))

    print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} threads")
    print(f"{'case':<40} {'wall ms':>9} {'max ms':>9} {'cpu ms':>9} {'n':>5}")
    for name, med, worst, cpu, n in rows:
        print(f"{name:<40} {med:>9.1f} {worst:>9.1f} {cpu:>9.1f} {n:>5}")
    print("wall = median wall-clock time; cpu = median process CPU time (all threads); video rows are means")
    bar = rows[0][1] < 500
    print(f"bar: 1280x720 still under 500 ms: {'yes' if bar else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
