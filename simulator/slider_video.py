"""Recorded Slider (Leckie & Erfani) games as videos with exact event truth.

``render_slider_video(start, actions, seed=..., path=...)`` films a Slider table (tiles grid
side up, N/2 x N/2 tiles; Horizontal's coins of ``h_suit`` and Vertical's of ``v_suit`` suit
side up; a die on each blocked square) on which players move coins by hand, and returns the
truth. ``random_game(seed, moves, illegal=...)`` makes the actions of a seeded game with the
rules engine (``rules.slider``), illegal moves mixed in, each followed by its restore;
``ai_game(seed, moves, ai=..., level=...)`` one where one side's moves are the computer's at a
fixed level (``rules.slider.ai.move_at_level``: what ``caller watch --ai`` calls), the other
side a scripted player's.

The camera sits on the players' side: a random camera (no ``camera`` given) stands within
``ROTATION_RANGE`` degrees of behind the near edge (board row N-1, Slider's row 0, nearest it)
and tilts up to ``TILT_RANGE``; the players' frame is the scene's.

Actions:

- ``{"type": "move", "from": [i, j], "to": [i, j] | null}`` (Slider's squares: column from the
  left, row from the bottom, both from 0): a hand lifts the coin on ``from`` and sets it on
  ``to``, or (``to`` null) carries it off the board's far edge (right for H, top for V) and
  lays it aside on the table beyond the tiles. The rules judge the board it leaves
  (``rules.slider.explain.explain_change``): a move of the player to move one square in one of
  their directions is legal (before the first move, either player may start); anything else
  (H left, V down, two squares, diagonal, the other side's coin, off a wrong edge) is illegal.
  ``to`` is a free square, or a coin one square away: the coin is set on it (illegal: the
  rules' verdict is ``occupied``; the camera sees only the top coin). Nothing is set on a die.
  A move comes 0.5-1.8 s after the board last settled; the first, ``START_WAIT_S`` after the
  film starts (the players wait for the Caller to name who moves first).
- ``{"type": "restore"}``, only after an illegal move: the coin put back where it was, after
  the illegal board stood 0.3-1.0 s plus ``restore_wait_s`` (a player waits for the Caller).
- ``{"type": "pause", "seconds": s}``.

Truth (JSON-ready): ``{"game": "slider", "fps", "size", "frames", "duration", "start", "end",
"events", "timeline", "actions", "camera", "look", "conditions", "seed", "board_corners"}``.
``start`` and ``end`` are position JSON (``rules.slider.codec``). ``events`` follow the live
Caller's schema (``caller.referees.slider_live``): ``board`` (``n``, ``board`` rows from the
top, ``h_suit``, ``v_suit``, ``to_move``: null when either player may start), ``turn`` (``side``;
``first`` at t=0), ``move`` (``side``, ``from``, ``to``: null off the board), ``pass`` (``side``),
``illegal`` (``reason``: the rules' verdict in words, ``code``, ``squares``: the squares that
changed), ``restored``, ``won`` (``side``, ``suit``) or ``tie``, and in a game with ``ai``
(``ai`` and ``level`` then top-level keys too, and the first ``turn``'s ``ai``), ``call``
(``side``, ``from``, ``to``: the computer's move, as the Caller says it when the board before it
settles). Events of a hand have ``t`` (the coin at rest), ``t_clear`` (the hand gone)
and ``t_hand`` (the hand coming in); ``turn``, ``pass``, ``won``, ``tie`` and ``call`` come at
the ``t_clear`` of the move before them. ``timeline`` lists after each action but pauses
``{"t", "action", "board", "position"}``: the board (rows from the top, "H"/"V"/"B"/null) and
the position JSON (null while an illegal move stands).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from rules.errors import MalformedPosition
from rules.slider.ai import DEFAULT_LEVEL, LEVELS, move_at_level
from rules.slider import reasons
from rules.slider.board import Side, direction_between, slider_step
from rules.slider.codec import from_json, to_json
from rules.slider.explain import ChangeReport, explain_change
from rules.slider.state import PASS, Move, SliderState, cell_to_xy, setup, xy_to_cell
from simulator import animation as A
from simulator import looks as L
from simulator.camera import CameraSpec
from simulator.errors import SimulatorError
from simulator.games import slider_scene
from simulator.render import SCENE_STREAM

GAME = "slider"
VIDEO_STREAM = 13  # random.Random and exposure-drift stream of these videos (Scavenger Hunt's is 12)
TILT_RANGE = (0.0, 35.0)  # degrees: random cameras of these videos
ROTATION_RANGE = (-35.0, 35.0)  # degrees around the board from behind the players: the camera on their side
MIN_SQUARE_PX = 18.0  # px at 1280x720: the squares reader's smallest squares (docs/vision.md)
RESTORE_WAIT_S = 1.2  # s: added to the rest before a restore (the Caller speaks within 1 s)
#: s: the players wait this long (drawn between the two) before the first move: the Caller
#: names who moves first once it has seen the start stand still
START_WAIT_S = (2.0, 3.0)
ACTION_TYPES = ("move", "restore", "pause")
#: the kinds of illegal move ``random_game`` mixes in
ILLEGAL_KINDS = ("backwards", "two", "other-side", "occupied")


class _Table:
    """The film's pieces (``pieces``: key -> scene piece at rest) and the square (i, j) each coin
    stands on (None: laid aside off the board). Keys: ``coin:H:k``, ``coin:V:k``, ``die:k``, and
    the scene's own tags for the tiles."""

    def __init__(self, state: SliderState, scene, look: L.Look):
        self.n = state.n
        self.t = look.tile_thickness_mm
        self.cells = scene.cells
        self.pieces: dict[str, Any] = {}
        self.coin_sq: dict[str, tuple[int, int] | None] = {}
        self.aside: dict[tuple[str, int], int] = {}  # (side, row or column) -> coins laid aside there
        for k, p in enumerate(scene.pieces):
            kind, *rest = p.tag.split(":")
            if kind == "piece":
                sq = cell_to_xy((int(rest[0]), int(rest[1])), self.n)
                side = "H" if sq in state.h else "V"
                key = f"coin:{side}:{sq[0]}:{sq[1]}"
                self.coin_sq[key] = sq
            else:
                key = f"{p.tag or 'piece'}#{k}"
            self.pieces[key] = p
        a, b = self.centre((0, 0)), self.centre((1, 0))
        self.pitch = float(np.linalg.norm(b - a))

    def centre(self, sq) -> np.ndarray:
        return self.cells[xy_to_cell(tuple(sq), self.n)][:, :2].mean(0)

    def key_at(self, sq) -> str | None:
        return next((k for k, v in self.coin_sq.items() if v == tuple(sq)), None)

    def side_spot(self, side: str, sq) -> np.ndarray:
        """Where a coin of ``side`` leaving the board from ``sq`` is laid aside: beyond the tiles'
        far edge in its row (H) or column (V), one coin further out for each laid there before."""
        i, j = sq
        line = (side, j if side == "H" else i)
        k = self.aside.get(line, 0)
        self.aside[line] = k + 1
        last = self.centre((self.n - 1, j) if side == "H" else (i, self.n - 1))
        before = self.centre((self.n - 2, j) if side == "H" else (i, self.n - 2))
        out = (last - before) / max(float(np.linalg.norm(last - before)), 1e-9)
        unused = self.n % 2 if side == "H" else 0  # an odd board's unused column lies right of it
        far = (0.5 + unused) * self.pitch + 8.0 + L.COIN_MM / 2 + k * (L.COIN_MM + 5.0)
        return last + out * far

    def board(self, state: SliderState) -> list[list]:
        return state.grid().to_lists()


def _start_state(start: Any) -> SliderState:
    if isinstance(start, SliderState):
        return start
    try:
        return from_json(start)
    except MalformedPosition as exc:
        raise SimulatorError(f"start position: {exc}") from None


def _square(obj, what: str, n: int) -> tuple[int, int]:
    """A square ``[i, j]`` of an action (column, row from the bottom), checked on the board."""
    if not (isinstance(obj, (list, tuple)) and len(obj) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in obj)):
        raise SimulatorError(f"{what} {obj!r}: expected a square [i, j]")
    if not (0 <= obj[0] < n and 0 <= obj[1] < n):
        raise SimulatorError(f"{what} {list(obj)} is not on the {n}x{n} board")
    return (obj[0], obj[1])


def _moved(state: SliderState, frm, to) -> SliderState:
    """``state``'s board with the coin on ``frm`` moved to ``to`` (None: off the board) as a
    camera sees it: a coin set on another hides it."""
    def step(squares):
        if frm not in squares:
            return squares - {to}
        return squares - {frm} | ({to} if to is not None else set())
    return SliderState(state.n, frozenset(step(state.h)), frozenset(step(state.v)), state.blocked, state.to_move,
                       state.passes)


def _after_move(state: SliderState) -> tuple[SliderState, list[Side]]:
    """``state`` after the forced passes that follow a move, and who passed."""
    passed = []
    while not state.is_over and state.legal_moves() == [PASS]:
        passed.append(state.to_move)
        state = state.apply(PASS)
    return state, passed


def _move_data(side: Side, move: Move, n: int) -> dict:
    dest = move.target()
    on = 0 <= dest[0] < n and 0 <= dest[1] < n
    return {"side": side.value, "from": list(move.square), "to": list(dest) if on else None}


def render_slider_video(
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
    h_suit: str = "S",
    v_suit: str = "A",
    ai: str | None = None,
    level: int = DEFAULT_LEVEL,
) -> dict:
    """Render the game from ``start`` (a ``SliderState`` or its position JSON) through
    ``actions`` to ``path`` (.mp4 or .avi); returns the truth (module doc). ``ai``: the side
    the computer plays at ``level`` (its ``call`` events in the truth; the actions must make
    its moves), the other side starting; None: either side may start.

    Raises SimulatorError for an action that cannot be filmed: no coin on ``from``, ``to`` a
    square that is not free, a coin carried off the board anywhere but over its side's far
    edge, anything but a pause or a restore after an illegal move, or a move after the end."""
    state = _start_state(start)
    A.check_fps(fps)
    if ai is not None and ai not in ("H", "V"):
        raise SimulatorError(f"ai {ai!r}: expected 'H', 'V' or None")
    if level not in LEVELS:
        raise SimulatorError(f"level {level!r}: expected one of {sorted(LEVELS)}")
    path, fourcc = A.video_codec(path)
    the_look = L.get_look(look)
    rng = random.Random(seed * 1000003 + VIDEO_STREAM)
    n = state.n
    scene, _ = slider_scene({"n": n, "board": state.grid().to_lists(), "h_suit": h_suit, "v_suit": v_suit},
                            the_look, np.random.default_rng([seed, SCENE_STREAM]))
    table = _Table(state, scene, the_look)
    # frame the tiles and the coins laid aside beyond the right and top edges
    x0, y0, x1, y1 = scene.extent
    extent = (x0, y0 - 2.5 * L.COIN_MM, x1 + 2.5 * L.COIN_MM, y1)
    film, rend, camera, cond = A.squares_film(fps, rng, table.pieces, the_look, seed=seed, size=size, extent=extent,
                                              board=scene.board_corners, shape=(n, n), camera=camera,
                                              conditions=conditions, min_square_px=min_square_px,
                                              tilt_range=TILT_RANGE, rotation_range=ROTATION_RANGE)
    styles = {"H": A.random_hand_style(rng, arm=-50.0, spread=15.0, reverse=0.0),
              "V": A.random_hand_style(rng, arm=20.0, spread=15.0, reverse=0.0)}

    computer = None if ai is None else Side(ai)
    game = state if computer is None else replace(state, to_move=computer.other)
    open_start = computer is None and not state.is_over  # either player may make the first move
    events: list[dict] = [{"t": 0.0, "type": "board", "n": n, "board": table.board(state), "h_suit": h_suit,
                           "v_suit": v_suit, "to_move": None if open_start else game.to_move.value}]
    timeline: list[dict] = []
    norm: list[dict] = []
    undo: dict | None = None  # the illegal move standing: how to put it back

    def next_turn(t: float) -> None:
        """The passes, the end or whose turn, and the computer's call, at ``t``."""
        nonlocal game
        game, passed = _after_move(game)
        events.extend({"t": t, "type": "pass", "side": s.value} for s in passed)
        if game.winner is not None:
            suit = h_suit if game.winner is Side.H else v_suit
            events.append({"t": t, "type": "won", "side": game.winner.value, "suit": suit})
        elif game.is_tie:
            events.append({"t": t, "type": "tie"})
        else:
            events.append({"t": t, "type": "turn", "side": game.to_move.value})
            if game.to_move is computer:
                events.append({"t": t, "type": "call", **_move_data(computer, move_at_level(game, level), n)})

    if open_start:
        events.append({"t": 0.0, "type": "turn", "side": None, "first": True})
    elif not game.is_over:
        events.append({"t": 0.0, "type": "turn", "side": game.to_move.value, "first": True, "ai": ai})

    moved = False  # a move made yet (the first waits ``START_WAIT_S``)
    for idx, act in enumerate(actions):
        kind = A.action_type(idx, act, ACTION_TYPES)
        if kind == "pause":
            norm.append(film.pause(idx, act))
            continue
        if (kind == "restore") != (undo is not None):
            want = "a restore or a pause (an illegal move stands)" if undo is not None else "a move or a pause"
            raise SimulatorError(f"action {idx}: a {kind} here is out of turn: expected {want}")
        if kind == "move" and game.is_over:
            raise SimulatorError(f"action {idx}: the game is over: nothing more may move")
        if kind == "restore":
            film.rest(rng.uniform(0.3, 1.0) + restore_wait_s)
        else:
            film.rest(rng.uniform(*(START_WAIT_S if not moved else (0.5, 1.8))))
            moved = True
        if kind == "restore":
            frames = A.set_down(film, undo["key"], undo["xy"], undo["base"], 1.0 + the_look.coin_thickness_mm,
                                styles[undo["side"]])
            table.coin_sq[undo["key"]] = undo["from"]
            events.append({**A.hand_times(film, frames), "type": "restored"})
            norm.append({"type": "restore"})
            undo = None
            timeline.append({"t": film.t(film.frame), "action": idx, "board": table.board(game),
                             "position": to_json(game)})
            continue
        frm = _square(act.get("from"), f"action {idx} 'from'", n)
        key = table.key_at(frm)
        if key is None:
            raise SimulatorError(f"action {idx}: no coin stands on {list(frm)}")
        side = key.split(":")[1]
        below = None  # the coin a coin is set on, if any
        if act.get("to") is None:
            to = None
            off = slider_step(frm, Side(side).forward)
            if 0 <= off[0] < n and 0 <= off[1] < n:
                raise SimulatorError(f"action {idx}: the {side} coin on {list(frm)} is not on its far edge: a coin "
                                     "is carried off the board only over it")
            xy, base = table.side_spot(side, frm), 0.0
        else:
            to = _square(act["to"], f"action {idx} 'to'", n)
            below = table.key_at(to)
            if to in game.blocked or (below is not None and direction_between(frm, to) is None):
                raise SimulatorError(f"action {idx}: square {list(to)} is not free (a coin is stacked only on a "
                                     "coin one square away)")
            xy = table.centre(to) + np.array([rng.gauss(0, 0.8), rng.gauss(0, 0.8)])
            base = table.t + (the_look.coin_thickness_mm if below is not None else 0.0)
        piece = table.pieces[key]
        frames = A.set_down(film, key, xy, base, 1.0 + the_look.coin_thickness_mm, styles[side])
        table.coin_sq[key] = to
        norm.append({"type": "move", "from": list(frm), "to": None if to is None else list(to)})
        seen = _moved(game, frm, to)
        bases = [replace(game, to_move=s) for s in Side] if open_start else [game]
        reports = [(b, explain_change(b, seen)) for b in bases]
        if below is not None:  # onto another coin: the rules' verdict on the move; the camera sees the top coin
            why = game.move_reason(Side(side), Move(frm[0], frm[1], direction_between(frm, to)))
            reports = [(game, ChangeReport(False, None, reasons.text(why), tuple(sorted((frm, to))), why))]
        legal = [(b, r) for b, r in reports if r.legal and isinstance(r.move, Move)]
        times = A.hand_times(film, frames)
        if legal:
            base_state, report = legal[0]
            mover = base_state.to_move
            events.append({**times, "type": "move", **_move_data(mover, report.move, n)})
            game = base_state.apply(report.move)
            open_start = False
            next_turn(times["t_clear"])
            position = to_json(game)
        else:
            report = next((r for _, r in reports if r.why is not None and r.why.code != "wrong-turn"), reports[0][1])
            events.append({**times, "type": "illegal", "reason": report.reason, "code": report.why.code,
                           "squares": [list(c) for c in report.squares]})
            undo = {"key": key, "side": side, "from": frm, "xy": (piece.x, piece.y), "base": piece.base}
            if to is None:  # the spot laid aside is free again
                line = (side, frm[1] if side == "H" else frm[0])
                table.aside[line] -= 1
            position = None
        timeline.append({"t": film.t(film.frame), "action": idx, "board": table.board(seen) if undo else
                         table.board(game), "position": position})
    film.rest(rng.uniform(1.0, 2.0))

    A.write_film(film, path, fourcc, rend, seed=seed, stream=VIDEO_STREAM, flicker=cond.get("flicker", 0.0),
                 board_px=rend.proj(scene.board_corners), layers=A.layered, progress=progress)
    corners = [[round(float(x), 2), round(float(y), 2)] for x, y in camera.project(np.asarray(scene.board_corners))]
    return A.video_truth(GAME, film, camera, the_look.name, cond, seed, start=to_json(state), end=to_json(game),
                         events=events, timeline=timeline, actions=norm, board_corners=corners,
                         **({} if ai is None else {"ai": ai, "level": level}))


# ------------------------------------------------------------------------------------------
# seeded games


def _illegal_moves(state: SliderState) -> dict[str, list[dict]]:
    """The illegal moves a player could make in ``state`` that a camera sees, by kind: a coin of
    the player to move stepped backwards (H left, V down), or two squares forward, or a coin of
    the other side stepped as that side may, each onto a free square of the board; or a coin of
    the player to move set on a coin next to it (``occupied``: the camera sees the top coin)."""
    n, me = state.n, state.to_move
    free = {(i, j) for i in range(n) for j in range(n) if state.is_free((i, j))}
    back = {Side.H: (-1, 0), Side.V: (0, -1)}[me]
    fwd = {Side.H: (1, 0), Side.V: (0, 1)}[me]
    out: dict[str, list[dict]] = {k: [] for k in ILLEGAL_KINDS}
    for sq in sorted(state.pieces(me)):
        b = (sq[0] + back[0], sq[1] + back[1])
        if b in free:
            out["backwards"].append({"type": "move", "from": list(sq), "to": list(b)})
        two = (sq[0] + 2 * fwd[0], sq[1] + 2 * fwd[1])
        if two in free:
            out["two"].append({"type": "move", "from": list(sq), "to": list(two)})
        for d in me.directions:
            onto = slider_step(sq, d)
            if onto in state.h or onto in state.v:
                out["occupied"].append({"type": "move", "from": list(sq), "to": list(onto)})
    for m in state.piece_moves(me.other):
        dest = m.target()
        if dest in free:
            out["other-side"].append({"type": "move", "from": list(m.square), "to": list(dest)})
    return out


def _action(move: Move, n: int) -> dict:
    dest = move.target()
    on = 0 <= dest[0] < n and 0 <= dest[1] < n
    return {"type": "move", "from": list(move.square), "to": list(dest) if on else None}


def _player_turn(rng: random.Random, state: SliderState, wrong: bool, forward: float,
                 kinds: tuple[str, ...] = ILLEGAL_KINDS) -> list[dict]:
    """A scripted player's turn: (when ``wrong``, an illegal move of one of ``kinds`` and its
    restore, then) a legal move chosen at random, forward ``forward`` of the time when one is
    possible."""
    out: list[dict] = []
    if wrong:
        options = [opts for kind, opts in _illegal_moves(state).items() if opts and kind in kinds]
        if options:
            out += [rng.choice(rng.choice(options)), {"type": "restore"}]
    legal = state.piece_moves(state.to_move)
    ahead = [m for m in legal if m.direction is state.to_move.forward]
    return out + [_action(rng.choice(ahead if ahead and rng.random() < forward else legal), state.n)]


def _move_of(action: dict, state: SliderState) -> Move:
    frm = tuple(action["from"])
    to = slider_step(frm, state.to_move.forward) if action["to"] is None else tuple(action["to"])
    for m in state.piece_moves(state.to_move):
        if m.square == frm and m.target() == to:
            return m
    raise SimulatorError(f"{action} is no legal move here")  # a slip in this module


def random_game(seed: int, moves: int, illegal: int = 0, n: int = 6, blocks: int | None = None,
                forward: float = 0.6, kinds: tuple[str, ...] = ILLEGAL_KINDS) -> tuple[SliderState, list[dict]]:
    """A seeded game: the start (``rules.slider.state.setup`` of ``seed``) and up to ``moves``
    legal moves chosen at random (a forward move ``forward`` of the time when there is one, so
    that games get somewhere), with ``illegal`` illegal moves (``ILLEGAL_KINDS``) mixed in before
    some of them (of ``kinds``), each followed by a restore. Stops at the end of the game.
    Either player may make the first move, so an illegal one there is never "other-side" (the
    other side's step is then that side's first move, and legal)."""
    rng = random.Random(seed * 7 + 5)
    start = setup(seed=seed, n=n, blocks=blocks)
    state = start
    wrong_at = set(rng.sample(range(moves), min(illegal, moves)))
    actions: list[dict] = []
    for k in range(moves):
        state, _ = _after_move(state)
        if state.is_over:
            break
        actions += _player_turn(rng, state, k in wrong_at, forward,
                                tuple(x for x in kinds if x != "other-side") if k == 0 else kinds)
        move = _move_of(actions[-1], state)
        state = state.apply(move)
    return start, actions


def ai_game(seed: int, moves: int, ai: str = "V", level: int = DEFAULT_LEVEL, n: int = 6,
            blocks: int | None = None, illegal: int = 0,
            kinds: tuple[str, ...] = ILLEGAL_KINDS) -> tuple[SliderState, list[dict]]:
    """A seeded game of the computer (side ``ai`` at ``level``) against a scripted player: the
    player (the other side) starts and moves as ``random_game``'s do; the computer's moves are
    ``move_at_level``'s, made on the table as called. ``illegal``: illegal moves of the player
    (of ``kinds``) mixed in, each followed by a restore."""
    computer = Side(ai)
    rng = random.Random(seed * 7 + 6)
    start = replace(setup(seed=seed, n=n, blocks=blocks), to_move=computer.other)
    state = start
    mine = [k for k in range(moves) if k % 2 == 0]
    wrong_at = set(rng.sample(mine, min(illegal, len(mine))))
    actions: list[dict] = []
    for k in range(moves):
        state, _ = _after_move(state)
        if state.is_over:
            break
        if state.to_move is computer:
            move = move_at_level(state, level)
            actions.append(_action(move, n))
        else:
            actions += _player_turn(rng, state, k in wrong_at, 0.6, kinds)
            move = _move_of(actions[-1], state)
        state = state.apply(move)
    return start, actions


__all__ = ["render_slider_video", "random_game", "ai_game"]
