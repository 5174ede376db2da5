"""Seeded Slider tables for the blocks model's build and the Slider read benchmark.

A render of ``slider_table(seed, looks)`` is a Slider position (``simulator.games``
``slider_layout``) of an N from 4 to 8, its H and V pieces coins of two suits drawn from the
four, dice on a few squares, in one of ``looks``, at 1280x720 two times in three and
1920x1080 else, the camera on the players' near side (``simulator.games.NEAR_SIDE``) tilted
up to ``MAX_TILT`` degrees. The truth's frame is the camera's.
"""

from __future__ import annotations

import numpy as np

from rules.table import DIE_ON_SQUARE

MAX_TILT = 35.0
SIZES = (4, 5, 6, 7, 8)
SUITS = ("S", "M", "C", "A")


def slider_spec(seed: int, looks: tuple[str, ...]) -> dict:
    """N, suits, look and size of the render of ``seed`` (deterministic)."""
    rng = np.random.default_rng([seed, 81])
    h, v = rng.choice(len(SUITS), 2, replace=False)
    return {"n": SIZES[int(rng.integers(len(SIZES)))], "h_suit": SUITS[int(h)], "v_suit": SUITS[int(v)],
            "look": looks[int(rng.integers(len(looks)))],
            "size": (1920, 1080) if int(rng.integers(3)) == 2 else (1280, 720)}


def render_slider(seed: int, spec: dict):
    """The render of ``seed`` as ``spec`` says (``slider_spec``)."""
    from simulator import looks as L
    from simulator.games import slider_layout
    from simulator.render import SCENE_STREAM, build_scene, camera_for, render_table

    layout = dict(slider_layout(seed, spec["n"]), h_suit=spec["h_suit"], v_suit=spec["v_suit"])
    scene, _ = build_scene("slider", layout, L.get_look(spec["look"]), np.random.default_rng([seed, SCENE_STREAM]))
    camera = camera_for(None, seed, tuple(spec["size"]), scene.extent, tilt_range=(0.0, MAX_TILT),
                        rotation_range=scene.camera_rotation)
    return render_table(layout, seed=seed, game="slider", look=spec["look"], size=tuple(spec["size"]), camera=camera)


def square_labels(truth: dict) -> list[list[str]]:
    """2k x 2k labels of a Slider render's whole lattice (k tiles a side), the camera's frame:
    ``""`` empty (the unused row and column of an odd board too), a suit letter (an H or V
    coin, suit side up), ``DIE_ON_SQUARE`` a die."""
    n = truth["n"]
    size = 2 * ((n + 1) // 2)
    codes = {"H": truth["h_suit"], "V": truth["v_suit"], "B": DIE_ON_SQUARE, None: ""}
    return [[codes[truth["board"][r][c]] if r < n and c < n else "" for c in range(size)] for r in range(size)]
