"""Scavenger Hunt (Mark A. Biggar, v1.2): the rules engine.

Board: 4x6 tiles grid side up = 8 rows x 12 columns of squares, ``(row, col)`` 0-based,
row 0 on the far side, as in DESIGN.md. A tile is a 2x2 block of squares; tile-row ``i``
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
from rules.grid import (
    Cell,
    Direction,
    Grid,
    block_of,
    cells_between,
    in_bounds,
    on_edge,
    ray,
    rotate_band,
    rotate_band_cell,
)
from rules.pieces import RANKS, SUITS, Coin, Rank, Suit

TILE = 2  # squares per tile side
TILE_ROWS, TILE_COLS = 4, 6
SHAPE: tuple[int, int] = (TILE_ROWS * TILE, TILE_COLS * TILE)  # (8, 12) squares
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


def rook_problem(coins: Grid, pawns: Sequence[Cell], players: Sequence[Suit], mover: int, to: Cell) -> str | None:
    """Why the pawn ``pawns[mover]`` may not move to ``to`` (None when it may); squares are quoted 1-based."""
    here = pawns[mover]
    if not in_bounds(to, SHAPE):
        return f"square {_sq(to)} is off the board (rows 1-{SHAPE[0]}, columns 1-{SHAPE[1]})"
    if to == here:
        return None
    if to[0] != here[0] and to[1] != here[1]:
        return f"the pawn moves like a rook, in a straight line; {_sq(here)} to {_sq(to)} is diagonal"
    owner = {cell: players[i] for i, cell in enumerate(pawns) if i != mover}
    for cell in cells_between(here, to):
        if cell in owner:
            return f"the pawn may not pass the {owner[cell].colour} pawn on {_sq(cell)}"
        if coins[cell] is not None:
            return f"the pawn stops on the first coin it passes: the coin on {_sq(cell)}"
    if to in owner:
        return f"square {_sq(to)} holds the {owner[to].colour} pawn"
    return None


def _sq(cell: Cell) -> str:
    """A square as people say it: 1-based "row 3, column 7" written "3,7"."""
    return f"{cell[0] + 1},{cell[1] + 1}"


def coin_rank(mark: CoinMark) -> Rank:
    return mark.rank if isinstance(mark, Coin) else mark


def forget_suits(state: State) -> State:
    """The same position as the public mode knows it: coins by value only."""
    if state.mode == "public":
        return state
    coins = Grid.of([[None if v is None else coin_rank(v) for v in row] for row in state.coins.rows])
    return replace(state, coins=coins, mode="public")


# ---------------------------------------------------------------- placement


def placement_problem(coins: Grid, cell: Cell) -> str | None:
    """Why a coin may not be placed on ``cell`` of ``coins`` during setup (None when it may):
    off the board, an outside-edge square, or a tile that already holds a coin."""
    if not in_bounds(cell, SHAPE):
        return f"square {_sq(cell)} is off the board (rows 1-{SHAPE[0]}, columns 1-{SHAPE[1]})"
    if on_edge(cell, SHAPE):
        return f"square {_sq(cell)} is an outside-edge square; coins go on inner squares only"
    tile = block_of(cell, (TILE, TILE))
    for other, value in coins.items():
        if value is not None and block_of(other, (TILE, TILE)) == tile:
            return f"the tile of square {_sq(cell)} already holds the coin on {_sq(other)}; one coin per tile"
    return None


def check_placement(coins: Grid) -> None:
    """Raise MalformedPosition unless every coin of ``coins`` obeys the placement rules
    (no outside-edge square, at most one coin per tile)."""
    placed = Grid.filled(SHAPE)
    for cell, value in coins.items():
        if value is None:
            continue
        problem = placement_problem(placed, cell)
        if problem:
            raise MalformedPosition(f"coin placement: {problem}")
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
            # same squares as placement_problem allows, without rescanning the board each time
            cell = rng.choice([c for c in inner if block_of(c, (TILE, TILE)) not in used])
            used.add(block_of(cell, (TILE, TILE)))
            placed[cell] = coin
    return Grid.filled(SHAPE).set_many(placed)


# ---------------------------------------------------------------- the game


class ScavengerHunt:
    """The Scavenger Hunt rules; module-level ``GAME`` follows ``rules.registry.Game``."""

    name = "scavenger-hunt"
    title = "Scavenger Hunt"

    # ---- setup

    def setup(
        self,
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
        _validate(state)
        return state

    # ---- moves

    def legal_moves(self, state: State) -> list[Turn]:
        """Every legal turn: shifts in ``SHIFTS`` order, then destinations up, down, left,
        right nearest first, then staying put where allowed; public mode lists both peek
        outcomes for a coin whose value the player does not hold yet."""
        if state.winner is not None:
            return []
        out: list[Turn] = []
        for shift in self.legal_shifts(state):
            coins, pawns = state.shifted(shift)
            for to, collect in self._options(state, coins, pawns):
                out.append(Turn(shift, to, collect))
        return out

    def legal_shifts(self, state: State) -> list[Shift]:
        barred = state.barred_shifts()
        return [s for s in SHIFTS if s not in barred]

    def _options(self, state: State, coins: Grid, pawns: tuple[Cell, ...]) -> Iterator[tuple[Cell, bool]]:
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

    def apply(self, state: State, move: Any) -> State:
        """The position after the turn ``move``; raises IllegalMove saying what is wrong."""
        if not isinstance(move, Turn):
            raise IllegalMove(f"not a Scavenger Hunt turn: {move!r:.80}; expected a Turn(shift, to, collect)")
        if state.winner is not None:
            raise IllegalMove(f"the game is over: {state.winner.colour} has collected all six coins")
        shift = move.shift
        if not isinstance(shift, Shift):
            raise IllegalMove(f"not a shift: {shift!r:.80}")
        barred = state.barred_shifts()
        if shift in barred:
            owner = barred[shift]
            raise IllegalMove(
                f"shift {shift} reverses {owner.colour}'s shift {shift.reverse}; "
                f"not allowed until {owner.colour} has completed another turn"
            )
        me = state.to_move
        coins, pawns = state.shifted(shift)
        to = move.to
        if not (isinstance(to, tuple) and len(to) == 2 and all(isinstance(x, int) for x in to)):
            raise IllegalMove(f"bad destination {to!r:.40}: expected a (row, col) square")
        problem = rook_problem(coins, pawns, state.players, me, to)
        if problem:
            raise IllegalMove(problem)
        moved = to != pawns[me]
        if not moved and state.must_move:
            targets = rook_targets(coins, pawns, me)
            if targets:
                raise IllegalMove(
                    f"the {state.mover.colour} pawn on {_sq(to)} can move (for example to {_sq(targets[0])}), so it must move"
                )
        mark = coins[to] if moved else None
        collect = move.collect
        if mark is None:
            if collect:
                raise IllegalMove(f"there is no coin to collect: the pawn {'stays' if not moved else 'ends'} on {_sq(to)} without peeking")
            collect = False
        elif state.mode == "referee":
            truth = mark.suit == state.mover
            if collect is not None and collect != truth:
                raise IllegalMove(
                    f"the coin on {_sq(to)} is the {mark.spoken}: {state.mover.colour} "
                    f"{'collects' if truth else 'cannot collect'} it"
                )
            collect = truth
        else:
            if collect is None:
                raise IllegalMove(
                    f"the pawn ends on the {mark.spoken} coin on {_sq(to)}: say whether it was collected (+) or not (-)"
                )
            if collect and mark in state.collected[me]:
                raise IllegalMove(f"{state.mover.colour} already holds a {mark.spoken}; a second one cannot match")
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

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def perft(self, state: State, depth: int) -> int:
        """Legal turn sequences of exactly ``depth`` turns (leaf turns counted without applying them)."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be an integer >= 0, got {depth!r}")
        if depth == 0:
            return 1
        if state.winner is not None:
            return 0
        if depth == 1:
            total = 0
            for shift in self.legal_shifts(state):
                coins, pawns = state.shifted(shift)
                total += sum(1 for _ in self._options(state, coins, pawns))
            return total
        return sum(self.perft(self.apply(state, m), depth - 1) for m in self.legal_moves(state))

    # ---- JSON

    def to_json(self, state: State) -> dict:
        return {
            "game": self.name,
            "mode": state.mode,
            "players": [s.code for s in state.players],
            "to_move": state.to_move,
            "turn": state.turn,
            "must_move": state.must_move,
            "pawns": [list(p) for p in state.pawns],
            "coins": state.coins.to_lists(lambda v: v.code),
            "collected": [[r.code for r in got] for got in state.collected],
            "last_shifts": [None if s is None else s.to_json() for s in state.last_shifts],
        }

    def from_json(self, obj: Any) -> State:
        """Parse and validate a position (schema in the README)."""
        if not isinstance(obj, dict):
            raise MalformedPosition(f"a Scavenger Hunt position is a JSON object, got {obj!r:.80}")
        known = {"game", "mode", "players", "to_move", "turn", "must_move", "pawns", "coins", "collected", "last_shifts"}
        extra = sorted(set(obj) - known)
        if extra:
            raise MalformedPosition(f"unknown keys {extra}: expected only {sorted(known)}")
        missing = sorted({"players", "pawns", "coins"} - set(obj))
        if missing:
            raise MalformedPosition(f"position lacks {missing}: expected at least players, pawns and coins")
        if obj.get("game", self.name) != self.name:
            raise MalformedPosition(f"position is for game {obj['game']!r}, expected {self.name!r}")
        mode = obj.get("mode", "referee")
        if mode not in MODES:
            raise MalformedPosition(f"bad mode {mode!r}: expected 'referee' or 'public'")
        raw_players = obj["players"]
        if not isinstance(raw_players, list) or not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
            raise MalformedPosition(f"players must be a list of 2 to 4 suit letters, got {raw_players!r:.80}")
        try:
            players = tuple(Suit.parse(p) for p in raw_players)
        except NotationError as exc:
            raise MalformedPosition(f"players: {exc}") from None
        if len(set(players)) != len(players):
            raise MalformedPosition(f"players repeat a suit: {raw_players!r}")
        n = len(players)
        pawns = tuple(_cell(p, f"pawns[{i}]") for i, p in enumerate(_list_of(obj["pawns"], n, "pawns")))

        def parse_mark(text: Any) -> CoinMark:
            if mode == "referee":
                return Coin.parse(text)
            return _value(text)

        coins = Grid.parse(obj["coins"], parse_mark, shape=SHAPE, what="coins")
        collected = []
        for i, got in enumerate(_list_of(obj.get("collected", [[] for _ in players]), n, "collected")):
            if not isinstance(got, list):
                raise MalformedPosition(f"collected[{i}] must be a list of values, got {got!r:.80}")
            try:
                ranks = [_value(r) for r in got]
            except NotationError as exc:
                raise MalformedPosition(f"collected[{i}]: {exc}") from None
            if len(set(ranks)) != len(ranks):
                raise MalformedPosition(f"collected[{i}] repeats a value: {got!r}")
            collected.append(tuple(sorted(ranks, key=int)))
        last = tuple(
            None if s is None else Shift.from_json(s)
            for s in _list_of(obj.get("last_shifts", [None] * n), n, "last_shifts")
        )
        to_move, turn = obj.get("to_move", 0), obj.get("turn", 0)
        if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < n:
            raise MalformedPosition(f"to_move must be a player index 0 to {n - 1}, got {to_move!r}")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
            raise MalformedPosition(f"turn must be a count of turns played (>= 0), got {turn!r}")
        must_move = obj.get("must_move", True)
        if not isinstance(must_move, bool):
            raise MalformedPosition(f"must_move must be true or false, got {must_move!r}")
        state = State(players, pawns, coins, tuple(collected), last, to_move, turn, mode, must_move)
        _validate(state)
        return state


def _value(text: Any) -> Rank:
    """A coin value as written in JSON: ``n a 2 3 4 5`` (lower case, so ``A`` (Arms) is refused)."""
    if isinstance(text, str) and len(text) == 1 and text.lower() == text:
        return Rank.parse(text)
    raise NotationError(f"bad coin value {text!r}: expected one of n, a, 2, 3, 4, 5")


def _list_of(value: Any, n: int, what: str) -> list:
    if not isinstance(value, list) or len(value) != n:
        raise MalformedPosition(f"{what} must be a list of {n} entries, one per player, got {value!r:.80}")
    return value


def _cell(value: Any, what: str) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        or not in_bounds(tuple(value), SHAPE)
    ):
        raise MalformedPosition(f"{what} must be a square [row, col] with row 0-7 and col 0-11, got {value!r:.40}")
    return (value[0], value[1])


def _validate(state: State) -> None:
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
                f"two coins on one tile: squares {_sq(tiles[tile])} and {_sq(cell)} (rows, columns 1-based)"
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


GAME = ScavengerHunt()
