"""Reading Steppin' Stones photos: the board's squares, its pawns and the dice beside it.

    python benchmarks/bench_read_stones.py [--n 100] [--first 960000] [--jobs 1]

Renders seeded Steppin' Stones tables (``simulator.games.layout_for``: coins either side up,
pawns, one die per suit beside the board) in the looks that are not held out, with the
simulator's random cameras tilted up to 35 degrees, two in three at 1280x720 and one in three
at 1920x1080, and reads each with ``caller read --game steppin-stones``'s reader. Prints per
look and in all: squares read wrong (of 64 a board, pawns counted on their squares), boards
fully right (every square and pawn), photos with every die right (suit and face, none
missing or extra), boards not found (all their squares counted wrong, their dice too), boards
found a quarter of a square off or more (``board_off``: some square's middle that far from
the rendered square's, whatever was read on it), and milliseconds a frame (median, boards
found); then the photos with every die right by the photo's size (a die's numeral is a few
pixels across at 1280x720). A square is wrong when its reading (empty, a
coin's rank or suit, a pawn of a suit) differs from the truth in the player's frame: the
home tiles fix it, so no other turn is accepted.

Seeds: the dice model is built from TRAIN_SEEDS (``benchmarks/build_dice_model.py``); the
reader was tuned on DEV_SEEDS from ``TUNE_FIRST``; the figures to report are from
``BENCH_FIRST`` on (BENCH_SEEDS, never looked at while tuning).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scenes import BENCH_SEEDS, DEV_SEEDS, training_looks  # noqa: E402
from benchmarks.seeded_runs import read_seeds, seed_arguments  # noqa: E402

#: the seeds the reader was tuned on, and the fresh ones reported
TUNE_FIRST = DEV_SEEDS[70_000]
BENCH_FIRST = BENCH_SEEDS[60_000]
MAX_TILT = 35.0
GAME = "steppin-stones"


def stones_spec(seed: int, looks: tuple[str, ...]) -> dict:
    """Look and size of the render of ``seed`` (deterministic)."""
    rng = np.random.default_rng([seed, 79])
    size = (1920, 1080) if int(rng.integers(3)) == 2 else (1280, 720)
    return {"look": looks[int(rng.integers(len(looks)))], "size": size}


def render_stones(seed: int, spec: dict):
    """A render of a seeded Steppin' Stones table, the camera tilted up to MAX_TILT degrees."""
    from simulator import looks as L
    from simulator.games import layout_for
    from simulator.render import SCENE_STREAM, build_scene, camera_for, render_table

    layout = layout_for(GAME, seed)
    scene, _ = build_scene(GAME, layout, L.get_look(spec["look"]), np.random.default_rng([seed, SCENE_STREAM]))
    camera = camera_for(None, seed, tuple(spec["size"]), scene.extent, tilt_range=(0.0, MAX_TILT))
    return render_table(layout, seed=seed, game=GAME, look=spec["look"], size=tuple(spec["size"]), camera=camera)


def training_board(seed: int):
    """(render, lattice, frame) of a training render in the looks trained on, its board found
    and turned as the face-up tiles say (``vision.faces_up``), or None where the board is not
    found or not turned right (the model builders learn nothing from it)."""
    from rules.steppin_stones.table import TABLE
    from vision.config import VisionConfig
    from vision.errors import VisionError
    from vision.faces_up import face_costs, quarter_frames
    from vision.grid_locate import locate_grid

    from benchmarks.scenes import training_looks as looks

    r = render_stones(seed, stones_spec(seed, looks()))
    n = TABLE.board.rows
    try:
        lat = locate_grid(r.image, VisionConfig(), (n, n))
    except VisionError:
        return None
    turns = quarter_frames(lat, n)
    frame = turns[int(np.argmin(face_costs(r.image, lat, turns, TABLE.board.faces)))]
    tl = lat.to_lattice(np.array(r.truth["board_corners"], float)[:1])[0]
    if np.hypot(*(tl - np.array(frame(0.0, 0.0)))) > 0.2:
        return None
    return r, lat, frame


def labels_of(board: list, pawns: dict) -> list[list[str]]:
    """8 x 8 labels: ``""`` empty, a rank, a suit letter (a coin suit side up), ``"p" + suit`` a pawn."""
    out = [["" if code is None else (code[-1] if len(code) == 2 else code) for code in row] for row in board]
    for suit, (r, c) in pawns.items():
        out[r][c] = "p" + suit
    return out


def one(seed: int) -> dict:
    """Read one render; what was right and wrong, and how long the read took."""
    from rules.steppin_stones.table import TABLE
    from vision.errors import VisionError
    from vision.table_reader import SquaresReader

    spec = stones_spec(seed, LOOKS)
    r = render_stones(seed, spec)
    # the simulator's layouts may stand two pawns on one square (no position of the game):
    # the reader stands one pawn a square, so such a board is never read fully right
    shared = len({tuple(cell) for cell in r.truth["pawns"].values()}) < len(r.truth["pawns"])
    reader = _reader(SquaresReader, TABLE)
    t0 = time.perf_counter()
    try:
        obs = reader.read(r.image)
    except VisionError:
        return {"seed": seed, "look": spec["look"], "found": False, "shared": shared, "size": spec["size"]}
    ms = (time.perf_counter() - t0) * 1000
    got = obs.to_json()
    want = labels_of(r.truth["board"], r.truth["pawns"])
    read = labels_of(got["board"], got["pawns"])
    doubt = {tuple(c) for c in got["uncertain"]}
    wrong = [(i, j) for i in range(8) for j in range(8) if read[i][j] != want[i][j]]
    return {"seed": seed, "look": spec["look"], "found": True, "ms": ms, "wrong": len(wrong), "shared": shared,
            "off": board_off(got["board_corners"], r.truth["cells"]),
            "wrong_sure": sum(1 for c in wrong if c not in doubt), "doubt": len(doubt),
            "dice": got["dice"] == [dict(d) for d in r.truth["dice"]], "dice_read": got["dice"], "dice_truth": r.truth["dice"],
            "cells": wrong, "tilt": r.truth["camera"]["tilt_deg"], "size": spec["size"]}


def board_off(corners, cells) -> float:
    """How far off the board the reader found lies: the largest distance, in squares, of a
    square's middle as the reader's board corners (player frame) place it from the middle of
    the square as rendered (``cells``: 8 x 8 quads, image px). A square a quarter off or more
    reads its neighbour's edge; the lens is left out inside the board (its corners are the
    reader's, lens and all; a board spans a small part of the frame)."""
    import cv2

    truth = np.asarray(cells, float).mean(2)
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [8, 0], [8, 8], [0, 8]]), np.float32(corners))
    middles = np.array([[c + 0.5, r + 0.5] for r in range(8) for c in range(8)], np.float32)
    got = cv2.perspectiveTransform(middles[None], H)[0].reshape(8, 8, 2)
    pitch = float(np.median(np.linalg.norm(np.diff(truth, axis=1), axis=2)))
    return float(np.linalg.norm(got - truth, axis=2).max() / pitch)


_READERS: dict = {}
LOOKS = ()


def _reader(cls, table):
    if "r" not in _READERS:
        _READERS["r"] = cls(table)
    return _READERS["r"]


def table(results: list[dict]) -> str:
    rows = ["| look | photos | squares wrong | wrong and sure | boards fully right | every die right | not found | "
            "board a quarter square off | ms a frame (median) |",
            "|---|---|---|---|---|---|---|---|---|"]
    for look in sorted({r["look"] for r in results}) + ["all"]:
        rs = [r for r in results if look in ("all", r["look"])]
        ok = [r for r in rs if r["found"]]
        squares = 64 * len(rs)
        wrong = sum(r["wrong"] for r in ok) + 64 * (len(rs) - len(ok))  # a board not found: every square wrong
        sure = sum(r["wrong_sure"] for r in ok)
        full = sum(1 for r in ok if r["wrong"] == 0)
        dice = sum(1 for r in ok if r["dice"])
        off = sum(1 for r in ok if r["off"] >= 0.25)
        ms = float(np.median([r["ms"] for r in ok])) if ok else float("nan")
        name = f"**{look}**" if look == "all" else look
        rows.append(f"| {name} | {len(rs)} | {wrong} of {squares} ({100 * wrong / max(squares, 1):.2f}%) | {sure} | "
                    f"{full} ({100 * full / max(len(rs), 1):.1f}%) | {dice} ({100 * dice / max(len(rs), 1):.1f}%) | "
                    f"{len(rs) - len(ok)} | {off} | {ms:.0f} |")
    return "\n".join(rows)


def _init() -> None:
    global LOOKS
    LOOKS = training_looks()


def main(argv=None) -> int:
    args, seeds, kind = seed_arguments(__doc__.splitlines()[0], TUNE_FIRST, BENCH_FIRST, argv)

    def wrong(res: dict) -> str | None:
        if not args.verbose or (res["found"] and not res["wrong"] and res["dice"]):
            return None
        return f"{res['seed']} {res['look']}: " + ("not found" if not res["found"] else
               f"tilt {res['tilt']:.0f}, squares {res['cells']}, dice {res['dice_read']} for {res['dice_truth']}"
               if not res["dice"] else f"tilt {res['tilt']:.0f}, squares {res['cells']}")

    results = read_seeds(one, seeds, args.jobs, _init, wrong)
    print(f"Steppin' Stones photos, seeds {seeds[0]}-{seeds[-1]} ({kind}), looks not held out, tilt up to "
          f"{MAX_TILT:.0f} degrees:\n")
    print(table(results))
    shared = [r for r in results if r["shared"]]
    fair = [r for r in results if not r["shared"]]
    full = sum(1 for r in fair if r["found"] and r["wrong"] == 0)
    print(f"\n{len(shared)} of the {len(results)} layouts stand two pawns on one square (no position of the game; "
          f"the reader stands one pawn a square); boards fully right among the other {len(fair)}: {full} "
          f"({100 * full / max(len(fair), 1):.1f}%)")
    # a die's numeral is a few pixels across at 1280x720: the dice by the photo's size
    for size in sorted({tuple(r["size"]) for r in results}):
        rs = [r for r in results if tuple(r["size"]) == size]
        dice = sum(1 for r in rs if r["found"] and r["dice"])
        print(f"every die right at {size[0]}x{size[1]}: {dice} of {len(rs)} ({100 * dice / max(len(rs), 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
