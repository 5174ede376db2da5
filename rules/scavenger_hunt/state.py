"""Scavenger Hunt (Mark A. Biggar, v1.2): the rules engine.

Board: 4x6 tiles grid side up = 8 rows x 12 columns of squares, ``(row, col)`` 0-based,
row 0 on the far side, as in docs/architecture.md. A tile is a 2x2 block of squares; tile-row ``i``
covers square rows ``2i, 2i+1``, tile-column ``j`` square columns ``2j, 2j+1``. Tiles are
identical (grid side up), so the board is only where coins and pawns stand.

A move is a whole turn (``Turn``): the shift of one tile line by one tile (wrapping), the
rook move of the pawn, and, when the pawn ends on a coin, whether that coin was collected.
Two knowledge modes:

- ``"referee"``: every coin's suit is known (``Coin``); the peek is decided by the engine.
- ``"public"``: only coin values are known (``Rank``); the peek outcome is part of the
  turn (told by the player or seen by the camera), and both outcomes are legal unless the
  player already holds a coin of that value.

Choices where the rules text is silent are listed in the README.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Iterator, Sequence, Union

from rules.errors import IllegalMove, MalformedPosition, NotationError
from rules.grid import Cell, Direction, Grid, in_bounds, ray, sign
from rules.pieces import RANKS, SUITS, Coin, Rank, Suit
from rules.reasons import Reason
from rules.scavenger_hunt import reasons
from rules.scavenger_hunt.board import SHAPE, TILE, TILE_COLS, TILE_ROWS, square_name

NAME = "scavenger-hunt"
MODES = ("referee", "public")
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# Seats clockwise seen from above, first player at the near-left corner. Two players sit
# diagonally opposite so neither starts next to the other.
CORNERS: tuple[Cell, ...] = ((SHAPE[0] - 1, 0), (0, 0), (0, SHAPE[1] - 1), (SHAPE[0] - 1, SHAPE[1] - 1))
_SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

CoinMark = Union[Coin, Rank]  # referee mode knows the Coin, public mode only its value


@dataclass(frozen=True)
class Shift:
    """Shift tile-row ``index`` (axis "row", direction LEFT/RIGHT) or tile-column ``index``
    (axis "col", direction UP/DOWN) by one tile; the pushed-out tile wraps to the open end.

    ``index`` is 0-based: tile-rows 0-3 from the far side, tile-columns 0-5 from the left.
    """

    axis: str
    index: int
    direction: Direction

    def __post_init__(self) -> None:
        if self.axis not in ("row", "col"):
            raise NotationError(f"bad shift axis {self.axis!r}: expected 'row' or 'col'")
        count = TILE_ROWS if self.axis == "row" else TILE_COLS
        if isinstance(self.index, bool) or not isinstance(self.index, int) or not 0 <= self.index < count:
            raise NotationError(f"bad tile-{self.axis} index {self.index!r}: expected 0 to {count - 1}")
        allowed = (Direction.LEFT, Direction.RIGHT) if self.axis == "row" else (Direction.UP, Direction.DOWN)
        if self.direction not in allowed:
            raise NotationError(
                f"a {self.axis} shifts {allowed[0].word} or {allowed[1].word}, not {getattr(self.direction, 'word', self.direction)!r}"
            )

    @property
    def reverse(self) -> "Shift":
        return Shift(self.axis, self.index, self.direction.opposite)

    @property
    def step(self) -> int:
        """+1 tile for right/down, -1 for left/up."""
        return 1 if self.direction in (Direction.RIGHT, Direction.DOWN) else -1

    def carries(self, cell: Cell) -> bool:
        """Whether square ``cell`` lies in the tile line this shift moves."""
        return cell[0 if self.axis == "row" else 1] // TILE == self.index

    def apply_cell(self, cell: Cell) -> Cell:
        """Where the piece on square ``cell`` stands after this shift."""
        return rotate_band_cell(cell, self.axis, self.index * TILE, TILE, self.step * TILE, SHAPE)

    def apply_grid(self, grid: Grid) -> Grid:
        return rotate_band(grid, self.axis, self.index * TILE, TILE, self.step * TILE)

    def to_json(self) -> dict:
        return {"line": self.axis, "index": self.index, "direction": self.direction.word}

    @classmethod
    def from_json(cls, obj: Any) -> "Shift":
        if not isinstance(obj, dict) or set(obj) != {"line", "index", "direction"}:
            raise MalformedPosition(
                f"bad shift {obj!r:.80}: expected {{\"line\": \"row\"|\"col\", \"index\": N, \"direction\": \"left\"|...}}"
            )
        try:
            return cls(obj["line"], obj["index"], Direction.parse(obj["direction"]))
        except NotationError as exc:
            raise MalformedPosition(f"bad shift {obj!r:.80}: {exc}") from None

    def __str__(self) -> str:
        arrow = {Direction.LEFT: "<", Direction.RIGHT: ">", Direction.UP: "^", Direction.DOWN: "v"}[self.direction]
        return f"{'R' if self.axis == 'row' else 'C'}{self.index + 1}{arrow}"


SHIFTS: tuple[Shift, ...] = tuple(
    [Shift("row", i, d) for i in range(TILE_ROWS) for d in (Direction.LEFT, Direction.RIGHT)]
    + [Shift("col", j, d) for j in range(TILE_COLS) for d in (Direction.UP, Direction.DOWN)]
)


@dataclass(frozen=True)
class Turn:
    """One whole turn: ``shift``, then the pawn to square ``to`` (0-based, in the board after
    the shift; the pawn's own square means it stays), then ``collect``: whether the coin it
    ended on was collected (False when it did not end on a coin). ``collect=None`` asks
    ``apply`` to decide it, which only the referee mode can do when the pawn ends on a coin.
    """

    shift: Shift
    to: Cell
    collect: bool | None = None

    def __str__(self) -> str:
        flag = {True: "+", False: "", None: ""}[self.collect]
        return f"{self.shift} {self.to[0] + 1},{self.to[1] + 1}{flag}"


@dataclass(frozen=True)
class State:
    """A Scavenger Hunt position.

    ``players``: pawn suits in turn order (2-4); ``pawns[i]``: square of player i's pawn;
    ``coins``: 8x12 grid of coins on the board (``Coin`` in referee mode, ``Rank`` in public
    mode, None for no coin); ``collected[i]``: values player i has collected (sorted);
    ``last_shifts[i]``: player i's shift in their latest turn (its reverse is barred until
    they complete their next turn); ``to_move``: index of the player to act; ``turn``:
    turns completed; ``must_move``: a pawn that can move must move at least one square.
    """

    players: tuple[Suit, ...]
    pawns: tuple[Cell, ...]
    coins: Grid
    collected: tuple[tuple[Rank, ...], ...]
    last_shifts: tuple[Shift | None, ...]
    to_move: int = 0
    turn: int = 0
    mode: str = "referee"
    must_move: bool = True

    @property
    def mover(self) -> Suit:
        return self.players[self.to_move]

    @property
    def winner(self) -> Suit | None:
        """The player who has collected all six of their coins, if any."""
        for suit, got in zip(self.players, self.collected):
            if len(got) == len(RANKS):
                return suit
        return None

    def barred_shifts(self) -> dict[Shift, Suit]:
        """Shifts no one may make now, each with the player whose earlier shift it would reverse."""
        return {s.reverse: p for p, s in zip(self.players, self.last_shifts) if s is not None}

    def shifted(self, shift: Shift) -> tuple[Grid, tuple[Cell, ...]]:
        """The coins grid and pawn squares after ``shift`` (pieces travel with their tile)."""
        return shift.apply_grid(self.coins), tuple(shift.apply_cell(p) for p in self.pawns)


def rotate_band(grid: Grid, axis: str, first: int, count: int, step_: int) -> Grid:
    """Shift ``count`` adjacent rows (axis "row") or columns (axis "col"), from index ``first``, by ``step_`` cells along their length, with wrap-around.

    +1 moves values right (rows) or down (columns). This is the shift of a whole line of
    multi-square tiles (Scavenger Hunt: a tile 2 squares wide is a band of 2 rows moved by 2).
    """
    rows = [list(r) for r in grid.rows]
    h, w = grid.shape
    for i in range(first, first + count):
        if axis == "row":
            old = rows[i]
            rows[i] = [old[(c - step_) % w] for c in range(w)]
        elif axis == "col":
            old = [rows[r][i] for r in range(h)]
            for r in range(h):
                rows[r][i] = old[(r - step_) % h]
        else:
            raise MalformedPosition(f"bad axis {axis!r}: expected 'row' or 'col'")
    return Grid.of(rows)


def rotate_band_cell(cell: Cell, axis: str, first: int, count: int, step_: int, shape: tuple[int, int]) -> Cell:
    """Where ``cell`` lies after ``rotate_band(grid, axis, first, count, step_)`` on a grid of ``shape``.

    Cells outside the band do not move; the pieces standing on a shifted tile travel with it.
    """
    r, c = cell
    if axis == "row":
        return (r, (c + step_) % shape[1]) if first <= r < first + count else cell
    if axis == "col":
        return ((r + step_) % shape[0], c) if first <= c < first + count else cell
    raise MalformedPosition(f"bad axis {axis!r}: expected 'row' or 'col'")


def cells_between(a: Cell, b: Cell) -> list[Cell]:
    """The cells strictly between ``a`` and ``b`` on one row or column, nearest ``a`` first.

    The path of a rook move. Raises MalformedPosition when the cells share neither a row nor a column.
    """
    if a[0] != b[0] and a[1] != b[1]:
        raise MalformedPosition(f"cells {a} and {b} share neither a row nor a column")
    dr, dc = sign(b[0] - a[0]), sign(b[1] - a[1])
    n = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
    return [(a[0] + dr * i, a[1] + dc * i) for i in range(1, n)]


def on_edge(cell: Cell, shape: tuple[int, int]) -> bool:
    """True for a cell in the outermost row or column of a board of ``shape``."""
    return cell[0] in (0, shape[0] - 1) or cell[1] in (0, shape[1] - 1)


def block_of(cell: Cell, block: tuple[int, int]) -> Cell:
    """The (row, col) of the ``block``-sized (rows, cols) tile that holds square ``cell`` (tiles aligned at (0, 0))."""
    return (cell[0] // block[0], cell[1] // block[1])


def rook_targets(coins: Grid, pawns: Sequence[Cell], mover: int) -> list[Cell]:
    """Squares the pawn ``pawns[mover]`` can reach like a rook: up, down, left, right, nearest
    first; it stops on the first coin it meets and can neither pass nor land on another pawn."""
    here = pawns[mover]
    others = set(pawns) - {here}
    out = []
    for d in (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT):
        for cell in ray(here, d, SHAPE):
            if cell in others:
                break
            out.append(cell)
            if coins[cell] is not None:
                break
    return out


def rook_reason(coins: Grid, pawns: Sequence[Cell], players: Sequence[Suit], mover: int, to: Cell) -> Reason | None:
    """Why the pawn ``pawns[mover]`` may not move to ``to`` (None when it may): a ``Reason``
    with a code of ``reasons`` (OFF_BOARD, DIAGONAL, PAST_PAWN, PAST_COIN, ONTO_PAWN)."""
    here = pawns[mover]
    if not in_bounds(to, SHAPE):
        return Reason(reasons.OFF_BOARD, (to,))
    if to == here:
        return None
    if to[0] != here[0] and to[1] != here[1]:
        return Reason(reasons.DIAGONAL, (here, to))
    owner = {cell: players[i] for i, cell in enumerate(pawns) if i != mover}
    for cell in cells_between(here, to):
        if cell in owner:
            return Reason(reasons.PAST_PAWN, (cell,), (owner[cell],))
        if coins[cell] is not None:
            return Reason(reasons.PAST_COIN, (cell,), (coins[cell],))
    if to in owner:
        return Reason(reasons.ONTO_PAWN, (to,), (owner[to],))
    return None


def coin_rank(mark: CoinMark) -> Rank:
    return mark.rank if isinstance(mark, Coin) else mark


def value_of(mark: CoinMark | None) -> Rank | None:
    """The value the camera sees on a square: its coin's rank, None for an empty square."""
    return None if mark is None else coin_rank(mark)


def forget_suits(state: State) -> State:
    """The same position as the public mode knows it: coins by value only."""
    if state.mode == "public":
        return state
    coins = Grid.of([[value_of(v) for v in row] for row in state.coins.rows])
    return replace(state, coins=coins, mode="public")


# ---------------------------------------------------------------- placement


def placement_reason(coins: Grid, cell: Cell) -> Reason | None:
    """Why a coin may not be placed on ``cell`` of ``coins`` during setup (None when it may):
    off the board (``reasons.OFF_BOARD``), an outside-edge square (``EDGE``), or a tile that
    already holds a coin (``TILE_TAKEN``)."""
    if not in_bounds(cell, SHAPE):
        return Reason(reasons.OFF_BOARD, (cell,))
    if on_edge(cell, SHAPE):
        return Reason(reasons.EDGE, (cell,))
    tile = block_of(cell, (TILE, TILE))
    for other, value in coins.items():
        if value is not None and block_of(other, (TILE, TILE)) == tile:
            return Reason(reasons.TILE_TAKEN, (cell, other), (value,))
    return None


def placement_problem(coins: Grid, cell: Cell) -> str | None:
    """``placement_reason`` written out (``reasons.text``), or None when the coin may go there."""
    why = placement_reason(coins, cell)
    return None if why is None else reasons.text(why)


def check_placement(coins: Grid) -> None:
    """Raise MalformedPosition unless every coin of ``coins`` obeys the placement rules
    (no outside-edge square, at most one coin per tile)."""
    placed = Grid.filled(SHAPE)
    for cell, value in coins.items():
        if value is None:
            continue
        why = placement_reason(placed, cell)
        if why is not None:
            raise MalformedPosition(f"coin placement: {reasons.text(why)}", why)
        placed = placed.set(cell, value)


def deal(players: Sequence[Suit], rng: random.Random) -> tuple[tuple[Coin, ...], ...]:
    """Each player's six dealt coins (one per value, suits at random among the suits in play), null to 5."""
    hands: list[list[Coin]] = [[] for _ in players]
    for rank in RANKS:
        suits = list(players)
        rng.shuffle(suits)
        for hand, suit in zip(hands, suits):
            hand.append(Coin(suit, rank))
    return tuple(tuple(h) for h in hands)


def random_placement(hands: Sequence[Sequence[Coin]], rng: random.Random) -> Grid:
    """A seeded valid placement: players in turn, first player first, each put a random one of
    their remaining coins on a random inner square of a random tile without a coin."""
    inner = [cell for cell in Grid.filled(SHAPE).cells() if not on_edge(cell, SHAPE)]
    used: set[Cell] = set()
    placed: dict[Cell, Coin] = {}
    left = [list(h) for h in hands]
    while any(left):
        for hand in left:
            if not hand:
                continue
            coin = hand.pop(rng.randrange(len(hand)))
            # same squares as placement_reason allows, without rescanning the board each time
            cell = rng.choice([c for c in inner if block_of(c, (TILE, TILE)) not in used])
            used.add(block_of(cell, (TILE, TILE)))
            placed[cell] = coin
    return Grid.filled(SHAPE).set_many(placed)


# ---------------------------------------------------------------- the game


def setup(
    seed: int | None = None,
    players: int = 4,
    mode: str = "referee",
    must_move: bool = True,
    coins: Grid | None = None,
) -> State:
    """A start position for ``players`` (2-4) pawns Suns, Moons, Crowns, Arms in that order.

    The coins of the suits in play are dealt and placed by ``random_placement`` (seeded),
    unless ``coins`` gives a placement (checked by ``check_placement``). In public mode
    the suits are then forgotten.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedPosition(f"Scavenger Hunt is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
    if mode not in MODES:
        raise MalformedPosition(f"bad mode {mode!r}: expected 'referee' or 'public'")
    suits = SUITS[:players]
    rng = random.Random(seed)
    if coins is None:
        coins = random_placement(deal(suits, rng), rng)
    state = State(
        players=suits,
        pawns=tuple(CORNERS[i] for i in _SEATS[players]),
        coins=coins,
        collected=tuple(() for _ in suits),
        last_shifts=tuple(None for _ in suits),
        mode="referee",
        must_move=bool(must_move),
    )
    if mode == "public":
        state = forget_suits(state)
    validate(state)
    return state


def legal_moves(state: State) -> list[Turn]:
    """Every legal turn: shifts in ``SHIFTS`` order, then destinations up, down, left,
    right nearest first, then staying put where allowed; public mode lists both peek
    outcomes for a coin whose value the player does not hold yet."""
    if state.winner is not None:
        return []
    out: list[Turn] = []
    for shift in legal_shifts(state):
        coins, pawns = state.shifted(shift)
        for to, collect in _options(state, coins, pawns):
            out.append(Turn(shift, to, collect))
    return out

def legal_shifts(state: State) -> list[Shift]:
    barred = state.barred_shifts()
    return [s for s in SHIFTS if s not in barred]

def _options(state: State, coins: Grid, pawns: tuple[Cell, ...]) -> Iterator[tuple[Cell, bool]]:
    me = state.to_move
    targets = rook_targets(coins, pawns, me)
    for to in targets:
        mark = coins[to]
        if mark is None:
            yield to, False
        elif state.mode == "referee":
            yield to, mark.suit == state.mover
        else:
            yield to, False
            if mark not in state.collected[me]:
                yield to, True
    if not targets or not state.must_move:
        yield pawns[me], False

def _illegal(why: Reason) -> IllegalMove:
    return IllegalMove(reasons.text(why), why)


def apply(state: State, move: Any) -> State:
    """The position after the turn ``move``; raises IllegalMove saying what is wrong (its
    ``reason`` a ``Reason`` with a code of ``reasons``, except for a ``move`` that is no turn)."""
    if not isinstance(move, Turn):
        raise IllegalMove(f"not a Scavenger Hunt turn: {move!r:.80}; expected a Turn(shift, to, collect)")
    if state.winner is not None:
        raise _illegal(Reason(reasons.GAME_OVER, pieces=(state.winner,)))
    shift = move.shift
    if not isinstance(shift, Shift):
        raise IllegalMove(f"not a shift: {shift!r:.80}")
    barred = state.barred_shifts()
    if shift in barred:
        raise _illegal(Reason(reasons.REVERSED, pieces=(shift, barred[shift])))
    me = state.to_move
    coins, pawns = state.shifted(shift)
    to = move.to
    if not (isinstance(to, tuple) and len(to) == 2 and all(isinstance(x, int) for x in to)):
        raise IllegalMove(f"bad destination {to!r:.40}: expected a (row, col) square")
    why = rook_reason(coins, pawns, state.players, me, to)
    if why is not None:
        raise _illegal(why)
    moved = to != pawns[me]
    if not moved and state.must_move:
        targets = rook_targets(coins, pawns, me)
        if targets:
            raise _illegal(Reason(reasons.MUST_MOVE, (to, targets[0]), (state.mover,)))
    mark = coins[to] if moved else None
    collect = move.collect
    if mark is None:
        if collect:
            raise _illegal(Reason(reasons.NO_COIN, (pawns[me], to)))
        collect = False
    elif state.mode == "referee":
        truth = mark.suit == state.mover
        if collect is not None and collect != truth:
            raise _illegal(Reason(reasons.WRONG_PEEK, (to,), (mark, state.mover)))
        collect = truth
    else:
        if collect is None:
            raise _illegal(Reason(reasons.SAY_PEEK, (to,), (mark,)))
        if collect and mark in state.collected[me]:
            raise _illegal(Reason(reasons.ALREADY_HELD, (to,), (state.mover, mark)))
    collected = state.collected
    if collect:
        got = tuple(sorted(collected[me] + (coin_rank(mark),), key=int))
        collected = collected[:me] + (got,) + collected[me + 1 :]
        coins = coins.set(to, None)
    pawns = pawns[:me] + (to,) + pawns[me + 1 :]
    last = state.last_shifts[:me] + (shift,) + state.last_shifts[me + 1 :]
    return replace(
        state,
        pawns=pawns,
        coins=coins,
        collected=collected,
        last_shifts=last,
        to_move=(me + 1) % len(state.players),
        turn=state.turn + 1,
    )

def perft(state: State, depth: int) -> int:
    """Legal turn sequences of exactly ``depth`` turns (leaf turns counted without applying them)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be an integer >= 0, got {depth!r}")
    if depth == 0:
        return 1
    if state.winner is not None:
        return 0
    if depth == 1:
        total = 0
        for shift in legal_shifts(state):
            coins, pawns = state.shifted(shift)
            total += sum(1 for _ in _options(state, coins, pawns))
        return total
    return sum(perft(apply(state, m), depth - 1) for m in legal_moves(state))


def validate(state: State) -> None:
    """The invariants every position keeps; raises MalformedPosition naming the broken one."""
    n = len(state.players)
    if len(set(state.pawns)) != n:
        raise MalformedPosition(f"two pawns on one square: {[list(p) for p in state.pawns]}")
    tiles: dict[Cell, Cell] = {}
    for cell, mark in state.coins.items():
        if mark is None:
            continue
        tile = block_of(cell, (TILE, TILE))
        if tile in tiles:
            raise MalformedPosition(
                f"two coins on one tile: squares {square_name(tiles[tile])} and {square_name(cell)} (rows, columns 1-based)"
            )
        tiles[tile] = cell
    board = [m for m in state.coins.values() if m is not None]
    if state.mode == "referee":
        held = [Coin(s, r) for s, got in zip(state.players, state.collected) for r in got]
        expected = Counter(Coin(s, r) for s in state.players for r in RANKS)
        seen = Counter(board) + Counter(held)
        if seen != expected:
            wrong = sorted(c.code for c in (seen - expected) + (expected - seen))
            raise MalformedPosition(
                f"the coins on the board and collected must be exactly the six coins of each suit in play "
                f"({''.join(s.code for s in state.players)}); wrong or missing: {wrong}"
            )
    else:
        counts = Counter(board) + Counter(r for got in state.collected for r in got)
        bad = sorted((r.code for r in RANKS if counts[r] != n))
        if bad or set(counts) - set(RANKS):
            raise MalformedPosition(
                f"each value must appear {n} times (one per player) on the board or collected; wrong for values {bad}"
            )
    winners = [s for s, got in zip(state.players, state.collected) if len(got) == len(RANKS)]
    if len(winners) > 1:
        raise MalformedPosition(f"only one player can have collected all six coins, got {[w.code for w in winners]}")
    if state.turn == 0:
        if any(state.last_shifts) or any(state.collected):
            raise MalformedPosition("turn 0 is the start position: no shifts made and no coins collected yet")
        check_placement(state.coins)
        if not set(state.pawns) <= set(CORNERS):
            raise MalformedPosition(
                f"at the start every pawn stands in a corner square, got {[list(p) for p in state.pawns]}"
            )

