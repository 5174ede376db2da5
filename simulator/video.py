"""Recorded Easy Slider games as videos with exact event truth.

``render_game_video(start_layout, actions, seed=..., path=...)`` animates a list of actions:
a hand approaches, a fingertip lands on a tile, the tile slides into the hole under it, the
finger lifts, the hand leaves, and the table rests for a pause of varying length. Illegal
actions are animated too: a tile lifted and swapped with another (carried through the air),
or two tiles pushed at once along a line into the hole.

Actions (dicts, JSON-ready):

- ``{"type": "move", "from": [r, c]}``: slide that tile into the hole (it must be next to it;
  ``"to"`` may be given and must be the hole);
- ``{"type": "swap", "cells": [[r, c], [r, c]]}``: lift two tiles and swap them (illegal);
- ``{"type": "double", "from": [r, c]}``: the tile two cells from the hole in a line pushes the
  tile between them, both move one cell (illegal);
- ``{"type": "pause", "seconds": s}``: an extra rest.

Truth: ``{"game", "fps", "size", "frames", "duration", "start", "end", "events", "timeline",
"actions", "camera", "look", "conditions", "seed"}``. ``events`` follow the ``caller watch``
schema (docs/architecture.md): ``{"t", "type": "board", "board"}`` once at t=0, ``{"t", "type": "move",
"tile", "from", "to"}``, ``{"t", "type": "illegal", "reason", "cells"}``, ``{"t", "type":
"done", "correct": true}`` when a move completes the goal. ``t`` (seconds, frame index / fps)
is when the tiles come to rest in their new cells; ``t_clear`` is when the hand has left the
board again (the earliest moment a camera sees the settled board unobstructed); ``t_hand`` is
when the hand starts coming in from outside the frame. After an
illegal action the board stays as the action left it.

The hands, the film plan and the frame writing are ``simulator.animation``'s, shared with the
Scavenger Hunt videos; the same seed gives the same video byte for byte.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np

from simulator import animation as A
from simulator import looks as L
from simulator import scene as S
from simulator.camera import CameraSpec
from simulator.errors import SimulatorError
from simulator.layouts import hole_of, validate_easy_slider
from simulator.render import SCENE_STREAM, Renderer, camera_for, sample_conditions

_VIDEO = 11
REST_HEIGHT = A.REST_HEIGHT  # mm: fingertip height while travelling over the board


def _done(layout: dict) -> bool:
    board = layout["board"]
    pawns, coins = layout["pawns"], layout["coins"]
    if len(pawns) != 4 or len(coins) != 5:
        return False
    for r in range(4):
        for c in range(5):
            if board[r][c] != pawns[r] + coins[c]:
                return False
    return sorted(t for t in board[4] if t is not None) == sorted(s + "n" for s in "SMCA")


def _cell(obj, what: str) -> tuple[int, int]:
    return S.check_cell(list(obj) if isinstance(obj, tuple) else obj, (5, 5), what)


def render_game_video(
    start_layout: dict,
    actions: list[dict],
    *,
    seed: int,
    fps: int = 30,
    size: tuple[int, int] = (1280, 720),
    path: str | Path,
    look: str | None = None,
    camera: CameraSpec | None = None,
    conditions: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Render the game to ``path`` (.mp4 with mp4v, or .avi with MJPG) and return its truth dict."""
    layout = validate_easy_slider(start_layout)
    hole_of(layout["board"])
    A.check_fps(fps)
    path, fourcc = A.video_codec(path)
    the_look = L.get_look(look)
    scene = S.easy_slider_scene(layout, the_look, np.random.default_rng([seed, SCENE_STREAM]))
    camera = camera_for(camera, seed, size, scene.extent)
    cond = sample_conditions(seed, conditions)
    cond_frames = dict(cond, jpeg=None)  # the video codec compresses; a JPEG pass per frame would only cost time
    rend = Renderer(camera, the_look, cond_frames, seed)
    rng = random.Random(seed * 1000003 + _VIDEO)

    # cell geometry: nominal centres from the scene's cells (tile-top squares)
    centres = {cell: scene.cells[cell][:, :2].mean(0) for cell in scene.cells}
    tiles = {p.tag: p for p in scene.pieces if isinstance(p, S.Flat) and p.tag.startswith("cell:")}
    static_other = [p for p in scene.pieces if not (isinstance(p, S.Flat) and p.tag.startswith("cell:"))]
    # pieces keyed by their current cell
    at: dict[tuple[int, int], S.Flat] = {}
    for tag, p in tiles.items():
        _, r, c = tag.split(":")
        at[(int(r), int(c))] = p
    film = A.Film(fps, rng, at)

    board = [list(row) for row in layout["board"]]
    events = [{"t": 0.0, "type": "board", "board": [list(r) for r in board]}]
    timeline = []
    norm_actions = []
    t_tile = the_look.tile_thickness_mm

    def times(hand_in: int, rest: int, end: int) -> dict:
        return {"t": film.t(rest), "t_clear": film.t(end), "t_hand": film.t(hand_in)}

    for idx, act in enumerate(actions):
        if not isinstance(act, dict) or act.get("type") not in ("move", "swap", "double", "pause"):
            raise SimulatorError(f"action {idx} {act!r:.80}: expected a dict with type move, swap, double or pause")
        kind = act["type"]
        if kind == "pause":
            norm_actions.append(film.pause(idx, act))
            continue
        film.rest(rng.uniform(0.5, 2.2) if idx else rng.uniform(0.8, 1.5))
        style = A.random_hand_style(rng)
        hole = hole_of(board)
        if kind == "move":
            src = _cell(act.get("from"), f"action {idx} 'from'")
            if "to" in act and _cell(act["to"], f"action {idx} 'to'") != hole:
                raise SimulatorError(f"action {idx}: 'to' {act['to']!r} is not the hole {list(hole)}")
            if abs(src[0] - hole[0]) + abs(src[1] - hole[1]) != 1:
                raise SimulatorError(f"action {idx}: tile at {list(src)} is not next to the hole {list(hole)}")
            c0, c1 = centres[src], centres[hole]
            hand_in = film.frame
            rest, end = film.animate([
                {"to": c0, "h": REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
                {"to": c0, "h": t_tile + 1.0, "secs": 0.25},
                {"to": c1, "h": t_tile + 1.0, "secs": rng.uniform(0.45, 0.8), "carry": [(src, (c1, 0.0))]},
            ], style)
            tile = board[src[0]][src[1]]
            was_done = _done({**layout, "board": board})
            board[hole[0]][hole[1]], board[src[0]][src[1]] = tile, None
            ps = at.pop(src)
            at[hole] = replace(ps, x=float(ps.x + c1[0] - c0[0]), y=float(ps.y + c1[1] - c0[1]), tag=f"cell:{hole[0]}:{hole[1]}")
            ev = {**times(hand_in, rest, end), "type": "move", "tile": tile, "from": list(src), "to": list(hole)}
            events.append(ev)
            norm_actions.append({"type": "move", "from": list(src), "to": list(hole)})
            if _done({**layout, "board": board}) and not was_done:
                events.append({"t": film.t(end), "type": "done", "correct": True})
        elif kind == "swap":
            cells = act.get("cells")
            if not (isinstance(cells, list) and len(cells) == 2):
                raise SimulatorError(f"action {idx}: swap 'cells' {cells!r}: expected two [row, col] cells")
            a_cell, b_cell = (_cell(c, f"action {idx} swap cell") for c in cells)
            if a_cell == b_cell or board[a_cell[0]][a_cell[1]] is None or board[b_cell[0]][b_cell[1]] is None:
                raise SimulatorError(f"action {idx}: swap needs two different tiles, got {cells!r}")
            ca, cb = centres[a_cell], centres[b_cell]
            lift = 22.0
            aside = ca + (ca - cb) / max(np.linalg.norm(ca - cb), 1e-6) * 12.0
            hand_in = film.frame
            rest, end = film.animate([
                {"to": ca, "h": REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
                {"to": ca, "h": t_tile + 1.0, "secs": 0.25},
                {"to": aside, "h": lift + t_tile, "secs": 0.4, "carry": [(a_cell, (aside, lift))]},
                {"to": cb, "h": REST_HEIGHT * 0.6, "secs": 0.5},
                {"to": cb, "h": t_tile + 1.0, "secs": 0.2},
                {"to": cb, "h": t_tile + 15.0, "secs": 0.25, "carry": [(b_cell, (cb, 14.0))]},
                {"to": ca, "h": t_tile + 1.0, "secs": 0.6, "carry": [(b_cell, (ca, 0.0))]},
                {"to": aside, "h": lift + t_tile, "secs": 0.35},
                {"to": cb, "h": t_tile + 1.0, "secs": 0.6, "carry": [(a_cell, (cb, 0.0))]},
            ], style)
            ta, tb = board[a_cell[0]][a_cell[1]], board[b_cell[0]][b_cell[1]]
            board[a_cell[0]][a_cell[1]], board[b_cell[0]][b_cell[1]] = tb, ta
            pa, pb = at[a_cell], at[b_cell]
            at[a_cell] = replace(pb, x=float(ca[0]) + (pa.x - ca[0]), y=float(ca[1]) + (pa.y - ca[1]), tag=f"cell:{a_cell[0]}:{a_cell[1]}")
            at[b_cell] = replace(pa, x=float(cb[0]) + (pb.x - cb[0]), y=float(cb[1]) + (pb.y - cb[1]), tag=f"cell:{b_cell[0]}:{b_cell[1]}")
            events.append({**times(hand_in, rest, end), "type": "illegal",
                           "reason": "two tiles changed places", "cells": sorted([list(a_cell), list(b_cell)])})
            norm_actions.append({"type": "swap", "cells": [list(a_cell), list(b_cell)]})
        else:  # double
            far = _cell(act.get("from"), f"action {idx} 'from'")
            dr, dc = hole[0] - far[0], hole[1] - far[1]
            if not ((dr == 0 and abs(dc) == 2) or (dc == 0 and abs(dr) == 2)):
                raise SimulatorError(f"action {idx}: double from {list(far)} must be two cells from the hole {list(hole)} in a line")
            mid = (far[0] + dr // 2, far[1] + dc // 2)
            cf, cm, ch = centres[far], centres[mid], centres[hole]
            hand_in = film.frame
            rest, end = film.animate([
                {"to": cf, "h": REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
                {"to": cf, "h": t_tile + 1.0, "secs": 0.25},
                {"to": cm, "h": t_tile + 1.0, "secs": rng.uniform(0.6, 0.9), "carry": [(far, (cm, 0.0)), (mid, (ch, 0.0))]},
            ], style)
            tf, tm = board[far[0]][far[1]], board[mid[0]][mid[1]]
            board[hole[0]][hole[1]], board[mid[0]][mid[1]], board[far[0]][far[1]] = tm, tf, None
            pf, pm = at.pop(far), at.pop(mid)
            at[mid] = replace(pf, x=float(cm[0]) + (pf.x - cf[0]), y=float(cm[1]) + (pf.y - cf[1]), tag=f"cell:{mid[0]}:{mid[1]}")
            at[hole] = replace(pm, x=float(ch[0]) + (pm.x - cm[0]), y=float(ch[1]) + (pm.y - cm[1]), tag=f"cell:{hole[0]}:{hole[1]}")
            events.append({**times(hand_in, rest, end), "type": "illegal",
                           "reason": "two tiles moved at once", "cells": sorted([list(far), list(mid), list(hole)])})
            norm_actions.append({"type": "double", "from": list(far)})
        timeline.append({"t": film.t(film.frame), "board": [list(r) for r in board]})
    film.rest(rng.uniform(1.0, 2.0))

    A.write_film(film, path, fourcc, rend, seed=seed, stream=_VIDEO, flicker=cond.get("flicker", 0.0),
                 board_px=rend.proj(scene.board_corners), fixed=static_other, progress=progress)
    final = {**layout, "board": [list(r) for r in board]}
    return A.video_truth("easy-slider", film, camera, the_look.name, cond, seed, start=layout, end=final,
                         events=events, timeline=timeline, actions=norm_actions)


def random_actions(layout: dict, n_moves: int, *, seed: int, illegal: int = 0) -> list[dict]:
    """``n_moves`` legal slides (never undoing the previous one) with ``illegal`` illegal actions mixed in."""
    from simulator.layouts import apply_slide, random_slides

    rng = random.Random(seed)
    board_layout = validate_easy_slider(layout)
    slots = sorted(rng.sample(range(n_moves + illegal), illegal)) if illegal else []
    out: list[dict] = []
    prev = None
    k = 0
    while len(out) < n_moves + illegal:
        if k in slots:
            board = board_layout["board"]
            hole = hole_of(board)
            lines = [(hole[0] + 2 * dr, hole[1] + 2 * dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            lines = [p for p in lines if 0 <= p[0] < 5 and 0 <= p[1] < 5]
            if rng.random() < 0.5 and lines:
                far = rng.choice(lines)
                out.append({"type": "double", "from": list(far)})
                mid = ((far[0] + hole[0]) // 2, (far[1] + hole[1]) // 2)
                b = [list(r) for r in board]
                b[hole[0]][hole[1]], b[mid[0]][mid[1]], b[far[0]][far[1]] = b[mid[0]][mid[1]], b[far[0]][far[1]], None
                board_layout = {**board_layout, "board": b}
            else:
                tiles = [(r, c) for r in range(5) for c in range(5) if board[r][c] is not None]
                a = rng.choice(tiles)
                near = [t for t in tiles if t != a and abs(t[0] - a[0]) + abs(t[1] - a[1]) <= 2]
                b_cell = rng.choice(near)
                out.append({"type": "swap", "cells": [list(a), list(b_cell)]})
                b = [list(r) for r in board]
                b[a[0]][a[1]], b[b_cell[0]][b_cell[1]] = b[b_cell[0]][b_cell[1]], b[a[0]][a[1]]
                board_layout = {**board_layout, "board": b}
            prev = None
        else:
            (src, dst), = random_slides(board_layout, 1, rng) if prev is None else _slide_avoiding(board_layout, prev, rng)
            out.append({"type": "move", "from": list(src), "to": list(dst)})
            board_layout = apply_slide(board_layout, src, dst)
            prev = dst
        k += 1
    return out


def _slide_avoiding(layout: dict, prev_hole, rng: random.Random):
    hole = hole_of(layout["board"])
    options = [(hole[0] + dr, hole[1] + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
    options = [p for p in options if 0 <= p[0] < 5 and 0 <= p[1] < 5 and p != tuple(prev_hole)]
    return [(rng.choice(options), hole)]


def finishing_game(seed: int, n_moves: int) -> tuple[dict, list[dict]]:
    """A start layout ``n_moves`` slides from solved and the moves that solve it (ends in "done")."""
    from simulator.layouts import apply_slide, easy_slider_layout, random_slides

    solved = easy_slider_layout(seed, "solved")
    rng = random.Random(seed * 31 + 5)
    layout = solved
    path = []
    for src, dst in random_slides(solved, n_moves, rng):
        layout = apply_slide(layout, src, dst)
        path.append((src, dst))
    # solve by undoing the scramble, stopping at the first solved board (sponge-row slides keep it solved)
    actions, board = [], layout
    if _done(board):
        raise SimulatorError(f"seed {seed} with {n_moves} moves scrambles nothing: try another seed or more moves")
    for src, dst in reversed(path):
        actions.append({"type": "move", "from": list(dst), "to": list(src)})
        board = apply_slide(board, dst, src)
        if _done(board):
            break
    return layout, actions
