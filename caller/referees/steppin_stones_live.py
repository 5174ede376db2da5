"""The live referee of Steppin' Stones (``caller watch --game steppin-stones``).

What the live Caller (``caller.live``, ``caller.watch``) needs to know of Steppin' Stones, a
solitaire on 4x4 tiles (8x8 squares) whose four home tiles lie face up in the corners. See
``caller.live_referee`` for the interface; the choices below are written for players in
docs/games/steppin-stones.md.

**The frame.** The reader (``vision.table_reader.SquaresReader``) turns the board by its home
tiles (each suit's ace, face up in its corner), so a reading is already in the rules' frame:
Suns top left, as the setup announces it. Only the standard game is followed (8x8, no aces
variant).

**What the camera sees of a coin.** A coin lies value side up (the reader reads its value, not
its suit) or suit side up (a stepping stone: its suit). The Caller knows every coin's suit from
the setup and follows each coin from square to square; a pawn hides what it stands on.

**The dice.** ``dice="table"`` (the default): the player rolls one die per suit still in play
beside the board and the Caller reads them (the suit from the die's colour). The dice lying
there when the setup is accepted are the first roll (dice that read one way, then another,
while the setup lies still are left out of it: the roll is then the next change, once they
hold); a change of the dice is the turn ended and
the next roll (its ``roll`` event said at once: "Turn 2. Phase one: ..."), allowed only when no
flip is owed. A roll that lands on the very faces of the last one looks like no roll at all; it
is taken as one when the last roll has nothing left to do. The die of a suit whose pawn is home
leaves play: it may stay on the table, it is not looked at. ``dice="caller"``: the Caller rolls
(from ``seed``) and announces each roll as soon as the last one has nothing left to do; dice on
the table are not looked at.

**A change.** Between two still moments the player may have made a few actions (moves and
flips, up to ``MAX_ACTIONS``) and rolled; the change is explained by the fewest actions of the
roll in force, the roll seen (table) made at the point where the old roll allowed it, that
leave the board seen. Each
is said as the text referee says it; a suit whose last coin became a stepping stone is said to
be in phase 2; the end (all pawns home, or no roll can ever move anything again) is announced.
A change no actions explain is illegal: when it is one piece moved or one coin turned, the
rules' own verdict on that action is said ("the Red 3 on c2 cannot reach e2 in exactly 3
squares ..."), else the squares that changed (``sightings``).

**Doubtful reads.** A reading with doubtful squares or dice is never a position as it is.
``settle`` takes it as the one board, among the current one and those a single action or roll
leaves (or, while the first roll waits to be seen, that roll and one action of it), that agrees
with every square and die the reader is sure of, but for the reader's slips: a blank Null read
as an empty square (a Null never moves), and up to ``UNSEEN_SLIPS`` other coins read as empty
squares and ``VALUE_SLIPS`` read with another value (coins never change value, nor leave the
board): a slip is a coin where it lay, never on a square the action changed (the slips must not
make up a move). Of several such boards the one that needs the fewest slips is taken (a move
read plainly is not a move of the coin beside it with one coin missed and one misread). A pawn
missing from a reading that shows a stepping stone of its suit on the pawn's square is taken to
stand there (seen from above, a pawn of the suit's colour now and then reads as the coin's suit
side). A die read doubtfully but with the same face on every read over ``tile_steady_s`` is
taken as read (a die lies still until it is rolled). When several boards agree the table is
read again; when none does, a reading whose only doubt is on squares is taken as read once it
has held over ``tile_steady_s`` (then judged, and an illegal change confirmed by a re-read as
always); doubtful dice never are (a die misread would make every later move illegal). A reading
that lacks a pawn or a coin the board has (a piece in the hand, or a hand held still over the
board) is never judged: nothing in the game takes a piece off the board.

**Dice in doubt.** A die taken by steadiness, or one never seen (taken as a Null), stays in
doubt while its roll is in force: a change the roll does not explain, but one such die, unused,
showing another face does, is taken so and the roll said again (``_misread``). A die in doubt
that alone reads otherwise later is no new roll, and while every die read shows the roll in
force's face, a die not read is taken as that roll has it. A die read sure when the roll was
taken is doubted only by the reader itself: a change the roll does not explain, that the die,
unused, explains as the reader now reads it (sure or steadily), every other die as it lay, is
taken so and the roll said again (a die's first reads after it lands may read its face wrong,
and sure)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Iterator

from caller.errors import CallerError
from caller.live_referee import Happening, LiveReferee, Motion, Verdict, steady_run
from caller.tracker import Reading
from rules.errors import IllegalMove, NotationError
from rules.grid import Cell
from rules.pieces import SUITS, Coin, DieFace, Rank, Suit
from rules.reasons import Reason
from rules.steppin_stones import sightings
from rules.steppin_stones.codec import to_json
from rules.steppin_stones.state import (EndTurn, Flip, Move, State, Stone, active_suits, apply, home_cells,
                                        legal_moves, setup, with_roll)
from voice.phrasebook import steppin_stones as phrases
from voice.phrasebook.common import plural

DICE_MODES = ("table", "caller")
#: the most actions one change is explained by: a quick player between two still moments, or
#: a turn's four dice played while the reader could not follow (a hand held over the board,
#: a die not read); the search keeps only action sequences that can still reach the board seen
MAX_ACTIONS = 4


@dataclass(frozen=True)
class StonesReading(Reading):
    """A read of a Steppin' Stones table in the rules' frame: ``board`` the squares ("n",
    "2"-"5" or "a" a coin value side up, a suit letter a stepping stone, None empty or under a
    pawn); ``pawns`` ``(suit letter, (row, col))`` pairs in suit order; ``coins`` the dice, one
    face code per suit in SUITS order (None: not read, or doubtful), or () when they are not
    looked at. ``needed``: the suits whose dice must be read for the reading to be confident."""

    needed: frozenset[str] = field(default=frozenset(), compare=False)
    covered: frozenset[Cell] = field(default=frozenset(), compare=False)
    #: the faces the reader gave, sure or not, in SUITS order (None: no die of the suit seen)
    raw_dice: tuple = field(default=(), compare=False)
    #: the suits whose die is taken as read by steadiness: read in doubt, the same on every read
    steadied: frozenset[str] = field(default=frozenset(), compare=False)

    @property
    def dice_seen(self) -> int:
        """Dice the reader saw, read sure or not."""
        return sum(f is not None for f in self.raw_dice)

    @property
    def confident(self) -> bool:
        return not self.uncertain and all(self.die(s) is not None for s in self.needed)

    def die(self, suit: str) -> str | None:
        return self.coins[SUITS_CODE.index(suit)] if self.coins else None

    @property
    def dice_known(self) -> bool:
        return all(self.die(s) is not None for s in self.needed)


SUITS_CODE = tuple(s.value for s in SUITS)
NULL = Rank.NULL.code
#: coins other than Nulls a reading may show as empty squares and still agree with a board (the
#: reader misses a coin now and then; coins never leave the board)
UNSEEN_SLIPS = 1
#: coins a reading may show with another value and still agree with a board
VALUE_SLIPS = 1


@dataclass(frozen=True)
class Seen:
    """A position as the camera sees it: squares, pawns, and the dice of the suits in play
    (``dice``: suit letter -> face code; empty when they are not looked at)."""

    board: tuple[tuple[str | None, ...], ...]
    pawns: tuple[tuple[str, Cell], ...]
    dice: tuple[tuple[str, str], ...] = ()
    #: the suits of ``dice`` read in doubt (taken by steadiness)
    doubtful: frozenset[str] = field(default=frozenset(), compare=False)


@dataclass(frozen=True)
class Stones:
    """The live Caller's state: the rules' state (board, pawns, the roll in force, what is
    left of it); ``rolled``: whether the roll in force was seen (table) or announced (caller);
    False only before the first roll is seen. ``doubtful``: the suits of the roll in force whose
    die the reader was never sure of (taken by steadiness): a change that roll does not explain
    may be one of them misread (``SteppinStonesLive._misread``). ``reread``: ``(suit, the face
    read, the face the moves showed)`` for each die of the roll in force so read again: the
    reader still reads that die its own way while it lies there, and that read is the face the
    moves showed, not a new roll."""

    game: State
    rolled: bool = True
    doubtful: frozenset[str] = field(default=frozenset(), compare=False)
    reread: tuple[tuple[str, str, str], ...] = field(default=(), compare=False)


def _unread(reading: StonesReading, faces) -> list[int]:
    """The indices (``SUITS_CODE`` order) of the suits in play in ``reading`` whose die
    ``faces`` (one a suit, None: not read) does not give."""
    return [k for k, s in enumerate(SUITS_CODE) if s in reading.needed and faces[k] is None]


def parse_dice(text: str) -> str:
    if text not in DICE_MODES:
        raise CallerError(f"--dice {text!r}: expected table (the player rolls beside the board) or caller (the "
                          "Caller rolls and says the dice)")
    return text


def parse_seed(text: str) -> int:
    if not text.strip().isdigit():
        raise CallerError(f"--seed {text!r}: expected a whole number (the Caller's rolls with --dice caller)")
    return int(text)


def _suit_order(pawn: tuple[str, Cell]) -> int:
    """A pawn's place in suit order (``SUITS``); a letter of no suit last."""
    return SUITS_CODE.index(pawn[0]) if pawn[0] in SUITS_CODE else len(SUITS_CODE)


@lru_cache(maxsize=1)
def _setup_view() -> tuple:
    """``view`` of the setup: what every read before the start is compared with."""
    return view(setup(seed=0))


def square_code(piece) -> str | None:
    """What a sure read reports of a square holding ``piece``."""
    if isinstance(piece, Stone):
        return piece.suit.value
    if isinstance(piece, Coin):
        return piece.rank.code
    return None


def view(game: State) -> tuple[tuple[tuple[str | None, ...], ...], tuple[tuple[str, Cell], ...]]:
    """The squares and pawns a sure read of ``game`` reports (nothing under a pawn)."""
    n = game.size
    rows = tuple(tuple(None if game.pawn_on((r, c)) is not None else square_code(game.board[(r, c)])
                       for c in range(n)) for r in range(n))
    return rows, tuple((s.value, game.pawn(s)) for s in SUITS)


@lru_cache(maxsize=4)
def _home_suits(size: int) -> dict[Cell, str]:
    """Each home tile's square -> the letter of the suit printed on the tile."""
    return {cell: suit.value for suit in SUITS for cell in home_cells(suit, size)}


def differ(board, seen) -> list[Cell]:
    """The squares where the squares ``seen`` differ from ``board`` (a sure read's), but for two
    things the reader sees that are no change: a Null coin read as an empty square (the reader
    often misses a blank coin, and a Null never moves: it leaves its square only turned into a
    stepping stone, which shows its suit), and an empty square of a home tile read as a
    stepping stone of the tile's suit (the tile lies face up, its suit printed large)."""
    home = _home_suits(len(board))
    return [(r, c) for r, row in enumerate(seen) for c, v in enumerate(row)
            if v != board[r][c] and not (v is None and board[r][c] == NULL)
            and not (board[r][c] is None and v is not None and home.get((r, c)) == v)]


def _one_piece_moved(board, pawns, position: Seen) -> bool:
    """Whether the squares and pawns of ``position`` are ``board`` and ``pawns`` with one
    piece moved: a coin gone from one square and the same code on one other, the pawns as
    they stood; or one pawn on another square, the squares as they were."""
    changed = differ(board, position.board)
    moved_pawns = set(pawns) ^ set(position.pawns)
    if not changed:
        return len(moved_pawns) == 2 and len({suit for suit, _ in moved_pawns}) == 1
    if moved_pawns or len(changed) != 2:
        return False
    (r1, c1), (r2, c2) = changed
    a, b = (board[r1][c1], position.board[r1][c1]), (board[r2][c2], position.board[r2][c2])
    return (a[1] is None and b[0] is None and a[0] == b[1]) or (b[1] is None and a[0] is None and b[0] == a[1])


def roll_faces_of(game: State) -> tuple[tuple[str, str], ...]:
    """The faces of the roll in force, of the suits in play."""
    return tuple((d.suit.value, d.face.code) for d in game.dice)


def piece_code(game: State, cell: Cell) -> str:
    """``@S`` a pawn, ``S*`` a stepping stone, ``S3`` a coin: the piece an action lifts from ``cell``."""
    pawn = game.pawn_on(cell)
    if pawn is not None:
        return "@" + pawn.value
    piece = game.board[cell]
    return piece.suit.value + "*" if isinstance(piece, Stone) else piece.code


def _lifted(action: Move | Flip) -> Cell:
    """The square an action lifts a piece from (a flip lifts the coin it turns)."""
    return action.at if isinstance(action, Flip) else action.frm


class SteppinStonesLive(LiveReferee):
    """Steppin' Stones' live referee for one table (see the module's docstring)."""

    phrases = phrases
    clock = False
    opening_event = "roll"
    checks_setup = False
    options = ("dice", "seed")
    parse_dice = staticmethod(parse_dice)
    parse_seed = staticmethod(parse_seed)

    def __init__(self, dice: str = "table", seed: int | None = None) -> None:
        self.dice = parse_dice(dice)
        if seed is not None and self.dice != "caller":
            raise CallerError("--seed: the seed of the Caller's own rolls, so it needs --dice caller")
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        self._recent: list[tuple[float, StonesReading]] = []
        self._start_events: tuple[Happening, ...] = ()
        self._resumed: tuple[Happening, ...] = ()

    @property
    def table_dice(self) -> bool:
        return self.dice == "table"

    # -- readings ------------------------------------------------------------------------------
    def reading(self, obs, needed: frozenset[str] = frozenset()) -> StonesReading:
        """A ``vision.observation.SquaresObservation`` as a reading; the dice of ``needed`` suits
        must be read sure for it to be confident."""
        board = [list(row) for row in obs.coins]
        pawns = sorted(((suit, tuple(cell)) for suit, cell in obs.pawns), key=_suit_order)
        for _, (r, c) in pawns:
            board[r][c] = None
        covered = frozenset(tuple(c) for c in getattr(obs, "covered", ()))
        uncertain = frozenset(tuple(c) for c in obs.uncertain) | covered
        dice: tuple = ()
        raw_dice: tuple = ()
        if self.table_dice:
            faces: dict[str, str | None] = {}
            raw: dict[str, str | None] = {}
            doubt = set(getattr(obs, "uncertain_dice", ()))
            for k, (suit, face) in enumerate(obs.dice or ()):
                try:
                    code = DieFace.parse(face).code
                except NotationError:
                    code = None
                # a suit read twice, or read doubtfully, is not known
                faces[suit] = None if (suit in faces or k in doubt) else code
                raw[suit] = None if suit in raw else code
            dice = tuple(faces.get(s) for s in SUITS_CODE)
            raw_dice = tuple(raw.get(s) for s in SUITS_CODE)
        return StonesReading(tuple(map(tuple, board)), tuple(pawns), dice, uncertain, needed=needed, covered=covered,
                             raw_dice=raw_dice)

    def settle(self, t: float, obs, loop) -> tuple[Reading | None, tuple[float, int] | None]:
        """A read with doubtful squares or dice made sure where it can be (module docstring)."""
        state: Stones | None = loop.caller.current
        needed = frozenset() if state is None or not self.table_dice else \
            frozenset(s.value for s in active_suits(state.game))
        reading = self.reading(obs, needed)
        if state is not None and self.table_dice:  # dice of suits out of play are not looked at
            reading = replace(reading, coins=tuple(f if s in needed else None for s, f in zip(SUITS_CODE, reading.coins)))
        reading = self._pawns_read_as_stones(reading, _setup_view()[1] if state is None else view(state.game)[1])
        self._recent = (self._recent + [(t, reading)])[-16:]
        reading = self._steady_dice(reading, t, loop.tracker.config)
        if state is not None and state.reread:
            reading = self._as_reread(reading, state)
        if state is not None and state.rolled and reading.needed:
            reading = self._as_in_force(reading, state)
        # the reads are compared as the dice steadied them: a die read doubtfully on every read
        # (and so taken as read) made no read the same as the last one, and a board with doubtful
        # squares was never taken as steady (an illegal flip beside dice that shaded two coins
        # went unsaid)
        self._recent[-1] = (t, reading)
        if state is None:
            return self._steady_start(reading, t, loop.tracker.config)
        if reading.covered:
            return reading, None
        fits: dict[StonesReading, int] = {}
        before = view(state.game)[0]
        for step in self._steps(state, reading):
            slips = self._agrees(step, reading, before)
            if slips is not None:
                seen = self.reading_of(step)
                fits[seen] = min(slips, fits.get(seen, slips))
        fewest = [seen for seen, slips in fits.items() if slips == min(fits.values())]
        if len(fewest) == 1:  # the board that needs the fewest slips of the reader
            return replace(fewest[0], steadied=reading.steadied), None  # its dice as sure as they were read
        if fits:  # boards that differ on doubtful squares only: read again until one is sure
            return replace(reading, uncertain=reading.uncertain | {(-1, -1)}), None
        if self._short(state, reading) or not reading.dice_known:
            return replace(reading, uncertain=reading.uncertain | {(-1, -1)}), None
        if reading.uncertain:
            run = steady_run(self._recent, reading, t, loop.tracker.config)
            if run is not None:
                return replace(reading, uncertain=frozenset()), (run[0], len(run))
        return reading, None

    @staticmethod
    def _pawns_read_as_stones(reading: StonesReading, pawns) -> StonesReading:
        """``reading`` with each pawn of ``pawns`` (``(suit letter, cell)``, where the pawns
        stand) that it lacks stood back on its square where the reader saw a stepping stone of
        the pawn's suit there instead: seen from above, a pawn of the suit's colour is a disc
        of that colour, and the reader now and then takes it for the coin's suit side. (A pawn
        lifted off a stone of its suit shows that stone too; the pawn is then in the hand, and
        a reading that lacks it would not be judged either.)"""
        seen = dict(reading.pawns)
        board = [list(row) for row in reading.board]
        stood = [(suit, cell) for suit, cell in pawns if suit not in seen and board[cell[0]][cell[1]] == suit]
        if not stood:
            return reading
        for _, (r, c) in stood:
            board[r][c] = None
        both = sorted(list(reading.pawns) + stood, key=_suit_order)
        return replace(reading, board=tuple(map(tuple, board)), pawns=tuple(both))

    def _steady_dice(self, reading: StonesReading, t: float, cfg) -> StonesReading:
        """``reading`` with each die read doubtfully taken as read when every read over
        ``tile_steady_s`` (``tile_steady_reads`` at least) gave it the same face: the reader is
        sometimes never quite sure of a small die, and a die lies still until it is rolled.
        One die of a suit in play that no read over that time saw at all, while every other
        die in play is known, is taken as a Null, in doubt: a blank die shows no numeral and
        no colour, and is the one the reader misses (two blank dice of a roll, one never seen,
        kept the roll from ever being taken, and the moves made with it were called illegal);
        a move that needs another face of it corrects it (``_misread``). All taken so are
        ``steadied``."""
        if not reading.coins or not reading.raw_dice:
            return reading
        faces = list(reading.coins)
        steadied = set()
        for k, (sure, raw) in enumerate(zip(reading.coins, reading.raw_dice)):
            if sure is not None or raw is None:
                continue
            if steady_run(self._recent, reading, t, cfg,
                          holds=lambda seen: bool(seen.raw_dice) and seen.raw_dice[k] == raw) is not None:
                faces[k] = raw
                steadied.add(SUITS_CODE[k])
        unknown = _unread(reading, faces)
        if len(unknown) == 1 and len(reading.needed) > 1 and reading.raw_dice[unknown[0]] is None:
            k = unknown[0]
            if steady_run(self._recent, reading, t, cfg,
                          holds=lambda seen: bool(seen.raw_dice) and seen.raw_dice[k] is None) is not None:
                faces[k] = DieFace.NULL.code
                steadied.add(SUITS_CODE[k])
        return replace(reading, coins=tuple(faces), steadied=frozenset(steadied))

    @staticmethod
    def _as_reread(reading: StonesReading, state: Stones) -> StonesReading:
        """``reading`` with each die of ``state.reread`` that shows the face once misread taken
        as the face the moves showed (no longer in doubt)."""
        faces = list(reading.coins)
        steadied = set(reading.steadied)
        for suit, read, shown in state.reread:
            k = SUITS_CODE.index(suit)
            if k < len(faces) and faces[k] == read:
                faces[k] = shown
                steadied.discard(suit)
        return replace(reading, coins=tuple(faces), steadied=frozenset(steadied))

    @staticmethod
    def _as_in_force(reading: StonesReading, state: Stones) -> StonesReading:
        """``reading`` with each die of a suit in play it does not know taken, in doubt, as the
        roll in force has it, when every die it knows shows the roll in force's face: no roll
        was made, and a die read one way, then another, then not at all, must not keep the
        board from being judged (an illegal move beside such a die went unsaid, no two reads
        in a row agreeing)."""
        faces = dict(roll_faces_of(state.game))
        coins = list(reading.coins)
        unknown = _unread(reading, coins)
        if not unknown or any(coins[k] != faces.get(s) for k, s in enumerate(SUITS_CODE)
                              if s in reading.needed and coins[k] is not None):
            return reading
        for k in unknown:
            coins[k] = faces.get(SUITS_CODE[k])
        return replace(reading, coins=tuple(coins),
                       steadied=reading.steadied | {SUITS_CODE[k] for k in unknown})

    def _steady_start(self, reading: StonesReading, t: float, cfg) -> tuple[Reading, tuple[float, int] | None]:
        """Before the start: a read with doubtful squares (or blank Nulls, or one other coin, read
        as empty squares) taken as the setup when every read over ``tile_steady_s`` (at least
        ``tile_steady_reads``) agreed with it on the squares it read sure and on the pawns. The
        doubtful squares may read differently from one read to the next, and a tile read as
        covered is one more doubtful place (the setup is known; a hand that truly covers it
        moves, and the motion gate holds the reads): only what the reads are sure of must hold.

        Dice that some read over the last ``tile_steady_s`` saw otherwise are left out (read as
        not known): the setup is its squares and pawns, and the first roll is then taken as
        the next change once the dice hold. Dice read one way, then another (a hand's shadow
        coming in, a small die read one way now and then) made every read a new position, and
        the setup, never held long enough, was never accepted: a player who went on playing
        heard "not the setup" all game."""
        board, pawns = _setup_view()
        if reading.coins and any(seen.raw_dice != reading.raw_dice for when, seen in self._recent
                                 if t - when <= cfg.tile_steady_s + 1e-9):
            reading = replace(reading, coins=(None,) * len(reading.coins))
        if reading.board == board and not reading.uncertain and not reading.covered:
            return reading, None

        def is_setup(seen: StonesReading) -> bool:
            return dict(seen.pawns) == dict(pawns) and self._slips(board, seen) is not None

        if steady_run(self._recent, reading, t, cfg, holds=is_setup) is None:
            return reading, None
        return replace(reading, board=board, uncertain=frozenset()), None

    @staticmethod
    def _slips(board, reading: StonesReading, moved: frozenset = frozenset()) -> int | None:
        """Whether the reading shows the squares ``board`` but for the reader's slips: the
        number of coins (other than blank Nulls) read sure as empty squares or with another
        value, at most ``UNSEEN_SLIPS`` and ``VALUE_SLIPS`` of each (a coin never changes its
        value; one turned shows its suit); None when it differs otherwise on a square read sure.
        A stepping stone is a coin too: one read as an empty square is a slip like any other
        (a Black stone read empty beside its pawn, read after read, kept a flip from ever being
        taken), one read with a value or another suit is not.
        A slip is a coin that lies where it lay: on the squares ``moved`` (those the actions
        that made ``board`` changed) the reading must agree, or the slips could make up a move;
        and a coin read as missing while a coin of its value is read, doubtfully, on a square
        the board has empty, has moved there."""
        missed = other = 0
        # coins read, doubtfully, where the board has none: a coin of that value read as
        # missing has moved there, it is no slip
        elsewhere = {reading.board[r][c] for r, c in reading.uncertain
                     if 0 <= r < len(board) and board[r][c] is None and reading.board[r][c] is not None}
        for r, c in differ(board, reading.board):
            if (r, c) in reading.uncertain:
                continue
            was, now = board[r][c], reading.board[r][c]
            if was is None or (now is not None and (was in SUITS_CODE or now in SUITS_CODE)) or (r, c) in moved:
                return None
            if now is None:
                if was in elsewhere:
                    return None
                missed += 1
            else:
                other += 1
        return None if missed > UNSEEN_SLIPS or other > VALUE_SLIPS else missed + other

    def _agrees(self, stones: Stones, reading: StonesReading, before=None) -> int | None:
        """The reader's slips (``_slips``; none on the squares where ``stones`` differs from the
        squares ``before``, those its actions changed) by which ``stones`` shows what
        ``reading`` is sure of; None when it does not."""
        board, pawns = view(stones.game)
        slips = self._slips(board, reading, frozenset(differ(before, board)) if before is not None else frozenset())
        if slips is None:
            return None
        seen = dict(reading.pawns)
        for suit, cell in pawns:
            if seen.get(suit) != cell and not (suit not in seen and cell in reading.uncertain):
                return None
        if self.table_dice:
            for suit, face in roll_faces_of(stones.game):
                if reading.die(suit) not in (None, face):
                    return None
        return slips

    def _short(self, state: Stones, reading: StonesReading) -> bool:
        """Whether ``reading`` lacks a pawn or a coin of ``state`` (never judged: module
        docstring). The blank Nulls are not counted: a Null never moves, so one read as an
        empty square is the reader's slip, not a coin in the hand (a Null behind a pawn that
        had just moved there, half hidden by it, kept an illegal pawn move from ever being
        judged)."""
        board, pawns = view(state.game)
        seen = dict(reading.pawns)
        if any(suit not in seen for suit, _ in pawns):
            return True
        nulls = {(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == "n"}

        def pieces(squares) -> int:
            return sum(v is not None and (r, c) not in nulls for r, row in enumerate(squares) for c, v in enumerate(row))

        return pieces(reading.board) + len(seen) < pieces(board) + len(pawns)

    def _steps(self, state: Stones, reading: StonesReading) -> Iterator[Stones]:
        """The states the table may show next: ``state``, each single action's, and the roll
        seen (table, its faces all read sure) or the Caller's next roll; before the first roll
        is seen (the dice were not read sure at the setup), also each single action of it."""
        yield state
        board, pawns = view(state.game)
        touched = set(differ(board, reading.board)) | set(reading.uncertain)
        touched |= {cell for pair in set(pawns) ^ set(reading.pawns) for cell in [pair[1]]}

        def actions(stones: Stones) -> Iterator[Stones]:
            for action in legal_moves(stones.game):
                if not isinstance(action, EndTurn) and _lifted(action) in touched:
                    yield self._after(stones, action)[0]

        if state.rolled:
            yield from actions(state)
        rolled = self._rolled(state, self._seen_dice(reading), same=False, doubtful=reading.steadied)
        if rolled is not None:
            yield rolled[0]
            if not state.rolled:
                yield from actions(rolled[0])

    def _seen_dice(self, reading: StonesReading) -> tuple[tuple[str, str], ...] | None:
        """The faces read sure for every needed suit; None when some are not."""
        if not self.table_dice or not reading.needed or not reading.dice_known:
            return None
        return tuple((s, reading.die(s)) for s in SUITS_CODE if s in reading.needed)

    def reading_of(self, state: Stones | State) -> StonesReading:
        """A state as a sure read of it."""
        stones = state if isinstance(state, Stones) else Stones(state)
        game = stones.game
        board, pawns = view(game)
        dice: tuple = ()
        needed: frozenset[str] = frozenset()
        if self.table_dice:
            faces = dict(roll_faces_of(game)) if stones.rolled else {}
            dice = tuple(faces.get(s) for s in SUITS_CODE)
            needed = frozenset(faces)
        return StonesReading(board, pawns, dice, frozenset(), needed=needed)

    # -- positions -----------------------------------------------------------------------------
    def parse(self, reading: Reading) -> Seen:
        dice = ()
        if self.table_dice and reading.coins:
            dice = tuple((s, f) for s, f in zip(SUITS_CODE, reading.coins) if f is not None)
        doubtful = frozenset(getattr(reading, "steadied", frozenset())) & {s for s, _ in dice}
        return Seen(reading.board, tuple(reading.pawns), dice, doubtful)

    def state(self, position: Seen) -> Seen:
        """A board alone is no state (which coin is whose, the roll): ``judge`` makes the state."""
        return position

    def shows(self, state: Stones, new: Seen) -> bool:
        if not self._shown(state.game, (new.board, new.pawns)):
            return False
        if not self.table_dice:
            return True
        in_play = [s.value for s in active_suits(state.game)]
        seen = {s: f for s, f in new.dice if s in in_play}
        if len(seen) < len(in_play):  # the dice not all read: judged by the board alone
            return True
        return state.rolled and seen == dict(roll_faces_of(state.game))

    def board(self, state: Stones) -> dict:
        """The ``board`` event: the position's squares (codec rows: "S3" a coin, "S" a stepping
        stone) and pawns."""
        js = to_json(state.game)
        return {"board": js["board"], "pawns": js["pawns"]}

    def accepted(self, state: Stones) -> dict:
        return self.board(state)

    # -- the start -----------------------------------------------------------------------------
    def start(self, new: Seen, reading: Reading) -> Stones | Verdict:
        """The setup, and (table) the dice lying beside it as the first roll; (caller) the
        Caller's first roll."""
        game = setup(seed=self.seed)
        board, pawns = view(game)
        wrong = sorted(set(differ(board, new.board)) | {cell for pair in set(pawns) ^ set(new.pawns) for cell in [pair[1]]})
        if wrong:
            why = Reason(sightings.NOT_A_START, tuple(wrong))
            return Verdict.illegal(sightings.text(why), why, wrong)
        if not self.table_dice:
            stones, more = self._after_roll(Stones(game))
            self._start_events = (self._roll_event(game, "caller"),) + more
            return stones
        faces = dict(new.dice)
        if set(faces) == set(SUITS_CODE):
            game = with_roll(game, [DieFace.parse(faces[s]) for s in SUITS_CODE])
            stones, more = self._after_roll(Stones(game, doubtful=new.doubtful))
            self._start_events = (self._roll_event(game, "table"),) + more
            return stones
        # the first roll is taken when the dice are read sure; asked for when none is in view
        seen = getattr(reading, "dice_seen", 0)  # a reading_of has none
        self._start_events = (Happening("wait", {"for": "roll"}, None if seen else phrases.live_roll_please()),)
        return Stones(game, rolled=False)

    def starting(self, state: Stones) -> tuple[Happening, ...]:
        return self._start_events

    def say_illegal(self, verdict: Verdict, start: bool) -> str:
        return phrases.live_illegal(verdict.why)

    # -- changes -------------------------------------------------------------------------------
    def judge(self, before: Stones, position: Seen, max_moves: int, motion: Motion | None = None) -> Verdict:
        """The fewest actions (and the roll seen) that leave ``position``, or why none do; a
        change that only a die read in doubt showing another face explains is taken so
        (``_misread``)."""
        found = self._explained(before, position, max_moves)
        if found is not None:
            return found
        return self._misread(before, position, max_moves) or self._why(before, position, self._roll_seen(before, position))

    def _dice_in_play(self, before: Stones, position: Seen) -> tuple[tuple[str, str], ...] | None:
        """The dice of ``position`` of the suits in play in ``before`` (None: the Caller rolls)."""
        in_play = {s.value for s in active_suits(before.game)}
        return tuple((s, f) for s, f in position.dice if s in in_play) if self.table_dice else None

    def _roll_seen(self, before: Stones, position: Seen) -> bool:
        """Whether ``position`` shows a roll (table): every die in play read, and (unless the
        roll in force is not seen yet) two dice with other faces than that roll's, or one read
        sure, and read sure in that roll. A die read in doubt, now or when the roll was taken,
        that alone differs is that die read another way, not a roll: the reader, unsure of a
        die, reads it now one way, now another (now and then sure), while it lies still; a
        roll turns up another face on most dice."""
        seen_dice = self._dice_in_play(before, position)
        if not seen_dice or len(seen_dice) != len(active_suits(before.game)):
            return False
        if not before.rolled:
            return True
        faces = dict(roll_faces_of(before.game))
        changed = [s for s, f in seen_dice if faces.get(s) != f]
        return len(changed) > 1 or any(s not in position.doubtful | before.doubtful for s in changed)

    def _explained(self, before: Stones, position: Seen, max_moves: int) -> Verdict | None:
        """The fewest actions (and the roll seen) that leave ``position``; None when none do."""
        target = (position.board, position.pawns)
        seen_dice = self._dice_in_play(before, position)
        # a die of a suit in play not read: the dice are not judged
        roll_seen = self._roll_seen(before, position)
        board, pawns = view(before.game)
        changed = set(differ(board, position.board))
        changed |= {cell for pair in set(pawns) ^ set(position.pawns) for cell in [pair[1]]}
        frontier: list[tuple[Stones, tuple[Happening, ...], bool]] = [(before, (), False)]
        seen_states: set = set()
        most = min(max_moves, MAX_ACTIONS)
        if _one_piece_moved(board, pawns, position):
            # one piece lifted from one square and set down on another is that one action: two
            # moves of the same piece through a square between (allowed by a roll with two
            # dice of its value) would explain away the single move the rules forbid, and the
            # piece put back after the warning would then be a move of its own
            most = min(most, 1)
        for depth in range(most + 1):
            grown: list[tuple[Stones, tuple[Happening, ...], bool]] = []
            for stones, events, rolled in frontier:
                # the roll may come between any two actions (it costs no action); a roll on the
                # faces already in force is seen only as the change's first step, when the
                # last board had spent its roll (else it would explain away any illegal action
                # as that roll played twice)
                options = [(stones, events, rolled)]
                if not rolled and (roll_seen or depth == 0):
                    again = self._rolled(stones, seen_dice if roll_seen else None, same=not roll_seen,
                                         doubtful=position.doubtful)
                    if again is not None:
                        options.append((again[0], events + again[1], True))
                for st, ev, ro in options:
                    if (ro or not roll_seen) and self._shown(st.game, target):
                        return Verdict.moved(ev, after=st)
                    if depth == most or not st.rolled:
                        continue
                    # a change the camera saw whole says nothing of its actions' order: moves
                    # are tried before flips, so that a move and a flip that could have come
                    # either way are said move first
                    for action in sorted(legal_moves(st.game), key=lambda a: isinstance(a, Flip)):
                        # an action lifts a piece from a square that changed (or that a first
                        # action changed: the piece it set down moves on)
                        if isinstance(action, EndTurn) or (depth == 0 and _lifted(action) not in changed):
                            continue
                        nxt, said = self._after(st, action)
                        key = (nxt, ro)
                        if key in seen_states or self._actions_left(nxt.game, target) > most - depth - 1:
                            continue
                        seen_states.add(key)
                        grown.append((nxt, ev + said, ro))
            frontier = grown
        return None

    def _misread(self, before: Stones, position: Seen, max_moves: int) -> Verdict | None:
        """``position`` explained (``_explained``) with one die the reader was never sure of
        showing another face: an unused die of the roll in force (``before.doubtful``) or of the
        roll seen (``position.doubtful``); of several such faces, the first (in suit order) of
        those that need the fewest actions, the other dice read in doubt staying in doubt (a
        phase-1 move needs some die of its value: two doubtful dice may each be it, and a later
        move corrects the other); None when none does.
        A die taken by steadiness is read the same, in doubt, on every read, and may be read so
        wrong (a five read blank, read after read): the legal move it then forbids is the
        reader's mistake, not the player's. The misread die of the roll in force is said again
        (a ``roll`` event of the same turn, ``reread``); a roll seen with the change is said as
        the move shows it. A die read sure is doubted only when the reader now reads it with
        another face (sure, or steadied) while every other die in play reads as the roll has it
        (``_read_otherwise``), and only as that face: else the move a roll forbids is illegal."""
        if not self.table_dice:
            return None
        found: list[tuple[Verdict, tuple[Happening, ...], tuple[str, str, str], int | None]] = []
        game = before.game
        for k, die in enumerate(game.dice):
            if die.left != die.budget:
                continue
            if die.suit.value in before.doubtful:
                tried = [face for face in DieFace if face is not die.face]
            else:
                now = self._read_otherwise(game, position, die.suit.value)
                if now is None:
                    continue
                tried = [now]
            for face in tried:
                other = replace(die, face=face)
                dice = game.dice[:k] + (replace(other, left=other.budget),) + game.dice[k + 1:]
                fixed = replace(game, dice=dice)
                # the die still read as it was misread is the face tried
                seen = tuple((s, face.code if s == die.suit.value and f == die.face.code else f) for s, f in position.dice)
                verdict = self._explained(Stones(fixed, before.rolled, before.doubtful - {die.suit.value}),
                                          replace(position, dice=seen, doubtful=frozenset()), max_moves)
                if verdict is not None:
                    again = self._roll_event(fixed, "table")
                    again = Happening("roll", dict(again.data, reread=True), phrases.live_reread(die) + " " + again.say)
                    found.append((verdict, (again,), (die.suit.value, die.face.code, face.code), fixed.turn))
        seen = dict(position.dice)
        for suit in sorted(position.doubtful) if self._roll_seen(before, position) else ():
            for face in DieFace:
                if face.code == seen[suit]:
                    continue
                dice = tuple((s, face.code if s == suit else f) for s, f in position.dice)
                verdict = self._explained(replace(before, doubtful=frozenset()),
                                          replace(position, dice=dice, doubtful=position.doubtful - {suit}), max_moves)
                if verdict is not None:
                    found.append((verdict, (), (suit, seen[suit], face.code), None))
        if not found:
            return None
        verdict, said, reread, turn = min(found, key=lambda f: len(f[0].moves))  # the first of the fewest actions
        after = verdict.after
        if turn is None or after.game.turn == turn:  # the roll read again is still in force
            after = replace(after, reread=after.reread + (reread,))
        return Verdict.moved(said + tuple(verdict.moves), after=after)

    @staticmethod
    def _read_otherwise(game: State, position: Seen, suit: str) -> DieFace | None:
        """The face ``position`` reads the die of ``suit`` as (sure, or steadied), when it is
        another than the roll in force gives it and every other die in play reads as that roll
        has it; None otherwise. A roll turns up
        another face on most of the four dice (three of them landing as they lay is one roll in
        two hundred); a small die's numeral is a few pixels across, and one die in twenty-odd is
        read sure with the wrong face when it lands (a Blue suit symbol's thin cross read blank
        over the first reads, then its cross): the die read now is the die as it lies."""
        faces = dict(roll_faces_of(game))
        seen = {s: f for s, f in position.dice if s in faces}
        if set(seen) != set(faces) or seen[suit] == faces[suit]:
            return None
        return DieFace.parse(seen[suit]) if all(seen[s] == f for s, f in faces.items() if s != suit) else None

    @staticmethod
    def _actions_left(game: State, target) -> int:
        """The fewest actions that could still turn ``game`` into the squares and pawns
        ``target`` (a lower bound: an action mends at most two squares and one pawn)."""
        board, pawns = view(game)
        squares = len(differ(board, target[0]))
        return max((squares + 1) // 2, len(set(pawns) - set(target[1])))

    @staticmethod
    def _shown(game: State, target) -> bool:
        """Whether the squares and pawns ``target`` are ``game``'s (its Nulls may read empty)."""
        board, pawns = view(game)
        return pawns == target[1] and not differ(board, target[0])

    def _rolled(self, stones: Stones, faces, same: bool,
                doubtful: frozenset[str] = frozenset()) -> tuple[Stones, tuple[Happening, ...]] | None:
        """``stones`` with the turn ended and the next roll made: ``faces`` read on the table
        (table; ``same``: the faces of the roll in force, allowed only when it has nothing left
        to do; ``doubtful``: the suits of ``faces`` read in doubt), or the Caller's (caller mode
        rolls by itself, in ``_after``); None when no roll can be made here."""
        game = stones.game
        if not self.table_dice or game.won or game.lost:
            return None
        if same:
            if not stones.rolled or legal_moves(game) != [EndTurn()]:
                return None
            faces, doubtful, reread = roll_faces_of(game), stones.doubtful, stones.reread
        else:
            reread = ()
        if faces is None:
            return None
        if stones.rolled:
            try:
                game = apply(game, EndTurn())
            except IllegalMove:
                return None
        try:
            game = with_roll(game, [DieFace.parse(f) for _, f in faces])
        except IllegalMove:
            return None
        after, more = self._after_roll(Stones(game, doubtful=doubtful & {s for s, _ in faces}, reread=reread))
        return after, (self._roll_event(game, "table"),) + more

    def _after(self, stones: Stones, action) -> tuple[Stones, tuple[Happening, ...]]:
        """``action`` made: its events (the move or flip, a suit's phase 2, the Caller's own
        next roll when the dice have nothing left to do)."""
        game = stones.game
        after = apply(game, action)
        if isinstance(action, Flip):
            suit = game.board[action.at].suit
            events = [Happening("flip", {"at": list(action.at), "suit": suit.value}, phrases.action_line(game, action))]
            if not game.in_phase_two(suit) and after.in_phase_two(suit):
                events.append(Happening("phase", {"suit": suit.value, "phase": 2}, phrases.live_phase(suit)))
        else:
            pawn = game.pawn_on(action.frm)
            home = pawn is not None and action.to in home_cells(pawn, game.size)
            events = [Happening("move", {"piece": piece_code(game, action.frm), "from": list(action.frm),
                                         "to": list(action.to), "home": home}, phrases.action_line(game, action))]
        out = Stones(after, doubtful=stones.doubtful, reread=stones.reread)
        if not self.table_dice and not after.won and not after.lost and legal_moves(after) == [EndTurn()]:
            out = Stones(apply(after, EndTurn()))
            events.append(self._roll_event(out.game, "caller"))
            out, more = self._after_roll(out)
            events += more
        elif self.table_dice and not after.won and not after.lost and legal_moves(after) == [EndTurn()] \
                and any(d.left for d in after.dice):
            events.append(Happening("nothing", {}, phrases.nothing_to_do_line() + " " + phrases.live_roll_please()))
        return out, tuple(events)

    def _after_roll(self, stones: Stones) -> tuple[Stones, tuple[Happening, ...]]:
        """What follows a roll that can move nothing: the Caller's next rolls until one can
        (caller), or a word to roll again (table)."""
        game = stones.game
        if game.won or game.lost or legal_moves(game) != [EndTurn()]:
            return stones, ()
        if self.table_dice:
            return stones, (Happening("nothing", {}, phrases.nothing_to_do_line() + " " + phrases.live_roll_please()),)
        out: list[Happening] = []
        while legal_moves(game) == [EndTurn()]:  # the loss is checked first: legal_moves is then empty
            game = apply(game, EndTurn())
            out.append(self._roll_event(game, "caller"))
        return Stones(game), tuple(out)

    def _roll_event(self, game: State, by: str) -> Happening:
        return Happening("roll", {"turn": game.turn, "dice": [{"suit": d.suit.value, "face": d.face.code}
                                                                for d in game.dice], "by": by},
                         " ".join(phrases.roll_lines(game)))

    def _why(self, before: Stones, position: Seen, roll_seen: bool) -> Verdict:
        """Why no actions leave ``position``: the rules' verdict on the one action it shows, else
        the squares that changed."""
        game = before.game
        board, pawns = view(game)
        changed = sorted(set(differ(board, position.board))
                         | {cell for pair in set(pawns) ^ set(position.pawns) for cell in [pair[1]]})
        if not before.rolled and not roll_seen:
            why = Reason(sightings.NO_ROLL, tuple(changed))
            return Verdict.illegal(sightings.text(why), why, changed)
        if roll_seen:  # the action is judged with the roll seen
            try:
                ended = apply(game, EndTurn()) if before.rolled else game
            except IllegalMove as exc:  # rolled while a flip was owed
                return Verdict.illegal(str(exc), exc.reason, changed)
            in_play = [s.value for s in active_suits(game)]
            game = with_roll(ended, [DieFace.parse(f) for s, f in position.dice if s in in_play])
        action = self._action_shown(game, position, changed)
        if action is not None:
            try:
                apply(game, action)
            except IllegalMove as exc:
                return Verdict.illegal(str(exc), exc.reason, changed)
        why = Reason(sightings.UNEXPLAINED, tuple(changed))
        return Verdict.illegal(sightings.text(why), why, changed)

    @staticmethod
    def _action_shown(game: State, position: Seen, changed: list[Cell]) -> Move | Flip | None:
        """The one action the change looks like: a coin turned in place, or a piece gone from
        one square and come to another; None otherwise."""
        seen_pawns = dict(position.pawns)
        moved = [s for s in SUITS if seen_pawns.get(s.value) != game.pawn(s)]
        if len(moved) == 1 and seen_pawns.get(moved[0].value) is not None:
            return Move(game.pawn(moved[0]), seen_pawns[moved[0].value])
        if moved:
            return None
        if len(changed) == 1:
            (r, c), = changed
            if isinstance(game.board[(r, c)], Coin) and position.board[r][c] in SUITS_CODE:
                return Flip((r, c))
            return None
        if len(changed) == 2:
            a, b = changed
            if position.board[a[0]][a[1]] is None and square_code(game.board[b]) is None:
                return Move(a, b)
            if position.board[b[0]][b[1]] is None and square_code(game.board[a]) is None:
                return Move(b, a)
        return None

    # -- after a warning -----------------------------------------------------------------------
    def expected(self, state: Stones, reading: Reading) -> bool:
        """Whether ``reading`` is ``state`` with one action made."""
        verdict = self.judge(state, self.parse(reading), 1)
        return verdict.legal and sum(1 for m in verdict.moves if m.type in ("move", "flip")) == 1

    def take(self, state: Stones, new: Seen) -> Stones | None:
        """The board ``new`` accepted after a warning: each coin seen keeps the suit of the coin
        that lay on its square (or of the one stone of that suit); a coin whose suit cannot be
        told, or a pawn missing, makes it refused. The roll in force stays."""
        if state is None or len(new.pawns) != len(SUITS):
            return None
        game = state.game
        board = game.board
        for (r, c), _ in board.items():
            board = board.set((r, c), None)
        for r, row in enumerate(new.board):
            for c, code in enumerate(row):
                if code is None:
                    if game.pawn_on((r, c)) is not None and dict(new.pawns).get(game.pawn_on((r, c)).value) == (r, c):
                        board = board.set((r, c), game.board[(r, c)])  # still under its pawn
                    continue
                old = game.board[(r, c)]
                if code in SUITS_CODE:
                    board = board.set((r, c), Stone(Suit.parse(code)))
                elif isinstance(old, Coin) and old.rank.code == code:
                    board = board.set((r, c), old)
                else:
                    return None
        pawns = tuple(dict(new.pawns)[s.value] for s in SUITS)
        self._resumed = ()
        return Stones(replace(game, board=board, pawns=pawns), state.rolled, state.doubtful, state.reread)

    def resumed(self, state: Stones) -> tuple[Happening, ...]:
        return self._resumed

    def summary(self, events) -> str:
        """"4 rolls, 5 moves, 1 flip, 1 illegal, won at 312.4 s" (or "lost", "not over")."""
        count = {k: sum(1 for e in events if e.type == k) for k in ("roll", "move", "flip", "illegal")}
        end = next((e for e in events if e.type in ("won", "lost")), None)
        how = "not over" if end is None else f"{end.type} at {end.t:.1f} s"
        return ", ".join([plural(count["roll"], "roll"), plural(count["move"], "move"), plural(count["flip"], "flip"),
                          f"{count['illegal']} illegal", how])

    def winner(self, state: Stones) -> tuple | None:
        game = state.game
        if game.won:
            return {}, phrases.live_won()
        if game.lost:
            return {}, phrases.live_lost(), "lost"
        return None
