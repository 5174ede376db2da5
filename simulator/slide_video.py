"""Recorded Slide (Claude Clément, Gigamic) rounds filmed at one player's grid, with exact truth.

``render_slide_video(start, actions, seed=..., path=...)`` films player 0's 4x4 grid of cards
(the filmed player) and the middle of the table, where revealed cards lie, through the rounds
of ``actions``; it returns the truth. ``random_round_game(seed, rounds, illegal=...)`` makes the
start and the actions of a seeded game with the rules engine (``rules.slide``), illegal actions
of the filmed player mixed in, each followed by its put-back.

The table: the grid as ``simulator.games.slide_scene`` lays it (row 0 on the far side, where
the numerals' tops point); the middle is a column of card places on the filmed player's right
of the grid (a second column further right when more than four cards lie there). The camera
stands behind the filmed player (within ``ROTATION_RANGE`` degrees) and tilts up to
``TILT_RANGE``; it frames the grid, a card's width around it (where a pushed card is laid
before it goes in) and the middle. The filmed player's hand comes from their near side; the
other players' hands from across the table.

Actions (cells ``[row, col]``, 0-based, row 0 the far side; the rules engine checks each
turn's order):

- ``{"type": "reveal", "cell": [r, c]}``: the filmed player turns the face-down card on the
  cell face up and lays it in the middle. A reveal while their grid already has a hole is
  illegal (two cards revealed).
- ``{"type": "appear", "cell": [r, c]}``: another player (the one to act) reveals the card on
  that cell of their own grid: a hand lays it face up in the middle.
- ``{"type": "push", "card": n, "side": "left"}``: the filmed player takes a card ``n`` from
  the middle, lays it just outside the end of the hole's row (left/right) or column
  (top/bottom) and pushes it in: the cards between that edge and the hole slide one place
  along (over about half a second) and fill it.
- ``{"type": "take", "card": n, "side": "top"}``: another player's push: a hand takes the card
  from the middle away to their own grid.
- Illegal, each left standing for the Caller's word and then put back by ``restore``:
  ``{"type": "place", "card": n}`` (a middle card put straight into the hole; never one whose
  number also stands at the edge end of the hole's row or column with every card between:
  that leaves the very grid a push of it makes, and a camera cannot see it was illegal) and
  ``{"type": "slide", "from": [r, c]}`` (a grid card next to the hole, diagonally in the seeded
  games, moved into it); a second ``reveal`` in a round.
- ``{"type": "restore"}``: the illegal action undone (the card back where it was, a second
  revealed card turned face down again into its cell).
- ``{"type": "pause", "seconds": s}``.

Truth (JSON-ready): ``{"game": "slide", "fps", "size", "frames", "duration", "deck", "start",
"end", "events", "actions", "camera", "look", "conditions", "seed", "board_corners"}``.
``start`` and ``end`` are ``{"grid": ..., "position": ...}``: the filmed grid as the camera
reads it (``caller read --game slide``: 4 rows of a number, ``"down"`` or null for the hole,
row 0 the far side) and the whole position JSON (``rules.slide.codec``; null while an illegal
action stands). Events:

- ``grid`` (``t`` 0): ``grid`` as above.
- ``reveal``: ``cell``, ``card``.
- ``middle``: ``cards``, the face-up numbers in the middle, ascending: when every player has
  revealed (what the filmed player may push from), after each other player's take, and at
  ``t`` 0 when the film starts with cards there (a start in the push phase).
- ``push``: ``card``, ``line`` ("row" or "column"), ``index`` (0-based), ``from_side`` (a
  ``rules.slide.state.Side`` value: the edge the card went in from), ``cells`` (the cells that
  changed), ``grid`` after it.
- ``illegal``: ``kind`` ("two-reveals", "straight", "diagonal", or "slide" for a card slid
  sideways within the grid: the action), ``reason`` (the rules'
  verdict as data: ``code``, ``cells``, ``pieces``, ``was``, ``number``; codes in
  ``rules.slide.reasons``), ``text`` (its sentence), ``cells`` (those that changed),
  ``t_restored`` (when the put-back's hand has gone).
- ``restored``: ``grid`` (the grid as before the illegal action).
- ``scores`` (when the game is played out): ``scores`` (``points``, ``cards`` per player),
  ``winners`` (player indices).

Events of a hand have ``t`` (the cards at rest), ``t_clear`` (the hand gone: the cards are
still) and ``t_hand`` (the hand coming in); ``middle`` and ``scores`` come at the ``t_clear``
of the action before them.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Grid, in_bounds, ray
from rules.reasons import Reason
from rules.slide.codec import from_json, to_json
from rules.slide.explain import DOWN, explain, observe
from rules.slide.state import ROUNDS, SHAPE, Phase, Push, Reveal, Side, SlideState, deal, edge_cell, winners
from simulator import animation as A
from simulator import looks as L
from simulator.camera import CameraSpec
from simulator.errors import SimulatorError
from simulator.games import slide_scene
from simulator.render import SCENE_STREAM

GAME = "slide"
PLAYER = 0  # the filmed player
VIDEO_STREAM = 14  # random.Random and exposure-drift stream of these videos (Slider's is 13)
TILT_RANGE = (0.0, 35.0)  # degrees: random cameras of these videos
ROTATION_RANGE = (-20.0, 20.0)  # degrees around the grid from behind the filmed player
MIN_CARD_PX = 70.0  # px at 1280x720: the grid's card places are framed at least this big (numerals legible)
RESTORE_WAIT_S = 1.2  # s: added to the rest before a put-back (the Caller speaks within 1 s)
START_WAIT_S = (1.0, 1.5)  # s: the table stands still this long before the first action
PUSH_S = (0.45, 0.6)  # s: a pushed line slides one place in this long
#: mm between the middle's first column and the place right of the grid where a card pushed in
#: from the right is laid first (so that the two never overlap)
MIDDLE_GAP_MM = 20.0
CARD_MM = 0.4  # card thickness, as slide_scene lays them
FLIP_HOP_MM = 20.0  # a card turned over is lifted this high (others 8 mm)
ACTION_TYPES = ("reveal", "appear", "push", "take", "place", "slide", "restore", "pause")
#: the kinds of illegal action ``random_round_game`` mixes in
ILLEGAL_KINDS = ("straight", "diagonal", "two-reveals")


def read_grid(seen: Grid) -> list[list]:
    """An observed grid (``rules.slide.explain``) as ``caller read --game slide`` writes it."""
    return [["down" if v == DOWN else v for v in row] for row in seen.rows]


def reason_json(why: Reason) -> dict:
    """A verdict as JSON-ready data (sides by their names, moves as their notation)."""
    def plain(v):
        if isinstance(v, Side):
            return v.value
        return v if isinstance(v, (int, str)) or v is None else str(v)
    return {"code": why.code, "cells": [list(c) for c in why.cells], "pieces": [plain(v) for v in why.pieces],
            "was": [plain(v) for v in why.was], "number": why.number}


class _Table:
    """The filmed grid and the middle as pieces: ``pieces`` (key -> scene piece at rest, shared
    with the film), ``at`` (cell -> key of the card on it, None for the hole), ``cards`` (key ->
    [number, face up]) and ``slots`` (middle place -> key or None)."""

    def __init__(self, state: SlideState, scene, deck: str, places: int):
        self.deck = deck
        board = scene.board_corners
        hw, hh = float(board[1][0]), float(board[2][1])
        self.px = (2 * hw - L.CARD_W_MM) / 3
        self.py = (2 * hh - L.CARD_H_MM) / 3
        self.hw, self.hh = hw, hh
        self.pieces: dict[str, Any] = {}
        self.at: dict[tuple[int, int], str | None] = {(r, c): None for r in range(4) for c in range(4)}
        self.cards: dict[str, list] = {}
        grid = state.grids[PLAYER]
        for p in scene.pieces:
            _, r, c = p.tag.split(":")
            key = f"card:{r}:{c}"
            self.pieces[key] = p
            self.at[(int(r), int(c))] = key
            card = grid[(int(r), int(c))]
            self.cards[key] = [card.number, card.face_up]
        self.slots: list[str | None] = [None] * places
        self.made = 0  # cards of other players brought in so far

    def nominal(self, cell) -> np.ndarray:
        """The centre of a grid place (without the laid cards' jitter)."""
        return np.array([(cell[1] - 1.5) * self.px, (cell[0] - 1.5) * self.py])

    def slot_xy(self, k: int) -> np.ndarray:
        x = self.hw + self.px + MIDDLE_GAP_MM + L.CARD_W_MM / 2 + (k // 4) * (L.CARD_W_MM + 10.0)
        return np.array([x, (k % 4 - 1.5) * self.py])

    def extent(self) -> tuple[float, float, float, float]:
        """The box the camera frames: the grid, one card place around it, and the middle."""
        right = self.slot_xy(len(self.slots) - 1)[0] + L.CARD_W_MM / 2 + 6.0
        return (-self.hw - self.px, -self.hh - self.py, max(self.hw + self.px, right), self.hh + self.py)

    def seen(self) -> Grid:
        """The grid as the camera sees it (``rules.slide.explain``'s observed form)."""
        def look(key):
            if key is None:
                return None
            n, up = self.cards[key]
            return n if up else DOWN
        return Grid(tuple(tuple(look(self.at[(r, c)]) for c in range(4)) for r in range(4)))

    def hole(self):
        holes = [c for c, k in self.at.items() if k is None]
        return holes[0] if holes else None

    def middle(self) -> list[int]:
        return sorted(self.cards[k][0] for k in self.slots if k is not None)

    def middle_key(self, card: int, idx: int) -> str:
        for k in self.slots:
            if k is not None and self.cards[k][0] == card:
                return k
        raise SimulatorError(f"action {idx}: no {card!r} lies in the middle ({self.middle()})")

    def free_slot(self) -> int:
        for k, key in enumerate(self.slots):
            if key is None:
                return k
        raise SimulatorError(f"the middle is full ({len(self.slots)} places)")  # a slip in this module

    def face(self, key: str, up: bool):
        """The piece of ``key`` showing its face (``up``) or its back."""
        code = f"{self.deck}:{self.cards[key][0] if up else 'back'}"
        return replace(self.pieces[key], code=code)


def _start_state(start: Any) -> SlideState:
    if isinstance(start, SlideState):
        state = start
    else:
        try:
            state = from_json(start)
        except MalformedPosition as exc:
            raise SimulatorError(f"start position: {exc}") from None
    if state.is_over:
        raise SimulatorError("start position: the game is over: there is nothing to film")
    return state


def _cell(obj, what: str) -> tuple[int, int]:
    if not (isinstance(obj, (list, tuple)) and len(obj) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in obj)):
        raise SimulatorError(f"{what} {obj!r}: expected a cell [row, col]")
    if not in_bounds(tuple(obj), SHAPE):
        raise SimulatorError(f"{what} {list(obj)} is not on the 4x4 grid")
    return (obj[0], obj[1])


def _card(obj, what: str) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int) or not 1 <= obj <= 10:
        raise SimulatorError(f"{what} {obj!r}: expected a card number 1 to 10")
    return obj


def _side(obj, what: str) -> Side:
    try:
        return Side(obj)
    except ValueError:
        raise SimulatorError(f"{what} {obj!r}: expected one of {', '.join(s.value for s in Side)}") from None


def render_slide_video(
    start: Any,
    actions: list[dict],
    *,
    seed: int,
    fps: int = 15,
    size: tuple[int, int] = (1280, 720),
    path: str | Path,
    deck: str = "classic",
    look: str | None = None,
    camera: CameraSpec | None = None,
    conditions: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    min_card_px: float | None = MIN_CARD_PX,
    restore_wait_s: float = RESTORE_WAIT_S,
) -> dict:
    """Film player 0's grid from ``start`` (a ``SlideState`` or its position JSON) through
    ``actions`` to ``path`` (.mp4 or .avi); returns the truth (module doc).

    Raises SimulatorError (one line) for an action that cannot be filmed or is out of turn:
    the rules engine's order of reveals and pushes (a legal move of the player to act), a push
    the rules forbid (from the hole's own edge: that would be a ``place``), a ``place`` or
    ``slide`` without a hole, a restore with no illegal action standing."""
    state = _start_state(start)
    A.check_fps(fps)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulatorError(f"seed {seed!r}: expected an integer")
    if not isinstance(actions, list):
        raise SimulatorError(f"actions {actions!r:.60}: expected a list of dicts")
    path, fourcc = A.video_codec(path)
    the_look = L.get_look(look)
    rng = random.Random(seed * 1000003 + VIDEO_STREAM)
    layout = {"grid": to_json(state)["grids"][PLAYER], "deck": deck}
    scene, _ = slide_scene(layout, the_look, np.random.default_rng([seed, SCENE_STREAM]))
    table = _Table(state, scene, deck, state.players + 1)
    for k, n in enumerate(state.middle):  # a start in the place phase: the middle's cards lie there
        key = f"middle:{table.made}"
        table.made += 1
        xy = table.slot_xy(k)
        table.pieces[key] = replace(scene.pieces[0], code=f"{deck}:{n}", x=float(xy[0]), y=float(xy[1]),
                                    angle=rng.gauss(0, 2), tag="")
        table.cards[key] = [n, True]
        table.slots[k] = key
    film, rend, camera, cond = A.squares_film(fps, rng, table.pieces, the_look, seed=seed, size=size,
                                              extent=table.extent(), board=scene.board_corners, shape=(4, 4),
                                              camera=camera, conditions=conditions, min_square_px=min_card_px,
                                              tilt_range=TILT_RANGE, rotation_range=ROTATION_RANGE)
    mine = A.random_hand_style(rng, arm=0.0, spread=15.0, reverse=0.0)
    others = [A.random_hand_style(rng, arm=180.0, spread=25.0, reverse=0.0) for _ in range(state.players)]
    grip = 1.0 + CARD_MM

    game = state
    events: list[dict] = [{"t": 0.0, "type": "grid", "grid": read_grid(table.seen())}]
    if state.middle:
        events.append({"t": 0.0, "type": "middle", "cards": table.middle()})
    norm: list[dict] = []
    undo: dict | None = None  # the illegal action standing: how to put it back

    def offstage(xy: np.ndarray, style: A.HandStyle) -> np.ndarray:
        """A point beyond the frame along the arm of ``style`` from ``xy``."""
        a = np.radians(style.arm)
        away = np.array([np.sin(a), np.cos(a)])
        return xy + away * (film.reach(xy, away) + 60.0)

    def turn_check(idx: int, kind: str) -> None:
        if game.is_over:
            raise SimulatorError(f"action {idx}: a {kind} after the game is over")
        want_phase = Phase.REVEAL if kind in ("reveal", "appear") else Phase.PLACE
        mine_turn = kind in ("reveal", "push")
        if game.phase is not want_phase or (game.to_act == PLAYER) != mine_turn:
            who = "the filmed player" if game.to_act == PLAYER else f"player {game.to_act + 1}"
            raise SimulatorError(f"action {idx}: a {kind} is out of turn: {who} is to "
                                 f"{'reveal' if game.phase is Phase.REVEAL else 'push'}")

    def apply(idx: int, move) -> None:
        nonlocal game
        try:
            game = game.apply(move)
        except IllegalMove as exc:
            raise SimulatorError(f"action {idx}: {move} cannot be filmed: {exc}") from None

    def middle_event(t: float) -> None:
        events.append({"t": t, "type": "middle", "cards": table.middle()})

    def illegal(kind: str, times: dict, before: Grid, middle: list[int], how: dict) -> None:
        nonlocal undo
        why = explain(before, table.seen(), middle)
        events.append({**times, "type": "illegal", "kind": kind, "reason": reason_json(why.why), "text": why.reason,
                       "cells": [list(c) for c in why.cells], "t_restored": None})
        undo = {**how, "event": events[-1]}

    started = False
    for idx, act in enumerate(actions):
        kind = A.action_type(idx, act, ACTION_TYPES)
        if kind == "pause":
            norm.append(film.pause(idx, act))
            continue
        if kind == "restore" and undo is None:
            raise SimulatorError(f"action {idx}: a restore is out of turn: no illegal action stands")
        if kind != "restore" and undo is not None:
            raise SimulatorError(f"action {idx}: a {kind} is out of turn: an illegal action stands (expected a "
                                 "restore or a pause)")
        if kind == "restore":
            film.rest(rng.uniform(0.3, 1.0) + restore_wait_s)
        else:
            film.rest(rng.uniform(*(START_WAIT_S if not started else (0.5, 1.5))))
            started = True
        norm.append(dict(act))
        hole = table.hole()

        if kind == "restore":
            key = undo["key"]
            if "cell" in undo:  # back into the grid, face down again after a second reveal
                flip = table.face(key, False) if undo.get("down") else None
                frames = A.set_down(film, key, undo["xy"], 0.0, grip, mine, hop=FLIP_HOP_MM, become=flip)
                if flip is not None:
                    table.cards[key][1] = False
                if key in table.slots:
                    table.slots[table.slots.index(key)] = None
                if undo.get("from_cell") is not None:
                    table.at[undo["from_cell"]] = None
                table.at[undo["cell"]] = key
            else:  # back to its place in the middle
                frames = A.set_down(film, key, table.slot_xy(undo["slot"]), 0.0, grip, mine)
                table.at[undo["from_cell"]] = None
                table.slots[undo["slot"]] = key
            times = A.hand_times(film, frames)
            undo["event"]["t_restored"] = times["t_clear"]
            events.append({**times, "type": "restored", "grid": read_grid(table.seen())})
            undo = None
            continue

        if kind == "reveal":
            cell = _cell(act.get("cell"), f"action {idx} 'cell'")
            key = table.at[cell]
            if key is None or table.cards[key][1]:
                raise SimulatorError(f"action {idx}: no face-down card lies on {list(cell)}")
            before, middle = table.seen(), table.middle()
            k = table.free_slot()
            xy = table.slot_xy(k) + np.array([rng.gauss(0, 1.0), rng.gauss(0, 1.0)])
            back = (table.pieces[key].x, table.pieces[key].y)
            frames = A.set_down(film, key, xy, 0.0, grip, mine, hop=FLIP_HOP_MM, become=table.face(key, True))
            table.cards[key][1] = True
            table.at[cell], table.slots[k] = None, key
            times = A.hand_times(film, frames)
            if hole is not None:  # a second card revealed this round
                illegal("two-reveals", times, before, middle,
                        {"key": key, "cell": cell, "xy": back, "down": True})
                continue
            turn_check(idx, kind)
            events.append({**times, "type": "reveal", "cell": list(cell), "card": table.cards[key][0]})
            apply(idx, Reveal(cell))
            if game.phase is Phase.PLACE:
                middle_event(times["t_clear"])
            continue

        if kind == "appear":
            turn_check(idx, kind)
            cell = _cell(act.get("cell"), f"action {idx} 'cell'")
            player = game.to_act
            card = game.grids[player][cell]
            apply(idx, Reveal(cell))
            k = table.free_slot()
            key = f"middle:{table.made}"
            table.made += 1
            xy = table.slot_xy(k) + np.array([rng.gauss(0, 1.0), rng.gauss(0, 1.0)])
            style = others[player]
            far = offstage(xy, style)
            table.cards[key] = [card.number, True]
            film.pieces[key] = replace(scene.pieces[0], code=f"{deck}:{card.number}", x=float(far[0]), y=float(far[1]),
                                       angle=rng.gauss(0, 3), tag="")
            # the hand brings the card in from beyond the frame in one sweep and lays it down
            steps = [{"to": xy, "h": grip + 8.0, "secs": rng.uniform(0.8, 1.2), "carry": [(key, (xy, 0.0))]},
                     {"to": xy, "h": grip, "secs": 0.2}]
            hand_in = film.frame
            rest, end = film.animate(steps, style)
            frames = (hand_in, rest, end)
            film.pieces[key] = replace(film.pieces[key], x=float(xy[0]), y=float(xy[1]))
            table.slots[k] = key
            if game.phase is Phase.PLACE:
                middle_event(A.hand_times(film, frames)["t_clear"])
            continue

        if kind == "take":
            turn_check(idx, kind)
            card = _card(act.get("card"), f"action {idx} 'card'")
            side = _side(act.get("side"), f"action {idx} 'side'")
            player = game.to_act
            key = table.middle_key(card, idx)
            apply(idx, Push(card, side))
            style = others[player]
            p = film.pieces[key]
            here = np.array([p.x, p.y])
            far = offstage(here, style)
            # the hand picks the card up and sweeps it away beyond the frame
            steps = [{"to": here, "h": A.REST_HEIGHT, "secs": rng.uniform(0.5, 0.8)},
                     {"to": here, "h": grip, "secs": 0.25},
                     {"to": far, "h": grip + 8.0, "secs": rng.uniform(0.8, 1.2), "carry": [(key, (far, 8.0))]}]
            hand_in = film.frame
            rest, end = film.animate(steps, style)
            frames = (hand_in, rest, end)
            del film.pieces[key]
            table.slots[table.slots.index(key)] = None
            middle_event(A.hand_times(film, frames)["t_clear"])
            continue

        if kind in ("place", "slide"):
            if hole is None:
                raise SimulatorError(f"action {idx}: a {kind} needs a hole in the grid (there is none)")
            before, middle = table.seen(), table.middle()
            if kind == "place":
                card = _card(act.get("card"), f"action {idx} 'card'")
                key = table.middle_key(card, idx)
                if _leaves_a_push(before, hole, card, middle):
                    raise SimulatorError(f"action {idx}: the {card} put straight into the hole leaves the grid a push "
                                         "of it makes: a camera cannot see it was illegal")
                slot = table.slots.index(key)
                xy = table.nominal(hole) + np.array([rng.gauss(0, 1.0), rng.gauss(0, 1.0)])
                frames = A.set_down(film, key, xy, 0.0, grip, mine)
                table.slots[slot], table.at[hole] = None, key
                how = {"key": key, "slot": slot, "from_cell": hole}
            else:
                frm = _cell(act.get("from"), f"action {idx} 'from'")
                if max(abs(frm[0] - hole[0]), abs(frm[1] - hole[1])) != 1:
                    raise SimulatorError(f"action {idx}: {list(frm)} is not next to the hole {list(hole)}")
                key = table.at[frm]
                p = film.pieces[key]
                off = np.array([p.x, p.y]) - table.nominal(frm)
                frames = A.set_down(film, key, table.nominal(hole) + off, 0.0, grip, mine)
                table.at[frm], table.at[hole] = None, key
                how = {"key": key, "cell": frm, "xy": (p.x, p.y), "from_cell": hole}
            if kind == "slide":
                kind = "diagonal" if frm[0] != hole[0] and frm[1] != hole[1] else "slide"
            illegal("straight" if kind == "place" else kind, A.hand_times(film, frames), before, middle, how)
            continue

        # the filmed player's push
        turn_check(idx, kind)
        card = _card(act.get("card"), f"action {idx} 'card'")
        side = _side(act.get("side"), f"action {idx} 'side'")
        key = table.middle_key(card, idx)
        before = table.seen()
        apply(idx, Push(card, side))
        edge = edge_cell(hole, side.direction, SHAPE)
        line = [hole, *ray(hole, side.direction, SHAPE)]  # hole first, edge last
        dr, dc = side.direction.delta
        out = np.array([dc * table.px, dr * table.py])  # one place outwards, towards the edge the card enters from
        jitter = np.array([rng.gauss(0, 1.0), rng.gauss(0, 1.0)])
        stage = table.nominal(edge) + out + jitter
        p = film.pieces[key]
        here = np.array([p.x, p.y])
        hop = 8.0
        top = grip
        push_s = rng.uniform(*PUSH_S)
        moving = [(table.at[c], np.array([film.pieces[table.at[c]].x, film.pieces[table.at[c]].y]) - out)
                  for c in line[1:]]
        steps = [
            {"to": here, "h": A.REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
            {"to": here, "h": top, "secs": 0.25},
            {"to": here, "h": top + hop, "secs": 0.2, "carry": [(key, (here, hop))]},
            {"to": stage, "h": top + hop, "secs": 0.35 + float(np.linalg.norm(stage - here)) / 400.0,
             "carry": [(key, (stage, hop))]},
            {"to": stage, "h": top, "secs": 0.2, "carry": [(key, (stage, 0.0))]},
            {"to": stage - out, "h": top, "secs": push_s,
             "carry": [(key, (stage - out, 0.0))] + [(k, (xy, 0.0)) for k, xy in moving]},
        ]
        hand_in = film.frame
        rest, end = film.animate(steps, mine)
        for k, xy in moving + [(key, stage - out)]:
            film.pieces[k] = replace(film.pieces[k], x=float(xy[0]), y=float(xy[1]))
        for a, b in zip(line, line[1:]):
            table.at[a] = table.at[b]
        table.at[edge] = key
        table.slots[table.slots.index(key)] = None
        after = table.seen()
        axis = side.axis
        events.append({**A.hand_times(film, (hand_in, rest, end)), "type": "push", "card": card,
                       "line": "row" if axis == "row" else "column", "index": hole[0] if axis == "row" else hole[1],
                       "from_side": side.value, "cells": [list(c) for c in before.diff(after)],
                       "grid": read_grid(after)})
    if undo is not None:
        raise SimulatorError("the actions end while an illegal action stands: add a restore")
    if game.is_over:
        scores = game.scores()
        events.append({"t": film.t(film.frame), "type": "scores", "scores": [s.to_json() for s in scores],
                       "winners": winners(scores)})
    film.rest(rng.uniform(1.0, 2.0))

    A.write_film(film, path, fourcc, rend, seed=seed, stream=VIDEO_STREAM, flicker=cond.get("flicker", 0.0),
                 board_px=rend.proj(scene.board_corners), progress=progress)
    corners = [[round(float(x), 2), round(float(y), 2)] for x, y in camera.project(np.asarray(scene.board_corners))]
    return A.video_truth(GAME, film, camera, the_look.name, cond, seed, deck=deck,
                         start={"grid": events[0]["grid"], "position": to_json(state)},
                         end={"grid": read_grid(table.seen()), "position": to_json(game)},
                         events=events, actions=norm, board_corners=corners)


# ------------------------------------------------------------------------------------------
# seeded games


def random_round_game(seed: int, rounds: int, players: int = 2, illegal: int = 0,
                      kinds: tuple[str, ...] = ILLEGAL_KINDS, first: int | None = None,
                      played: int = 0) -> tuple[SlideState, list[dict]]:
    """A seeded game of ``rounds`` rounds (0 to 16): the start (``rules.slide.state.deal`` of
    ``seed``, then ``played`` rounds played off camera, so that the film can show a game's last
    rounds and its end with ``played + rounds`` 16) and the actions, every player's reveal and
    push chosen at random among the legal ones, the filmed player's (player 0) as
    ``reveal``/``push``, the others' as ``appear``/``take``. ``illegal``: that many rounds (at most ``rounds``) hold one illegal
    action of the filmed player, of a kind drawn from ``kinds`` (``ILLEGAL_KINDS``), followed by
    its restore: ``two-reveals`` (a second card revealed right after the first),
    ``straight`` (a middle card placed straight into the hole; one that ``looks_pushed`` is
    drawn again, and where every middle card would, a diagonal comes instead) or ``diagonal``
    (a grid card diagonally next to the hole moved into it), both just before the push."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= ROUNDS:
        raise SimulatorError(f"rounds {rounds!r}: expected 0 to {ROUNDS}")
    if isinstance(played, bool) or not isinstance(played, int) or not 0 <= played <= ROUNDS - rounds:
        raise SimulatorError(f"played {played!r}: expected 0 to {ROUNDS - rounds} rounds before the {rounds} filmed")
    if isinstance(illegal, bool) or not isinstance(illegal, int) or illegal < 0:
        raise SimulatorError(f"illegal {illegal!r}: expected a count 0 or more")
    kinds = tuple(kinds) if isinstance(kinds, (list, tuple)) else (kinds,)
    bad = [k for k in kinds if k not in ILLEGAL_KINDS]
    if bad or (illegal and not kinds):
        raise SimulatorError(f"illegal kinds {list(kinds)!r}: expected some of {', '.join(ILLEGAL_KINDS)}")
    try:
        start = deal(seed, players, first)
    except MalformedPosition as exc:
        raise SimulatorError(str(exc)) from None
    rng = random.Random(seed * 7 + 3)
    wrong_at = set(rng.sample(range(rounds), min(illegal, rounds)))
    if played:  # off camera, from a stream of its own (a game with played=0 is unchanged)
        off = random.Random(seed * 7 + 5)
        for _ in range(played * start.players * 2):
            start = start.apply(off.choice(start.legal_moves()))
    state = start
    actions: list[dict] = []
    for rnd in range(rounds):
        wrong = rng.choice(kinds) if rnd in wrong_at else None
        if wrong == "two-reveals" and len(state.face_down(PLAYER)) < 2:  # the last round: one card left
            wrong = rng.choice([k for k in kinds if k != wrong] or [None])
        for p in state.order:
            cell = rng.choice(state.face_down(p))
            actions.append({"type": "reveal" if p == PLAYER else "appear", "cell": list(cell)})
            if p == PLAYER and wrong == "two-reveals":
                second = rng.choice([c for c in state.face_down(p) if c != cell])
                actions += [{"type": "reveal", "cell": list(second)}, {"type": "restore"}]
            state = state.apply(Reveal(cell))
        for p in state.order:
            move = rng.choice(state.legal_moves())
            if p == PLAYER:
                hole = state.hole(p)
                if wrong == "straight":
                    card = rng.choice(state.middle)
                    if looks_pushed(state, card):  # (drawn again: a game drawing no such card is unchanged)
                        unseen = [c for c in state.middle if not looks_pushed(state, c)]
                        card = rng.choice(unseen) if unseen else None
                    if card is None:
                        wrong = "diagonal"
                    else:
                        actions += [{"type": "place", "card": card}, {"type": "restore"}]
                if wrong == "diagonal":
                    near = [(hole[0] + a, hole[1] + b) for a in (-1, 1) for b in (-1, 1)]
                    frm = rng.choice([c for c in near if in_bounds(c, SHAPE)])
                    actions += [{"type": "slide", "from": list(frm)}, {"type": "restore"}]
            actions.append({"type": "push" if p == PLAYER else "take", "card": move.card, "side": move.side.value})
            state = state.apply(move)
    return start, actions


def looks_pushed(state: SlideState, card: int) -> bool:
    """Whether ``card`` put straight into the filmed player's hole leaves the grid a push of it
    makes (the same number from the line's edge end up to the hole): a camera cannot see it."""
    return _leaves_a_push(observe(state.grids[PLAYER]), state.hole(PLAYER), card, state.middle)


def _leaves_a_push(seen: Grid, hole, card: int, middle) -> bool:
    """Whether ``card`` put straight into ``hole`` of the observed grid ``seen`` leaves a grid
    that a legal push (of a card in ``middle``) also makes."""
    return explain(seen, seen.set(hole, card), middle).ok


def play(start: SlideState, actions: list[dict]) -> SlideState:
    """The rules engine's state after the legal moves of ``actions`` (illegal ones and their
    restores skipped): what a film of them ends on."""
    state = start
    for act in actions:
        kind = act["type"]
        if kind == "reveal" and state.hole(PLAYER) is not None:
            continue  # a second reveal: put back
        if kind in ("reveal", "appear"):
            state = state.apply(Reveal(tuple(act["cell"])))
        elif kind in ("push", "take"):
            state = state.apply(Push(act["card"], Side(act["side"])))
    return state


__all__ = ["render_slide_video", "random_round_game", "play", "read_grid", "ILLEGAL_KINDS"]
