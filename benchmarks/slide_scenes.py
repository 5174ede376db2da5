"""Seeded Slide tables for the cards model's build and the Slide read benchmark.

A render of ``slide_table(seed, decks, looks)`` is one player's 4x4 grid of Slide cards
(``simulator.games.slide_layout``: some face down), one slot in two left empty (the gap a
turned card leaves) and one in ten two, in one of ``decks`` (card designs,
``simulator.decks``) on the table of one of ``looks``, at 1280x720 two times in three and
1920x1080 else, the camera turned any way round the grid and tilted up to ``MAX_TILT``
degrees. With ``hands_every``, a hand reaches over the grid in one render of so many. The
truth's frame is the player's: row 0 the far side, where the numerals' tops point.
"""

from __future__ import annotations

import numpy as np

MAX_TILT = 35.0
#: the range the reading bars are set for: cards at least this many px wide (a card 44 mm
#: wide seen from 70 cm by a 720p webcam is about 45 px)
SPEC_CARD_PX = 30.0


def slide_spec(seed: int, decks: tuple[str, ...], looks: tuple[str, ...], hands_every: int = 0,
               more_empty: int = 0) -> dict:
    """Deck, look, empty slots, size and hands (one reaching over the grid in every
    ``hands_every``-th seed; 0: none) of the render of ``seed`` (deterministic). ``more_empty``
    empties up to that many more slots (drawn apart, so that 0 gives the same renders as
    before): a model learns what the table looks like in a gap from many of them, the inner
    gaps a reveal leaves among them."""
    rng = np.random.default_rng([seed, 83])
    empty = 2 if rng.random() < 0.1 else int(rng.random() < 0.5)
    spec = {"deck": decks[int(rng.integers(len(decks)))], "look": looks[int(rng.integers(len(looks)))],
            "empty": [int(k) for k in rng.choice(16, empty, replace=False)],
            "size": (1920, 1080) if int(rng.integers(3)) == 2 else (1280, 720),
            "hands": int(bool(hands_every) and seed % hands_every == 0)}
    if more_empty:
        more = np.random.default_rng([seed, 84])
        rest = [k for k in range(16) if k not in spec["empty"]]
        spec["empty"] += [int(k) for k in more.choice(rest, int(more.integers(more_empty + 1)), replace=False)]
    return spec


def slide_layout_of(seed: int, spec: dict) -> dict:
    """The layout ``spec`` says for ``seed``: the seed's grid, its empty slots emptied."""
    from simulator.games import slide_layout

    layout = slide_layout(seed)
    for k in spec["empty"]:
        layout["grid"][k // 4][k % 4] = None
    return dict(layout, deck=spec["deck"])


def render_slide(seed: int, spec: dict):
    """The render of ``seed`` as ``spec`` says (``slide_spec``)."""
    from simulator import looks as L
    from simulator.render import SCENE_STREAM, build_scene, camera_for, render_table

    layout = slide_layout_of(seed, spec)
    scene, _ = build_scene("slide", layout, L.get_look(spec["look"]), np.random.default_rng([seed, SCENE_STREAM]))
    camera = camera_for(None, seed, tuple(spec["size"]), scene.extent, tilt_range=(0.0, MAX_TILT),
                        rotation_range=scene.camera_rotation)
    return render_table(layout, seed=seed, game="slide", look=spec["look"], size=tuple(spec["size"]), camera=camera,
                        hands=spec.get("hands", 0))


def truth_labels(truth: dict) -> list[list[str]]:
    """4 x 4 labels of a render's truth, as the cards model names them: ``"1"``..``"10"``,
    ``"down"``, ``"empty"``, and ``"covered"`` for a slot a hand hides (in part)."""
    covered = {tuple(cell) for cell in truth.get("covered", ())}

    def label(v) -> str:
        if v is None:
            return "empty"
        return "down" if isinstance(v, dict) else str(v)

    return [["covered" if (r, c) in covered else label(v) for c, v in enumerate(row)]
            for r, row in enumerate(truth["grid"])]


def truth_grid(truth: dict) -> list[list]:
    """The truth's grid as ``caller read --game slide`` writes it: a number, ``"down"`` or None."""
    return [[("down" if isinstance(v, dict) else v) for v in row] for row in truth["grid"]]


def card_width_px(truth: dict) -> float:
    """Mean short side (image px) of the grid's slots in a render's truth."""
    cells = np.asarray(truth["cells"], np.float64)  # 4 x 4 x 4 corners x 2
    sides = np.linalg.norm(cells - np.roll(cells, -1, axis=-2), axis=-1)
    return float(np.minimum(sides[..., 0::2], sides[..., 1::2]).mean())


def lattice_error(truth: dict, lattice) -> float:
    """How far (in card widths) the lattice's slot centres lie from the truth's, slot by slot
    in the same frame: under about 0.2 the lattice is the truth's, turned as it is."""
    cells = np.asarray(truth["cells"], np.float64)
    centres = cells.mean(2)
    seen = np.array([[lattice.slot_corners(r, c).mean(0) for c in range(4)] for r in range(4)])
    return float(np.linalg.norm(seen - centres, axis=-1).max() / max(card_width_px(truth), 1.0))
