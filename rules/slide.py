"""Slide (Claude Clément, Gigamic): 2 to 6 players, 100 cards numbered 1 to 10, a 4x4 grid each.

Rules text: ``shared/rules/slide-gigamic.txt``. Each of the 16 rounds, every player turns
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
  DESIGN.md. A cell holds a ``Card`` (number and face up or down) or ``None`` for the hole.
- The deal: ``random.Random(seed)`` shuffles the 100 cards; cards go round the table one at
  a time from player 1 (index 0), each player's 16 laid row by row; the other cards return
  to the box. ``first`` (who holds the First Player counter) is drawn from the same seed
  unless given.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Sequence

from rules.errors import IllegalMove, MalformedPosition, NotationError, RulesError
from rules.grid import Cell, Direction, Grid, cells_with_equal_neighbour, edge_cell, in_bounds, push_in

SIZE = 4
SHAPE = (SIZE, SIZE)
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


def parse_move(text: str) -> Move:
    """Text notation: ``"reveal ROW COL"`` (1-based) or ``"push CARD SIDE"`` ("push 7 left").

    The words ``reveal``/``push`` may be left out: two numbers are a reveal, a number and a
    side a push. Raises NotationError quoting the text.
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else []
    if words and words[0].lower() in ("reveal", "push"):
        verb, words = words[0].lower(), words[1:]
    else:
        verb = None
    expected = "expected 'ROW COL' (1-4 each) to reveal or 'CARD SIDE' (e.g. '7 left') to push"
    quoted = repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
    first = number(words[0]) if len(words) == 2 else None
    if first is None:
        raise NotationError(f"cannot read {quoted}: {expected}")
    second = number(words[1])
    if second is not None and verb in (None, "reveal"):
        if not (1 <= first <= SIZE and 1 <= second <= SIZE):
            raise NotationError(f"cannot read {quoted}: row and column go from 1 to {SIZE}")
        return Reveal((first - 1, second - 1))
    if second is None and verb in (None, "push"):
        return Push(first, Side.parse(words[1]))
    raise NotationError(f"cannot read {quoted}: {expected}")


def number(token: str) -> int | None:
    """The number a token spells in at most three ASCII digits, else None: '²' or a
    5000-digit token is not a card, a row or a column (and ``int`` would refuse both)."""
    return int(token) if token.isascii() and token.isdigit() and len(token) <= 3 else None


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
    numbers = Grid(tuple(tuple(_number(v) for v in row) for row in grid.rows))
    cancelled = set(cells_with_equal_neighbour(numbers))
    left = tuple(v for cell, v in numbers.items() if v is not None and cell not in cancelled)
    return Score(sum(left), len(left), left, tuple(sorted(cancelled)))


def _number(value: Any) -> int | None:
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
        _check_players(players)
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


def _check_players(players: Any) -> int:
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
        """The position after ``move`` by the player to act; raises IllegalMove saying why not."""
        if not isinstance(move, (Reveal, Push)):
            raise IllegalMove(f"not a Slide move: {move!r}; expected a Reveal or a Push")
        if self.phase is Phase.OVER:
            raise IllegalMove(f"the game is over: no more moves ({move})")
        player = self.to_act
        who = f"player {player + 1}"
        if isinstance(move, Reveal):
            if self.phase is not Phase.REVEAL:
                raise IllegalMove(f"{who} must push a card from the middle, not {move}: everyone has revealed this round")
            cell = move.cell
            if not (isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(i, int) for i in cell)) or not in_bounds(
                cell, (SIZE, SIZE)
            ):
                raise IllegalMove(f"{who} cannot reveal cell {cell!r}: expected (row, col) with each 0..{SIZE - 1}")
            card = self.grids[player][cell]
            if card.face_up:
                raise IllegalMove(
                    f"{who} cannot reveal the {card.number} at row {cell[0] + 1}, column {cell[1] + 1}: it is already face up"
                )
            grids = _replace(self.grids, player, self.grids[player].set(cell, None))
            middle = tuple(sorted(self.middle + (card.number,)))
            nxt = self._next_in_order(player)
            if nxt is None:
                return SlideState(grids, middle, self.round, self.first, Phase.PLACE, self.first)
            return SlideState(grids, middle, self.round, self.first, Phase.REVEAL, nxt)
        if self.phase is not Phase.PLACE:
            raise IllegalMove(f"{who} must first reveal a face-down card, not {move}")
        if isinstance(move.card, bool) or move.card not in self.middle:
            shown = ", ".join(map(str, self.middle))
            raise IllegalMove(f"{who} cannot take a {move.card!r}: it is not in the middle ({shown})")
        if not isinstance(move.side, Side):
            raise IllegalMove(f"{who} cannot push from {move.side!r}: expected top, bottom, left or right")
        hole = self.hole(player)
        if move.side not in self.push_sides(player):
            raise IllegalMove(
                f"{who} cannot push from the {move.side.value}: the hole at row {hole[0] + 1}, column {hole[1] + 1} "
                f"is on that edge, and a card may not go straight into the hole"
            )
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
        return Grid(tuple(tuple(_number(v) for v in row) for row in self.grids[player].rows))


def _replace(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def deal(seed: int | None, players: int = 2, first: int | None = None) -> SlideState:
    """The start position: 16 cards face down to each player from a seeded shuffle of the 100 cards."""
    _check_players(players)
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


# JSON -------------------------------------------------------------------------------------------


def _cell_to_json(card: Card | None) -> Any:
    if card is None:
        return None
    return card.number if card.face_up else {"down": card.number}


def _number_from_json(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in NUMBERS:
        raise MalformedPosition(f"{where}: {value!r} is not a card: expected a number 1 to 10")
    return value


def _cell_from_json(value: Any, where: str) -> Card | None:
    if value is None:
        return None
    if isinstance(value, dict):
        if set(value) != {"down"}:
            raise MalformedPosition(f"{where}: {value!r}: a face-down card is written {{\"down\": N}}")
        return Card(_number_from_json(value["down"], where), False)
    return Card(_number_from_json(value, where), True)


def to_json(state: SlideState) -> dict:
    """The documented position schema (the README)."""
    return {
        "game": "slide",
        "players": state.players,
        "round": state.round,
        "phase": state.phase.value,
        "first": state.first,
        "to_act": state.to_act,
        "middle": list(state.middle),
        "grids": [[[_cell_to_json(v) for v in row] for row in g.rows] for g in state.grids],
    }


_KEYS = ("game", "players", "round", "phase", "first", "to_act", "middle", "grids")


def from_json(obj: Any) -> SlideState:
    """Parse and validate a position; raises MalformedPosition quoting what is wrong."""
    if not isinstance(obj, dict):
        raise MalformedPosition(f"a Slide position must be a JSON object, got {obj!r:.80}")
    missing = [k for k in _KEYS if k not in obj]
    extra = sorted(set(obj) - set(_KEYS))
    if missing or extra:
        raise MalformedPosition(
            f"Slide position keys: missing {missing or 'none'}, unexpected {extra or 'none'}; expected {list(_KEYS)}"
        )
    if obj["game"] != "slide":
        raise MalformedPosition(f"game is {obj['game']!r}, expected 'slide'")
    players = _check_players(obj["players"])
    try:
        phase = Phase(obj["phase"])
    except (ValueError, TypeError):
        raise MalformedPosition(f"phase {obj['phase']!r}: expected 'reveal', 'place' or 'over'") from None
    rnd, first, to_act = obj["round"], obj["first"], obj["to_act"]
    if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= ROUNDS:
        raise MalformedPosition(f"round {rnd!r}: expected 1 to {ROUNDS}")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise MalformedPosition(f"first {first!r}: expected a player index 0 to {players - 1}")
    if phase is Phase.OVER:
        if to_act is not None:
            raise MalformedPosition(f"to_act {to_act!r}: expected null once the game is over")
    elif isinstance(to_act, bool) or not isinstance(to_act, int) or not 0 <= to_act < players:
        raise MalformedPosition(f"to_act {to_act!r}: expected a player index 0 to {players - 1}")
    middle = obj["middle"]
    if not isinstance(middle, list):
        raise MalformedPosition(f"middle {middle!r:.80}: expected a list of card numbers")
    middle_cards = tuple(sorted(_number_from_json(v, "middle") for v in middle))
    grids_in = obj["grids"]
    if not isinstance(grids_in, list) or len(grids_in) != players:
        raise MalformedPosition(f"grids: expected a list of {players} grids (one per player), got {grids_in!r:.80}")
    grids = []
    for p, rows in enumerate(grids_in):
        what = f"grid of player {p + 1}"
        grids.append(Grid.parse(rows, lambda v, w=what: _cell_from_json(v, w), SHAPE, what))
    grids_t = tuple(grids)
    if phase is Phase.OVER and rnd != ROUNDS:
        raise MalformedPosition(f"round {rnd}: a finished game ends in round {ROUNDS}")
    state = SlideState(grids_t, middle_cards, rnd, first, phase, to_act)
    _check_invariants(state)
    return state


def _check_invariants(state: SlideState) -> None:
    """Holes, face-down cards and the middle must agree with the round, the phase and whose turn it is."""
    counts = Counter(_number(v) for g in state.grids for v in g.values() if v is not None) + Counter(state.middle)
    over = sorted(n for n, c in counts.items() if c > COPIES)
    if over:
        raise MalformedPosition(f"more than {COPIES} cards numbered {over[0]} ({counts[over[0]]}); there are {COPIES} of each")
    order = state.order
    if state.phase is Phase.OVER:
        done = order
    else:
        done = order[: order.index(state.to_act)]
    if state.phase is Phase.REVEAL:
        with_hole = set(done)
        down_before = ROUNDS - state.round + 1
        expected_down = {p: down_before - (p in with_hole) for p in range(state.players)}
    elif state.phase is Phase.PLACE:
        with_hole = set(order) - set(done)
        expected_down = {p: ROUNDS - state.round for p in range(state.players)}
    else:
        with_hole = set()
        expected_down = {p: 0 for p in range(state.players)}
    for p, grid in enumerate(state.grids):
        holes = grid.find(None)
        want = 1 if p in with_hole else 0
        if len(holes) != want:
            raise MalformedPosition(
                f"player {p + 1}'s grid has {len(holes)} holes; expected {want} in round {state.round}, "
                f"{state.phase.value} phase, player {_who(state.to_act)} to act"
            )
        down = len(state.face_down(p))
        if down != expected_down[p]:
            raise MalformedPosition(
                f"player {p + 1}'s grid has {down} face-down cards; expected {expected_down[p]} in round {state.round}, "
                f"{state.phase.value} phase"
            )
    if len(state.middle) != len(with_hole):
        raise MalformedPosition(
            f"the middle holds {len(state.middle)} cards; expected {len(with_hole)} (one per hole) in the {state.phase.value} phase"
        )


def _who(player: int | None) -> str:
    return "none" if player is None else str(player + 1)


# Text grids (``caller slide score``) ------------------------------------------------------------


def parse_grid_text(text: str, what: str = "grid") -> Grid[int]:
    """A finished 4x4 grid from text: 4 lines of 4 numbers 1..10 separated by spaces.

    Blank lines and anything after ``#`` are ignored. Raises MalformedPosition naming the
    line and the token that is wrong.
    """
    rows: list[tuple[int, ...]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        tokens = line.split("#", 1)[0].split()
        if not tokens:
            continue
        row = []
        for tok in tokens:
            value = number(tok)
            if value not in NUMBERS:
                raise MalformedPosition(f"{what} line {lineno}: {tok[:20]!r} is not a card: expected a number 1 to 10")
            row.append(value)
        if len(row) != SIZE:
            raise MalformedPosition(f"{what} line {lineno}: {len(row)} numbers, expected {SIZE}")
        rows.append(tuple(row))
    if len(rows) != SIZE:
        raise MalformedPosition(f"{what}: {len(rows)} rows of numbers, expected {SIZE}")
    counts = Counter(v for row in rows for v in row)
    over = sorted(n for n, c in counts.items() if c > COPIES)
    if over:
        raise MalformedPosition(f"{what}: {counts[over[0]]} cards numbered {over[0]}; there are only {COPIES} of each")
    return Grid(tuple(rows))


def render_grid(grid: Grid[Card | None], hidden: str = "#", cancelled: Iterable[Cell] = ()) -> str:
    """A grid for the terminal: face-up numbers, ``hidden`` for face-down cards, ``.`` for the hole.

    Cancelled cells (end of game) are shown in brackets, e.g. ``[8]``.
    """
    gone = set(cancelled)

    def cell(c: Cell, v: Card | None) -> str:
        if v is None:
            return "."
        if not v.face_up:
            return hidden
        return f"[{v.number}]" if c in gone else str(v.number)

    texts = [[cell((r, c), v) for c, v in enumerate(row)] for r, row in enumerate(grid.rows)]
    width = max(len(t) for row in texts for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in texts)


class SlideGame:
    """The registry's ``Game`` for Slide; every method delegates to the frozen ``SlideState``."""

    name = "slide"
    title = "Slide"

    def setup(self, seed: int | None = None, players: int = 2, first: int | None = None, **options: Any) -> SlideState:
        if options:
            raise MalformedPosition(f"unknown Slide setup options {sorted(options)}: expected players, first")
        return deal(seed, players, first)

    def legal_moves(self, state: SlideState) -> list[Move]:
        return state.legal_moves()

    def apply(self, state: SlideState, move: Any) -> SlideState:
        return state.apply(move)

    def is_over(self, state: SlideState) -> bool:
        return state.is_over

    def to_json(self, state: SlideState) -> dict:
        return to_json(state)

    def from_json(self, obj: Any) -> SlideState:
        return from_json(obj)


GAME = SlideGame()
