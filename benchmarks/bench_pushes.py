"""Two tiles pushed at once, or two slides? The motion track (``vision.pushes``) on rendered games.

Each game (seeded, 1280x720, the looks in turn, the simulator's full camera range) is a
midgame board on which a hand alternately makes two slides along one line (the near tile
into the hole, then the far tile after it: legal) and pushes two tiles at once along a line
(illegal). For every such action the track starts at the still frame before the hand comes,
as ``caller watch`` starts it at the accepted position, takes every frame until the hand has
left, and is asked whether the two tiles moved together:

* pushes seen: the pushes it calls pushed together (each one missed is an illegal move the
  Caller would register as two slides);
* slides called pushes: two legal slides it calls pushed together (each one a false warning);
* the same slides played fast: the frames from the near tile's arrival to the hand's return
  over the far tile cut out, so the hand never leaves the board between the two slides (the
  simulator's player always rests between slides; a fast player does not);
* milliseconds per frame to keep the track, and per question.

Videos are cached in benchmarks/.cache/pushes (delete it to re-render).

    python benchmarks/bench_pushes.py --games 12 [--first 12]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from caller.sources import open_source  # noqa: E402
from simulator.layouts import apply_slide, easy_slider_layout, hole_of  # noqa: E402
from simulator.looks import LOOKS  # noqa: E402
from simulator.video import render_game_video  # noqa: E402
from vision.pushes import MotionTrack  # noqa: E402
from vision.reader import Reader  # noqa: E402

BENCH_SEED0 = 720_000  # development used 880000-880011
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def game_actions(seed: int, groups: int) -> tuple[dict, list[dict]]:
    """A midgame layout and ``groups`` actions in turn: two slides along a line, a push of two."""
    rng = random.Random(seed)
    start = easy_slider_layout(seed, kind="midgame")
    layout, actions = start, []
    for k in range(groups):
        hole = hole_of(layout["board"])
        lines = [(dr, dc) for dr, dc in STEPS if 0 <= hole[0] + 2 * dr < 5 and 0 <= hole[1] + 2 * dc < 5]
        dr, dc = rng.choice(lines)
        near, far = (hole[0] + dr, hole[1] + dc), (hole[0] + 2 * dr, hole[1] + 2 * dc)
        if k % 2:
            actions.append({"type": "double", "from": list(far)})
            board = [list(r) for r in layout["board"]]
            board[hole[0]][hole[1]], board[near[0]][near[1]], board[far[0]][far[1]] = board[near[0]][near[1]], board[far[0]][far[1]], None
            layout = {**layout, "board": board}
        else:
            actions += [{"type": "move", "from": list(near)}, {"type": "move", "from": list(far)}]
            layout = apply_slide(apply_slide(layout, near, hole), far, near)
    return start, actions


def make_game(i: int, groups: int, cache: Path):
    seed = BENCH_SEED0 + i
    look = sorted(LOOKS)[i % len(LOOKS)]
    path = cache / f"pushes{seed}_{groups}.mp4"
    truth_path = path.with_suffix(".json")
    if path.exists() and truth_path.exists():
        return path, json.loads(truth_path.read_text())
    start, actions = game_actions(seed, groups)
    truth = render_game_video(start, actions, seed=seed, fps=30, size=(1280, 720), path=path, look=look)
    truth_path.write_text(json.dumps(truth))
    return path, truth


def cases(truth: dict):
    """(kind, hole, near, far, first frame, last frame, frames cut out) of each action."""
    fps = truth["fps"]
    acts = [e for e in truth["events"] if e["type"] in ("move", "illegal")]
    i = 0
    while i < len(acts):
        e = acts[i]
        f0, f1 = int(e["t_hand"] * fps) - 2, None
        if e["type"] == "illegal":
            cells = [tuple(c) for c in e["cells"]]  # sorted: the near cell lies between the others
            near = cells[1]
            yield "push", cells, near, None, f0, int(e["t_clear"] * fps) + 5, None
            i += 1
            continue
        second = acts[i + 1]
        hole, near, far = tuple(e["to"]), tuple(e["from"]), tuple(second["from"])
        f1 = int(second["t_clear"] * fps) + 5
        yield "slides", hole, near, far, f0, f1, None
        yield "fast", hole, near, far, f0, f1, (int(e["t"] * fps) + 2, int((second["t_hand"] + 0.6) * fps))
        i += 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--first", type=int, default=0, help="offset into the benchmark seeds (a fresh set)")
    ap.add_argument("--groups", type=int, default=4, help="actions a game: two slides, a push, in turn")
    ap.add_argument("--cache", default=str(ROOT / "benchmarks" / ".cache" / "pushes"))
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    reader = Reader()
    said = {"push": [0, 0], "slides": [0, 0], "fast": [0, 0]}  # kind -> [called pushed, cases]
    add_ms, ask_ms, missed = [], [], []
    for g in range(args.games):
        i = args.first + g
        print(f"\rgame {g + 1}/{args.games}: rendering", end="", file=sys.stderr, flush=True)
        path, truth = make_game(i, args.groups, cache)
        print(f"\rgame {g + 1}/{args.games}: tracking ", end="", file=sys.stderr, flush=True)
        with open_source(str(path)) as src:
            frames = [f.image for f in src]
        for kind, hole, near, far, f0, f1, cut in cases(truth):
            start = reader.read(frames[f0])
            if kind == "push":
                cells = hole
                hole = start.hole
                far = next(c for c in cells if c not in (hole, near))
            track = MotionTrack()
            track.reset(frames[f0], start.board_corners)
            t0 = time.perf_counter()
            n = 0
            for k in range(f0 + 1, min(f1, len(frames))):
                if cut is None or not cut[0] <= k < cut[1]:
                    track.add(frames[k])
                    n += 1
            t1 = time.perf_counter()
            pushed = track.pushed_together(hole, near, far)
            t2 = time.perf_counter()
            add_ms.append(1000 * (t1 - t0) / max(1, n))
            ask_ms.append(1000 * (t2 - t1))
            said[kind][0] += pushed
            said[kind][1] += 1
            if pushed != (kind == "push"):
                missed.append(f"seed {truth['seed']} ({truth['look']}): {kind} {list(near)} -> {list(hole)}, far {list(far)}")
    print(file=sys.stderr)
    rows = [
        ("pushes of two tiles called pushed", "push", "all"),
        ("two slides (the hand leaves between) called pushed", "slides", "none"),
        ("two slides played fast called pushed", "fast", "none"),
    ]
    print(f"{'measure':<52} {'value':>14}  bar")
    print(f"{'-' * 52} {'-' * 14}  ----")
    for label, kind, bar in rows:
        got, n = said[kind]
        print(f"{label:<52} {f'{got}/{n}':>14}  {bar}")
    add_ms.sort()
    ask_ms.sort()
    print(f"{'ms a frame to keep the track (median)':<52} {add_ms[len(add_ms) // 2]:>14.3f}")
    print(f"{'ms a question (median / max)':<52} {f'{ask_ms[len(ask_ms) // 2]:.1f} / {ask_ms[-1]:.1f}':>14}")
    for line in missed:
        print("  wrong: " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
