"""Memory over a long game: does the live Caller's process grow while it watches?

Renders one long Scavenger Hunt game (``--players`` players, up to ``--turns`` turns, every
turn drawn at random from the rules engine's legal turns, with no eye for coins so that no one
wins soon; seed 730000 + ``--seed``; cached under benchmarks/.cache/live) at ``--size`` and
``--fps``, then plays it through ``caller watch``'s loop (``caller.watch.Watcher`` with the
tracking squares reader and the game's live referee), as ``caller watch --game scavenger-hunt``
does. Every ``--every`` minutes of the recording it prints the process's resident memory
(Linux ``/proc/self/statm``), the Python objects alive (``gc``), the reads made so far and the
Caller's events so far. The bar: memory flat over a 30-minute game (the last row within a few
MB of the first row after the first minutes, when the reader's caches have filled).

    python benchmarks/bench_memory.py                      # 30 minutes of play
    python benchmarks/bench_memory.py --turns 8 --every 0.5  # a quick look
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEED0 = 730_000


def resident_mb() -> float:
    """This process's resident memory in MB (Linux), else its peak so far (``resource``)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def long_game(seed: int, players: int, turns: int, size, fps: int, cache: Path):
    """The long game's video and truth (rendered once, then cached)."""
    from benchmarks.scenes import cached_video
    from simulator.scavenger_hunt_video import random_game, render_scavenger_hunt_video

    def render(path: Path) -> dict:
        start, actions = random_game(SEED0 + seed, turns, players=players, greed=0.0, keen=0.0)

        def progress(done: int, total: int) -> None:
            if done % 500 == 0 or done == total:
                print(f"\rrendering: frame {done}/{total}", end="", file=sys.stderr, flush=True)

        truth = render_scavenger_hunt_video(start, actions, seed=SEED0 + seed, fps=fps, size=size, path=path,
                                            progress=progress)
        print(file=sys.stderr)
        return truth

    return cached_video(cache / f"long{SEED0 + seed}_{players}p_{turns}_{size[0]}x{size[1]}_{fps}.mp4", render)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Prints one row every --every minutes of the recording.")
    ap.add_argument("--seed", type=int, default=0, help="game number (seed 730000 + N; default 0)")
    ap.add_argument("--players", type=int, default=2, help="players (default 2)")
    ap.add_argument("--turns", type=int, default=190,
                    help="turns at most (default 190: about 30 minutes of play, fewer when someone wins)")
    ap.add_argument("--size", default="1280x720", help="frame size (default 1280x720)")
    ap.add_argument("--fps", type=int, default=10, help="frames per second of the recording (default 10)")
    ap.add_argument("--every", type=float, default=5.0, help="minutes of recording between rows (default 5)")
    ap.add_argument("--cache", default=str(ROOT / "benchmarks" / ".cache" / "live"))
    args = ap.parse_args(argv)
    try:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        if len(size) != 2 or min(size) < 64:
            raise ValueError
    except ValueError:
        ap.error(f"--size {args.size!r}: expected WIDTHxHEIGHT, e.g. 1280x720")
    if args.every <= 0 or args.fps < 1 or args.turns < 1 or not 2 <= args.players <= 4:
        ap.error("--every, --fps and --turns must be positive, --players 2 to 4")
    import cv2

    cv2.setNumThreads(1)
    from benchmarks.live_hunt import live_watcher
    from caller.sources import open_source

    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    path, truth = long_game(args.seed, args.players, args.turns, size, args.fps, cache)
    board = next(e for e in truth["events"] if e["type"] == "board")
    watcher = live_watcher("scavenger-hunt", players=",".join(board["players"]))
    print(f"{path.name}: {truth['events'][-1]['t'] / 60:.1f} minutes, {len(truth['events'])} truth events")
    print(f"{'minute':>6} {'resident MB':>11} {'objects':>9} {'reads':>6} {'events':>6} {'wall s':>7}")
    events, frames, t0 = 0, 0, time.perf_counter()
    next_row = 0.0

    def row(t: float) -> None:
        gc.collect()
        print(f"{t / 60:6.1f} {resident_mb():11.1f} {len(gc.get_objects()):9d} {watcher.stats.reads:6d} "
              f"{events:6d} {time.perf_counter() - t0:7.1f}", flush=True)

    with open_source(str(path)) as src:
        for frame in src:
            if frame.t >= next_row:
                row(frame.t)
                next_row += args.every * 60
            frames += 1
            events += len(watcher.process(frame.image, frame.t))
        row(frame.t)
    print(f"{frames} frames, {frames / (time.perf_counter() - t0):.1f} frames/s (decode included, one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
