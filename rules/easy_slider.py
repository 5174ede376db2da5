"""Easy Slider (Ron and Marty Hale-Evans): the setup, the goal, slides, "Done!" and their JSON.

Coordinates are ``(row, col)``, 0-based, row 0 next to the coins (the far side from the
player), col 0 at the player's left (DESIGN.md). The board is 5x5: the 24 tiles of one
piecepack and one hole (``None``). The four pawns lie left of rows 0-3 (top to bottom)
and the five coins (ace to 5 of one suit, value side up) above columns 0-4 (left to
right).

The goal a setup defines: the tile at ``(r, c)`` for ``r`` in 0-3 is the tile of the suit
of pawn ``r`` and the rank of coin ``c``; the four nulls fill row 4 in any order, with the
hole anywhere in that row (the "parity sponge", which makes every position solvable).

JSON (the ``caller read`` schema of DESIGN.md)::

    {"game": "easy-slider",
     "board": [["S5","Mn","C2","A3","Sa"], ..., ["An","Cn","Mn","Sn",null]],
     "pawns": ["M","S","C","A"], "coins": ["2","4","5","a","3"]}

Keys other than board, pawns and coins ("image", "confidence", "uncertain") are ignored on
input; a "game" key, when present, must be "easy-slider".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules import exact_search, sliding
from rules.errors import IllegalMove, MalformedPosition, NotationError
from rules.grid import Cell, Direction, Grid, in_bounds, neighbours
from rules.pieces import RANKS, SUITS, Pawn, Rank, Suit, Tile, all_tiles, parse_coin_side

SIZE = 5
SHAPE = (SIZE, SIZE)
#: The cell of the hole in a dealt setup: the lower right-hand corner.
SETUP_HOLE: Cell = (SIZE - 1, SIZE - 1)
#: The row that holds the four nulls and the hole when the board is done (the parity sponge).
SPONGE_ROW = SIZE - 1
COIN_RANKS: tuple[Rank, ...] = tuple(r for r in RANKS if r is not Rank.NULL)
TILES: frozenset[Tile] = frozenset(all_tiles())
#: Node budgets of ``explain``'s searches (see rules.sliding.path_to): the exact IDA*, then
#: the weighted A* fallback. Each caps the search at some 30 ms of CPU time: a node of the
#: exact search costs about 0.12 microseconds compiled (rules.exact_search, numba) and
#: about 5 in plain Python, a node of the weighted one about 5.5.
EXPLAIN_EXACT_BUDGET = 250_000 if exact_search.COMPILED else 8_000
EXPLAIN_WEIGHTED_BUDGET = 1_000


@dataclass(frozen=True)
class Slide:
    """One slide: ``tile`` moves from ``src`` into the hole at ``dst`` (orthogonal neighbours)."""

    tile: Tile
    src: Cell
    dst: Cell

    @property
    def direction(self) -> Direction | None:
        """The direction the tile moves in (None for a non-adjacent pair)."""
        return Direction.between(self.src, self.dst)

    def to_json(self) -> dict:
        """``{"tile": "S5", "from": [r, c], "to": [r, c]}``."""
        return {"tile": self.tile.code, "from": list(self.src), "to": list(self.dst)}

    def __str__(self) -> str:
        return f"{self.tile.code} {list(self.src)}->{list(self.dst)}"


@dataclass(frozen=True)
class EasySliderState:
    """A position: ``board`` (5x5 Grid of Tile, None for the hole), ``pawns`` (4, rows 0-3 top
    to bottom), ``coins`` (5 ranks ace-5, columns 0-4 left to right).

    The constructor checks the invariants (24 distinct tiles and one hole, four distinct
    pawns, the five coin ranks ace-5 once each) and raises MalformedPosition otherwise.
    """

    board: Grid
    pawns: tuple[Pawn, ...]
    coins: tuple[Rank, ...]

    def __post_init__(self) -> None:
        problems = board_problems(self.board)
        if problems:
            raise MalformedPosition(problems[0])
        if len(self.pawns) != 4 or not all(isinstance(p, Pawn) for p in self.pawns):
            raise MalformedPosition(f"pawns must be 4 pawns (rows 1-4), got {self.pawns!r}")
        if len({p.suit for p in self.pawns}) != 4:
            raise MalformedPosition(
                f"pawns {[p.code for p in self.pawns]} repeat a colour: expected each of S, M, C, A once"
            )
        if len(self.coins) != SIZE or not all(isinstance(c, Rank) for c in self.coins):
            raise MalformedPosition(f"coins must be 5 ranks (columns 1-5), got {self.coins!r}")
        if set(self.coins) != set(COIN_RANKS):
            raise MalformedPosition(
                f"coins {[c.code for c in self.coins]} must be a, 2, 3, 4, 5 once each"
            )

    @property
    def hole(self) -> Cell:
        """The cell of the hole."""
        return self.board.find(None)[0]

    def goal_tile(self, cell: Cell) -> Tile | None:
        """The tile that belongs at ``cell`` (None in the sponge row, where any null or the hole may lie)."""
        r, c = cell
        if r == SPONGE_ROW:
            return None
        return Tile(self.pawns[r].suit, self.coins[c])

    def slide(self, src: Cell) -> "EasySliderState":
        """The position after sliding the tile at ``src`` into the hole; raises IllegalMove saying why not."""
        if not in_bounds(src, SHAPE):
            raise IllegalMove(f"cell {list(src)} is off the 5x5 board")
        tile = self.board[src]
        if tile is None:
            raise IllegalMove(f"cell {list(src)} is the hole: there is no tile to slide")
        return GAME.apply(self, Slide(tile, src, self.hole))


def board_problems(board: Any) -> list[str]:
    """What makes ``board`` not a 5x5 board of the 24 distinct tiles and one hole (empty when fine)."""
    if not isinstance(board, Grid) or board.shape != SHAPE:
        shape = board.shape if isinstance(board, Grid) else type(board).__name__
        return [f"board must be a 5x5 grid, got {shape}"]
    problems = []
    seen: dict[Tile, Cell] = {}
    holes = []
    for cell, value in board.items():
        if value is None:
            holes.append(cell)
        elif not isinstance(value, Tile) or value not in TILES:
            problems.append(f"cell {list(cell)} holds {value!r}, which is not a tile of the set")
        elif value in seen:
            problems.append(f"tile {value.code} is on the board twice, at {list(seen[value])} and {list(cell)}")
        else:
            seen[value] = cell
    missing = sorted((t for t in TILES if t not in seen), key=lambda t: t.code)
    if len(holes) != 1:
        where = ", ".join(str(list(h)) for h in holes)
        problems.append(f"the board has {len(holes)} holes ({where or 'none'}): expected exactly one")
    if missing and len(holes) > 1:
        problems.append(f"tile(s) {', '.join(t.code for t in missing)} missing from the board")
    return problems


def goal_problems(state: EasySliderState) -> list[Cell]:
    """The cells that are wrong for the goal, row-major (empty when the board is done).

    A cell in rows 0-3 is wrong unless it holds its goal tile; a cell of the sponge row is
    wrong when it holds anything but a null or the hole.
    """
    wrong = []
    for cell, tile in state.board.items():
        goal = state.goal_tile(cell)
        if cell[0] == SPONGE_ROW:
            if tile is not None and tile.rank is not Rank.NULL:
                wrong.append(cell)
        elif tile != goal:
            wrong.append(cell)
    return wrong


def is_done(state: EasySliderState) -> bool:
    """True when the board matches the goal of its pawns and coins."""
    return not goal_problems(state)


def deal(rng: random.Random) -> EasySliderState:
    """The Caller's setup with ``rng``: pawns drawn first, then coins, then the tiles row by row."""
    pawns = [Pawn(s) for s in SUITS]
    rng.shuffle(pawns)
    coins = list(COIN_RANKS)
    rng.shuffle(coins)
    tiles = sorted(TILES, key=lambda t: t.code)
    rng.shuffle(tiles)
    cells: list[Tile | None] = list(tiles) + [None]  # the hole is the 25th cell: lower right
    rows = [cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
    return EasySliderState(Grid.of(rows), tuple(pawns), tuple(coins))


def parse_board(obj: Any, what: str = "board") -> Grid:
    """A 5x5 JSON board (tile codes or null) as a Grid; checks shape and codes only, not consistency."""
    return Grid.parse(obj, _parse_tile, shape=SHAPE, what=what)


def _parse_tile(value: Any) -> Tile:
    if not isinstance(value, str):
        raise NotationError(f"bad tile {value!r}: expected a code such as 'S5' or null for the hole")
    return Tile.parse(value)


def _parse_pawns(obj: Any) -> tuple[Pawn, ...]:
    if not isinstance(obj, list) or len(obj) != 4:
        raise MalformedPosition(f"pawns must be a list of 4 suit letters (rows 1-4), got {obj!r:.80}")
    try:
        return tuple(Pawn.parse(p) for p in obj)
    except NotationError as exc:
        raise MalformedPosition(f"pawns: {exc}") from None


def _parse_coins(obj: Any) -> tuple[Rank, ...]:
    if not isinstance(obj, list) or len(obj) != SIZE:
        raise MalformedPosition(f"coins must be a list of 5 coin values (columns 1-5), got {obj!r:.80}")
    out = []
    for value in obj:
        try:
            side = parse_coin_side(value)
        except NotationError as exc:
            raise MalformedPosition(f"coins: {exc}") from None
        if isinstance(side, Suit):
            raise MalformedPosition(f"coins: {value!r} is a suit side; expected the value side (a, 2, 3, 4, 5)")
        if side is Rank.NULL:
            raise MalformedPosition("coins: 'n' is the null coin, which is not used; expected a, 2, 3, 4, 5")
        out.append(side)
    return tuple(out)


# ----------------------------------------------------------------------------------------
# observed layouts (JSON from ``caller read`` or a user's file)


def parse_observation(
    obj: Any, what: str = "layout"
) -> tuple[Grid, tuple[Pawn, ...] | None, tuple[Rank, ...] | None]:
    """A layout JSON object as ``(board, pawns, coins)`` without requiring a full position.

    Raises MalformedPosition for what cannot be an observation of one piecepack: not an
    object, no board, a board that is not 5x5, unknown tile codes, a tile twice, no hole,
    bad pawns or coins (when present). Missing tiles (extra holes) are allowed: they are
    what a lifted tile looks like, and ``check_layout``/``explain`` report them.
    ``pawns``/``coins`` are None when absent.
    """
    if not isinstance(obj, dict):
        raise MalformedPosition(f"{what} must be a JSON object with board, pawns and coins, got {obj!r:.80}")
    _check_game(obj, what)
    if "board" not in obj:
        raise MalformedPosition(f"{what} lacks 'board'")
    board = parse_board(obj["board"], what=f"{what} board")
    seen: dict[Tile, Cell] = {}
    for cell, tile in board.items():
        if tile is None:
            continue
        if tile in seen:
            raise MalformedPosition(
                f"{what}: tile {tile.code} is on the board twice, at {list(seen[tile])} and {list(cell)}"
            )
        seen[tile] = cell
    try:
        pawns = _parse_pawns(obj["pawns"]) if "pawns" in obj else None
        coins = _parse_coins(obj["coins"]) if "coins" in obj else None
    except MalformedPosition as exc:
        raise MalformedPosition(f"{what}: {exc}") from None
    if pawns is not None and len({p.suit for p in pawns}) != 4:
        raise MalformedPosition(
            f"{what}: pawns {[p.code for p in pawns]} repeat a colour: expected each of S, M, C, A once"
        )
    if coins is not None and set(coins) != set(COIN_RANKS):
        raise MalformedPosition(f"{what}: coins {[c.code for c in coins]} must be a, 2, 3, 4, 5 once each")
    return board, pawns, coins


def _check_game(obj: dict, what: str) -> None:
    """A layout that names its game must name this one: another game's file is not read as Easy Slider."""
    game = obj.get("game", "easy-slider")
    if game != "easy-slider":
        shown = repr(game) if len(repr(game)) <= 40 else repr(game)[:40] + "..."
        raise MalformedPosition(f"{what} is for game {shown}, expected 'easy-slider'")


def check_layout(obj: Any, what: str = "layout") -> dict:
    """The ``caller check`` report of a layout JSON object.

    ``{"legal": bool, "done": bool, "problems": [{"cells": [[r, c], ...], "message": str,
    ...}]}``. Not legal: tiles are missing (a lifted tile shows as a second hole); the one
    problem lists the holes and ``"missing"`` tile codes. Legal but not done: one problem
    per wrong cell, with ``"has"`` (tile code or null for the hole) and ``"wants"`` (tile
    code, or "null" in the sponge row, where any null or the hole will do). Raises
    MalformedPosition as ``parse_observation``, and when pawns or coins are absent
    (they define the goal).
    """
    board, pawns, coins = parse_observation(obj, what)
    absent = [k for k, v in (("'pawns'", pawns), ("'coins'", coins)) if v is None]
    if absent:
        raise MalformedPosition(f"{what} lacks " + " and ".join(absent))
    holes = board.find(None)
    if len(holes) > 1:
        present = set(board.values())
        missing = sorted((t for t in TILES if t not in present), key=lambda t: t.code)
        names = ", ".join(f"{t.spoken} ({t.code})" for t in missing)
        return {
            "legal": False,
            "done": False,
            "problems": [
                {
                    "cells": [list(h) for h in holes],
                    "missing": [t.code for t in missing],
                    "message": f"{names} missing from the board: {len(holes)} holes, expected one",
                }
            ],
        }
    state = EasySliderState(board, pawns, coins)
    problems = []
    for cell in goal_problems(state):
        has = state.board[cell]
        wants = state.goal_tile(cell)
        has_text = f"{has.spoken} ({has.code})" if has is not None else "the hole"
        want_text = f"{wants.spoken} ({wants.code})" if wants is not None else "a null or the hole"
        problems.append(
            {
                "cells": [list(cell)],
                "has": has.code if has is not None else None,
                "wants": wants.code if wants is not None else "null",
                "message": f"{_where(cell)} has {has_text}, wants {want_text}",
            }
        )
    return {"legal": True, "done": not problems, "problems": problems}


# ----------------------------------------------------------------------------------------
# explaining an observed change


@dataclass(frozen=True)
class Explanation:
    """How the board got from one observation to the next.

    ``legal``: True when a sequence of slides leads there; then ``slides`` is that
    sequence (a shortest one when ``shortest`` is True, see ``explain``). When False,
    ``reason`` says why in the player's terms and ``cells`` lists the cells concerned
    (``[row, col]``, 0-based, row-major order unless the reason pairs them).
    """

    legal: bool
    slides: tuple[Slide, ...] = ()
    reason: str | None = None
    cells: tuple[Cell, ...] = ()
    shortest: bool = True

    def to_json(self) -> dict:
        """``{"legal": true, "slides": [...], "shortest": bool}`` or ``{"legal": false, "reason": ..., "cells": [...]}``."""
        if self.legal:
            return {"legal": True, "slides": [m.to_json() for m in self.slides], "shortest": self.shortest}
        return {"legal": False, "reason": self.reason, "cells": [list(c) for c in self.cells]}


def _illegal(reason: str, cells: Any) -> Explanation:
    return Explanation(False, (), reason, tuple(sorted(set(cells))))


def _where(cell: Cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def explain(
    before: "EasySliderState | Grid",
    after: "EasySliderState | Grid",
    max_slides: int | None = None,
    pawns: "tuple[Pawn, ...] | None" = None,
    coins: "tuple[Rank, ...] | None" = None,
) -> Explanation:
    """Explain the change from ``before`` (the last accepted board) to ``after`` (a new observation).

    ``before`` must be a legal position (else MalformedPosition); ``after`` may be any 5x5
    grid of observed values (Tile, None for an empty cell, anything else for "not a tile
    of the set"). When both are states, or ``pawns``/``coins`` give what was observed
    around the new board, a change of pawns or coins is reported too.

    The verdicts, checked in this order: pawns/coins moved; a value not in the set; a tile
    doubled; a tile missing (lifted: more than one hole); two tiles swapped; then, when no
    sequence of slides can lead there (the permutation parity does not match the hole's
    move), a diagonal move, a tile that jumped, or "swapped or lifted" with the changed
    cells. Otherwise the result is legal with a sequence of slides: a shortest one found
    by IDA* (Manhattan + linear conflicts) when that search stays within its node
    budget, else a legal sequence from a weighted search or the reduction solver, with
    ``shortest=False``. With ``max_slides``, a change that needs more slides than that is
    reported as not explainable.
    """
    pawns_coins = None
    if isinstance(after, EasySliderState):
        pawns, coins = after.pawns, after.coins
    if isinstance(before, EasySliderState):
        if pawns is not None and tuple(pawns) != before.pawns:
            pawns_coins = _illegal(
                "the pawns changed: " + " ".join(p.code for p in before.pawns) + " became "
                + " ".join(p.code for p in pawns), ()
            )
        elif coins is not None and tuple(coins) != before.coins:
            pawns_coins = _illegal(
                "the coins changed: " + " ".join(c.code for c in before.coins) + " became "
                + " ".join(c.code for c in coins), ()
            )
    b0 = before.board if isinstance(before, EasySliderState) else before
    b1 = after.board if isinstance(after, EasySliderState) else after
    problems = board_problems(b0)
    if problems:
        raise MalformedPosition(f"the last accepted board is not a legal position: {problems[0]}")
    if not isinstance(b1, Grid) or b1.shape != SHAPE:
        shape = b1.shape if isinstance(b1, Grid) else type(b1).__name__
        raise MalformedPosition(f"the new board must be a 5x5 grid, got {shape}")
    if pawns_coins is not None:
        return pawns_coins

    foreign = [cell for cell, v in b1.items() if v is not None and (not isinstance(v, Tile) or v not in TILES)]
    if foreign:
        names = ", ".join(f"{b1[c]!r} at {_where(c)}" for c in foreign)
        return _illegal(f"not a tile of the set: {names}", foreign)
    where: dict[Tile, list[Cell]] = {}
    holes = []
    for cell, v in b1.items():
        if v is None:
            holes.append(cell)
        else:
            where.setdefault(v, []).append(cell)
    doubled = {t: cells for t, cells in where.items() if len(cells) > 1}
    if doubled:
        text = "; ".join(f"{t.spoken} ({t.code}) is on the board twice, at "
                         + " and ".join(_where(c) for c in cells) for t, cells in sorted(doubled.items(), key=lambda kv: kv[1]))
        return _illegal(text, [c for cells in doubled.values() for c in cells])
    old_where = {v: cell for cell, v in b0.items() if v is not None}
    missing = sorted((t for t in TILES if t not in where), key=lambda t: old_where[t])
    if missing:
        names = ", ".join(f"{t.spoken} ({t.code}) from {_where(old_where[t])}" for t in missing)
        verb = "was" if len(missing) == 1 else "were"
        return _illegal(f"{names} {verb} lifted off the board: {len(holes)} holes", [old_where[t] for t in missing])

    changed = b0.diff(b1)
    if not changed:
        return Explanation(True)
    hole0, hole1 = b0.find(None)[0], holes[0]
    if hole0 == hole1 and len(changed) == 2:
        a, b = changed
        ta, tb = b0[a], b0[b]
        return _illegal(
            f"{ta.spoken} and {tb.spoken} changed places: tiles must slide into the hole, not swap", (a, b)
        )
    start = tuple(b0.values())
    goal = tuple(b1.values())
    if not sliding.same_parity(start, goal, SHAPE):
        if len(changed) == 2 and hole0 != hole1:
            tile = b0[hole1]
            if abs(hole1[0] - hole0[0]) == 1 and abs(hole1[1] - hole0[1]) == 1:
                return _illegal(
                    f"{tile.spoken} moved diagonally from {_where(hole1)} to {_where(hole0)}: "
                    "tiles slide along rows and columns only", (hole1, hole0)
                )
            return _illegal(
                f"{tile.spoken} jumped from {_where(hole1)} to {_where(hole0)}: it was lifted or moved "
                "past other tiles", (hole1, hole0)
            )
        return _illegal(
            "no sequence of slides leads to this board: tiles were swapped, or lifted and put back "
            "elsewhere", changed
        )
    path, shortest = sliding.path_to(
        start, goal, SHAPE, EXPLAIN_EXACT_BUDGET, EXPLAIN_WEIGHTED_BUDGET, max_length=max_slides
    )
    if path is None or (max_slides is not None and len(path) > max_slides):
        return _illegal(f"the board changed too much to be {max_slides} slides or fewer", changed)
    return Explanation(True, _slides_of(b0, path), shortest=shortest)


def _slides_of(board: Grid, path: list[int]) -> tuple[Slide, ...]:
    """The Slide values of a path of source cell indices (see rules.sliding) played on ``board``."""
    cells = list(board.values())
    hole = cells.index(None)
    out = []
    for src in path:
        tile = cells[src]
        out.append(Slide(tile, divmod(src, SIZE), divmod(hole, SIZE)))
        cells[hole], cells[src] = tile, None
        hole = src
    return tuple(out)


# ----------------------------------------------------------------------------------------
# solving


_NULL = "null"  # the reduction solver's label for any null tile: they are interchangeable


def solve(state: EasySliderState, improve: bool = True) -> tuple[Slide, ...]:
    """A legal sequence of slides from ``state`` to a done board (empty when it is done).

    Row-by-row reduction with small exact searches (rules.sliding.reduce_solve), the nulls
    interchangeable and the hole free in the sponge row, then (``improve``) stretches of
    the path replaced by shortest ones. Deterministic. Not a shortest solution in general.
    """
    if is_done(state):
        return ()
    cells = list(state.board.values())
    labelled = tuple(_NULL if t is not None and t.rank is Rank.NULL else t for t in cells)
    target = tuple(
        state.goal_tile(divmod(i, SIZE)) if i // SIZE != SPONGE_ROW else _NULL for i in range(SIZE * SIZE)
    )
    sponge = range(SPONGE_ROW * SIZE, SIZE * SIZE)
    path = sliding.reduce_solve(labelled, target, SHAPE, hole_ok=sponge)
    if improve:
        # four window sizes: about 168 slides from a deal instead of 179 with the
        # improve_path defaults, for about 0.1 s more (benchmarks/bench_solver.py); the
        # node budgets keep the worst case under half a second
        path = sliding.improve_path(
            tuple(cells), path, SHAPE, windows=(10, 16, 24, 32), window_budget=2_000, total_budget=200_000
        )
    return _slides_of(state.board, path)


def hint(state: EasySliderState) -> tuple[Slide | None, int]:
    """The next slide of ``solve(state)`` and that solution's length (``(None, 0)`` when done)."""
    solution = solve(state)
    return (solution[0] if solution else None), len(solution)


class EasySliderGame:
    """The Easy Slider rules for the registry (``rules.get("easy-slider")``)."""

    name = "easy-slider"
    title = "Easy Slider"

    def setup(self, seed: int | None = None, **options: Any) -> EasySliderState:
        """The Caller's deal: same seed, same setup; ``seed=None`` uses system randomness.

        ``players`` (optional, >= 1) is accepted and changes nothing: every player sets up
        the same board. Any other option raises MalformedPosition.
        """
        players = options.pop("players", 1)
        if options:
            raise MalformedPosition(f"easy-slider setup takes no options but players, got {sorted(options)}")
        if not isinstance(players, int) or players < 1:
            raise MalformedPosition(f"players must be a whole number of at least 1, got {players!r}")
        rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        return deal(rng)

    def legal_moves(self, state: EasySliderState) -> list[Slide]:
        """The slides into the hole, from above, below, left, right (empty once the board is done)."""
        if is_done(state):
            return []
        hole = state.hole
        return [Slide(state.board[n], n, hole) for _, n in neighbours(hole, SHAPE)]

    def apply(self, state: EasySliderState, move: Any) -> EasySliderState:
        """The position after ``move`` (a Slide); raises IllegalMove saying why it is not a legal slide."""
        if not isinstance(move, Slide):
            raise IllegalMove(f"{move!r} is not a slide: expected Slide(tile, src, dst)")
        src, dst = move.src, move.dst
        for cell in (src, dst):
            if not in_bounds(cell, SHAPE):
                raise IllegalMove(f"cell {list(cell)} is off the 5x5 board")
        if state.board[dst] is not None:
            raise IllegalMove(
                f"cannot slide {move.tile.code} to {list(dst)}: that cell holds {state.board[dst].code}, not the hole"
            )
        if state.board[src] != move.tile:
            held = state.board[src].code if state.board[src] is not None else "the hole"
            raise IllegalMove(f"cannot slide {move.tile.code} from {list(src)}: that cell holds {held}")
        dr, dc = abs(src[0] - dst[0]), abs(src[1] - dst[1])
        if dr == 1 and dc == 1:
            raise IllegalMove(f"{move.tile.code} from {list(src)} to {list(dst)} is a diagonal move")
        if dr + dc != 1:
            raise IllegalMove(
                f"{move.tile.code} at {list(src)} is not next to the hole at {list(dst)}: only a neighbouring tile may slide"
            )
        board = state.board.set(dst, move.tile).set(src, None)
        return EasySliderState(board, state.pawns, state.coins)

    def is_over(self, state: EasySliderState) -> bool:
        return is_done(state)

    def to_json(self, state: EasySliderState) -> dict:
        return {
            "game": self.name,
            "board": state.board.to_lists(lambda t: t.code),
            "pawns": [p.code for p in state.pawns],
            "coins": [c.code for c in state.coins],
        }

    def from_json(self, obj: Any) -> EasySliderState:
        """Parse and validate a position; raises MalformedPosition quoting what is wrong."""
        if not isinstance(obj, dict):
            raise MalformedPosition(
                f"an easy-slider position must be a JSON object with board, pawns and coins, got {obj!r:.80}"
            )
        _check_game(obj, "easy-slider position")
        missing = [k for k in ("board", "pawns", "coins") if k not in obj]
        if missing:
            raise MalformedPosition(f"easy-slider position lacks {', '.join(repr(k) for k in missing)}")
        board = parse_board(obj["board"])
        return EasySliderState(board, _parse_pawns(obj["pawns"]), _parse_coins(obj["coins"]))


GAME = EasySliderGame()
