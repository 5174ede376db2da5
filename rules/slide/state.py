"""Slide (Claude Clément, Gigamic): 2 to 6 players, 100 cards numbered 1 to 10, a 4x4 grid each.

Rules: docs/games/slide.md. Each of the 16 rounds, every player turns
one face-down card of their grid face up into the middle, leaving a hole; then, from the
first player clockwise, each takes a card from the middle and pushes it in from the edge
of the row or column that holds their hole. At the end, cards with an orthogonal
neighbour of the same number cancel; the lowest sum of the rest wins, ties going to
fewer cards left, then a shared win.

Modelling choices (the rules text is silent or the interface needs a sequence):

- Players are indices ``0..players-1`` seated clockwise; "the player on the left" (who
  receives the First Player counter) and "clockwise" are both ``+1``.
- The simultaneous reveal is a sequence of ``Reveal`` moves, one per player, in turn
  order from the first player; nobody's choice depends on the others' because a move
  only names one's own cell. Then come the ``Push`` moves in the same order.
- The middle is a multiset of face-up numbers (kept sorted): two 7s are the same choice.
- Grid cells are ``(row, col)``, row 0 at the top of the player's grid (far side), as in
  docs/architecture.md. A cell holds a ``Card`` (number and face up or down) or ``None`` for the hole.
- The deal: ``random.Random(seed)`` shuffles the 100 cards; cards go round the table one at
  a time from player 1 (index 0), each player's 16 laid row by row; the other cards return
  to the box. ``first`` (who holds the First Player counter) is drawn from the same seed
  unless given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Sequence, TypeVar

from rules.errors import IllegalMove, MalformedPosition, NotationError, RulesError
from rules.grid import Cell, Direction, Grid, in_bounds, neighbours, ray
from rules.reasons import Reason
from rules.slide import reasons
from rules.slide.board import SHAPE, SIZE

T = TypeVar("T")

ROUNDS = SIZE * SIZE
NUMBERS = tuple(range(1, 11))
COPIES = 10  # cards of each number in the box
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TOURNAMENT_TARGET = 100


@dataclass(frozen=True)
class Card:
    """One Slide card: its number 1..10 and whether it lies face up."""

    number: int
    face_up: bool

    def __str__(self) -> str:
        return str(self.number) if self.face_up else f"({self.number})"


class Side(Enum):
    """The edge of a grid a pushed card enters from; ``direction`` points from the hole to that edge."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"

    @property
    def direction(self) -> Direction:
        return _SIDE_DIRECTION[self]

    @property
    def axis(self) -> str:
        """"col" for a push along a column (top/bottom), "row" for one along a row."""
        return "col" if self in (Side.TOP, Side.BOTTOM) else "row"

    @classmethod
    def parse(cls, text: str) -> "Side":
        """``"left"``/``"l"`` -> ``Side.LEFT``; raises NotationError quoting anything else."""
        if isinstance(text, str):
            word = text.strip().lower()
            for side in cls:
                if word in (side.value, side.value[0]):
                    return side
        raise NotationError(f"unknown side {text!r}: expected top, bottom, left or right (or t, b, l, r)")

    def __str__(self) -> str:
        return self.value


_SIDE_DIRECTION = {Side.TOP: Direction.UP, Side.BOTTOM: Direction.DOWN, Side.LEFT: Direction.LEFT, Side.RIGHT: Direction.RIGHT}
SIDES: tuple[Side, ...] = tuple(Side)


class Phase(Enum):
    """Where a round stands: everyone revealing, everyone pushing, or the game over."""

    REVEAL = "reveal"
    PLACE = "place"
    OVER = "over"


@dataclass(frozen=True)
class Reveal:
    """The acting player turns the face-down card at ``cell`` (0-based ``(row, col)``) face up into the middle."""

    cell: Cell

    def __str__(self) -> str:
        return f"reveal {self.cell[0] + 1} {self.cell[1] + 1}"


@dataclass(frozen=True)
class Push:
    """The acting player takes a ``card`` (its number) from the middle and pushes it in from ``side``."""

    card: int
    side: Side

    def __str__(self) -> str:
        return f"push {self.card} {self.side.value}"


Move = Reveal | Push


def edge_cell(cell: Cell, direction: Direction, shape: tuple[int, int]) -> Cell:
    """The cell on the board's edge reached from ``cell`` going ``direction`` (``cell`` itself when already there)."""
    far = cell
    for far in ray(cell, direction, shape):
        pass
    return far


def push_in(grid: Grid[T], gap: Cell, side: Direction, value: T) -> Grid[T]:
    """Push ``value`` in at the ``side`` edge of the gap's row or column (Slide's placement).

    The values between that edge and ``gap`` each move one cell towards the gap, filling it,
    and ``value`` lands on the edge cell. ``side`` points from the gap to the edge the value
    enters from (``Direction.LEFT``: in at the left end of the row, the run moves right).
    Raises MalformedPosition when ``gap`` is already on that edge, since that would put the
    value straight into the gap rather than push it.
    """
    edge = edge_cell(gap, side, grid.shape)
    if edge == gap:
        raise MalformedPosition(f"cell {gap} is on the {side.word} edge: nothing to push from that side")
    return grid.slide_into_gap(gap, edge).set(edge, value)


def cells_with_equal_neighbour(grid: Grid[T], key: Callable[[T], Any] = lambda v: v) -> list[Cell]:
    """Non-empty cells that have an orthogonal neighbour whose ``key`` is equal, in row-major order.

    Every such cell counts at once (no chain of removals), as in Slide's end-of-game cancelling.
    """
    out = []
    for cell, value in grid.items():
        if value is None:
            continue
        k = key(value)
        if any(grid[n] is not None and key(grid[n]) == k for _, n in neighbours(cell, grid.shape)):
            out.append(cell)
    return out


@dataclass(frozen=True)
class Score:
    """A grid's end-of-game count: ``points`` (sum of the cards left), ``cards`` (how many are left).

    ``left`` are the numbers that count, row-major; ``cancelled`` the cells whose cards cancelled.
    """

    points: int
    cards: int
    left: tuple[int, ...]
    cancelled: tuple[Cell, ...]

    def to_json(self) -> dict:
        return {"points": self.points, "cards": self.cards}


def score_grid(grid: Grid[Any]) -> Score:
    """Score a grid of numbers (ints, or ``Card``s; ``None`` cells are empty and ignored).

    Every card with an orthogonal neighbour of the same number is removed, all at once.
    """
    numbers = Grid(tuple(tuple(card_number(v) for v in row) for row in grid.rows))
    cancelled = set(cells_with_equal_neighbour(numbers))
    left = tuple(v for cell, v in numbers.items() if v is not None and cell not in cancelled)
    return Score(sum(left), len(left), left, tuple(sorted(cancelled)))


def card_number(value: Any) -> int | None:
    return value.number if isinstance(value, Card) else value


def standings(scores: Sequence[Score]) -> list[int]:
    """Each player's place (1 = best) for ``scores`` indexed by player.

    Lower points first, then fewer cards; players still tied share the place (and, at 1, the win).
    """
    keys = [(s.points, s.cards) for s in scores]
    return [1 + sum(other < key for other in keys) for key in keys]


def winners(scores: Sequence[Score]) -> list[int]:
    """The players (indices) who win, or share the win, with these scores."""
    return [p for p, place in enumerate(standings(scores)) if place == 1]


@dataclass(frozen=True)
class Tournament:
    """Tournament play: consecutive games until someone reaches ``target`` points in total.

    ``totals`` are the players' points so far, ``games`` the games played, ``first`` who holds
    the First Player counter at the start of the next game (it moves one seat left each game).
    The fewest points wins; players tied on points share the win (the rules text has no
    tournament tie-break).
    """

    totals: tuple[int, ...]
    games: int = 0
    first: int = 0
    target: int = TOURNAMENT_TARGET

    @classmethod
    def start(cls, players: int, first: int = 0, target: int = TOURNAMENT_TARGET) -> "Tournament":
        check_players(players)
        return cls((0,) * players, 0, first % players, target)

    def record(self, scores: Sequence[Score]) -> "Tournament":
        """The tournament after one more game with these scores; raises RulesError when it is already over."""
        if self.is_over:
            raise RulesError(f"the tournament is over: {max(self.totals)} points reached {self.target}")
        if len(scores) != len(self.totals):
            raise RulesError(f"expected {len(self.totals)} scores, got {len(scores)}")
        totals = tuple(t + s.points for t, s in zip(self.totals, scores))
        return Tournament(totals, self.games + 1, (self.first + 1) % len(totals), self.target)

    @property
    def is_over(self) -> bool:
        return max(self.totals) >= self.target

    def winners(self) -> list[int]:
        low = min(self.totals)
        return [p for p, t in enumerate(self.totals) if t == low]


def check_players(players: Any) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedPosition(f"Slide is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
    return players


@dataclass(frozen=True)
class SlideState:
    """A Slide position, including the face-down cards (the referee knows them).

    ``grids[p]`` is player p's 4x4 grid of ``Card``/``None``; ``middle`` the face-up numbers in
    the middle, ascending; ``round`` 1..16; ``first`` who holds the First Player counter;
    ``to_act`` whose move it is (None once the game is over).
    """

    grids: tuple[Grid[Card | None], ...]
    middle: tuple[int, ...]
    round: int
    first: int
    phase: Phase
    to_act: int | None

    @property
    def players(self) -> int:
        return len(self.grids)

    @property
    def order(self) -> list[int]:
        """This round's turn order: the first player, then clockwise."""
        return [(self.first + k) % self.players for k in range(self.players)]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hole(self, player: int) -> Cell | None:
        """The empty cell of ``player``'s grid, or None when it is full."""
        holes = self.grids[player].find(None)
        return holes[0] if holes else None

    def face_down(self, player: int) -> list[Cell]:
        """The cells of ``player``'s face-down cards, row-major."""
        return [c for c, v in self.grids[player].items() if v is not None and not v.face_up]

    def push_sides(self, player: int) -> list[Side]:
        """The sides ``player`` may push from: those of the hole's row and column not on the hole's own edge."""
        hole = self.hole(player)
        if hole is None:
            return []
        return [s for s in SIDES if edge_cell(hole, s.direction, SHAPE) != hole]

    def legal_moves(self) -> list[Move]:
        """Reveals in row-major order, or pushes by ascending card then top, bottom, left, right."""
        if self.phase is Phase.REVEAL:
            return [Reveal(c) for c in self.face_down(self.to_act)]
        if self.phase is Phase.PLACE:
            sides = self.push_sides(self.to_act)
            return [Push(n, s) for n in sorted(set(self.middle)) for s in sides]
        return []

    def apply(self, move: Any) -> "SlideState":
        """The position after ``move`` by the player to act; raises IllegalMove saying why not,
        with the verdict as data in its ``reason`` (codes in ``rules.slide.reasons``)."""
        if not isinstance(move, (Reveal, Push)):
            raise IllegalMove(f"not a Slide move: {move!r}; expected a Reveal or a Push")
        if self.phase is Phase.OVER:
            raise _illegal(Reason(reasons.GAME_OVER, pieces=(move,)))
        player = self.to_act
        who = f"player {player + 1}"
        if isinstance(move, Reveal):
            if self.phase is not Phase.REVEAL:
                raise _illegal(Reason(reasons.MUST_PUSH, pieces=(move,), number=player))
            cell = move.cell
            if not (isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(i, int) for i in cell)):
                raise IllegalMove(f"{who} cannot reveal cell {cell!r}: expected (row, col) with each 0..{SIZE - 1}")
            if not in_bounds(cell, SHAPE):
                raise _illegal(Reason(reasons.OFF_GRID, (cell,), number=player))
            card = self.grids[player][cell]
            if card.face_up:
                raise _illegal(Reason(reasons.ALREADY_FACE_UP, (cell,), (card.number,), number=player))
            grids = _replace(self.grids, player, self.grids[player].set(cell, None))
            middle = tuple(sorted(self.middle + (card.number,)))
            nxt = self._next_in_order(player)
            if nxt is None:
                return SlideState(grids, middle, self.round, self.first, Phase.PLACE, self.first)
            return SlideState(grids, middle, self.round, self.first, Phase.REVEAL, nxt)
        if self.phase is not Phase.PLACE:
            raise _illegal(Reason(reasons.MUST_REVEAL, pieces=(move,), number=player))
        if isinstance(move.card, bool) or move.card not in self.middle:
            if isinstance(move.card, int) and not isinstance(move.card, bool):
                raise _illegal(Reason(reasons.NO_SUCH_CARD, pieces=(move.card,), was=self.middle, number=player))
            shown = ", ".join(map(str, self.middle))
            raise IllegalMove(f"{who} cannot take a {move.card!r}: it is not in the middle ({shown})")
        if not isinstance(move.side, Side):
            raise IllegalMove(f"{who} cannot push from {move.side!r}: expected top, bottom, left or right")
        hole = self.hole(player)
        if move.side not in self.push_sides(player):
            raise _illegal(Reason(reasons.HOLE_ON_EDGE, (hole,), (move.side,), number=player))
        grid = push_in(self.grids[player], hole, move.side.direction, Card(move.card, True))
        grids = _replace(self.grids, player, grid)
        middle = list(self.middle)
        middle.remove(move.card)
        nxt = self._next_in_order(player)
        if nxt is not None:
            return SlideState(grids, tuple(middle), self.round, self.first, Phase.PLACE, nxt)
        first = (self.first + 1) % self.players
        if self.round == ROUNDS:
            return SlideState(grids, (), self.round, first, Phase.OVER, None)
        return SlideState(grids, (), self.round + 1, first, Phase.REVEAL, first)

    def _next_in_order(self, player: int) -> int | None:
        order = self.order
        k = order.index(player)
        return order[k + 1] if k + 1 < len(order) else None

    def scores(self) -> list[Score]:
        """Every player's end-of-game score; raises RulesError before the game is over."""
        if not self.is_over:
            raise RulesError(f"the game is not over: round {self.round}, {self.phase.value} phase")
        return [score_grid(g) for g in self.grids]

    def numbers(self, player: int) -> Grid[int | None]:
        """``player``'s grid as plain numbers (face-down cards included), ``None`` for the hole."""
        return Grid(tuple(tuple(card_number(v) for v in row) for row in self.grids[player].rows))


def _illegal(why: Reason) -> IllegalMove:
    """The IllegalMove of the verdict ``why``, its message written by ``reasons.text``."""
    return IllegalMove(reasons.text(why), why)


def _replace(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def deal(seed: int | None, players: int = 2, first: int | None = None) -> SlideState:
    """The start position: 16 cards face down to each player from a seeded shuffle of the 100 cards."""
    check_players(players)
    rng = random.Random(seed)
    deck = [n for n in NUMBERS for _ in range(COPIES)]
    rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(ROUNDS * players):
        hands[i % players].append(Card(deck[i], False))
    if first is None:
        first = rng.randrange(players)
    elif isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise MalformedPosition(f"first player must be 0..{players - 1}, got {first!r}")
    grids = tuple(Grid.of(hand[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)) for hand in hands)
    return SlideState(grids, (), 1, first, Phase.REVEAL, first)
