"""Shared helpers of the vision benchmarks and the default-model build: seeded scenes and truth.

Seed ranges are disjoint on purpose: the default model is built from TRAIN_SEEDS, the
benchmark reads BENCH_SEEDS (never used while developing or training).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

TRAIN_SEEDS = range(100_000, 200_000)
BENCH_SEEDS = range(900_000, 1_000_000)
#: for tuning the reader by hand: neither trained on nor the held-out benchmark
DEV_SEEDS = range(500_000, 600_000)
KINDS = ("setup", "midgame", "solved")


def scene_spec(seed: int, looks: tuple[str, ...], *, hands_every: int = 0, size=(1280, 720)) -> dict:
    """What to render for ``seed``: look, layout kind, hands, size (deterministic)."""
    rng = np.random.default_rng([seed, 77])
    return {
        "look": looks[int(rng.integers(len(looks)))],
        "kind": KINDS[int(rng.integers(len(KINDS)))],
        "hands": 1 if hands_every and seed % hands_every == 0 else 0,
        "size": size,
    }


def render_scene(seed: int, spec: dict):
    from simulator.layouts import easy_slider_layout
    from simulator.render import render_table

    layout = easy_slider_layout(seed, kind=spec["kind"])
    return render_table(layout, seed=seed, look=spec["look"], size=tuple(spec["size"]), hands=spec["hands"])


def truth_quarter_turn(truth: dict, lattice) -> tuple[int, float]:
    """(k, error in pitches): the quarter turn that puts the truth's player frame on the lattice.

    The player view is ``np.rot90(canvas, k)``, whose top-left board corner is canvas corner
    k of (TL, TR, BR, BL); ``error`` is how far the truth's corner lies from it.
    """
    tl = lattice.to_lattice(np.array(truth["board_corners"], float)[:1])[0]
    corners = np.array([[0, 0], [5, 0], [5, 5], [0, 5]], float)
    d = np.linalg.norm(corners - tl, axis=1)
    k = int(np.argmin(d))
    return k, float(d[k])


def training_looks() -> tuple[str, ...]:
    from simulator.looks import HELD_OUT_LOOKS, LOOKS

    return tuple(name for name in LOOKS if name not in HELD_OUT_LOOKS)


#: the range the reading bars are set for: any distance where a tile is at least 40 px wide
SPEC_TILE_PX = 40.0


def tile_width_px(truth: dict) -> float:
    """Mean side (image px) of the board's 24 tiles and hole cell in a render's truth.

    The simulator's cameras reach out to 4 feet, where tiles come out 25-40 px wide at 720p:
    beyond the range the reading bars are set for. The benchmarks report those renders apart (below
    SPEC_TILE_PX) as well as within it; nothing is skipped.
    """
    return mean_side_px(truth["cells"])  # 5 x 5 x 4 x 2 corners


def mean_side_px(quads) -> float:
    """Mean side (image px) of quads given as ... x 4 corners x 2."""
    cells = np.asarray(quads, np.float64)
    return float(np.linalg.norm(cells - np.roll(cells, -1, axis=-2), axis=-1).mean())


#: Scavenger Hunt's board: tiles (rows, cols) grid side up, each 2x2 squares
SQUARE_BOARD = (4, 6)

#: The range the reading bars for boards of squares are set for: squares at least this many
#: px wide and the camera tilted at most SPEC_TILT_DEG. The benchmark renders beyond it (squares
#: down to about 12 px, tilt up to 40 degrees) and reports those renders apart as well.
SPEC_SQUARE_PX = 18.0
SPEC_TILT_DEG = 35.0


def square_width_px(truth: dict) -> float:
    """Mean side (image px) of the squares in a Scavenger Hunt render's truth."""
    return mean_side_px(truth["cells"])  # rows x cols x 4 corners x 2


def square_in_spec(truth: dict) -> bool:
    """Whether a render of a board of squares lies within the range its bars are set for."""
    return square_width_px(truth) >= SPEC_SQUARE_PX and truth["camera"]["tilt_deg"] <= SPEC_TILT_DEG


def square_scene_spec(seed: int, looks: tuple[str, ...]) -> dict:
    """What to render of a Scavenger Hunt table for ``seed``: look and size (two in three at
    1280x720, one in three at 1920x1080), deterministic."""
    rng = np.random.default_rng([seed, 78])
    size = (1920, 1080) if int(rng.integers(3)) == 2 else (1280, 720)
    return {"look": looks[int(rng.integers(len(looks)))], "size": size}


def render_square_scene(seed: int, spec: dict):
    """A render of a seeded Scavenger Hunt game a few turns in (``simulator.games``); its coins
    turned up to ``spec["coin_turn"]`` degrees either way when given (the simulator's default
    else)."""
    from simulator.games import layout_for
    from simulator.render import render_table

    layout = layout_for("scavenger-hunt", seed)
    if "coin_turn" in spec:
        layout["coin_turn"] = spec["coin_turn"]
    return render_table(layout, seed=seed, game="scavenger-hunt", look=spec["look"], size=tuple(spec["size"]))


def square_truth_labels(truth: dict) -> list[list[str]]:
    """8 x 12 labels of a Scavenger Hunt truth: ``""`` empty, a rank (value side up), a suit
    letter (suit side up), ``"p" + suit`` a pawn (on a coin or not)."""
    out = []
    for row in truth["coins"]:
        out.append(["" if code is None else (code[-1] if len(code) == 2 else code) for code in row])
    for suit, (r, c) in truth["pawns"].items():
        out[r][c] = "p" + suit
    return out


def square_truth_frame(truth: dict, lattice, frames: list, rows: int, cols: int) -> tuple[int, float]:
    """(index into ``frames``, error in pitches): the frame that lays the truth's squares on the lattice."""
    from vision.squares import square_centres

    cells = np.array(truth["cells"], float)  # 2 rows x 2 cols x 4 corners x 2
    seen = lattice.to_lattice(cells.mean(2).reshape(-1, 2))
    centres = square_centres(rows, cols, lattice.face).reshape(-1, 2)
    errs = []
    for f in frames:
        x, y = f(centres[:, 0], centres[:, 1])
        errs.append(float(np.median(np.hypot(seen[:, 0] - x, seen[:, 1] - y))))
    i = int(np.argmin(errs))
    return i, errs[i]


def cached_video(path: Path, render) -> tuple[Path, dict]:
    """A benchmark's recording at ``path`` and its truth (beside it, .json): read back when both
    exist, else made by ``render(path) -> truth`` and kept (the renders take minutes)."""
    import json

    truth_path = path.with_suffix(".json")
    if path.exists() and truth_path.exists():
        return path, json.loads(truth_path.read_text())
    truth = render(path)
    truth_path.write_text(json.dumps(truth))
    return path, truth
