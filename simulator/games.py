"""Layouts and scenes of Scavenger Hunt, Steppin' Stones, Slider and Slide.

These layouts are the simulator's own, small and documented here (the games' rules modules
have richer states; the simulator only needs what lies on the table). Squares are indexed
[row, col] from the player's far-left corner, as everywhere in the project.

- ``scavenger-hunt``: ``{"game", "coins": 8x12 grid of null or a coin ("M5" lies value side
  up, so only its rank shows; a rank "5" is the same; a suit letter "M" lies suit side up),
  "pawns": {suit: [r, c]}, "collected": {suit: [coins]} (suit side up by the owner's starting
  corner, off the board)}`` on a 4x6 board of tiles grid side up (each tile is 2x2 squares).
- ``steppin-stones``: ``{"game", "board": 8x8 grid of null or a coin side (rank "3" = value side
  up, suit "S" = suit side up, full code "S3" = value side up), "pawns": {suit: [r, c]},
  "dice": [{"suit", "face"}] (n, s, 2-5; beside the board)}`` on a 4x4 board of tiles whose
  four corner tiles show their suit's ace face and the rest their backs.
- Both take ``"coin_turn"``: the most degrees either way each coin on a square lies turned
  (random; default 20 in Scavenger Hunt, 25 in Steppin' Stones, nearly upright as the squares
  models learnt them; 180: any turn, as players lay coins at a real table).
- ``slider``: ``{"game", "n": N, "board": NxN of null, "H", "V" or "B"}``: H pieces are coins
  of one suit and V of another (suit side up; ``"h_suit"``/``"v_suit"`` pick them, default
  Suns and Arms), B blocked squares carry a die showing null; squares are tiles' grid
  quarters (ceil(N/2) tiles a side).
- ``slide``: ``{"game", "grid": 4x4 of a card number 1-10, {"down": n} (face down) or null}``;
  a rules-module state with ``"grids"`` is accepted too (``"player"`` picks whose, default 0).

The truth's ``cells`` are the squares (cards for Slide) as 4 projected corners each.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from simulator import decks
from simulator import looks as L
from simulator import scene as S
from simulator.errors import SimulatorError

SUITS = ("S", "M", "C", "A")
RANKS = ("n", "a", "2", "3", "4", "5")


def _grid(obj: Any, rows: int, cols: int, what: str) -> list[list]:
    if not (isinstance(obj, list) and len(obj) == rows and all(isinstance(r, list) and len(r) == cols for r in obj)):
        raise SimulatorError(f"layout {what!r} must be {rows} rows of {cols}, got {obj!r:.80}")
    return [list(r) for r in obj]


def _pawn_map(obj: Any, shape: tuple[int, int]) -> dict:
    if obj is None:
        return {}
    if not isinstance(obj, dict) or not all(k in SUITS for k in obj):
        raise SimulatorError(f"layout 'pawns' {obj!r:.80}: expected {{suit letter: [row, col]}}")
    return {k: list(S.check_cell(v, shape, f"pawn {k}")) for k, v in obj.items()}


def _squares(tile_piece: S.Flat | None, nominal: np.ndarray) -> list[np.ndarray]:
    """The 2x2 squares (each (4, 3) corners) of one tile's top face, row-major."""
    q = tile_piece.corners() if tile_piece is not None else nominal
    tl, tr, br, bl = q
    out = []
    for i in range(2):
        for j in range(2):
            def at(u, v):
                top = tl + (tr - tl) * u
                bot = bl + (br - bl) * u
                return top + (bot - top) * v
            out.append(np.array([at(j / 2, i / 2), at((j + 1) / 2, i / 2), at((j + 1) / 2, (i + 1) / 2), at(j / 2, (i + 1) / 2)]))
    return out


def _square_board(rng, look, tile_rows, tile_cols, faces: dict, square_shape: tuple[int, int] | None = None):
    """Tiles (grid side up unless ``faces`` gives a face code) and their squares."""
    codes = {(r, c): faces.get((r, c), "back") for r in range(tile_rows) for c in range(tile_cols)}
    pieces, cells, board, pitch = S.tile_grid(rng, look, tile_rows, tile_cols, codes,
                                              kind_of=lambda code: "back" if code == "back" else "tile")
    by_cell = {tuple(int(v) for v in p.tag.split(":")[1:]): p for p in pieces}
    squares = {}
    for (r, c), corners in cells.items():
        for k, sq in enumerate(_squares(by_cell.get((r, c)), corners)):
            squares[(2 * r + k // 2, 2 * c + k % 2)] = sq
    rows, cols = square_shape or (2 * tile_rows, 2 * tile_cols)
    squares = {k: v for k, v in squares.items() if k[0] < rows and k[1] < cols}
    if square_shape:
        tl, br = squares[(0, 0)][0], squares[(rows - 1, cols - 1)][2]
        board = np.array([tl, [br[0], tl[1], tl[2]], br, [tl[0], br[1], br[2]]])
    return pieces, squares, board, (rows, cols)


def _on_square(sq: np.ndarray) -> tuple[float, float]:
    c = sq[:, :2].mean(0)
    return float(c[0]), float(c[1])


def _coins_on_squares(look, rng, grid: list[list], squares: dict, what: str, expected: str, spin_deg: float, base: float) -> list:
    """A coin on each square whose ``grid`` entry is a side ('5', 'M') or a coin ('M5', drawn value side up).

    Each lies a little off the square's centre and turned up to ``spin_deg`` degrees either way,
    tagged ``coin:R:C``; ``base`` is the height it rests on. A bad entry is a SimulatorError
    naming ``what[r][c]`` and ending with ``expected``.
    """
    coins = []
    for r, row in enumerate(grid):
        for c, code in enumerate(row):
            if code is None:
                continue
            if not isinstance(code, str) or not (code in SUITS or code in RANKS or (len(code) == 2 and code[0] in SUITS and code[1] in RANKS)):
                raise SimulatorError(f"layout {what}[{r}][{c}] is {code!r}: expected {expected}")
            shown = code[-1] if len(code) == 2 else code
            x, y = _on_square(squares[(r, c)])
            coins.append(S.coin(look, x + rng.normal(0, 0.8), y + rng.normal(0, 0.8), shown, float(rng.uniform(-spin_deg, spin_deg)), f"coin:{r}:{c}", base=base))
    return coins


def _coin_turn(layout: dict, default: float) -> float:
    """The layout's ``coin_turn`` (degrees either way, 0-180), else ``default``."""
    turn = layout.get("coin_turn", default)
    if isinstance(turn, bool) or not isinstance(turn, (int, float)) or not 0 <= turn <= 180:
        raise SimulatorError(f"layout 'coin_turn' {turn!r}: expected degrees from 0 to 180")
    return float(turn)


def _pawns_on_squares(look, rng, pawns: dict, squares: dict, jitter_mm: float, base: float) -> list:
    """A pawn of each suit on its square, up to about ``jitter_mm`` off centre, resting at height ``base``."""
    out = []
    for s, (r, c) in pawns.items():
        x, y = _on_square(squares[(r, c)])
        out.append(S.Pawn(x + rng.normal(0, jitter_mm), y + rng.normal(0, jitter_mm), s, look.pawn_shape, f"pawn:{s}", base=base))
    return out


def _finish(scene: S.Scene, margin: float = 6.0) -> S.Scene:
    scene.extent = S._extent(scene.pieces, margin)
    return scene


# ---------------------------------------------------------------------------------------------
# scavenger hunt


_SH_CORNERS = {"S": (7, 0), "M": (0, 0), "C": (0, 11), "A": (7, 11)}


def scavenger_hunt_layout(seed: int) -> dict:
    """A game a few turns in: coins value side up on inner squares (one per tile), a few peeked
    ones suit side up, pawns walked from their corners, some coins already collected."""
    rng = random.Random(seed)
    coins = [[None] * 12 for _ in range(8)]
    tiles = [(r, c) for r in range(4) for c in range(6)]
    rng.shuffle(tiles)
    collected = {s: [s + k for k in rng.sample(RANKS, rng.choice([0, 0, 1, 2]))] for s in SUITS}
    taken = {code for codes in collected.values() for code in codes}
    deck = [s + k for s in SUITS for k in RANKS if s + k not in taken]
    rng.shuffle(deck)
    placed = 0
    for tr, tc in tiles:
        inner = [(2 * tr + i, 2 * tc + j) for i in range(2) for j in range(2)
                 if 0 < 2 * tr + i < 7 and 0 < 2 * tc + j < 11]
        if not inner or placed >= min(20, len(deck)):
            continue
        r, c = rng.choice(inner)
        coins[r][c] = deck[placed] if rng.random() < 0.9 else deck[placed][0]
        placed += 1
    pawns = {s: list(_SH_CORNERS[s]) for s in SUITS}
    for s in SUITS:
        r, c = pawns[s]
        if rng.random() < 0.6:
            pawns[s] = [r, min(11, max(0, c + (1 if c == 0 else -1) * rng.randint(1, 4)))]
    return {"game": "scavenger-hunt", "coins": coins, "pawns": pawns, "collected": collected}


def collected_spot(corner: tuple[int, int], index: int, board: np.ndarray) -> tuple[float, float]:
    """Where (world mm, before jitter) the ``index``-th coin (0 = the first) collected by the
    player whose pawn started on the corner square ``corner`` lies: off the board, in a row
    along the board's edge on that corner's side, starting by the corner. ``board``: the
    board's tile-top corners (4, 3) mm."""
    half_w, half_h = board[:, 0].max(), board[:, 1].max()
    r0, c0 = corner
    sx = -1 if c0 == 0 else 1
    sy = 1 if r0 == 7 else -1
    return sx * (half_w - 10 - index * (L.COIN_MM + 4)), sy * (half_h + 8 + L.COIN_MM / 2)


def scavenger_hunt_scene(layout: dict, look: L.Look, rng) -> tuple[S.Scene, dict]:
    coins = _grid(layout.get("coins"), 8, 12, "coins")
    pawns = _pawn_map(layout.get("pawns"), (8, 12))
    collected = layout.get("collected", {})
    if not (isinstance(collected, dict) and all(k in SUITS and isinstance(v, list) and len(v) <= 6 for k, v in collected.items())):
        raise SimulatorError(f"layout 'collected' {collected!r:.80}: expected {{suit: [up to 6 coins]}}")
    pieces, squares, board, shape = _square_board(rng, look, 4, 6, {})
    t = look.tile_thickness_mm
    pieces += _coins_on_squares(look, rng, coins, squares, "coins", "a coin ('M5', value side up) or a side ('5', 'M')",
                                _coin_turn(layout, 20), t)
    pieces += _pawns_on_squares(look, rng, pawns, squares, 0.8, t)
    # collected coins lie suit side up off the board, by their owner's starting corner
    won = []
    for s in SUITS:
        for i, code in enumerate(collected.get(s, [])):
            if not (isinstance(code, str) and len(code) == 2 and code[0] == s and code[1] in RANKS):
                raise SimulatorError(f"layout collected[{s!r}] holds {code!r}: expected {s} coins such as '{s}3'")
            x, y = collected_spot(_SH_CORNERS[s], i, board)
            x = x + rng.normal(0, 1.5)
            y = y + rng.normal(0, 1.5)
            p = S.coin(look, x, y, s, float(rng.uniform(-30, 30)), f"collected:{s}:{i}")
            pieces.append(p)
            won.append(np.array([p.x, p.y, -p.thickness]))
    scene = S.Scene(pieces=pieces, cells=squares, grid_shape=shape, board_corners=board)
    scene.points = {"pawn_points": [np.array([p.x, p.y, -(t + L.PAWN_HEIGHT_MM / 2)]) for p in pieces if isinstance(p, S.Pawn)],
                    "coin_points": [np.array([p.x, p.y, -p.thickness]) for p in pieces if p.tag.startswith("coin:")],
                    "collected_points": won}
    norm = {"game": "scavenger-hunt", "coins": coins, "pawns": pawns,
            "collected": {s: list(collected.get(s, [])) for s in SUITS}}
    return _finish(scene), norm


# ---------------------------------------------------------------------------------------------
# steppin' stones


def steppin_stones_layout(seed: int) -> dict:
    """Coins on the board (some suit side up), pawns on the centre squares (about half moved up
    to 3 squares along their column), each on its own square, one die per suit."""
    rng = random.Random(seed)
    board = [[None] * 8 for _ in range(8)]
    free = [(r, c) for r in range(8) for c in range(8) if not (3 <= r <= 4 and 3 <= c <= 4)]
    rng.shuffle(free)
    for (r, c) in free[: rng.randint(8, 16)]:
        s, k = rng.choice(SUITS), rng.choice(RANKS)
        board[r][c] = s if rng.random() < 0.35 else k
    centre = [[3, 3], [3, 4], [4, 4], [4, 3]]
    pawns = {s: centre[i] for i, s in enumerate(SUITS)}
    for s in SUITS:
        if rng.random() < 0.5:
            r, c = pawns[s]
            pawns[s] = [min(7, max(0, r + rng.randint(-3, 3))), c]
    used: set[tuple[int, int]] = set()
    for s in SUITS:
        if tuple(pawns[s]) in used:
            # moved onto a pawn placed before it: back to its centre square or, where a moved pawn
            # stands there, the free square of its column nearest it (no two pawns share a square)
            home_row, col = centre[SUITS.index(s)]
            row = min((r for r in range(8) if (r, col) not in used), key=lambda r: (abs(r - home_row), r))
            pawns[s] = [row, col]
        used.add(tuple(pawns[s]))
        board[pawns[s][0]][pawns[s][1]] = None
    dice = [{"suit": s, "face": rng.choice(["n", "s", "2", "3", "4", "5"])} for s in SUITS]
    return {"game": "steppin-stones", "board": board, "pawns": pawns, "dice": dice}


def steppin_stones_scene(layout: dict, look: L.Look, rng) -> tuple[S.Scene, dict]:
    board = _grid(layout.get("board"), 8, 8, "board")
    pawns = _pawn_map(layout.get("pawns"), (8, 8))
    dice = layout.get("dice", [])
    if not (isinstance(dice, list) and all(isinstance(d, dict) and d.get("suit") in SUITS
                                           and d.get("face") in ("n", "s", "2", "3", "4", "5") for d in dice)):
        raise SimulatorError(f"layout 'dice' {dice!r:.80}: expected [{{'suit': 'S', 'face': 'n|s|2-5'}}, ...]")
    faces = {(0, 0): "Sa", (0, 3): "Ma", (3, 3): "Ca", (3, 0): "Aa"}
    pieces, squares, corners, shape = _square_board(rng, look, 4, 4, faces)
    t = look.tile_thickness_mm
    pieces += _coins_on_squares(look, rng, board, squares, "board", "a coin side ('3', 'S') or a coin ('S3')",
                                _coin_turn(layout, 25), t)
    pieces += _pawns_on_squares(look, rng, pawns, squares, 0.6, t)
    half = corners[:, 0].max()
    die_pts = []
    for i, d in enumerate(dice):
        x = half + 22.0 + float(rng.uniform(-2, 2))
        y = -45.0 + i * 30.0 + float(rng.uniform(-3, 3))
        pieces.append(S.Die(x, y, float(rng.uniform(-30, 30)), d["suit"], d["face"], f"die:{i}"))
        die_pts.append(np.array([x, y, -L.DIE_MM]))
    scene = S.Scene(pieces=pieces, cells=squares, grid_shape=shape, board_corners=corners)
    scene.points = {"pawn_points": [np.array([p.x, p.y, -(t + L.PAWN_HEIGHT_MM / 2)]) for p in pieces if isinstance(p, S.Pawn)],
                    "coin_points": [np.array([p.x, p.y, -p.thickness]) for p in pieces if isinstance(p, S.Flat) and p.tag.startswith("coin:")],
                    "die_points": die_pts}
    return _finish(scene), {"game": "steppin-stones", "board": board, "pawns": pawns, "dice": [dict(d) for d in dice]}


# ---------------------------------------------------------------------------------------------
# slider (Leckie & Erfani)


def slider_layout(seed: int, n: int | None = None) -> dict:
    """An NxN Slider position: H pieces from the left edge, V from the bottom, some advanced, a few blocks."""
    rng = random.Random(seed)
    n = n or rng.choice([5, 6, 7])
    board = [[None] * n for _ in range(n)]
    for r in range(n - 1):
        board[r][rng.randint(0, n // 2 - 1) if rng.random() < 0.5 else 0] = "H"
    for c in range(1, n):
        row = rng.randint(n // 2, n - 1) if rng.random() < 0.5 else n - 1
        if board[row][c] is None:
            board[row][c] = "V"
    empty = [(r, c) for r in range(n) for c in range(n) if board[r][c] is None]
    for r, c in rng.sample(empty, min(len(empty), rng.randint(1, 3))):
        board[r][c] = "B"
    return {"game": "slider", "n": n, "board": board}


#: the rotations round a Slider board (degrees) of a drawn camera: a player's webcam on the
#: near side, by the board's last row, turned up to 35 degrees either way; the truth's frame
#: is then the camera's (the Caller fixes the players' side as the camera's)
NEAR_SIDE = (-35.0, 35.0)


def slider_scene(layout: dict, look: L.Look, rng) -> tuple[S.Scene, dict]:
    n = layout.get("n")
    if not (isinstance(n, int) and 3 <= n <= 12):
        raise SimulatorError(f"layout 'n' {n!r}: expected a board size 3 to 12")
    board = _grid(layout.get("board"), n, n, "board")
    hs, vs = layout.get("h_suit", "S"), layout.get("v_suit", "A")
    if hs not in SUITS or vs not in SUITS or hs == vs:
        raise SimulatorError(f"h_suit {hs!r} and v_suit {vs!r}: expected two different suit letters")
    k = (n + 1) // 2
    pieces, squares, corners, shape = _square_board(rng, look, k, k, {}, square_shape=(n, n))
    t = look.tile_thickness_mm
    pts = []
    for r in range(n):
        for c in range(n):
            v = board[r][c]
            if v is None:
                continue
            x, y = _on_square(squares[(r, c)])
            x, y = x + rng.normal(0, 0.8), y + rng.normal(0, 0.8)
            if v in ("H", "V"):
                pieces.append(S.coin(look, x, y, hs if v == "H" else vs, float(rng.uniform(-15, 15)), f"piece:{r}:{c}", base=t))
                pts.append(np.array([x, y, -(t + look.coin_thickness_mm)]))
            elif v == "B":
                pieces.append(S.Die(x, y, float(rng.uniform(-20, 20)), "M", "n", f"block:{r}:{c}", base=t))
            else:
                raise SimulatorError(f"layout board[{r}][{c}] is {v!r}: expected null, 'H', 'V' or 'B'")
    scene = S.Scene(pieces=pieces, cells=squares, grid_shape=shape, board_corners=corners, camera_rotation=NEAR_SIDE)
    scene.points = {"piece_points": pts}
    return _finish(scene, 14.0), {"game": "slider", "n": n, "board": board, "h_suit": hs, "v_suit": vs}


# ---------------------------------------------------------------------------------------------
# slide (Gigamic): one player's 4x4 card grid


def slide_layout(seed: int) -> dict:
    rng = random.Random(seed)
    grid = [[rng.randint(1, 10) for _ in range(4)] for _ in range(4)]
    for _ in range(rng.randint(0, 6)):
        r, c = rng.randrange(4), rng.randrange(4)
        if not isinstance(grid[r][c], dict):
            grid[r][c] = {"down": grid[r][c]}
    return {"game": "slide", "grid": grid}


def slide_scene(layout: dict, look: L.Look, rng) -> tuple[S.Scene, dict]:
    if "grid" not in layout and isinstance(layout.get("grids"), list):
        player = layout.get("player", 0)
        if not (isinstance(player, int) and 0 <= player < len(layout["grids"])):
            raise SimulatorError(f"layout 'player' {player!r}: expected 0 to {len(layout['grids']) - 1}")
        grid = layout["grids"][player]
    else:
        grid = layout.get("grid")
    grid = _grid(grid, 4, 4, "grid")
    deck = layout.get("deck", "classic")
    decks.get_deck(deck)  # a bad name raises SimulatorError
    gap = float(rng.uniform(3, 7))
    px, py = L.CARD_W_MM + gap, L.CARD_H_MM + gap
    pieces, cells = [], {}
    thick = 0.4
    for r in range(4):
        for c in range(4):
            v = grid[r][c]
            cx, cy = (c - 1.5) * px, (r - 1.5) * py
            nominal = S.Flat("card", "", cx, cy, 0.0, L.CARD_W_MM, L.CARD_H_MM, thick)
            if v is None:
                cells[(r, c)] = nominal.corners()
                continue
            down = isinstance(v, dict)
            num = v.get("down") if down else v
            if not (isinstance(num, int) and 1 <= num <= 10):
                raise SimulatorError(f"layout grid[{r}][{c}] is {v!r}: expected a card 1-10, {{'down': n}} or null")
            dx, dy, da = S._jitter(rng, 1.0, 1.5)
            f = S.Flat("card", f"{deck}:{'back' if down else num}", cx + dx, cy + dy, da, L.CARD_W_MM, L.CARD_H_MM, thick,
                       side=(200, 200, 200), tag=f"cell:{r}:{c}")
            pieces.append(f)
            cells[(r, c)] = f.corners()
    hw, hh = 1.5 * px + L.CARD_W_MM / 2, 1.5 * py + L.CARD_H_MM / 2
    board = np.array([[-hw, -hh, -thick], [hw, -hh, -thick], [hw, hh, -thick], [-hw, hh, -thick]])
    scene = S.Scene(pieces=pieces, cells=cells, grid_shape=(4, 4), board_corners=board)
    return _finish(scene), {"game": "slide", "grid": grid, "deck": deck}


# ---------------------------------------------------------------------------------------------

_BUILDERS = {
    "scavenger-hunt": scavenger_hunt_scene,
    "steppin-stones": steppin_stones_scene,
    "slider": slider_scene,
    "slide": slide_scene,
}
_LAYOUTS = {
    "scavenger-hunt": scavenger_hunt_layout,
    "steppin-stones": steppin_stones_layout,
    "slider": slider_layout,
    "slide": slide_layout,
}


def build(game: str, layout: Any, look: L.Look, rng) -> tuple[S.Scene, dict]:
    """(scene, normalised layout) of ``game``; raises SimulatorError for a malformed layout."""
    if game not in _BUILDERS:
        raise SimulatorError(f"unknown game {game!r}: expected one of easy-slider, {', '.join(_BUILDERS)}")
    if not isinstance(layout, dict):
        raise SimulatorError(f"a {game} layout must be a JSON object, got {type(layout).__name__}")
    return _BUILDERS[game](layout, look, rng)


def layout_for(game: str, seed: int, kind: str = "setup") -> dict:
    """A layout of ``game`` from ``seed`` (``kind`` matters for Easy Slider only)."""
    if game == "easy-slider":
        from simulator.layouts import easy_slider_layout

        return easy_slider_layout(seed, kind)
    if game not in _LAYOUTS:
        raise SimulatorError(f"unknown game {game!r}: expected one of easy-slider, {', '.join(_LAYOUTS)}")
    return _LAYOUTS[game](seed)
