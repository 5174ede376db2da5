"""Recorded Scavenger Hunt games as videos with exact event truth.

``render_scavenger_hunt_video(start, actions, seed=..., path=...)`` films a table of 4x6 tiles
grid side up (8x12 squares) on which players take their turns by hand, and returns the truth:
what happened, when, and what lay where after each action. ``random_game(seed, turns)`` makes
the actions of a seeded random game with the rules engine (``rules.scavenger_hunt``), so every
legal action and every position in the truth is the engine's by construction.

A turn is up to three actions, in this order (the rules' turn: shift, rook move, peek):

- ``{"type": "shift", "line": "row"|"col", "index": I, "direction": D}`` (the position
  JSON's shift): the hand pushes the tile line one tile from its tail end; the tile pushed out
  at the head, with the coins and pawns on it, is lifted and carried round over the line into
  the gap at the tail. ``"by": 2`` pushes the line two tiles (illegal). A shift the rules bar
  (it reverses a player's latest shift) is animated all the same and is illegal.
- ``{"type": "move", "to": [r, c]}``: the hand lifts the mover's pawn a little and sets it on
  square ``[r, c]`` (after the shift) in a straight slide. ``"pawn": "M"`` moves another
  player's pawn (illegal); a move the rules refuse (through a coin or a pawn, diagonal) is
  illegal. ``{"type": "stay"}``: the pawn stays, allowed only where it cannot move.
- ``{"type": "peek"}``, after a move that ends on a coin: the hand slides the coin out from
  under the pawn, lifts it and turns it to look at its suit, then either puts it back under
  the pawn value side up or keeps it: the coin is carried off the board, turned over and laid
  suit side up in the owner's row by their starting corner (``simulator.games.collected_spot``).
  The rules decide which (referee mode: kept exactly when its suit is the mover's).
  ``"keep": true`` on a coin of another suit keeps it all the same (illegal: the camera sees
  the wrong suit laid by the player's corner); after its restore the peek is made again.

Between turns and around them: ``{"type": "pause", "seconds": s}``, and after an illegal
action ``{"type": "restore"}``: the hand puts back what the illegal action moved (the reverse
push, the pawn back on its square, the kept coin turned value side up and slid back under the
pawn), after leaving the illegal board standing 1.5-2.2 s (``RESTORE_WAIT_S``), as a player
waits for the Caller's word. The first action comes 2-3 s after the start (``START_WAIT_S``),
when the Caller has said who starts. After an illegal action only a pause or a restore may come (the Caller waits for the
board to be put back), and the video may end there.

Truth (JSON-ready): ``{"game": "scavenger-hunt", "fps", "size", "frames", "duration",
"start", "end", "events", "timeline", "actions", "camera", "look", "conditions", "seed",
"board_corners", "collected_points"}``. ``start`` and ``end`` are position JSON
(``rules.scavenger_hunt.codec``): the start and the last position a complete turn reached.
``events`` follow the ``caller watch`` schema, with the live Caller's field names
(``caller.referees.scavenger_hunt_live``) where the meaning is the same: ``board`` at t=0
(``players``, ``pawns``, ``coins`` by value, and ``board``: the start's full position JSON),
``turn`` (``player`` to play: ``first`` at t=0, then after each complete turn with ``turn``,
the turns completed), ``shift`` (``player``, ``line``, ``index``, ``direction``), ``move``
(``pawn``, ``from``, ``to``: the same square for a pawn that stays, ``coin``: the value it
ended on or null), ``peek`` (``player``, ``square``, ``value``: a coin looked at and put
back), ``collect`` (``player``, ``value``, ``coin``, ``square``, ``count``), ``illegal``
(``reason``: the rules engine's verdict in words, ``code``: its code in
``rules.scavenger_hunt.reasons``, ``squares``: the squares that verdict names, ``cells``: the
squares whose pieces the action moved), ``restored`` and ``won`` (``player``, ``collected``).
Events of a hand have ``t`` (the pieces come to rest), ``t_clear`` (the hand has left the
picture: the earliest moment a camera sees the settled board) and ``t_hand`` (the hand starts
coming in); ``turn`` and ``won`` come at the ``t_clear`` of the turn's last action.
``timeline`` lists, after each action but pauses, ``{"t", "action", "table", "position"}``:
``table`` is what lies where (the still scenes' layout: ``coins`` 8x12 of ``"S3"`` codes,
all value side up; ``pawns`` ``{suit: [r, c]}``; ``collected`` ``{suit: [coins]}`` in the order
they were laid, the first nearest the corner), and ``position`` the position JSON when a turn
is complete (null mid-turn, and while an illegal action stands).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from rules.errors import IllegalMove, MalformedPosition
from rules.grid import Direction, Grid
from rules.pieces import Coin
from rules.reasons import Reason
from rules.scavenger_hunt import reasons
from rules.scavenger_hunt.board import SHAPE, TILE, TILE_COLS, TILE_ROWS
from rules.scavenger_hunt.codec import from_json, to_json
from rules.scavenger_hunt.explain import Observed, explain
from rules.scavenger_hunt.state import SHIFTS, Shift, State, Turn, apply, coin_rank, legal_moves, rook_reason, setup
from simulator import animation as A
from simulator import looks as L
from simulator import scene as S
from simulator.camera import CameraSpec
from simulator.errors import SimulatorError
from simulator.games import collected_spot, scavenger_hunt_scene
from simulator.render import SCENE_STREAM

GAME = "scavenger-hunt"
VIDEO_STREAM = 12  # random.Random and exposure-drift stream of these videos (Easy Slider's is 11)
TILT_RANGE = (0.0, 35.0)  # degrees: random cameras of these videos
CARRY_LIFT = L.PAWN_HEIGHT_MM + 12.0  # mm: a tile carried round clears the pawns standing on its line
PEEK_LIFT = 40.0  # mm: a coin held up to look at
ACTION_TYPES = ("shift", "move", "stay", "peek", "restore", "pause")
#: px: the smallest board square a random camera may show at 1280x720 (in proportion at other
#: sizes): the squares reader is built for squares of 18 px and more (docs/vision.md)
MIN_SQUARE_PX = 18.0
#: s: added to the rest before a ``restore``: a player leaves an illegal board standing until
#: the Caller has spoken (it has 1 s from the board settling), so the hand that puts it back
#: comes 1.5-2.2 s after the illegal action's hand has gone
RESTORE_WAIT_S = 1.2
#: s: the rest before the first action (a shift comes 0.5-2.2 s after the table settled, the
#: rest 0.3-1.0 s): the players wait for the Caller's "Red starts", said once it has seen the
#: start stand still
START_WAIT_S = (2.0, 3.0)


def square_px(camera: CameraSpec, board) -> float:
    """The shortest side (px) of the board's 8x12 squares in ``camera``'s picture (``board``: the
    tile area's outer corners in mm, (4, 3), far-left first, clockwise; lens distortion included)."""
    return A.square_px(camera, board, SHAPE)


def framed(camera: CameraSpec, board, min_px: float | None) -> CameraSpec:
    """``camera`` moved in until the board's 8x12 squares are at least ``min_px`` px at 1280x720
    (``simulator.animation.framed``)."""
    return A.framed(camera, board, min_px, SHAPE)


def _illegal_reason(exc: IllegalMove) -> Reason:
    if exc.reason is None:  # a programming error, not something a player does
        raise SimulatorError(f"the rules engine refused an action without a verdict: {exc}") from exc
    return exc.reason


def _values(coins: Grid) -> Grid:
    return Grid.of([[None if v is None else coin_rank(v) for v in row] for row in coins.rows])


def shifted_twice(state: State, shift: Shift) -> tuple[Grid, tuple]:
    """The coins and pawns after the line of ``shift`` is pushed two tiles (an illegal shift)."""
    coins, pawns = state.shifted(shift)
    return shift.apply_grid(coins), tuple(shift.apply_cell(p) for p in pawns)


def double_shift_reason(state: State, shift: Shift) -> Reason | None:
    """Why pushing the line of ``shift`` two tiles is illegal, as the rules engine judges the
    board it leaves (``explain``: no one-tile shift explains it), or None when that board looks
    exactly like a legal one-tile shift's (the line carries too little to show the difference)."""
    coins, pawns = shifted_twice(state, shift)
    seen = _values(coins)
    for one in SHIFTS:
        c1, p1 = state.shifted(one)
        if p1 == pawns and _values(c1) == seen:
            return None
    try:
        explain(state, Observed(pawns, seen))
    except IllegalMove as exc:
        return _illegal_reason(exc)
    return None


def board_event(state: State) -> dict:
    """The video's first event: the start as the live Caller reports it (``players``, ``pawns``,
    ``coins`` by value) and, under ``board``, its full position JSON (suits included)."""
    return {"t": 0.0, "type": "board", "board": to_json(state), "players": [s.code for s in state.players],
            "pawns": {s.code: list(p) for s, p in zip(state.players, state.pawns)},
            "coins": _values(state.coins).to_lists(lambda v: v.code)}


def seat_corners(players: int) -> tuple[tuple[int, int], ...]:
    """Each player's starting corner square, in turn order (the rules' seats for that many players)."""
    return setup(0, players=players).pawns


def table_of(state: State) -> dict:
    """What lies on the table in ``state``, in the still scenes' layout (``simulator.games``),
    collected coins in value order."""
    if state.mode != "referee":
        raise SimulatorError("a video needs every coin's suit: give a referee-mode position, not a public one")
    return {
        "coins": state.coins.to_lists(lambda v: v.code),
        "pawns": {s.code: list(p) for s, p in zip(state.players, state.pawns)},
        "collected": {s.code: [s.code + r.code for r in got] for s, got in zip(state.players, state.collected)},
    }


def same_table(a: dict, b: dict) -> bool:
    """Two tables with the same pieces on the same squares (collected coins in any order)."""
    return (a["coins"] == b["coins"] and a["pawns"] == b["pawns"]
            and {k: sorted(v) for k, v in a["collected"].items()} == {k: sorted(v) for k, v in b["collected"].items()})


class _Table:
    """The physical pieces of the film (``pieces``: key -> scene piece at rest) and which square
    each stands on. Keys: ``tile:R:C`` (the tile that started on tile-slot R, C), ``coin:S3``,
    ``pawn:S``."""

    def __init__(self, state: State, scene: S.Scene, look: L.Look, rng: random.Random, corners):
        self.look = look
        self.t = look.tile_thickness_mm
        self.coin_t = look.coin_thickness_mm
        self.board = scene.board_corners
        half_w = float(self.board[:, 0].max())
        self.pitch = (2 * half_w - L.TILE_MM) / (TILE_COLS - 1)
        self.players = [s.code for s in state.players]
        self.corner = dict(zip(self.players, corners))
        self.pieces: dict[str, Any] = {}
        self.tile_at: dict[tuple[int, int], str] = {}
        self.coin_sq: dict[str, tuple[int, int]] = {}
        self.pawn_sq: dict[str, tuple[int, int]] = {}
        self.collected: dict[str, list[str]] = {s: [] for s in self.players}
        codes = {cell: v.code for cell, v in state.coins.items() if v is not None}
        for p in scene.pieces:
            kind, *rest = p.tag.split(":")
            if kind == "cell":
                slot = (int(rest[0]), int(rest[1]))
                self.tile_at[slot] = f"tile:{slot[0]}:{slot[1]}"
                self.pieces[self.tile_at[slot]] = p
            elif kind == "coin":
                cell = (int(rest[0]), int(rest[1]))
                self.coin_sq[codes[cell]] = cell
                self.pieces["coin:" + codes[cell]] = p
            elif kind == "pawn":
                self.pawn_sq[rest[0]] = tuple(state.pawns[self.players.index(rest[0])])
                self.pieces["pawn:" + rest[0]] = p
        on_coin = set(self.coin_sq.values())
        for s, cell in self.pawn_sq.items():
            if cell in on_coin:  # a pawn on a coin stands on its top
                p = self.pieces["pawn:" + s]
                self.pieces["pawn:" + s] = replace(p, base=p.base + self.coin_t)
        for s, got in zip(self.players, state.collected):
            for r in got:
                x, y = self.spot(s)
                code = s + r.code
                self.pieces["coin:" + code] = S.coin(look, x + rng.gauss(0, 1.5), y + rng.gauss(0, 1.5), s,
                                                     rng.uniform(-30, 30), f"collected:{code}")
                self.collected[s].append(code)

    # geometry ------------------------------------------------------------------------------
    def slot_xy(self, slot: tuple[int, int]) -> np.ndarray:
        return np.array([(slot[1] - (TILE_COLS - 1) / 2) * self.pitch, (slot[0] - (TILE_ROWS - 1) / 2) * self.pitch])

    def xy(self, key: str) -> np.ndarray:
        p = self.pieces[key]
        return np.array([p.x, p.y])

    def square_xy(self, cell: tuple[int, int]) -> np.ndarray:
        """Centre (mm) of square ``cell`` on the tile lying there now."""
        tile = self.pieces[self.tile_at[(cell[0] // TILE, cell[1] // TILE)]]
        lx, ly = (cell[1] % TILE - 0.5) * L.TILE_MM / TILE, (cell[0] % TILE - 0.5) * L.TILE_MM / TILE
        a = np.radians(tile.angle)
        return np.array([tile.x + lx * np.cos(a) - ly * np.sin(a), tile.y + lx * np.sin(a) + ly * np.cos(a)])

    def spot(self, suit: str) -> tuple[float, float]:
        """Where the next coin ``suit``'s player collects is laid (before jitter)."""
        return collected_spot(self.corner[suit], len(self.collected[suit]), self.board)

    def towards(self, suit: str) -> np.ndarray:
        """Unit vector from the board's centre towards ``suit``'s player (their corner)."""
        r, c = self.corner[suit]
        v = self.square_xy((r, c))
        return v / max(np.linalg.norm(v), 1e-9)

    # what lies where ----------------------------------------------------------------------
    def coin_at(self, cell) -> str | None:
        for code, sq in self.coin_sq.items():
            if sq == tuple(cell):
                return code
        return None

    def pawn_at(self, cell) -> str | None:
        for s, sq in self.pawn_sq.items():
            if sq == tuple(cell):
                return s
        return None

    def layout(self) -> dict:
        coins = [[None] * SHAPE[1] for _ in range(SHAPE[0])]
        for code, (r, c) in self.coin_sq.items():
            coins[r][c] = code
        return {"coins": coins, "pawns": {s: list(self.pawn_sq[s]) for s in self.players},
                "collected": {s: list(self.collected[s]) for s in self.players}}

    def seen(self) -> tuple[tuple, Grid]:
        """(pawns in turn order, coin values): what a camera reads of the board."""
        lay = self.layout()
        values = Grid.of([[None if v is None else Coin.parse(v).rank for v in row] for row in lay["coins"]])
        return tuple(self.pawn_sq[s] for s in self.players), values

    def squares(self) -> dict[str, tuple[int, int]]:
        return {**{"coin:" + k: v for k, v in self.coin_sq.items()}, **{"pawn:" + k: v for k, v in self.pawn_sq.items()}}


class _Hands:
    """One hand per player: the player's own skin and sleeve, the arm coming from their seat."""

    def __init__(self, table: _Table, rng: random.Random):
        self.rng, self.table = rng, table
        self.styles = {s: A.random_hand_style(rng) for s in table.players}

    def of(self, suit: str) -> A.HandStyle:
        v = self.table.towards(suit)
        arm = float(np.degrees(np.arctan2(v[0], v[1])))
        return self.styles[suit]._replace(arm=arm + self.rng.gauss(0, 15))


# ------------------------------------------------------------------------------------------
# the animations: each adds one hand visit to the film, moves the pieces in ``table`` and
# returns (hand in, pieces at rest, hand gone) frames


def _shift(film: A.Film, table: _Table, style: A.HandStyle, axis: str, index: int, step: int, by: int):
    rng, t = film.rng, table.t
    slots = [(index, c) for c in range(TILE_COLS)] if axis == "row" else [(r, index) for r in range(TILE_ROWS)]
    along = 1 if axis == "row" else 0
    ordered = sorted(slots, key=lambda s: s[along] * step)  # the tail (where the hand pushes) first
    n = len(ordered)
    unit = (np.array([1.0, 0.0]) if axis == "row" else np.array([0.0, 1.0])) * step
    push = unit * table.pitch * by
    band = set(slots)
    tiles = [table.tile_at[s] for s in ordered]
    riders = {key: (sq[0] // TILE, sq[1] // TILE) for key, sq in table.squares().items()
              if (sq[0] // TILE, sq[1] // TILE) in band}
    moving = tiles + sorted(riders)
    at_rest = {k: table.xy(k) for k in moving}
    pushed = {k: at_rest[k] + push for k in moving}
    tail = at_rest[tiles[0]] - unit * (L.TILE_MM * 0.3)
    steps = [
        {"to": tail, "h": A.REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
        {"to": tail, "h": t + 1.0, "secs": 0.25},
        {"to": tail + push, "h": t + 1.0, "secs": rng.uniform(0.5, 0.8) * by,
         "carry": [(k, (pushed[k], 0.0)) for k in moving]},
    ]
    final = dict(pushed)
    for j in range(by):
        out_slot = ordered[n - by + j]
        out = table.tile_at[out_slot]
        gap = ordered[j]
        offset = at_rest[out] - table.slot_xy(out_slot)  # the tile keeps its own small offset and turn
        goal = table.slot_xy(gap) + offset
        move = goal - pushed[out]
        group = [out] + [k for k, slot in sorted(riders.items()) if slot == out_slot]
        for k in group:
            final[k] = pushed[k] + move
        o = pushed[out]
        steps += [
            {"to": o, "h": A.REST_HEIGHT * 0.5, "secs": 0.35},
            {"to": o, "h": t + 1.0, "secs": 0.2},
            {"to": o, "h": t + CARRY_LIFT + 1.0, "secs": 0.3, "carry": [(k, (pushed[k], CARRY_LIFT)) for k in group]},
            {"to": goal, "h": t + CARRY_LIFT + 1.0, "secs": 0.45 + float(np.linalg.norm(move)) / 700.0,
             "carry": [(k, (final[k], CARRY_LIFT)) for k in group]},
            {"to": goal, "h": t + 1.0, "secs": 0.3, "carry": [(k, (final[k], 0.0)) for k in group]},
        ]
    others = [k for k in table.pieces if k.startswith("pawn:") and k not in riders]
    hand_in = film.frame
    rest, end = film.animate(steps, style, also=others)
    for k in moving:
        table.pieces[k] = replace(table.pieces[k], x=float(final[k][0]), y=float(final[k][1]))
    one = Shift(axis, index, {("row", 1): Direction.RIGHT, ("row", -1): Direction.LEFT,
                              ("col", 1): Direction.DOWN, ("col", -1): Direction.UP}[(axis, step)])
    new_at = dict(table.tile_at)
    for p in range(n):
        new_at[ordered[p]] = table.tile_at[ordered[(p - by) % n]]
    table.tile_at = new_at
    for _ in range(by):
        table.coin_sq = {k: one.apply_cell(v) for k, v in table.coin_sq.items()}
        table.pawn_sq = {k: one.apply_cell(v) for k, v in table.pawn_sq.items()}
    return hand_in, rest, end


def _move_pawn(film: A.Film, table: _Table, style: A.HandStyle, suit: str, to: tuple[int, int], goal=None):
    """The pawn of ``suit`` lifted and set on square ``to`` (at ``goal``: (x, y, base) when given,
    else near the square's centre, on the coin there if any)."""
    rng, key = film.rng, "pawn:" + suit
    if goal is None:
        xy = table.square_xy(to) + np.array([rng.gauss(0, 0.8), rng.gauss(0, 0.8)])
        base = table.t + (table.coin_t if table.coin_at(to) is not None else 0.0)
    else:
        xy, base = np.array(goal[:2], float), goal[2]
    hand_in, rest, end = A.set_down(film, key, xy, base, L.PAWN_HEIGHT_MM + 1.0, style)
    table.pawn_sq[suit] = tuple(to)
    return hand_in, rest, end


def _peek(film: A.Film, table: _Table, style: A.HandStyle, suit: str, keep: bool):
    """The coin under ``suit``'s pawn slid out, lifted and turned to look at; put back under the
    pawn, or kept: laid suit side up (its own suit, whoever keeps it) in the player's row."""
    rng = film.rng
    cell = table.pawn_sq[suit]
    code = table.coin_at(cell)
    ck, pk = "coin:" + code, "pawn:" + suit
    coin, pawn = table.pieces[ck], table.pieces[pk]
    here = np.array([coin.x, coin.y])
    out = table.towards(suit)
    aside = here + out * L.COIN_MM * 1.05
    held = aside + out * 12.0
    grip = L.COIN_MM * 0.35
    ctop = coin.thickness + 1.0
    turn = float(rng.choice([-1, 1]) * rng.uniform(120, 200))
    low = replace(pawn, base=pawn.base - table.coin_t)
    steps = [
        {"to": here + out * grip, "h": A.REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
        {"to": here + out * grip, "h": ctop, "secs": 0.25},
        {"to": aside + out * grip, "h": ctop, "secs": 0.4, "carry": [(ck, (aside, 0.0))]},
        {"to": held, "h": ctop + PEEK_LIFT, "secs": 0.35, "carry": [(ck, (held, PEEK_LIFT))], "become": {pk: low}},
        {"to": held, "h": ctop + PEEK_LIFT, "secs": rng.uniform(0.7, 1.1), "carry": [(ck, (held, PEEK_LIFT, turn))]},
    ]
    if keep:
        sx, sy = table.spot(suit)
        spot = np.array([sx + rng.gauss(0, 1.5), sy + rng.gauss(0, 1.5)])
        suit_up = S.coin(table.look, coin.x, coin.y, code[0], coin.angle, f"collected:{code}", base=coin.base)
        steps += [
            {"to": spot, "h": ctop + PEEK_LIFT, "secs": 0.5 + float(np.linalg.norm(spot - held)) / 500.0,
             "carry": [(ck, (spot, PEEK_LIFT, turn))], "become": {ck: suit_up}},
            {"to": spot, "h": table.coin_t + 1.0, "secs": 0.3, "carry": [(ck, (spot, -coin.base, turn))]},
        ]
    else:
        steps += [
            {"to": aside + out * grip, "h": ctop, "secs": 0.35, "carry": [(ck, (aside, 0.0, turn))]},
            {"to": here + out * grip, "h": ctop, "secs": 0.35, "carry": [(ck, (here, 0.0, turn))]},
            {"to": here + out * grip, "h": ctop + 6.0, "secs": 0.15, "become": {pk: pawn}},
        ]
    hand_in = film.frame
    rest, end = film.animate(steps, style, also=[pk])
    if keep:
        table.pieces[ck] = S.coin(table.look, float(spot[0]), float(spot[1]), code[0], coin.angle + turn, f"collected:{code}")
        table.pieces[pk] = low
        del table.coin_sq[code]
        table.collected[suit].append(code)
    else:
        table.pieces[ck] = replace(coin, angle=coin.angle + turn)
        table.pieces[pk] = pawn
    return hand_in, rest, end, code, cell


def _unkeep(film: A.Film, table: _Table, style: A.HandStyle, suit: str, code: str, cell, coin0, pawn0):
    """The coin ``code`` that ``suit``'s player kept against the rules taken back from their row,
    turned value side up and slid under their pawn on ``cell`` again (``coin0``, ``pawn0``: the
    coin and the pawn as they were before the peek)."""
    rng = film.rng
    ck, pk = "coin:" + code, "pawn:" + suit
    coin = table.pieces[ck]
    here, goal = np.array([coin.x, coin.y]), np.array([coin0.x, coin0.y])
    out = table.towards(suit)
    aside = goal + out * L.COIN_MM * 1.05
    grip = out * L.COIN_MM * 0.35
    rise = coin0.base - coin.base  # from the table back up onto the tile
    value_up = S.coin(table.look, coin.x, coin.y, code[1], coin.angle, coin.tag, base=coin.base)
    top = coin.thickness + 1.0
    steps = [
        {"to": here, "h": A.REST_HEIGHT, "secs": rng.uniform(0.6, 1.0)},
        {"to": here, "h": top, "secs": 0.25},
        {"to": here, "h": top + PEEK_LIFT, "secs": 0.3, "carry": [(ck, (here, PEEK_LIFT))]},
        {"to": aside + grip, "h": top + PEEK_LIFT, "secs": 0.5 + float(np.linalg.norm(aside - here)) / 500.0,
         "carry": [(ck, (aside, PEEK_LIFT))], "become": {ck: value_up}},
        {"to": aside + grip, "h": top + rise, "secs": 0.3, "carry": [(ck, (aside, rise))]},
        {"to": goal + grip, "h": top + rise, "secs": 0.35, "carry": [(ck, (goal, rise))]},
        {"to": goal + grip, "h": top + rise + 6.0, "secs": 0.15, "become": {pk: pawn0}},
    ]
    hand_in = film.frame
    rest, end = film.animate(steps, style, also=[pk])
    table.pieces[ck], table.pieces[pk] = coin0, pawn0
    table.collected[suit].remove(code)
    table.coin_sq[code] = tuple(cell)
    return hand_in, rest, end


# ------------------------------------------------------------------------------------------
# the video


def _start_state(start: Any) -> State:
    if isinstance(start, State):
        state = start
    else:
        try:
            state = from_json(start)
        except (MalformedPosition, ValueError) as exc:
            raise SimulatorError(f"start position: {exc}") from None
    if state.mode != "referee":
        raise SimulatorError("a video needs every coin's suit: give a referee-mode position, not a public one")
    return state


def _cell(obj, what: str) -> tuple[int, int]:
    return S.check_cell(list(obj) if isinstance(obj, tuple) else obj, SHAPE, what)


def render_scavenger_hunt_video(
    start: Any,
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
    min_square_px: float | None = MIN_SQUARE_PX,
    restore_wait_s: float = RESTORE_WAIT_S,
    start_wait_s: tuple[float, float] = START_WAIT_S,
    coin_turn: float | None = None,
) -> dict:
    """Render the game from ``start`` (a referee-mode ``State`` or its position JSON) through
    ``actions`` to ``path`` (.mp4 with mp4v, or .avi with MJPG); returns the truth (module doc).

    ``min_square_px``: a random camera (no ``camera`` given) that would show the board's squares
    smaller than this at 1280x720 (in proportion at other sizes) is moved in until they are
    this size (``framed``; None: as drawn). ``restore_wait_s``: added to the rest before each
    ``restore`` (the board with the illegal action stands 0.3-1.0 s plus this).
    ``start_wait_s``: (low, high) s of the rest before the first action. ``coin_turn``: the
    most degrees either way the coins lie turned on their squares at the start (180: any turn,
    as players lay them; None: the scene's default, ``simulator.games``). The recording
    ``sample_images/scavenger-hunt_game.mp4`` was made before all three existed: its squares
    were large enough, and ``random_game(102, 4, players=4, illegal=1)`` rendered with
    ``seed=102, fps=15, size=(1280, 720), restore_wait_s=0, start_wait_s=(0.5, 2.2)`` films it
    again, with the same truth.

    Raises SimulatorError for an action that cannot be filmed: out of turn order (a move
    before the shift, a peek where the pawn stands on no coin), a pawn onto another pawn or off
    the board, an illegal change a camera could not see (a pawn that stays when it could move,
    a two-tile push that looks like a one-tile one), anything but a pause or a restore after
    an illegal action, or anything but a pause after the game is won.
    """
    state = _start_state(start)
    A.check_fps(fps)
    if isinstance(restore_wait_s, bool) or not isinstance(restore_wait_s, (int, float)) or not 0 <= restore_wait_s <= 60:
        raise SimulatorError(f"restore_wait_s {restore_wait_s!r}: expected 0 to 60 seconds")
    if (not isinstance(start_wait_s, (tuple, list)) or len(start_wait_s) != 2
            or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in start_wait_s)
            or not 0 <= start_wait_s[0] <= start_wait_s[1] <= 60):
        raise SimulatorError(f"start_wait_s {start_wait_s!r}: expected (low, high) seconds, 0 <= low <= high <= 60")
    if min_square_px is not None and (isinstance(min_square_px, bool) or not isinstance(min_square_px, (int, float))
                                      or not 0 < min_square_px <= 200):
        raise SimulatorError(f"min_square_px {min_square_px!r}: expected None or 0 to 200 px")
    path, fourcc = A.video_codec(path)
    the_look = L.get_look(look)
    rng = random.Random(seed * 1000003 + VIDEO_STREAM)
    layout = {"coins": table_of(state)["coins"], "pawns": {s.code: list(p) for s, p in zip(state.players, state.pawns)}}
    if coin_turn is not None:
        layout["coin_turn"] = coin_turn
    scene, _ = scavenger_hunt_scene(layout, the_look, np.random.default_rng([seed, SCENE_STREAM]))
    corners = seat_corners(len(state.players))
    table = _Table(state, scene, the_look, rng, corners)
    # frame the board and the rows of collected coins on every side
    x0, y0, x1, y1 = scene.extent
    reach = float(table.board[:, 1].max()) + 8 + L.COIN_MM + 6
    extent = (x0, min(y0, -reach), x1, max(y1, reach))
    film, rend, camera, cond = A.squares_film(fps, rng, table.pieces, the_look, seed=seed, size=size, extent=extent,
                                              board=scene.board_corners, shape=SHAPE, camera=camera,
                                              conditions=conditions, min_square_px=min_square_px,
                                              tilt_range=TILT_RANGE)
    hands = _Hands(table, rng)

    timeline: list[dict] = []
    norm: list[dict] = []
    # what may come next: shift -> move -> (peek) -> shift ...; "blocked" while an illegal action
    # stands, "over" once someone has won
    phase = "over" if state.winner is not None else "shift"
    shift: Shift | None = None  # this turn's shift, once made
    to: tuple[int, int] | None = None  # where the mover's pawn went
    undo: dict | None = None  # how to put back the standing illegal action
    events: list[dict] = [board_event(state)]
    if phase == "shift":
        events.append({"t": 0.0, "type": "turn", "player": state.mover.code, "first": True})

    def times(frames) -> dict:
        return A.hand_times(film, frames)

    def changed(before: dict) -> list[list[int]]:
        after = table.squares()
        return sorted({tuple(v) for k, v in before.items() if after.get(k) != v}
                      | {tuple(v) for k, v in after.items() if before.get(k) != v})

    def check_table(expected: dict, what: str) -> None:
        if not same_table(table.layout(), expected):  # the film and the rules engine disagree: a bug here
            raise SimulatorError(f"{what}: the filmed table differs from the rules engine's")

    def finish_turn(frames) -> None:
        nonlocal state, phase, shift, to
        new = apply(state, Turn(shift, to, None))
        check_table(table_of(new), f"turn {new.turn}")
        state, shift, to = new, None, None
        t = film.t(frames[2])
        if state.winner is not None:
            won = state.players.index(state.winner)
            events.append({"t": t, "type": "won", "player": state.winner.code, "collected": len(state.collected[won])})
            phase = "over"
        else:
            events.append({"t": t, "type": "turn", "player": state.mover.code, "turn": state.turn})
            phase = "shift"

    acted = False  # an action made yet (the first waits ``start_wait_s``)
    for idx, act in enumerate(actions):
        kind = A.action_type(idx, act, ACTION_TYPES)
        if kind == "pause":
            norm.append(film.pause(idx, act))
            continue
        expected = {"shift": ("shift",), "move": ("move", "stay"), "peek": ("peek",), "blocked": ("restore",),
                    "over": ()}[phase]
        if kind not in expected:
            wants = " or ".join(expected + ("pause",))
            raise SimulatorError(f"action {idx}: a {kind} here is out of turn: expected {wants}")
        me = state.mover.code
        film.rest(rng.uniform(*start_wait_s) if not acted else rng.uniform(0.5, 2.2) if phase == "shift" else
                  rng.uniform(0.3, 1.0) + (restore_wait_s if kind == "restore" else 0.0))
        acted = True
        before = table.squares()
        position = None
        if kind == "shift":
            try:
                one = Shift.from_json({k: act.get(k) for k in ("line", "index", "direction")})
            except MalformedPosition as exc:
                raise SimulatorError(f"action {idx}: {exc}") from None
            by = act.get("by", 1)
            if by not in (1, 2) or isinstance(by, bool):
                raise SimulatorError(f"action {idx}: shift 'by' {by!r}: expected 1 (a legal shift) or 2 tiles (illegal)")
            why = None
            if by == 2:
                why = double_shift_reason(state, one)
                if why is None:
                    raise SimulatorError(f"action {idx}: pushing {one} two tiles leaves a board a one-tile shift "
                                         "also makes: a camera cannot see it was illegal")
            elif one in state.barred_shifts():
                try:
                    apply(state, Turn(one, state.shifted(one)[1][state.to_move], None))
                except IllegalMove as exc:
                    why = _illegal_reason(exc)
            frames = _shift(film, table, hands.of(me), one.axis, one.index, one.step, by)
            entry = {"type": "shift", **one.to_json(), **({"by": 2} if by == 2 else {})}
            if why is None:
                shift = one
                coins, pawns = state.shifted(one)
                check_table({**table_of(state), "coins": coins.to_lists(lambda v: v.code),
                             "pawns": {s.code: list(p) for s, p in zip(state.players, pawns)}}, f"action {idx}")
                events.append({**times(frames), "type": "shift", "player": me, **one.to_json()})
                phase = "move"
            else:
                undo = {"kind": "shift", "axis": one.axis, "index": one.index, "step": -one.step, "by": by, "back": phase}
        elif kind in ("move", "stay"):
            coins, pawns = state.shifted(shift)
            here = pawns[state.to_move]
            if kind == "stay":
                try:
                    apply(state, Turn(shift, here, None))
                except IllegalMove as exc:
                    raise SimulatorError(f"action {idx}: the pawn may not stay ({exc}); a camera sees nothing wrong "
                                         "until the next turn") from None
                to = here
                norm.append({"type": "stay"})
                now = film.t(film.frame)
                events.append({"t": now, "t_clear": now, "t_hand": now, "type": "move", "pawn": me, "from": list(here),
                               "to": list(here), "coin": None})
                finish_turn((film.frame, film.frame, film.frame))
                timeline.append({"t": film.t(film.frame), "action": idx, "table": table.layout(),
                                 "position": to_json(state)})
                continue
            who = act.get("pawn", me)
            if who not in table.players:
                raise SimulatorError(f"action {idx}: pawn {who!r}: expected one of {', '.join(table.players)}")
            dest = _cell(act.get("to"), f"action {idx} 'to'")
            src = table.pawn_sq[who]
            if "from" in act and _cell(act["from"], f"action {idx} 'from'") != src:
                raise SimulatorError(f"action {idx}: the {who} pawn stands on {list(src)}, not {act['from']!r}")
            if dest == src:
                raise SimulatorError(f"action {idx}: the pawn already stands on {list(dest)} (a pawn that stays: 'stay')")
            if table.pawn_at(dest) is not None:
                raise SimulatorError(f"action {idx}: square {list(dest)} holds the {table.pawn_at(dest)} pawn")
            if who != me:
                why = Reason(reasons.WRONG_PAWN, (src, dest), (state.mover, state.players[table.players.index(who)]))
            else:
                why = rook_reason(coins, pawns, state.players, state.to_move, dest)
            undo_goal = table.pieces["pawn:" + who]
            frames = _move_pawn(film, table, hands.of(me), who, dest)
            norm.append({"type": "move", "pawn": who, "from": list(src), "to": list(dest)})
            if why is None:
                to = dest
                under = table.coin_at(dest)
                events.append({**times(frames), "type": "move", "pawn": who, "from": list(src), "to": list(dest),
                               "coin": None if under is None else under[1]})
                if table.coin_at(dest) is not None:
                    phase = "peek"
                else:
                    finish_turn(frames)
                    position = to_json(state)
            else:
                undo = {"kind": "move", "pawn": who, "to": src, "goal": (undo_goal.x, undo_goal.y, undo_goal.base),
                        "back": phase}
        elif kind == "peek":
            cell = table.pawn_sq[me]
            code = table.coin_at(cell)
            keep = Coin.parse(code).suit == state.mover
            wrong = act.get("keep", keep) is True and not keep
            if "keep" in act and act["keep"] is not keep and not wrong:
                raise SimulatorError(f"action {idx}: 'keep' {act['keep']!r}: the rules say {keep} for the {code} "
                                     "coin, and a coin of one's own put back shows a camera nothing wrong")
            held = (table.pieces["coin:" + code], table.pieces["pawn:" + me])
            frames = _peek(film, table, hands.of(me), me, keep or wrong)
            square = list(frames[4])
            norm.append({"type": "peek", "keep": keep or wrong})
            if wrong:
                try:
                    apply(state, Turn(shift, to, True))
                except IllegalMove as exc:
                    why = _illegal_reason(exc)
                undo = {"kind": "peek", "suit": me, "code": code, "cell": cell, "held": held, "back": phase}
            else:
                if keep:
                    events.append({**times(frames), "type": "collect", "player": me, "value": code[1], "coin": code,
                                   "square": square,
                                   "count": len(table.collected[me])})
                else:
                    events.append({**times(frames), "type": "peek", "player": me, "square": square,
                                   "value": Coin.parse(code).rank.code})
                finish_turn(frames)
                position = to_json(state)
        else:  # restore
            style = hands.of(me)
            if undo["kind"] == "shift":
                frames = _shift(film, table, style, undo["axis"], undo["index"], undo["step"], undo["by"])
            elif undo["kind"] == "move":
                frames = _move_pawn(film, table, style, undo["pawn"], undo["to"], undo["goal"])
            else:
                frames = _unkeep(film, table, style, undo["suit"], undo["code"], undo["cell"], *undo["held"])
            events.append({**times(frames), "type": "restored"})
            norm.append({"type": "restore"})
            phase, undo = undo["back"], None
            if phase == "shift":
                check_table(table_of(state), f"action {idx}")
                position = to_json(state)
        if kind in ("shift", "move", "peek") and undo is not None and phase != "blocked":
            events.append({**times(frames), "type": "illegal", "reason": reasons.text(why), "code": why.code,
                           "squares": [list(c) for c in why.cells], "cells": [list(c) for c in changed(before)]})
            phase = "blocked"
        if kind == "shift":
            norm.append(entry)
        timeline.append({"t": film.t(film.frame), "action": idx, "table": table.layout(), "position": position})
    film.rest(rng.uniform(1.0, 2.0))

    A.write_film(film, path, fourcc, rend, seed=seed, stream=VIDEO_STREAM, flicker=cond.get("flicker", 0.0),
                 board_px=rend.proj(scene.board_corners), layers=A.layered, progress=progress)
    return A.video_truth(GAME, film, camera, the_look.name, cond, seed, start=to_json(_start_state(start)), end=to_json(state),
                         events=events, timeline=timeline, actions=norm, **_end_points(camera, table))


def _end_points(camera: CameraSpec, table: _Table) -> dict:
    """``board_corners`` (the 4 outer corners of the tile area at tile-top height, far-left
    first, clockwise) and ``collected_points`` (``{suit: [[x, y], ...]}``, the centres of
    the collected coins' tops at the end, in the order they were laid), in final-image pixels."""
    def px(points) -> list:
        return [[round(float(x), 2), round(float(y), 2)] for x, y in camera.project(np.array(points, float).reshape(-1, 3))]

    collected = {}
    for s in table.players:
        pieces = [table.pieces["coin:" + code] for code in table.collected[s]]
        collected[s] = px([[p.x, p.y, -p.thickness] for p in pieces]) if pieces else []
    return {"board_corners": px(table.board), "collected_points": collected}


# ------------------------------------------------------------------------------------------
# random games


def _ends_on_coin(state: State, turn: Turn, cache: dict) -> bool:
    if turn.shift not in cache:
        cache[turn.shift] = state.shifted(turn.shift)
    coins, pawns = cache[turn.shift]
    return turn.to != pawns[state.to_move] and coins[turn.to] is not None


def _turn_actions(state: State, turn: Turn, on_coin: bool) -> list[dict]:
    out = [{"type": "shift", **turn.shift.to_json()}]
    pawns = state.shifted(turn.shift)[1]
    out.append({"type": "stay"} if turn.to == pawns[state.to_move] else {"type": "move", "to": list(turn.to)})
    if on_coin:
        out.append({"type": "peek"})
    return out


def _illegal_options(state: State, turn: Turn, mine: list[dict], rng: random.Random) -> list[list[dict]]:
    """``turn``'s actions ``mine`` with one illegal action and its restore put in: before the
    shift, a shift that reverses a barred one or a line pushed two tiles; between the shift and
    the move, the pawn moved past a coin or a pawn; at the peek, a coin of another suit kept."""
    options = []
    barred = sorted(state.barred_shifts(), key=str)
    if barred:
        s = rng.choice(barred)
        options.append([{"type": "shift", **s.to_json()}, {"type": "restore"}] + mine)
    doubles = [s for s in SHIFTS if double_shift_reason(state, s) is not None]
    if doubles:
        s = rng.choice(doubles)
        options.append([{"type": "shift", **s.to_json(), "by": 2}, {"type": "restore"}] + mine)
    coins, pawns = state.shifted(turn.shift)
    me = state.to_move
    here = pawns[me]
    bad = []
    for r in range(SHAPE[0]):
        for c in range(SHAPE[1]):
            cell = (r, c)
            if cell == here or cell in pawns:
                continue
            why = rook_reason(coins, pawns, state.players, me, cell)
            if why is not None and why.code in (reasons.PAST_COIN, reasons.PAST_PAWN):
                bad.append(cell)
    if bad:
        options.append(mine[:1] + [{"type": "move", "to": list(rng.choice(bad))}, {"type": "restore"}] + mine[1:])
    if len(mine) == 3 and coins[turn.to].suit != state.mover:
        options.append(mine[:2] + [{"type": "peek", "keep": True}, {"type": "restore"}] + mine[2:])
    return options


def random_game(
    seed: int,
    turns: int,
    *,
    players: int = 4,
    illegal: int = 0,
    start: Any = None,
    greed: float = 0.6,
    keen: float = 0.5,
) -> tuple[dict, list[dict]]:
    """``(start position JSON, actions)`` of a seeded random game of up to ``turns`` turns
    (fewer when someone wins), every turn drawn from the rules engine's legal turns.

    Players look for coins: a turn that collects is taken ``keen`` of the time when there is
    one (half), and a turn that ends on a coin ``greed`` of the time (low values make a long
    game). ``illegal`` turns (at most ``turns``)
    have one illegal action, put back at once (``restore``), then the turn goes on legally: a
    shift that reverses a barred one or a line pushed two tiles (before the turn's shift), the
    pawn moved past a coin or a pawn (after it), or a coin of another suit kept at the peek. ``start``: a referee-mode position (JSON or ``State``)
    instead of ``setup(seed, players)``.
    """
    if not (isinstance(turns, int) and 0 <= turns <= 500):
        raise SimulatorError(f"turns {turns!r}: expected 0 to 500")
    if not (isinstance(illegal, int) and 0 <= illegal <= turns):
        raise SimulatorError(f"illegal {illegal!r}: expected 0 to the number of turns ({turns})")
    rng = random.Random(seed)
    if start is None:
        try:
            state = setup(seed, players=players)
        except MalformedPosition as exc:
            raise SimulatorError(str(exc)) from None
    else:
        state = _start_state(start)
    first = to_json(state)
    slots = set(rng.sample(range(turns), illegal))
    actions: list[dict] = []
    for k in range(turns):
        if state.winner is not None:
            break
        moves = legal_moves(state)
        cache: dict = {}
        landing = [m for m in moves if _ends_on_coin(state, m, cache)]
        collecting = [m for m in landing if m.collect]
        if collecting and rng.random() < keen:
            turn = rng.choice(collecting)
        elif landing and rng.random() < greed:
            turn = rng.choice(landing)
        else:
            turn = rng.choice(moves)
        mine = _turn_actions(state, turn, _ends_on_coin(state, turn, cache))
        if k in slots:
            options = _illegal_options(state, turn, mine, rng)
            if options:
                mine = rng.choice(options)
        actions += mine
        state = apply(state, turn)
    return first, actions
