"""Steppin' Stones (Ken Maher), a piecepack solitaire: the rules engine.

The board is a square of squares: 8x8 (4x4 tiles of 2x2 squares), or 10x10 for the larger
board variant (5x5 tiles, the middle tile missing). Cells are ``(row, col)``, row 0 on the
far side, col 0 on the left (docs/architecture.md). The four home tiles (the ace tiles, face up) are
the corners: Suns top-left, Moons top-right, Crowns bottom-right, Arms bottom-left. Each
suit's coins start around its home tile and its pawn on the middle square nearest it.

A turn is a roll of one die per suit whose pawn is not home, then any number of actions,
each using a die (``Move``, ``Flip``), then ``EndTurn``, which rolls the next dice from the
seed in the state, so ``apply`` is pure and a seeded game replays exactly. The phase of a
die (1 while its suit has a coin showing a value, 2 once all are stepping stones) is fixed
when it is rolled. See the README for the choices where the rules text
is silent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Callable, Sequence

from rules.errors import IllegalMove, RulesError
from rules.grid import DIRECTIONS, Cell, Grid, in_bounds, manhattan, neighbours
from rules.pieces import DIE_FACES, SUITS, Coin, DieFace, Rank, Suit
from rules.reasons import Reason
from rules.steppin_stones import reasons
from rules.steppin_stones.reasons import cell_name  # noqa: F401 (written here since the verdicts need it; state keeps the name)

NAME = "steppin-stones"
TITLE = "Steppin' Stones"

# The coins around the top-left home tile, as offsets from the board's top-left corner; the
# other corners mirror it. The 4 above the null and the 2 left of it make the text's first
# example ("0 4 2 *") play exactly as written for the Suns.
_AROUND_TOP_LEFT: tuple[tuple[Cell, Rank], ...] = (
    ((0, 2), Rank.FIVE),
    ((1, 2), Rank.FOUR),
    ((2, 2), Rank.NULL),
    ((2, 1), Rank.TWO),
    ((2, 0), Rank.THREE),
)
COIN_RANKS: tuple[Rank, ...] = (Rank.NULL, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE)
# (bottom?, right?) of each suit's corner.
_CORNER = {Suit.SUNS: (False, False), Suit.MOONS: (False, True), Suit.CROWNS: (True, True), Suit.ARMS: (True, False)}
CORNER_WORDS = {Suit.SUNS: "top left", Suit.MOONS: "top right", Suit.CROWNS: "bottom right", Suit.ARMS: "bottom left"}
PHASE2_SUIT_STEPS = 6  # "In this Phase the suit counts for 6 moves and the Null for 1."
PHASE2_NULL_STEPS = 1
STONE_PASS_VALUE = 1  # "Coins showing their suit count as value 1 for moving over."


class BadOptions(RulesError):
    """Variant options that do not go together or are out of range (the message says which)."""


@dataclass(frozen=True)
class Stone:
    """A coin turned to its suit side: a stepping stone. Its value side no longer matters, so it is just a suit."""

    suit: Suit

    @property
    def code(self) -> str:
        return self.suit.value

    @property
    def spoken(self) -> str:
        return f"{self.suit.colour} stepping stone"

    def __str__(self) -> str:
        return self.code


Piece = Coin | Stone


@dataclass(frozen=True)
class Options:
    """The variants of the rules text. All off is the standard game.

    ``highest_first``: stepping stones must be revealed from the highest value down.
    ``aces``: 0, 2 or 4 ace coins placed near their home tiles; they never move, are never
    flipped and cannot be jumped. ``ace_stones``: any pawn may use those aces as stepping
    stones (the "easier" aces). ``large``: 5x5 tiles, the middle tile missing.
    """

    highest_first: bool = False
    aces: int = 0
    ace_stones: bool = False
    large: bool = False

    def __post_init__(self) -> None:
        if self.aces not in (0, 2, 4) or isinstance(self.aces, bool):
            raise BadOptions(f"aces must be 0, 2 or 4, got {self.aces!r}")
        if self.ace_stones and not self.aces:
            raise BadOptions("ace_stones needs aces (2 or 4) on the board")
        if self.aces and self.large:
            raise BadOptions("the aces variant draws from the left-over tiles, and the larger board uses them all")

    @property
    def size(self) -> int:
        return 10 if self.large else 8


@dataclass(frozen=True)
class Die:
    """One suit's die in the current roll.

    ``phase`` (1 or 2) is fixed when the die is rolled. ``left``: a phase-1 die is 1 until
    used, then 0; a phase-2 die is the number of squares still to spend (its ``budget`` at
    first).
    """

    suit: Suit
    face: DieFace
    phase: int
    left: int

    @property
    def budget(self) -> int:
        """What the die is worth when rolled: 1 use in phase 1; squares in phase 2 (suit 6, null 1)."""
        if self.phase == 1:
            return 1
        return face_steps(self.face)

    @property
    def pending_flip(self) -> bool:
        return self.phase == 1 and self.left > 0 and self.face is DieFace.SUIT


def face_steps(face: DieFace) -> int:
    """Squares a phase-2 die gives: suit 6, null 1, else its number."""
    if face is DieFace.SUIT:
        return PHASE2_SUIT_STEPS
    if face is DieFace.NULL:
        return PHASE2_NULL_STEPS
    return face.number


@dataclass(frozen=True)
class Move:
    """Move the top piece on ``frm`` (the pawn if one stands there, else the coin) to ``to``.

    Which die pays is fixed by the piece: a coin showing value v uses a phase-1 die showing
    v (dice of equal faces are interchangeable; the first in suit order is used), a stepping
    stone or a pawn its own suit's phase-2 die, which pays the fewest squares the move needs.
    """

    frm: Cell
    to: Cell


@dataclass(frozen=True)
class Flip:
    """Turn the coin on ``at`` to its suit side (it becomes a stepping stone), paying with its suit's die showing the suit."""

    at: Cell


@dataclass(frozen=True)
class EndTurn:
    """Give up the dice not used and roll the next ones (not allowed while a flip is owed)."""


Action = Move | Flip | EndTurn


@dataclass(frozen=True)
class State:
    """A position. ``board[cell]`` is a Coin (value side up, or a fixed ace), a Stone, or None.

    ``pawns`` holds each suit's pawn square in SUITS order. ``dice`` is the current roll, one
    die per suit whose pawn is not home, in SUITS order (a pawn that gets home takes its die
    out at once). ``turn`` counts rolls from 1; the roll of turn t comes from (``seed``, t).
    """

    board: Grid
    pawns: tuple[Cell, ...]
    dice: tuple[Die, ...]
    turn: int
    seed: int
    options: Options

    @property
    def size(self) -> int:
        return self.options.size

    def pawn(self, suit: Suit) -> Cell:
        return self.pawns[SUITS.index(suit)]

    @cached_property
    def _pawn_at(self) -> dict[Cell, Suit]:
        return {at: suit for suit, at in zip(SUITS, self.pawns)}

    def pawn_on(self, cell: Cell) -> Suit | None:
        return self._pawn_at.get(cell)

    def die(self, suit: Suit) -> Die | None:
        for d in self.dice:
            if d.suit is suit:
                return d
        return None

    def is_home(self, suit: Suit) -> bool:
        return self.pawn(suit) in home_cells(suit, self.size)

    @cached_property
    def _by_suit(self) -> dict[tuple[Suit, bool], list]:
        # (suit, True): its coins showing a value as (cell, coin); (suit, False): its stones' cells
        out: dict[tuple[Suit, bool], list] = {(s, v): [] for s in SUITS for v in (True, False)}
        for cell, p in self.board.items():
            if isinstance(p, Stone):
                out[(p.suit, False)].append(cell)
            elif isinstance(p, Coin) and p.rank is not Rank.ACE:
                out[(p.suit, True)].append((cell, p))
        return out

    def value_coins(self, suit: Suit) -> list[tuple[Cell, Coin]]:
        """The suit's coins still showing a value (fixed aces excluded), row-major."""
        return list(self._by_suit[(suit, True)])

    def stones(self, suit: Suit) -> list[Cell]:
        return list(self._by_suit[(suit, False)])

    def in_phase_two(self, suit: Suit) -> bool:
        return not self.value_coins(suit)

    @property
    def won(self) -> bool:
        return all(self.is_home(s) for s in SUITS)

    @cached_property
    def lost(self) -> bool:
        """No roll of the dice still in play can ever give a legal move (see ``_stuck``)."""
        return not self.won and _stuck(self)

    @property
    def status(self) -> str:
        return "won" if self.won else "lost" if self.lost else "playing"


# ----------------------------------------------------------------------------- geometry


def _mirror(cell: Cell, suit: Suit, size: int) -> Cell:
    bottom, right = _CORNER[suit]
    return (size - 1 - cell[0] if bottom else cell[0], size - 1 - cell[1] if right else cell[1])


def home_cells(suit: Suit, size: int) -> frozenset[Cell]:
    """The 2x2 squares of the suit's home tile."""
    return frozenset(_mirror((r, c), suit, size) for r in (0, 1) for c in (0, 1))


def start_cell(suit: Suit, size: int) -> Cell:
    """Where the suit's pawn starts: the middle square nearest its home tile."""
    return _mirror((size // 2 - 1, size // 2 - 1), suit, size)


def start_coins(suit: Suit, size: int) -> list[tuple[Cell, Coin]]:
    """The suit's five coins (null, 2, 3, 4, 5) on the squares around its home tile."""
    return [(_mirror(off, suit, size), Coin(suit, rank)) for off, rank in _AROUND_TOP_LEFT]


def holes(options: Options) -> frozenset[Cell]:
    """Squares with no tile under them: the missing middle tile of the larger board."""
    if not options.large:
        return frozenset()
    m = options.size // 2
    return frozenset({(m - 1, m - 1), (m - 1, m), (m, m - 1), (m, m)})


def pass_value(piece: Piece) -> int | None:
    """The value a piece counts for being moved over; None for a fixed ace, which can never be jumped."""
    if isinstance(piece, Stone):
        return STONE_PASS_VALUE
    if piece.rank is Rank.ACE:
        return None
    return piece.rank.number


# ----------------------------------------------------------------------------- setup and dice


def roll_faces(seed: int, turn: int, suits: Sequence[Suit]) -> list[DieFace]:
    """The faces the Caller rolls on ``turn`` for ``suits``; the same (seed, turn) gives the same faces."""
    rng = random.Random(f"{NAME}:{seed}:{turn}")
    return [rng.choice(DIE_FACES) for _ in suits]


def active_suits(state: State) -> list[Suit]:
    return [s for s in SUITS if not state.is_home(s)]


def _dice_for(state: State, faces: Sequence[DieFace]) -> tuple[Die, ...]:
    out = []
    for suit, face in zip(active_suits(state), faces):
        phase = 2 if state.in_phase_two(suit) else 1
        die = Die(suit, face, phase, 0)
        out.append(replace(die, left=die.budget))
    return tuple(out)


def with_roll(state: State, faces: Sequence[DieFace]) -> State:
    """``state`` with its current roll replaced by ``faces`` (the player's own dice), one per active suit in SUITS order."""
    suits = active_suits(state)
    if len(faces) != len(suits):
        raise _illegal(Reason(reasons.DICE_COUNT, pieces=tuple(suits), number=len(faces)))
    return replace(state, dice=_dice_for(state, list(faces)))


def setup(seed: int | None = None, **options: Any) -> State:
    """The start position and the first roll. Options: highest_first, aces (0/2/4), ace_stones, large."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    unknown = set(options) - {"highest_first", "aces", "ace_stones", "large"}
    if unknown:
        raise BadOptions(
            f"unknown option(s) {', '.join(sorted(unknown))}: expected highest_first, aces, ace_stones, large"
        )
    opts = Options(**options)
    size = opts.size
    board: Grid = Grid.filled((size, size))
    for suit in SUITS:
        for cell, coin in start_coins(suit, size):
            board = board.set(cell, coin)
    pawns = tuple(start_cell(s, size) for s in SUITS)
    if opts.aces:
        board = _place_aces(board, pawns, opts, seed)
    state = State(board, pawns, (), 1, seed, opts)
    return with_roll(state, roll_faces(seed, 1, SUITS))


def _place_aces(board: Grid, pawns: tuple[Cell, ...], opts: Options, seed: int) -> Grid:
    """The aces variant: for each ace, draw a tile from the left-over pile and place the ace on
    an empty square within that many squares (Manhattan, null counts 1) of its home tile; if
    none is free that close, on the nearest free squares. Seeded."""
    rng = random.Random(f"{NAME}:{seed}:aces")
    # 24 tiles: the 4 aces are the home tiles, 12 of the other 20 lie face down, 8 are left over.
    others = [(s, r) for s in SUITS for r in COIN_RANKS]
    rng.shuffle(others)
    pile = others[12:]
    suits = list(SUITS) if opts.aces == 4 else sorted(rng.sample(list(SUITS), 2), key=SUITS.index)
    size = opts.size
    taken = set(pawns)
    for suit, (_, drawn_rank) in zip(suits, pile):
        reach = max(1, drawn_rank.number)
        home = home_cells(suit, size)
        free = [
            (min(manhattan((r, c), h) for h in home), (r, c))
            for (r, c), p in board.items()
            if p is None and (r, c) not in taken and (r, c) not in home
        ]
        close = [cell for d, cell in free if d <= reach]
        if not close:
            nearest = min(d for d, _ in free)
            close = [cell for d, cell in free if d == nearest]
        board = board.set(rng.choice(sorted(close)), Coin(suit, Rank.ACE))
    return board


# ----------------------------------------------------------------------------- movement


def reachable(
    start: Cell,
    max_steps: int,
    shape: tuple[int, int],
    can_pass: Callable[[Cell], bool],
    can_end: Callable[[Cell], bool],
) -> dict[Cell, int]:
    """Cells a piece on ``start`` can end on in 1..``max_steps`` orthogonal steps, each with its fewest steps.

    Every square strictly between ``start`` and the end must satisfy ``can_pass``; the end
    must satisfy ``can_end``. Paths may turn. A breadth-first search, so the step counts are
    the shortest (a piece that may spend "up to N squares" never needs a longer route).
    """
    ends: dict[Cell, int] = {}
    seen = {start}
    frontier = [start]
    for steps in range(1, max_steps + 1):
        nxt = []
        for cell in frontier:
            for _, n in neighbours(cell, shape):
                if n in seen:
                    continue
                if can_end(n) and n not in ends:
                    ends[n] = steps
                if can_pass(n):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return ends


def path_ends(
    start: Cell,
    length: int,
    shape: tuple[int, int],
    can_pass: Callable[[Cell], bool],
    can_end: Callable[[Cell], bool],
) -> set[Cell]:
    """End cells of the simple orthogonal paths of exactly ``length`` steps from ``start``.

    Simple: no square twice, ``start`` included. Squares strictly between must satisfy
    ``can_pass`` and the end ``can_end``. For pieces that "must move their full value",
    turning allowed. Depth-first; fine for the short lengths of dice games (<= 6).
    """
    ends: set[Cell] = set()
    h, w = shape
    deltas = [d.value for d in DIRECTIONS]

    def walk(cell: Cell, left: int, visited: set[Cell]) -> None:
        for dr, dc in deltas:
            n = (cell[0] + dr, cell[1] + dc)
            if not (0 <= n[0] < h and 0 <= n[1] < w) or n in visited:
                continue
            if left == 1:
                if can_end(n):
                    ends.add(n)
            elif can_pass(n):
                visited.add(n)
                walk(n, left - 1, visited)
                visited.discard(n)

    if length >= 1:
        walk(start, length, {start})
    return ends




def _coin_can_end(state: State, blocked: frozenset[Cell]):
    def can_end(cell: Cell) -> bool:
        return cell not in blocked and state.board[cell] is None and state.pawn_on(cell) is None

    return can_end


def _coin_can_pass(state: State, value: int, blocked: frozenset[Cell]):
    def can_pass(cell: Cell) -> bool:
        if cell in blocked or state.pawn_on(cell) is not None:
            return False
        piece = state.board[cell]
        if piece is None:
            return True
        v = pass_value(piece)
        return v is not None and v < value

    return can_pass


def coin_ends_exact(state: State, cell: Cell, value: int) -> set[Cell]:
    """Phase 1: where the coin on ``cell`` can end moving exactly ``value`` squares (passing lower coins only)."""
    blocked = holes(state.options)
    shape = (state.size, state.size)
    return path_ends(cell, value, shape, _coin_can_pass(state, value, blocked), _coin_can_end(state, blocked))


def stone_reach(state: State, cell: Cell, budget: int) -> dict[Cell, int]:
    """Phase 2: where the stepping stone on ``cell`` can end within ``budget`` squares, with the squares each costs."""
    blocked = holes(state.options)
    shape = (state.size, state.size)
    return reachable(
        cell, budget, shape, _coin_can_pass(state, STONE_PASS_VALUE, blocked), _coin_can_end(state, blocked)
    )


def pawn_reach(state: State, suit: Suit, budget: int) -> dict[Cell, int]:
    """Where the suit's pawn can end within ``budget`` squares: only over its own stepping
    stones (and aces, with ace_stones), ending on one of them or on an empty square of its home tile.

    A pawn is home for good the moment it reaches its home tile, so its move ends on the first
    square of the home tile it comes to: it never walks across the home tile (on a stone or an
    ace lying there) and on, off it again or to another of its squares."""
    home = home_cells(suit, state.size)
    ace_ok = state.options.ace_stones

    def steps_on(cell: Cell) -> bool:
        if state.pawn_on(cell) is not None:
            return False
        piece = state.board[cell]
        if isinstance(piece, Stone):
            return piece.suit is suit
        return ace_ok and isinstance(piece, Coin) and piece.rank is Rank.ACE

    def can_pass(cell: Cell) -> bool:
        return cell not in home and steps_on(cell)

    def can_end(cell: Cell) -> bool:
        if steps_on(cell):
            return True
        return cell in home and state.board[cell] is None and state.pawn_on(cell) is None

    return reachable(state.pawn(suit), budget, (state.size, state.size), can_pass, can_end)


def _first_die(state: State, face_number: int) -> Die | None:
    for d in state.dice:
        if d.phase == 1 and d.left and d.face is not DieFace.SUIT and d.face.number == face_number:
            return d
    return None


def flippable(state: State, suit: Suit) -> list[Cell]:
    """The cells of the suit's coins that may be flipped now (highest only under highest_first)."""
    coins = state.value_coins(suit)
    if state.options.highest_first and coins:
        top = max(c.rank.number for _, c in coins)
        coins = [(cell, c) for cell, c in coins if c.rank.number == top]
    return [cell for cell, _ in coins]


def actions(state: State) -> list[Move | Flip]:
    """Every Move and Flip the current roll allows, flips first, each group in row-major order."""
    flips: set[Flip] = set()
    moves: set[Move] = set()
    values = {d.face.number for d in state.dice if d.phase == 1 and d.left and d.face is not DieFace.SUIT}
    values.discard(0)  # "the 0-Null may not move at all"
    for d in state.dice:
        if d.pending_flip:
            flips.update(Flip(cell) for cell in flippable(state, d.suit))
        if d.phase == 2 and d.left:
            for cell in state.stones(d.suit):
                if state.pawn_on(cell) is None:
                    moves.update(Move(cell, to) for to in stone_reach(state, cell, d.left))
            moves.update(Move(state.pawn(d.suit), to) for to in pawn_reach(state, d.suit, d.left))
    if values:
        for cell, piece in state.board.items():
            if isinstance(piece, Coin) and piece.rank.number in values and piece.rank is not Rank.ACE:
                moves.update(Move(cell, to) for to in coin_ends_exact(state, cell, piece.rank.number))
    return sorted(flips, key=lambda f: f.at) + sorted(moves, key=lambda m: (m.frm, m.to))


def _stuck(state: State) -> bool:
    """True when no roll can ever give a move again: every suit still in play has all its
    coins as stepping stones (a suit with a value left can always roll its suit and flip), and
    none of its stones nor its pawn could move even with the largest roll (6 squares)."""
    for suit in active_suits(state):
        if state.value_coins(suit):
            return False
        if pawn_reach(state, suit, PHASE2_SUIT_STEPS):
            return False
        for cell in state.stones(suit):
            if state.pawn_on(cell) is None and stone_reach(state, cell, PHASE2_SUIT_STEPS):
                return False
    return True


def legal_moves(state: State) -> list[Action]:
    """Moves and flips of the current roll, then EndTurn unless a flip is owed; empty once the game is over."""
    if state.won or state.lost:
        return []
    out: list[Action] = list(actions(state))
    if not any(d.pending_flip for d in state.dice):
        out.append(EndTurn())
    return out


def _spend(state: State, die: Die, amount: int) -> tuple[Die, ...]:
    return tuple(replace(d, left=d.left - amount) if d is die else d for d in state.dice)


def _illegal(why: Reason) -> IllegalMove:
    return IllegalMove(reasons.text(why), why)


def apply(state: State, move: Any) -> State:
    """The position after ``move``; raises IllegalMove saying why it is not allowed (its
    ``reason`` a ``Reason`` with a code of ``reasons``, except for a ``move`` of the wrong type)."""
    if not isinstance(move, (Move, Flip, EndTurn)):
        raise IllegalMove(f"not a Steppin' Stones move: {move!r} (expected Move, Flip or EndTurn)")
    if state.won:
        raise _illegal(Reason(reasons.WON))
    if state.lost:
        raise _illegal(Reason(reasons.LOST))
    if isinstance(move, EndTurn):
        owed = [d.suit for d in state.dice if d.pending_flip]
        if owed:
            raise _illegal(Reason(reasons.FLIP_OWED, pieces=(owed[0],)))
        turn = state.turn + 1
        return with_roll(replace(state, turn=turn), roll_faces(state.seed, turn, active_suits(state)))
    if isinstance(move, Flip):
        return _apply_flip(state, move)
    return _apply_move(state, move)


def _check_cell(state: State, cell: Any) -> Cell:
    square = (
        isinstance(cell, tuple)
        and len(cell) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
    )
    if not square:  # no square at all: a programming error, said plainly
        raise IllegalMove(f"square {cell!r} is not on the {state.size}x{state.size} board")
    if not in_bounds(cell, (state.size, state.size)):
        raise _illegal(Reason(reasons.OFF_BOARD, (cell,), number=state.size))
    return cell


def _apply_flip(state: State, move: Flip) -> State:
    at = _check_cell(state, move.at)
    piece = state.board[at]
    if isinstance(piece, Stone):
        raise _illegal(Reason(reasons.ALREADY_STONE, (at,), (piece,)))
    if piece is None:
        raise _illegal(Reason(reasons.NO_COIN, (at,)))
    if piece.rank is Rank.ACE:
        raise _illegal(Reason(reasons.ACE_FLIP, (at,), (piece,)))
    die = state.die(piece.suit)
    if die is None or not die.pending_flip:
        raise _illegal(Reason(reasons.FLIP_NO_DIE, (at,), (piece,)))
    if at not in flippable(state, piece.suit):
        raise _illegal(Reason(reasons.NOT_HIGHEST, (at,), (piece,)))
    return replace(state, board=state.board.set(at, Stone(piece.suit)), dice=_spend(state, die, 1))


def _apply_move(state: State, move: Move) -> State:
    frm = _check_cell(state, move.frm)
    to = _check_cell(state, move.to)
    pawn = state.pawn_on(frm)
    if pawn is not None:
        return _apply_pawn(state, pawn, frm, to)
    piece = state.board[frm]
    if piece is None:
        raise _illegal(Reason(reasons.NOTHING_THERE, (frm, to)))
    if isinstance(piece, Stone):
        die = state.die(piece.suit)
        if die is None or die.phase != 2:
            raise _illegal(Reason(reasons.STONE_TOO_EARLY, (frm, to), (piece,)))
        if not die.left:
            raise _illegal(Reason(reasons.STONE_DIE_SPENT, (frm, to), (piece,)))
        cost = stone_reach(state, frm, die.left).get(to)
        if cost is None:
            raise _illegal(Reason(reasons.STONE_OUT_OF_REACH, (frm, to), (piece,), number=die.left))
        return replace(state, board=state.board.set(frm, None).set(to, piece), dice=_spend(state, die, cost))
    if piece.rank is Rank.ACE:
        raise _illegal(Reason(reasons.ACE_MOVE, (frm, to), (piece,)))
    value = piece.rank.number
    if value == 0:
        raise _illegal(Reason(reasons.NULL_MOVE, (frm, to), (piece,)))
    die = _first_die(state, value)
    if die is None:
        raise _illegal(Reason(reasons.NO_DIE, (frm, to), (piece,), number=value))
    if to not in coin_ends_exact(state, frm, value):
        raise _illegal(Reason(reasons.COIN_OUT_OF_REACH, (frm, to), (piece,), number=value))
    return replace(state, board=state.board.set(frm, None).set(to, piece), dice=_spend(state, die, 1))


def _apply_pawn(state: State, suit: Suit, frm: Cell, to: Cell) -> State:
    if state.is_home(suit):
        raise _illegal(Reason(reasons.PAWN_HOME, (frm, to), (suit,)))
    die = state.die(suit)
    if die is None or die.phase != 2:
        raise _illegal(Reason(reasons.PAWN_TOO_EARLY, (frm, to), (suit,)))
    if not die.left:
        raise _illegal(Reason(reasons.PAWN_DIE_SPENT, (frm, to), (suit,)))
    cost = pawn_reach(state, suit, die.left).get(to)
    if cost is None:
        raise _illegal(Reason(reasons.PAWN_OUT_OF_REACH, (frm, to), (suit,), number=die.left))
    pawns = tuple(to if s is suit else p for s, p in zip(SUITS, state.pawns))
    after = replace(state, pawns=pawns, dice=_spend(state, die, cost))
    if to in home_cells(suit, state.size):
        # "When a pawn gets home, the corresponding die is removed from play."
        after = replace(after, dice=tuple(d for d in after.dice if d.suit is not suit))
    return after


def perft(state: State, depth: int) -> int:
    """Distinct sequences of exactly ``depth`` moves and flips with the dice of this roll (EndTurn is not counted)."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if depth == 0:
        return 1
    moves = actions(state) if not (state.won or state.lost) else []
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, m), depth - 1) for m in moves)
