"""Recorded Steppin' Stones (Ken Maher) games as videos with exact event truth.

``render_stones_video(start, actions, seed=..., path=...)`` films the solitaire's table (8x8
squares on 4x4 tiles, the four ace tiles face up in the corners, coins either side up, the
pawns, and with ``dice="table"`` the dice of the suits in play beside the board, right of it)
while a player's hand moves pieces, turns coins over and rolls the dice, and returns the
truth. ``random_game(seed, turns, illegal=...)`` makes the actions of a seeded game with the
rules engine (``rules.steppin_stones.state``), illegal actions mixed in, each followed by its
restore.

The camera sits on the player's side: a random camera (no ``camera`` given) stands within
``ROTATION_RANGE`` degrees of behind the near edge (row 7) and tilts up to ``TILT_RANGE``,
framing the board and (table dice) the dice area right of it, moved in until the squares are
``min_square_px``. Only the standard table is filmed (8x8, no aces, not the larger board;
``highest_first`` changes no piece on the table and is allowed).

``dice``: ``"table"``, the dice lie beside the board showing the current roll and the player
rolls them (the ``roll`` action); ``"caller"``, no dice on the table: the Caller rolls and
says the faces, which it does by itself whenever a legal action (or the start) leaves nothing
to do but end the turn (``legal_moves(state) == [EndTurn()]``), at once, with no hand.

Actions (squares ``[row, col]``, row 0 on the far side, as the rules):

- ``{"type": "move", "from": [r, c], "to": [r, c]}``: a hand lifts the top piece on ``from``
  (the pawn if one stands there, else the coin) and sets it on ``to``: a coin only on an empty
  square, a pawn on an empty square or on a coin (it stands on it). Judged by
  ``apply(state, Move(from, to))``.
- ``{"type": "flip", "at": [r, c]}``: a hand turns the coin on ``at`` (value side up, no pawn
  on it) over to its suit side: a stepping stone. Judged by ``apply(state, Flip(at))``.
- ``{"type": "roll"}`` (table dice only): the player ends the turn (``EndTurn``: a
  SimulatorError while a flip is owed) and rolls: a hand first carries off the table (out of
  the picture) each die whose suit's pawn is home, then gathers the others, shakes them and
  lets them fall on new spots of the dice area showing the new roll's faces. The player then
  looks at the dice ``ROLL_WAIT_S`` more before the next action.
- ``{"type": "restore"}``, only right after an illegal move or flip: the piece put back as it
  was (a flipped coin turned back).
- ``{"type": "pause", "seconds": s}``.

An action comes 0.5-1.8 s after the table last settled (the first, ``START_WAIT_S`` after the
film starts); a restore 0.3-1.0 s plus ``restore_wait_s`` after the illegal action.

Truth (JSON-ready): ``{"game": "steppin-stones", "fps", "size", "frames", "duration",
"start", "end", "events", "timeline", "actions", "board_corners", "dice", "camera", "look",
"conditions", "seed"}``; ``start`` and ``end`` are position JSON (``rules.steppin_stones.codec``),
``dice`` the mode. ``events``:

- ``{"t": 0, "type": "board", "board": codec rows ("S3" a coin value side up, "S" a stone,
  null), "pawns": {"S": [r, c], ...}}``, then the start's roll ``{"t": 0, "type": "roll",
  "turn": 1, "dice": [{"suit", "face"}, ...], "by": "table" | "caller"}``;
- ``move`` (``piece``: "S3" a coin, "S*" a stepping stone, "@S" a pawn; ``from``, ``to``,
  ``home``: a pawn that reached its home tile), ``flip`` (``at``, ``suit``), ``phase``
  (``suit``, ``phase``: 2, after the flip that turns a suit's last value coin), ``illegal``
  (``code``, ``reason``: ``rules.steppin_stones.reasons.text``, ``cells``: the squares the
  action touched), ``restored``, ``roll`` (each new roll, ``turn`` its number), ``won`` or
  ``lost`` (checked after every legal action and every roll; nothing may follow).

Events of a hand have ``t`` (the pieces at rest), ``t_clear`` (the hand gone) and ``t_hand``
(the hand coming in); the others (``phase``, ``won``, ``lost``, the Caller's ``roll``) only
``t``, the ``t_clear`` of the action that caused them. ``timeline`` lists after each action
but pauses ``{"t", "action", "position"}``: the position JSON, null while an illegal action
stands.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from rules.errors import IllegalMove, MalformedPosition
from rules.pieces import SUITS, Coin, Suit
from rules.steppin_stones import reasons
from rules.steppin_stones.codec import from_json, to_json
from rules.steppin_stones.state import (
    EndTurn, Flip, Move, State, Stone, actions as state_actions, apply, home_cells, legal_moves, setup,
)
from simulator import animation as A
from simulator import looks as L
from simulator import scene as S
from simulator.camera import CameraSpec
from simulator.errors import SimulatorError
from simulator.games import steppin_stones_scene
from simulator.render import SCENE_STREAM

GAME = "steppin-stones"
VIDEO_STREAM = 14  # random.Random and exposure-drift stream of these videos (Slider's is 13)
TILT_RANGE = (0.0, 35.0)  # degrees: random cameras of these videos
ROTATION_RANGE = (-35.0, 35.0)  # degrees around the board from behind the player: the camera on their side
#: px at 1280x720: squares on which the reader tells a coin's numerals apart (on 18-25 px squares
#: it confuses a 2 and a 3: docs/vision.md); a player frames the board that close
MIN_SQUARE_PX = 28.0
RESTORE_WAIT_S = 1.2  # s: added to the rest before a restore (the Caller speaks within 1 s)
START_WAIT_S = (2.0, 3.0)  # s: before the first action (the Caller has seen the start stand still)
ROLL_WAIT_S = (1.0, 1.8)  # s: added to the rest after a roll on the table (the player reads the dice)
DICE_MODES = ("table", "caller")
ACTION_TYPES = ("move", "flip", "roll", "restore", "pause")
#: the dice area right of the board, in mm from the tiles' right edge (the dice's centres): the
#: band the dice reader searches reaches about a tile's pitch out
DICE_AREA_X = (13.0, 40.0)
DICE_AREA_Y = 80.0  # mm: the dice's centres lie within this of the board's middle row line
DICE_GAP_MM = 20.0  # mm between two dice's centres at least: turned 30 degrees they do not touch
#: the kinds of illegal action ``random_game`` mixes in
ILLEGAL_KINDS = ("distance", "over-higher", "flip-no-die", "pawn-off-stones")


def _start_state(start: Any) -> State:
    if isinstance(start, State):
        state = start
    else:
        try:
            state = from_json(start)
        except MalformedPosition as exc:
            raise SimulatorError(f"start position: {exc}") from None
    o = state.options
    if o.large or o.aces:
        raise SimulatorError(f"start position: options {to_json(state)['options']}: only the standard table is "
                             "filmed (8x8, no aces, not the larger board)")
    return state


def _square(obj, what: str) -> tuple[int, int]:
    if not (isinstance(obj, (list, tuple)) and len(obj) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in obj)):
        raise SimulatorError(f"{what} {obj!r}: expected a square [row, col]")
    if not (0 <= obj[0] < 8 and 0 <= obj[1] < 8):
        raise SimulatorError(f"{what} {list(obj)} is not on the 8x8 board")
    return (obj[0], obj[1])


def _dice_json(state: State) -> list[dict]:
    return [{"suit": d.suit.value, "face": d.face.value} for d in state.dice]


def _piece_code(state: State, cell) -> str:
    suit = state.pawn_on(cell)
    if suit is not None:
        return "@" + suit.value
    piece = state.board[cell]
    return piece.suit.value + "*" if isinstance(piece, Stone) else piece.code


class _Table:
    """The film's pieces (``pieces``: key -> scene piece at rest), where each coin and pawn lies
    (``at``: key -> square) and the dice (``die:S`` keys) in the dice area."""

    def __init__(self, state: State, look: L.Look, seed: int, dice: bool):
        layout = {"board": to_json(state)["board"], "pawns": {s.value: list(state.pawn(s)) for s in SUITS},
                  "dice": []}
        scene, _ = steppin_stones_scene(layout, look, np.random.default_rng([seed, SCENE_STREAM]))
        self.scene, self.look = scene, look
        self.t = look.tile_thickness_mm
        self.pieces: dict[str, Any] = {}
        self.at: dict[str, tuple[int, int]] = {}
        for k, p in enumerate(scene.pieces):
            kind, *rest = p.tag.split(":")
            if kind == "coin":
                key = f"coin:{rest[0]}:{rest[1]}"
                self.at[key] = (int(rest[0]), int(rest[1]))
            elif kind == "pawn":
                key = p.tag
                self.at[key] = tuple(state.pawn(Suit(rest[0])))
                if state.board[self.at[key]] is not None:  # a pawn on a stone stands on it
                    p = replace(p, base=self.t + look.coin_thickness_mm)
            else:
                key = f"{p.tag or 'piece'}#{k}"
            self.pieces[key] = p
        self.right = float(scene.board_corners[:, 0].max())
        self.rng = np.random.default_rng([seed, VIDEO_STREAM])
        if dice:
            for d, (x, y) in zip(state.dice, self.dice_spots(len(state.dice))):
                self.pieces[f"die:{d.suit.value}"] = S.Die(x, y, float(self.rng.uniform(-30, 30)), d.suit.value,
                                                           d.face.value, f"die:{d.suit.value}")

    def dice_area(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) mm: the box the dice lie in, their whole squares."""
        r = L.DIE_MM
        return (self.right + DICE_AREA_X[0] - r, -DICE_AREA_Y - r, self.right + DICE_AREA_X[1] + r, DICE_AREA_Y + r)

    def dice_spots(self, n: int) -> list[tuple[float, float]]:
        """``n`` spots in the dice area at least ``DICE_GAP_MM`` apart, top to bottom."""
        while True:
            pts = [(self.right + float(self.rng.uniform(*DICE_AREA_X)), float(self.rng.uniform(-DICE_AREA_Y, DICE_AREA_Y)))
                   for _ in range(n)]
            if all(np.hypot(a[0] - b[0], a[1] - b[1]) >= DICE_GAP_MM for i, a in enumerate(pts) for b in pts[i + 1:]):
                return sorted(pts, key=lambda p: p[1])

    def centre(self, cell) -> np.ndarray:
        return self.scene.cells[tuple(cell)][:, :2].mean(0)

    def key_at(self, cell, pawn: bool) -> str | None:
        want = "pawn:" if pawn else "coin:"
        return next((k for k, v in self.at.items() if v == tuple(cell) and k.startswith(want)), None)

    def top_key(self, cell) -> str | None:
        return self.key_at(cell, True) or self.key_at(cell, False)


def _coin_look(look: L.Look, piece, side: str):
    """The coin ``piece`` showing ``side`` (a suit letter or a rank), where it lies."""
    return S.coin(look, piece.x, piece.y, side, piece.angle, piece.tag, base=piece.base)


def render_stones_video(
    start: Any,
    actions: list[dict],
    *,
    seed: int,
    fps: int = 15,
    size: tuple[int, int] = (1280, 720),
    path: str | Path,
    look: str | None = None,
    camera: CameraSpec | None = None,
    conditions: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    min_square_px: float | None = MIN_SQUARE_PX,
    restore_wait_s: float = RESTORE_WAIT_S,
    dice: str = "table",
) -> dict:
    """Render the game from ``start`` (a rules ``State`` or its position JSON) through
    ``actions`` to ``path`` (.mp4 or .avi); returns the truth (module doc).

    Raises SimulatorError for a start that is not the standard table, a ``dice`` mode that is
    not "table" or "caller", and an action that cannot be filmed: nothing on ``from``, a coin
    set on a square that is not empty or a pawn on a pawn, a flip of a square with no coin
    value side up or with a pawn on it, a roll with the Caller's dice or while a flip is owed,
    anything but a pause or a restore after an illegal action (and a restore anywhere else),
    or anything but a pause after the end of the game."""
    state = _start_state(start)
    A.check_fps(fps)
    if dice not in DICE_MODES:
        raise SimulatorError(f"dice {dice!r}: expected 'table' or 'caller'")
    path, fourcc = A.video_codec(path)
    the_look = L.get_look(look)
    rng = random.Random(seed * 1000003 + VIDEO_STREAM)
    on_table = dice == "table"
    table = _Table(state, the_look, seed, on_table)
    scene = table.scene
    x0, y0, x1, y1 = scene.extent
    if on_table:
        d0, e0, d1, e1 = table.dice_area()
        x0, y0, x1, y1 = min(x0, d0), min(y0, e0), max(x1, d1), max(y1, e1)
    film, rend, camera, cond = A.squares_film(fps, rng, table.pieces, the_look, seed=seed, size=size,
                                              extent=(x0, y0, x1, y1), board=scene.board_corners, shape=(8, 8),
                                              camera=camera, conditions=conditions, min_square_px=min_square_px,
                                              tilt_range=TILT_RANGE, rotation_range=ROTATION_RANGE)
    style = A.random_hand_style(rng, arm=0.0, spread=20.0, reverse=0.0)
    coin_h = the_look.coin_thickness_mm

    game = state
    events: list[dict] = [
        {"t": 0.0, "type": "board", "board": to_json(state)["board"],
         "pawns": {s.value: list(state.pawn(s)) for s in SUITS}},
        {"t": 0.0, "type": "roll", "turn": state.turn, "dice": _dice_json(state), "by": dice},
    ]
    timeline: list[dict] = []
    norm: list[dict] = []
    undo: dict | None = None  # the illegal action standing: how to put it back

    def after_legal(t: float) -> None:
        """The end of the game, or the Caller's rolls, at ``t``."""
        nonlocal game
        for _ in range(1000):
            if game.won:
                events.append({"t": t, "type": "won"})
                return
            if game.lost:
                events.append({"t": t, "type": "lost"})
                return
            if on_table or legal_moves(game) != [EndTurn()]:
                return
            game = apply(game, EndTurn())
            events.append({"t": t, "type": "roll", "turn": game.turn, "dice": _dice_json(game), "by": "caller"})
        raise SimulatorError("the Caller rolled 1000 times and no roll gave a move")  # never with the rules' dice

    after_legal(0.0)
    acted = False
    for idx, act in enumerate(actions):
        kind = A.action_type(idx, act, ACTION_TYPES)
        if kind == "pause":
            norm.append(film.pause(idx, act))
            continue
        if (kind == "restore") != (undo is not None):
            want = "a restore or a pause (an illegal action stands)" if undo is not None else \
                "a move, a flip, a roll or a pause"
            raise SimulatorError(f"action {idx}: a {kind} here is out of turn: expected {want}")
        if kind != "restore" and (game.won or game.lost):
            raise SimulatorError(f"action {idx}: the game is over ({'won' if game.won else 'lost'}): nothing more "
                                 "may be done")
        if kind == "restore":
            film.rest(rng.uniform(0.3, 1.0) + restore_wait_s)
            frames = A.set_down(film, undo["key"], undo["xy"], undo["base"], undo["grip"], style,
                                become=undo.get("become"))
            table.at[undo["key"]] = undo["from"]
            events.append({**A.hand_times(film, frames), "type": "restored"})
            norm.append({"type": "restore"})
            undo = None
            timeline.append({"t": film.t(film.frame), "action": idx, "position": to_json(game)})
            continue
        if kind == "roll":
            if not on_table:
                raise SimulatorError(f"action {idx}: a roll with dice='caller': the Caller rolls the dice")
            try:
                rolled = apply(game, EndTurn())
            except IllegalMove as exc:
                raise SimulatorError(f"action {idx}: a roll now is not allowed: {exc}") from None
        film.rest(rng.uniform(*(START_WAIT_S if not acted else (0.5, 1.8))))
        acted = True
        if kind == "roll":
            times = _roll(film, table, game, rolled, style)
            game = rolled
            events.append({**times, "type": "roll", "turn": game.turn, "dice": _dice_json(game), "by": "table"})
            norm.append({"type": "roll"})
            after_legal(times["t_clear"])
            timeline.append({"t": film.t(film.frame), "action": idx, "position": to_json(game)})
            film.rest(rng.uniform(*ROLL_WAIT_S))
            continue
        if kind == "flip":
            at = _square(act.get("at"), f"action {idx} 'at'")
            key = table.key_at(at, False)
            if key is None:
                raise SimulatorError(f"action {idx}: no coin lies on {list(at)}")
            if table.key_at(at, True) is not None:
                raise SimulatorError(f"action {idx}: a pawn stands on the coin on {list(at)}")
            if isinstance(game.board[at], Stone):
                raise SimulatorError(f"action {idx}: the coin on {list(at)} is suit side up already")
            piece = table.pieces[key]
            coin = game.board[at]
            xy = np.array([piece.x, piece.y]) + np.array([rng.gauss(0, 0.8), rng.gauss(0, 0.8)])
            frames = A.set_down(film, key, xy, piece.base, 1.0 + coin_h, style,
                                become=_coin_look(the_look, piece, coin.suit.value))
            norm.append({"type": "flip", "at": list(at)})
            times = A.hand_times(film, frames)
            try:
                game = apply(game, Flip(at))
            except IllegalMove as exc:
                events.append({**times, "type": "illegal", "code": exc.reason.code, "reason": reasons.text(exc.reason),
                               "cells": [list(at)]})
                undo = {"key": key, "from": at, "xy": (piece.x, piece.y), "base": piece.base, "grip": 1.0 + coin_h,
                        "become": piece}
                timeline.append({"t": film.t(film.frame), "action": idx, "position": None})
                continue
            events.append({**times, "type": "flip", "at": list(at), "suit": coin.suit.value})
            if not game.value_coins(coin.suit):
                events.append({"t": times["t_clear"], "type": "phase", "suit": coin.suit.value, "phase": 2})
            after_legal(times["t_clear"])
            timeline.append({"t": film.t(film.frame), "action": idx, "position": to_json(game)})
            continue
        # a move
        frm = _square(act.get("from"), f"action {idx} 'from'")
        to = _square(act.get("to"), f"action {idx} 'to'")
        key = table.top_key(frm)
        if key is None:
            raise SimulatorError(f"action {idx}: nothing lies on {list(frm)}")
        pawn = key.startswith("pawn:")
        if to == frm:
            raise SimulatorError(f"action {idx}: 'to' is 'from' {list(frm)}: a piece is moved to another square")
        if table.key_at(to, True) is not None:
            raise SimulatorError(f"action {idx}: a pawn stands on {list(to)}")
        below = table.key_at(to, False)
        if below is not None and not pawn:
            raise SimulatorError(f"action {idx}: a coin lies on {list(to)} (a coin is set only on an empty square)")
        piece = table.pieces[key]
        code = _piece_code(game, frm)
        xy = table.centre(to) + np.array([rng.gauss(0, 0.6 if pawn else 0.8), rng.gauss(0, 0.6 if pawn else 0.8)])
        base = table.t + (coin_h if below is not None else 0.0)
        grip = L.PAWN_HEIGHT_MM - 3.0 if pawn else 1.0 + coin_h
        frames = A.set_down(film, key, xy, base, grip, style)
        table.at[key] = to
        norm.append({"type": "move", "from": list(frm), "to": list(to)})
        times = A.hand_times(film, frames)
        try:
            game = apply(game, Move(frm, to))
        except IllegalMove as exc:
            events.append({**times, "type": "illegal", "code": exc.reason.code, "reason": reasons.text(exc.reason),
                           "cells": [list(frm), list(to)]})
            undo = {"key": key, "from": frm, "xy": (piece.x, piece.y), "base": piece.base, "grip": grip}
            timeline.append({"t": film.t(film.frame), "action": idx, "position": None})
            continue
        home = pawn and to in home_cells(Suit(key[5:]), game.size)
        events.append({**times, "type": "move", "piece": code, "from": list(frm), "to": list(to), "home": home})
        after_legal(times["t_clear"])
        timeline.append({"t": film.t(film.frame), "action": idx, "position": to_json(game)})
    film.rest(rng.uniform(1.0, 2.0))

    A.write_film(film, path, fourcc, rend, seed=seed, stream=VIDEO_STREAM, flicker=cond.get("flicker", 0.0),
                 board_px=rend.proj(scene.board_corners), layers=A.layered, progress=progress)
    corners = [[round(float(x), 2), round(float(y), 2)] for x, y in camera.project(np.asarray(scene.board_corners))]
    return A.video_truth(GAME, film, camera, the_look.name, cond, seed, start=to_json(state), end=to_json(game),
                         events=events, timeline=timeline, actions=norm, board_corners=corners, dice=dice)


def _roll(film: A.Film, table: _Table, before: State, after: State, style: A.HandStyle) -> dict:
    """Film a roll: the dice of suits now home carried out of the picture, then the others
    gathered, shaken and dropped on new spots showing ``after``'s faces; returns the hand times."""
    rng = film.rng
    hand_in = film.frame
    keep = {d.suit.value for d in after.dice}
    gone = [k for k in sorted(film.pieces) if k.startswith("die:") and k[4:] not in keep]
    for key in gone:  # carried off along the arm, out of the picture
        p = film.pieces[key]
        here = np.array([p.x, p.y])
        a = np.radians(style.arm)
        away = np.array([np.sin(a), np.cos(a)])
        out = here + away * (film.reach(here, away) + 80.0 if film.reach else A.LEAVE_MM)
        lift = 20.0
        film.animate([
            {"to": here, "h": A.REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
            {"to": here, "h": L.DIE_MM + 1.0, "secs": 0.25},
            {"to": here, "h": L.DIE_MM + 1.0 + lift, "secs": 0.2, "carry": [(key, (here, lift))]},
            {"to": out, "h": L.DIE_MM + 1.0 + lift, "secs": 0.5 + float(np.linalg.norm(out - here)) / 600.0,
             "carry": [(key, (out, lift))]},
        ], style)
        del film.pieces[key]
    keys = [f"die:{d.suit.value}" for d in after.dice]
    if not keys:
        return A.hand_times(film, (hand_in, film.frame, film.frame))
    dice = [film.pieces[k] for k in keys]
    here = np.mean([[p.x, p.y] for p in dice], axis=0)
    grab = np.array([table.right + sum(DICE_AREA_X) / 2, float(here[1])])
    spots = table.dice_spots(len(keys))
    angles = [float(table.rng.uniform(-30, 30)) for _ in keys]
    by_face = {d.suit.value: d.face.value for d in after.dice}
    lift = 30.0
    top = L.DIE_MM + 1.0
    gather = [(k, (grab + np.array([(i % 2) * 8.0 - 4.0, (i // 2) * 8.0 - 4.0]), lift)) for i, k in enumerate(keys)]
    shake = [(k, (xy + np.array([0.0, 12.0]), lift, 90.0)) for k, (xy, _) in gather]
    land_at = np.mean(spots, axis=0)
    steps = [
        {"to": here, "h": A.REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
        {"to": here, "h": top, "secs": 0.25},
        {"to": grab, "h": top + lift, "secs": 0.45, "carry": gather,
         "become": {k: replace(film.pieces[k], face=by_face[k[4:]]) for k in keys}},
        {"to": grab + np.array([0.0, 12.0]), "h": top + lift, "secs": 0.35, "carry": shake},
        {"to": land_at, "h": top + lift, "secs": 0.3,
         "carry": [(k, (np.asarray(s), 0.0, 360.0 + a - p.angle)) for k, s, a, p in zip(keys, spots, angles, dice)]},
    ]
    rest, end = film.animate(steps, style)
    for k, s, a in zip(keys, spots, angles):
        film.pieces[k] = replace(film.pieces[k], x=float(s[0]), y=float(s[1]), angle=a, face=by_face[k[4:]])
    return A.hand_times(film, (hand_in, rest, end))


# ------------------------------------------------------------------------------------------
# seeded games


def _empty(state: State, cell) -> bool:
    return state.board[cell] is None and state.pawn_on(cell) is None


def _is_illegal(state: State, move) -> bool:
    try:
        apply(state, move)
    except IllegalMove:
        return True
    return False


def _illegal_actions(state: State) -> dict[str, list[dict]]:
    """The illegal actions a player could make in ``state`` that a camera sees, by kind: a coin
    moved (in a straight line onto an empty square) a distance no die shows, or its value over a
    higher coin with a die showing its value, a coin flipped with no die of its suit
    showing the suit, a pawn stepped onto an empty square off its stones."""
    out: dict[str, list[dict]] = {k: [] for k in ILLEGAL_KINDS}
    shown = {d.face.number for d in state.dice if d.phase == 1 and d.left and d.face.value not in ("s",)}
    cells = [(r, c) for r in range(8) for c in range(8)]
    for cell in cells:
        piece = state.board[cell]
        if isinstance(piece, Coin) and state.pawn_on(cell) is None:
            v = piece.rank.number
            if v > 0:
                for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                    for d in range(1, 6):
                        to = (cell[0] + dr * d, cell[1] + dc * d)
                        if not (0 <= to[0] < 8 and 0 <= to[1] < 8) or not _empty(state, to):
                            continue
                        line = [(cell[0] + dr * k, cell[1] + dc * k) for k in range(1, d)]
                        act = {"type": "move", "from": list(cell), "to": list(to)}
                        if d not in shown and _is_illegal(state, Move(cell, to)):
                            out["distance"].append(act)
                        over = [state.board[x] for x in line if state.board[x] is not None]
                        if d == v and v in shown and any(isinstance(p, Coin) and p.rank.number > v for p in over) \
                                and _is_illegal(state, Move(cell, to)):
                            out["over-higher"].append(act)
            if _is_illegal(state, Flip(cell)):
                out["flip-no-die"].append({"type": "flip", "at": list(cell)})
    for suit in SUITS:
        at = state.pawn(suit)
        if state.is_home(suit):
            continue
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            to = (at[0] + dr, at[1] + dc)
            if 0 <= to[0] < 8 and 0 <= to[1] < 8 and _empty(state, to) and to not in home_cells(suit, 8) \
                    and _is_illegal(state, Move(at, to)):
                out["pawn-off-stones"].append({"type": "move", "from": list(at), "to": list(to)})
    return out


def _action_json(move) -> dict:
    if isinstance(move, Flip):
        return {"type": "flip", "at": list(move.at)}
    return {"type": "move", "from": list(move.frm), "to": list(move.to)}


def random_game(seed: int, turns: int, illegal: int = 0, dice: str = "table",
                roll_chance: float = 0.15) -> tuple[State, list[dict]]:
    """A seeded game: the start (``rules.steppin_stones.state.setup(seed=seed)``) and random
    legal actions (a move or flip chosen at random; with table dice the turn is ended with a
    roll ``roll_chance`` of the times it may be, and always when nothing else is legal; with
    the Caller's dice it rolls by itself then) until ``turns`` rolls are made or the game is
    won or lost; ``illegal`` illegal actions (``ILLEGAL_KINDS``) mixed in before some of the
    moves and flips, each followed by a restore. Same seed, same game."""
    if dice not in DICE_MODES:
        raise SimulatorError(f"dice {dice!r}: expected 'table' or 'caller'")
    rng = random.Random(seed * 7 + 9)
    start = setup(seed=seed)
    state = start
    played: list[tuple[State, dict]] = []  # (the state before, the legal action)
    rolls = 0
    while rolls < turns and not (state.won or state.lost):
        legal = legal_moves(state)
        options = state_actions(state)
        if not options or (dice == "table" and EndTurn() in legal and rng.random() < roll_chance):
            if dice == "table":
                played.append((state, {"type": "roll"}))
            state = apply(state, EndTurn())
            rolls += 1
            continue
        move = rng.choice(options)
        played.append((state, _action_json(move)))
        state = apply(state, move)
    # the illegal actions, before moves and flips chosen at random where one can be made
    spots = [i for i, (_, a) in enumerate(played) if a["type"] != "roll"]
    rng.shuffle(spots)
    wrong: dict[int, dict] = {}
    for i in spots:
        if len(wrong) >= illegal:
            break
        kinds = [opts for opts in _illegal_actions(played[i][0]).values() if opts]
        if kinds:
            wrong[i] = rng.choice(rng.choice(kinds))
    actions: list[dict] = []
    for i, (_, act) in enumerate(played):
        if i in wrong:
            actions += [wrong[i], {"type": "restore"}]
        actions.append(act)
    return start, actions


__all__ = ["render_stones_video", "random_game", "MIN_SQUARE_PX", "RESTORE_WAIT_S", "START_WAIT_S", "ROLL_WAIT_S",
           "ILLEGAL_KINDS"]
