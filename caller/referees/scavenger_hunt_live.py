"""The live referee of Scavenger Hunt (``caller watch --game scavenger-hunt``).

What the live Caller (``caller.live``, ``caller.watch``) needs to know of Scavenger Hunt, a
game of turns for 2-4 players on 4x6 tiles grid side up (8x12 squares). See
``caller.live_referee`` for the interface; the choices below are written for players in
docs/games/scavenger-hunt.md.

**The players' frame.** The reader (``vision.table_reader.SquaresReader``) reports the board
in either of its two half turns, since a still cannot tell them apart. Until the start is
accepted each reading is put in the frame where the first player's pawn (``players`` given)
stands on a near corner, or else where the board's near edge is the one lower in the
picture (the camera's side). The start fixes the frame once: the image points of the
players' far-left and near-right corners (``board_corners``). Every later reading is turned
half round when its far-left corner lies nearer the start's near-right one. Squares are
therefore always said in the same players' terms, whichever half turn the reader reports.

**The players.** ``players`` (``--players S,M``) gives them in turn order. Without it they
are the pawns in the corners at the start, in seat order: near-left (row 8, column 1) first,
then clockwise (far-left, far-right, near-right), as ``caller setup scavenger-hunt`` seats
them.

**What is checked, from what the camera sees.** Coins lie value side up, so the Caller knows
every coin's value and no coin's suit; it keeps the game as the rules engine's public mode
(``rules.scavenger_hunt.state`` with ``mode="public"``). A pawn standing on a square hides
what lies under it (the reader never reports a coin under a pawn), so:

* a pawn that ends its move on a coin may have collected it or left it; the Caller knows
  which only when that pawn leaves the square, at its owner's next turn: an empty square
  then is the coin collected on the turn before (a ``collect`` event, said then), a coin
  there is the coin left;
* a collected coin is the collector's by the players' word: its suit is never seen on the
  board. What the Caller does check is that no one collects a value they already hold (that
  coin cannot be theirs), and a winner is called when a player is seen to hold six coins,
  one of each value;
* collected coins lie suit side up by the owner's corner, and the reader reads them there: a
  pile that grows by a coin of the player's own suit (or read as a suit the reader takes theirs
  for) while their pawn stands on a coin whose
  peek is unseen is that coin collected at once (``_laid_down``), and the same pile seen one
  coin smaller again before anything else has happened is that coin put back under the pawn
  (``_put_back``: the player held it there to peek at, or changed their mind); a coin of another suit in a
  player's pile is a coin they may not collect, warned about once (``_foreign_laid``,
  ``sightings.FOREIGN_COIN``), on ``LAID_READS`` reads of that corner read sure, only beside
  a coin read as the player's own suit (or as the first coin they lay) and only as the coin
  just laid from under their pawn
  (a peek unseen, the pile one coin over what they hold), and never a suit the reader may
  read theirs as (``vision.offboard.MISREAD_AS``), so that neither a suit misread for a
  moment, nor a suit the reader always takes for another, nor a tile's coins carried past
  the corner is an accusation.

**A turn as the camera sees it.** The shift and the pawn move are two actions, with the
board often still in between: a position that is the start of the turn with one tile line
shifted is taken as the turn half made (its ``shift`` event said at once), and the pawn's
move completes it. A player who puts the pawn down and then moves it on corrects the turn
(its ``move`` and ``turn`` said again) until the next player shifts. A shift of a tile line that carries nothing visible changes nothing the
camera sees; such a turn is followed from its pawn move, no ``shift`` event is said, and no
shift is barred after it (any unseen shift would fit, and reversing one is as unseen). A
board that such a turn explains and also a shift carrying the mover's pawn alone (the turn
half made) is taken as the whole turn; if the pawn then moves on, the shift that carried it
is said in the corrected turn (``_revealed``), also when the next player's shift of the line
the pawn moves along would leave the same board (``_carries_last_pawn_alone``), and a coin
the shift carried under the pawn, taken as collected, is put back (``_recounted``). When
no single turn explains a change, the mover's turn followed by the next player's is tried
(players quicker than the Caller's 0.3 s of stillness).

**A pawn off the board.** A board with a player's pawn missing is judged with that pawn where
it stood (its square hidden). When the rest of the board is explained, the move is not
finished: the pawn is most likely in a hand, on its way (a hand held still passes the motion
gate, and one holding a pawn may hide too little grid to be seen as covering squares). Such a
board is held back, read again every ``retry_s``, until the pawn has been missing on still
reads in a row, with no hand seen, for ``PAWN_AWAY_S``; then the Caller asks for the pawn
(``PAWN_MISSING``, said as a request). While a warning about another board stands it is held
back for as long as it lasts (the players are putting things right). When the rest of the
board is not explained (a reversed shift made with the pawn in the hand), the rest's verdict is
said at once, as for any illegal change.

**A pawn read as a coin.** A pawn seen from above is a disc of its suit's colour, and under a
lamp's spot the reader can take it for its suit's coin turned suit side up. A square read as
a suit whose pawn is read nowhere on the board is that pawn (``_pawns_read_as_coins``); a
coin turned over while its suit's pawn stands on the board is still said.

**Coin values read otherwise.** Coins never change their value on the table, so a board is
still the one a turn leaves when up to ``VALUE_SLIPS`` of its coins, each lying where it lay
and outside the shifted line, are read with another value (a 3 taken for a 5 on a small
board, read with confidence): the reader's slip is never an accusation, and the state keeps
the values it knows. In the shifted line the values tell which shift was made, so they must
be read as they are until the shift has been seen (then, while ``PINNED`` of the line's other
coins are read where it took them, or on the square the mover's pawn has just left, a value
read otherwise there is a slip too). Nor does a coin leave the board but from under its collector's pawn, nor
come onto it at all, so one coin not seen where it lies or seen where none lies (``PLACE_SLIPS``;
a Null, white on a white square, read as an empty square; a Null read on the empty square at a
standing pawn's foot) is the reader's slip too: an unseen coin in the shifted line only when
``PINNED`` of the line's other coins are read where the shift took them, a coin seen where none
lies only outside the shifted line. Such a slip is looked for only when nothing
read exactly explains the board, one turn or two, and only within the mover's one turn.

**Doubtful squares.** On a small or blurred board the reader leaves a few squares below its
confidence threshold on most frames (a 2 or a 3 on 18 px squares), and a reading with any
doubt is never a position. ``settle`` deduces, it does not guess:

* after the start, a doubtful reading is taken as the one board that a single step of the
  mover's turn (nothing, the shift, the pawn's move, a coin under the pawn collected) leaves
  and that agrees with every square the reader is sure of, unless the reader sees a hand over
  the board (``covered`` squares: a pawn carried in it is unseen, and a legal move to a doubtful
  square it passes on its way agrees with every square read sure); when several such boards differ
  on doubtful squares, the table is read again until the doubt clears, and nothing is judged
  (but for two that differ on the square a pawn has just left alone, a coin left there or
  collected: the steady guess there, a coin of any value or side or none, tells, ``_left_or_taken``);
* otherwise (before the start, or a change no single step explains, such as an illegal one,
  visible on the squares read sure)
  the reading is taken as read once the same board has been read on every read over
  ``tile_steady_s`` (``tile_steady_reads`` reads at least): before the start the doubtful
  squares' guesses included; in play the same squares doubtful, whatever they are guessed
  to hold, and their coins taken as they were (the squares read sure already rule out every
  legal step, and a guess flickering far from the move would only put the warning off or be
  named in it); before the
  start only when that board passes the start check, so that a misread coin is never
  announced as a wrong setup, and never when a doubtful square reads as a coin turned suit
  side up (in play such a guess is never named: the square's coin is taken as it was); and
  never while the reader sees a hand over the board
  (``covered`` squares: a hand held still while a player peeks passes the motion gate, and
  the squares under a light hand can read as empty). An illegal change found this way is
  still announced only after the loop's confirming re-read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Sequence

from caller.errors import CallerError
from caller.events import Event
from caller.live_referee import Happening, LiveReferee, Motion, Verdict, steady_run
from caller.tracker import Reading
from rules.errors import IllegalMove, NotationError
from rules.grid import Cell, Grid
from rules.pieces import RANKS, SUITS, Suit, parse_coin_side
from rules.reasons import Reason
from rules.scavenger_hunt import reasons, sightings
from rules.scavenger_hunt.state import (CORNERS, MAX_PLAYERS, MIN_PLAYERS, SHAPE, SHIFTS, Shift, State, Turn, apply,
                                        coin_rank, forget_suits, legal_moves, rook_targets, value_of)
from vision.offboard import MISREAD_AS
from voice.phrasebook import scavenger_hunt as phrases

Corners = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class HuntReading(Reading):
    """A reading of a Scavenger Hunt table in the players' frame: ``board`` the 8x12 coin
    layer (``"3"``, a suit letter for a coin suit side up, None: nothing seen), ``pawns`` the
    pawns on the board as (suit letter, (row, col)) in suit order, ``coins`` unused (no
    off-board layer is read yet). ``corners``: the board's corners in image px in the players'
    frame (far-left, far-right, near-right, near-left), None for a reading made from a state;
    it takes no part in telling reads apart."""

    corners: Corners | None = field(default=None, compare=False)
    covered: frozenset[Cell] = field(default=frozenset(), compare=False)
    #: the coins seen suit side up by each corner of the board (far-left, far-right, near-right,
    #: near-left: ``CORNER_SQUARES``), None for a corner read in doubt; None: not read
    collected: tuple[tuple[str, ...] | None, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Seen:
    """A board as seen in the players' frame: ``pawns`` (suit letter, square) in suit order,
    ``coins`` 8x12 of what lies on each square (None where nothing is seen, under a pawn too)."""

    pawns: tuple[tuple[str, Cell], ...]
    coins: tuple[tuple[str | None, ...], ...]

    def pawn(self, suit: Suit) -> Cell | None:
        return next((cell for s, cell in self.pawns if s == suit.code), None)


@dataclass(frozen=True)
class Hunt:
    """The live Caller's Scavenger Hunt state: ``game``, the rules' public-mode state at the
    start of the mover's turn (a coin under a pawn whose peek is not yet seen stays on its
    board); ``shift``, the mover's shift made so far this turn (None: not yet, or unseen);
    ``open[i]``: player i's pawn ended its last move on a coin, and whether that coin was
    collected has not been seen yet. ``redo``: the start of the turn just completed, which its
    mover may still correct (the pawn put down, then moved on) until the next player shifts;
    not part of the position."""

    game: State
    shift: Shift | None = None
    open: tuple[bool, ...] = ()
    redo: "Hunt | None" = field(default=None, compare=False, repr=False)

    def board(self) -> tuple[Grid, tuple[Cell, ...]]:
        """The coins and pawn squares on the table now (the shift made so far applied)."""
        return self.game.shifted(self.shift) if self.shift is not None else (self.game.coins, self.game.pawns)


def parse_players(text: str) -> tuple[Suit, ...]:
    """``"S,M"`` -> (Suns, Moons): 2-4 distinct suit letters in turn order; CallerError otherwise."""
    parts = [p.strip() for p in text.split(",")]
    try:
        suits = tuple(Suit.parse(p.upper()) for p in parts)
    except NotationError:
        raise CallerError(f"--players {text!r}: expected 2 to 4 suit letters in turn order, e.g. S,M,C,A") from None
    if not MIN_PLAYERS <= len(suits) <= MAX_PLAYERS or len(set(suits)) != len(suits):
        raise CallerError(f"--players {text!r}: expected 2 to 4 different suit letters in turn order, e.g. S,M,C,A")
    return suits


def turned(cell: Cell) -> Cell:
    """``cell`` seen from the other side of the board (a half turn)."""
    return (SHAPE[0] - 1 - cell[0], SHAPE[1] - 1 - cell[1])


class ScavengerHuntLive(LiveReferee):
    """Scavenger Hunt's live referee for one table (see the module's docstring)."""

    phrases = phrases
    clock = False
    opening_event = "turn"
    cells_key = "squares"
    checks_setup = False
    options = ("players",)
    parse_players = staticmethod(parse_players)  # ``--players S,M``, one line when it is wrong

    def __init__(self, players: Sequence[str] | str | None = None) -> None:
        if isinstance(players, str):
            players = parse_players(players)
        self.players: tuple[Suit, ...] | None = None if players is None else tuple(
            p if isinstance(p, Suit) else Suit.parse(p) for p in players)
        self.given = self.players is not None
        self.frame: Corners | None = None  # the players' corners in the image, fixed at the start
        self._recent: list[tuple[float, HuntReading]] = []  # the last reads, for ``settle``
        self.corners_of: dict[Suit, int] = {}  # each player's corner (``CORNER_SQUARES``), fixed at the start
        self._away: tuple[float, float] | None = None  # a pawn off the board: (first, last) still read of it
        self._foreign: dict[Suit, tuple[str, ...]] = {}  # a player's pile warned about: a coin of another suit
        self._laid: tuple[int, Hunt, Hunt] | None = None  # the last collection seen laid: (player, before, after)

    # -- readings ------------------------------------------------------------------------------
    def reading(self, obs) -> HuntReading:
        """A ``vision.observation.SquaresObservation`` in the players' frame."""
        corners = tuple(tuple(map(float, p)) for p in obs.board_corners)
        turn = self._turned(obs, corners)
        pawns = [(suit, tuple(cell)) for suit, cell in obs.pawns]
        coins = [list(row) for row in obs.coins]
        uncertain = {tuple(c) for c in obs.uncertain}
        # a coin read suit side up is an accusation: read less than ``TURNED_SURE`` sure, in doubt
        uncertain |= {(r, c) for r, row in enumerate(coins) for c, v in enumerate(row)
                      if v in _SUIT_LETTERS and obs.square_confidence[r][c] < TURNED_SURE}
        covered = {tuple(c) for c in getattr(obs, "covered", ())}
        collected = getattr(obs, "collected", None)
        if collected is not None:
            doubt = set(getattr(obs, "uncertain_collected", ()))
            collected = tuple(None if k in doubt else tuple(coins) for k, coins in enumerate(collected))
            if turn:  # the reader's corners in its frame, turned half round
                collected = collected[2:] + collected[:2]
        if turn:
            coins = [row[::-1] for row in coins[::-1]]
            pawns = [(suit, turned(cell)) for suit, cell in pawns]
            uncertain = {turned(c) for c in uncertain}
            covered = {turned(c) for c in covered}
            corners = corners[2:] + corners[:2]
        for _, (r, c) in pawns:  # the reader reports no coin under a pawn; nor does a reading
            coins[r][c] = None
        pawns += _pawns_read_as_coins(coins, pawns, self.players)
        pawns.sort(key=lambda p: "SMCA".index(p[0]) if p[0] in "SMCA" else 9)
        return HuntReading(tuple(map(tuple, coins)), tuple(pawns), (), frozenset(uncertain), corners=corners,
                           covered=frozenset(covered), collected=collected)

    def settle(self, t: float, obs, loop) -> tuple[Reading | None, tuple[float, int] | None]:
        """A read with doubtful squares, made sure by deduction where it can be (see
        "Doubtful squares" in the module's docstring); else as it is."""
        reading = self.reading(obs)
        self._recent = (self._recent + [(t, reading)])[-16:]
        foreign = self._foreign_laid(t, loop)
        if self._put_back(t, loop) or self._laid_down(t, loop) or foreign:
            # a coin newly laid by a corner (or taken away again), not yet seen on enough reads:
            # this read is held back as doubtful, so that the loop reads the (unchanged) table again soon
            return replace(reading, coins=(None,)), None
        taken, held = self._deduced(reading, t, loop)
        if self._pawn_away(t, taken, loop):
            return replace(reading, coins=(None,)), None  # the move not finished: read again soon
        return taken, held

    def _deduced(self, reading: HuntReading, t: float, loop) -> tuple[HuntReading, tuple[float, int] | None]:
        """``reading`` made sure by deduction or steadiness where it can be (module docstring)."""
        if not reading.uncertain:
            return reading, None
        current = loop.caller.current
        if current is not None and not reading.covered:
            # (never under a hand: a pawn in it is unseen, and a legal move to a doubtful square
            # it passed on its way, carried, agreed with every square read sure)
            fits = self.fits(current, reading)
            if len(fits) == 1:
                return HuntReading(fits[0].coins, fits[0].pawns, (), frozenset(), corners=reading.corners), None
            if fits:  # boards that differ on doubtful squares only: read again until one is sure
                return self._left_or_taken(fits, reading, t, loop.tracker.config)
        return self._steady(reading, t, loop.tracker.config, current)

    def _left_or_taken(self, fits: list[Seen], reading: HuntReading, t: float,
                       cfg) -> tuple[HuntReading, tuple[float, int] | None]:
        """Of two legal boards that differ on one doubtful square alone, a coin there or none
        (most often the square a pawn has just left: the coin under it left or collected), the
        one the read's guess there shows, a coin (whatever value or side it is guessed with) or
        none, once the same read, guesses included, has held over ``tile_steady_s`` with no hand
        over the board; else ``reading`` as it is (read again). A coin read in doubt on such a
        square, read after read, never cleared otherwise: the turn stalled until the next one
        could not be explained. (A 3 a pawn had stood on, on a far corner's small squares, read
        in doubt as a Spades coin turned over on every read, and a 4 as an Arms coin: a coin's
        value or side guessed wrong still shows that a coin lies there.)"""
        if len(fits) != 2 or fits[0].pawns != fits[1].pawns or reading.covered:
            return reading, None
        apart = [(r, c) for r, (a, b) in enumerate(zip(fits[0].coins, fits[1].coins))
                 for c, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(apart) != 1:
            return reading, None
        (r, c), = apart
        there = reading.board[r][c] is not None
        chosen = [f for f in fits if (f.coins[r][c] is not None) == there]
        if len(chosen) != 1 or any(cell == (r, c) for _, cell in reading.pawns):
            return reading, None
        run = self._hand_free_run(reading, t, cfg)
        if run is None:
            return reading, None
        return HuntReading(chosen[0].coins, chosen[0].pawns, (), frozenset(), corners=reading.corners), (run[0], len(run))

    def _hand_free_run(self, reading: HuntReading, t: float, cfg, same=None) -> list[float] | None:
        """``steady_run`` of ``reading`` over the last reads in a row that saw no hand over the
        board and the same as it (``same(read)``; None: the same board, guesses included)."""
        same = same or (lambda seen: seen.key == reading.key)
        return steady_run(self._recent, reading, t, cfg, holds=lambda seen: same(seen) and not seen.covered)

    def _pawn_away(self, t: float, reading: HuntReading, loop) -> bool:
        """Whether ``reading`` (sure) shows a board that a move not yet finished explains: a
        player's pawn is off the board and the rest of the board is explained (``judge`` would
        say ``PAWN_MISSING`` alone): most often the pawn is in a hand, on its way. Such a board
        is held back while the pawn has been missing for less than ``PAWN_AWAY_S`` of still
        reads in a row with no hand seen (a hand over the board, or the scene moving between
        two reads, starts the count again), and for as long as a warning about another board
        stands (the players are putting it right). A board whose rest is itself illegal is not
        held back: that is said at once."""
        state = loop.caller.current
        if reading.covered:  # a hand is over the board: the pawn may well be in it
            self._away = None
            return False
        if state is None or loop.caller.over or reading.uncertain:
            return False
        position = self.parse(reading)
        if all(any(s == suit.code for s, _ in position.pawns) for suit in state.game.players):
            self._away = None
            return False
        bases = [state]
        if loop.caller.blocked:
            warned = None if loop.caller.observed is None else self.take(state, loop.caller.observed)
            if warned is None:  # the warning standing is about a pawn off the board (or unread)
                return False
            bases.append(warned)
        unfinished = False
        for base in bases:
            why = self.judge(base, position, 0).why
            unfinished = unfinished or (why is not None and why.code == sightings.PAWN_MISSING)
        if not unfinished:
            self._away = None
            return False
        if loop.caller.blocked:
            return True
        gap = 2 * loop.tracker.config.retry_s  # held back, a still table is read every retry_s
        if self._away is None or t - self._away[1] > gap + 1e-9:
            self._away = (t, t)
        else:
            self._away = (self._away[0], t)
        return t - self._away[0] < PAWN_AWAY_S - 1e-9

    def _foreign_laid(self, t: float, loop) -> bool:
        """A coin of another suit seen among a player's collected coins by their corner, beside
        at least one read as the player's own suit or as the first coin they lay, on the last
        ``LAID_READS`` reads with no hand over the board (the same pile each time, that corner
        read sure): a coin they may not collect
        (``sightings.FOREIGN_COIN``), said once as an ``illegal`` event with the next read; once
        that pile no longer shows it (``LAID_READS`` reads), "Thank you." (``restored``). The
        board itself is not blocked: what lies on it is legal. True while such a change has
        been seen on the last read but not yet on enough of them."""
        state = loop.caller.current
        if state is None or loop.caller.over or not self._recent:
            return False
        game = state.game
        wait = False
        for i, suit in enumerate(game.players):
            corner = self.corners_of.get(suit)
            last = self._recent[-1][1].collected
            if corner is None or last is None or last[corner] is None:
                continue
            pile = last[corner]
            # not a suit the reader may read the player's own as (``MISREAD_AS``: it reads a
            # Moons coin laid turned round as Suns)
            foreign = [c for c in pile if c != suit.code and c in _SUIT_LETTERS
                       and c not in MISREAD_AS.get(suit.code, ())]
            # only beside a coin read as the player's own suit: a reader may take one suit for
            # another every time, and a pile with none of the player's suit read says nothing
            # of what it holds; or as the first coin a player lays, who holds none yet (a
            # wrong first collection must be said too)
            first = len(pile) == 1 and not game.collected[i]
            wrong = bool(foreign) and (suit.code in pile or first)
            if suit not in self._foreign:
                # and only as the coin just laid: the player's pawn stands on a coin whose peek
                # is unseen (no other coin can have come to the pile) and the pile holds one coin
                # more than they are known to hold (a tile carried round by the corner, its coins
                # held over the band, is no pile)
                wrong = wrong and state.open[i] and len(pile) == len(game.collected[i]) + 1
            if wrong == (suit in self._foreign):
                continue
            run = self._pile_run(corner, lambda seen: seen == pile)
            if run < LAID_READS:
                wait = True
                continue
            if suit in self._foreign:
                del self._foreign[suit]
                loop.pending_events.append(Event(t, "restored", {}, phrases.restored()))
                continue
            self._foreign[suit] = pile
            cells = (state.board()[1][i],) if state.open[i] else ()
            why = Reason(sightings.FOREIGN_COIN, cells, (suit, Suit.parse(foreign[0])))
            loop.pending_events.append(Event(t, "illegal", {"reason": sightings.text(why),
                                                            "squares": [list(c) for c in cells]},
                                             phrases.live_illegal(why), warning=True))
        return wait

    def wants_read(self, state) -> bool:
        """A pile by the corner of a player whose pawn stands on a coin whose peek is unseen,
        read on the last read as one coin more than the player holds, every coin their own
        (``_laid_runs``): the coin laid down on the same reads that showed the pawn's move, before
        the Caller had followed the move, and so not yet taken as collected (``_laid_down``).
        The scene lies still: without another read the collection, a win, went unsaid."""
        return state is not None and any(run > 0 for _, run in self._laid_runs(state))

    def _laid_runs(self, state):
        """(player index, reads in a row) for each player whose pawn stands on a coin whose peek
        is unseen: how many of the last reads saw their corner's pile one coin larger than they
        hold, every coin their own (``_pile_run``, ``_own_pile``)."""
        game = state.game
        for i, suit in enumerate(game.players):
            corner = self.corners_of.get(suit)
            if state.open[i] and corner is not None:
                yield i, self._pile_run(corner, self._own_pile(suit, len(game.collected[i]) + 1))

    def _pile_run(self, corner: int, fits) -> int:
        """How many of the last reads in a row saw a pile by ``corner`` (read sure) that
        ``fits`` (a function of its suit letters), with no hand over the board: a tile carried
        round the board's end in a shift passes the corners, its coins read as a pile for a
        moment."""
        run = 0
        for _, r in reversed(self._recent):
            if r.collected is None or r.collected[corner] is None or not fits(r.collected[corner]) or r.covered:
                break
            run += 1
        return run

    @staticmethod
    def _own_pile(suit: Suit, count: int):
        """Whether a pile read by a corner is ``count`` coins of ``suit``'s player's own: each
        read as that suit or as one the reader may read it as (``vision.offboard.MISREAD_AS``:
        every Moons coin laid in a pile has been read as Suns, so a Black player's pile never
        showed a coin of their own suit, and their collections, their win too, went unseen)."""
        own = {suit.code} | set(MISREAD_AS.get(suit.code, ()))
        return lambda pile: len(pile) == count and all(c in own for c in pile)

    def _laid_down(self, t: float, loop) -> bool:
        """A coin seen laid by a player's corner while that player's pawn stands on a coin whose
        peek the Caller has not seen end: that coin collected now (``collect``, and ``won`` with
        the sixth), said with the next read. The pile by the corner must have held one coin more
        than the player is known to hold on the last ``LAID_READS`` reads, with no hand over the
        board, every coin in it read as the player's own suit or one the reader may read it as
        (``_own_pile``; the reader may miss a coin, or take a hand for one, for a moment; a coin
        of another suit is not taken as a collection). True while such a pile has been
        seen on the last read but not yet on enough of them."""
        state = loop.caller.current
        if state is None or loop.caller.blocked or loop.caller.over:
            return False
        for i, run in self._laid_runs(state):
            if run == 0:
                continue
            if run < LAID_READS:
                return True
            taken = _collect(state, i)
            if taken is not None:
                after, said = taken
                loop.pending_events.append(Event(t, said.type, said.data, said.say))
                loop.pending_events.extend(loop.caller.revise(t, after))
                self._laid = (i, state, after)
                return False
        return False

    def _put_back(self, t: float, loop) -> bool:
        """The coin last seen laid by its collector's corner (``_laid_down``) gone from the pile
        again, on ``PUT_BACK_READS`` reads in a row with no hand over the board, while nothing
        else has happened (its collector's pawn still stands where it did): the player had only
        lifted it to peek at, held suit side up by their corner, or changed their mind, and put
        it back under the pawn, where the camera cannot see it. The collection is withdrawn
        (``put_back``, said with the next read), and the coin under the pawn is again one whose
        peek is unseen. Not after a win (the game is over). True while the smaller pile has been
        seen on the last read but not yet on enough of them."""
        if self._laid is None:
            return False
        i, before, after = self._laid
        if loop.caller.current != after or loop.caller.over:
            self._laid = None  # a move since, or a correction: the collection stands
            return False
        if loop.caller.blocked:
            return False
        game = before.game
        suit = game.players[i]
        run = self._pile_run(self.corners_of[suit], self._own_pile(suit, len(game.collected[i])))
        if run == 0:
            return False
        if run < PUT_BACK_READS:
            return True
        self._laid = None
        rank = coin_rank(game.coins[game.pawns[i]])
        count = len(game.collected[i])
        loop.pending_events.append(Event(t, "put_back", {"player": suit.code, "value": rank.code,
                                                         "square": list(before.board()[1][i]), "count": count},
                                         phrases.put_back(suit, rank, count)))
        loop.pending_events.extend(loop.caller.revise(t, before))
        return False

    def deduced(self, state: Hunt, reading: HuntReading) -> HuntReading | None:
        """The one board that a single step of the mover's turn from ``state`` can leave
        (nothing done, the shift, the pawn's move after it, a coin under the pawn collected)
        that agrees with every square ``reading`` is sure of, as a sure reading; None when no
        such board or several do (see ``fits``)."""
        fits = self.fits(state, reading)
        if len(fits) != 1:
            return None
        return HuntReading(fits[0].coins, fits[0].pawns, (), frozenset(), corners=reading.corners)

    def fits(self, state: Hunt, reading: HuntReading) -> list[Seen]:
        """The distinct boards of single steps from ``state`` that agree with every square
        ``reading`` is sure of. (Breaking a tie by what the doubtful squares seem to hold was
        tried: a still moment in the middle of a shift, the head tile lifted, then passed for a
        turn the player never made.)"""
        sure = [(r, c) for r in range(SHAPE[0]) for c in range(SHAPE[1]) if (r, c) not in reading.uncertain]
        labels = _labels(reading.board, reading.pawns)
        found: dict[tuple, Seen] = {}
        for seen in self._steps(state):
            grid = _labels(seen.coins, seen.pawns)
            if grid not in found and all(grid[r][c] == labels[r][c] for r, c in sure):
                found[grid] = seen
        return list(found.values())

    def _steps(self, state: Hunt):
        """The boards (``Seen``) of every single step of the mover's turn from ``state``."""
        game = state.game
        me = game.to_move
        yield self.view(state)
        shifts = [state.shift] if state.shift is not None else list(SHIFTS)
        for shift in shifts:
            board, squares = game.shifted(shift)
            for collected in ((None, True) if state.open[me] else (None,)):
                for to in [squares[me], *rook_targets(board, squares, me)]:
                    verdict = _turn(state, shift, to, collected)
                    if verdict.legal and verdict.after is not None:
                        yield self.view(verdict.after)

    def _steady(self, reading: HuntReading, t: float, cfg, state: Hunt | None) -> tuple[Reading, tuple[float, int] | None]:
        """``reading`` taken as sure when every read over ``tile_steady_s`` (``tile_steady_reads``
        at least) saw the same board and no hand over it; before the start the doubtful squares'
        guesses included, and only when the board it makes passes the start check (a misread
        coin must never be announced as a wrong setup); in play the same on the squares read
        sure throughout, the guesses of squares doubtful in any read free, and those squares'
        coins taken as they were in ``state`` (the position in play; called only when no single
        legal step from it agrees with the squares read sure); else ``reading`` as it is."""
        if reading.covered:  # a hand held over the board: what it hides is not guessed
            return reading, None
        if state is None and any(reading.board[r][c] in _SUIT_LETTERS for r, c in reading.uncertain):
            return reading, None  # a coin turned over is an accusation: only a sure read makes it
        # (in play a doubtful square's coin is taken as it was, below: its guess is never named)
        # every read of the run without a hand seen: a hand still over a line it is shifting
        # leaves the same guesses read after read, and the run must start once it has gone.
        # In play (no single legal step agrees with the squares read sure, ``_deduced``) the
        # guesses on squares doubtful in any read of the run may differ, and a square's doubt
        # may come and go: the squares read sure throughout alone make the change illegal, and
        # a guess or a doubt that flickers far from the move would only put the warning off
        run = self._hand_free_run(reading, t, cfg, None if state is None else lambda seen: _agree_where_sure(seen, reading))
        if run is None:
            return reading, None
        board = reading.board
        if state is not None:
            # a square doubtful in any read of the run has its coin taken as it was: its guess
            # is never named
            doubt = {cell for when, seen in self._recent if when >= run[0] for cell in seen.uncertain}
            was, on = self.view(state).coins, {cell for _, cell in reading.pawns}
            board = tuple(tuple(was[r][c] if (r, c) in doubt and (r, c) not in on else v
                                for c, v in enumerate(row)) for r, row in enumerate(board))
        sure = HuntReading(board, reading.pawns, (), frozenset(), corners=reading.corners)
        if state is None and self._start_problems(self.parse(sure)):
            return reading, None
        return sure, (run[0], len(run))

    def _turned(self, obs, corners: Corners) -> bool:
        """Whether the reader's frame is the players' turned half round (module docstring)."""
        if self.frame is not None:
            return math.dist(corners[0], self.frame[2]) < math.dist(corners[0], self.frame[0])
        if self.players:
            first = next((tuple(cell) for suit, cell in obs.pawns if suit == self.players[0].code), None)
            if first in CORNERS:
                return first[0] == 0
        far = (corners[0][1] + corners[1][1]) / 2
        near = (corners[2][1] + corners[3][1]) / 2
        return near < far

    def reading_of(self, state: Hunt | State) -> HuntReading:
        """A state as a sure read of it: a ``Hunt``, or a rules ``State`` (a deal) as the board it shows."""
        if isinstance(state, State):
            state = Hunt(forget_suits(state), None, tuple(False for _ in state.players))
        seen = self.view(state)
        return HuntReading(seen.coins, seen.pawns, ())

    # -- positions -----------------------------------------------------------------------------
    def parse(self, reading: Reading) -> Seen:
        return Seen(tuple(reading.pawns), tuple(reading.board))

    def state(self, position: Seen) -> Seen:
        """A board alone is no state (whose turn, what was collected): ``judge`` makes the state."""
        return position

    def view(self, state: Hunt) -> Seen:
        """What the camera sees of ``state``: its coin values, none under a pawn, and its pawns."""
        coins, pawns = state.board()
        under = set(pawns)
        seen = tuple(tuple(None if v is None or (r, c) in under else coin_rank(v).code for c, v in enumerate(row))
                     for r, row in enumerate(coins.rows))
        order = sorted(zip(state.game.players, pawns), key=lambda p: SUITS.index(p[0]))
        return Seen(tuple((suit.code, cell) for suit, cell in order), seen)

    def shows(self, state: Hunt, new: Seen) -> bool:
        return self.view(state) == new

    def board(self, state: Hunt) -> dict:
        """The ``board`` event: the players in turn order, their pawns and the coin values."""
        coins, pawns = state.board()
        return {"players": [s.code for s in state.game.players],
                "pawns": {s.code: list(cell) for s, cell in zip(state.game.players, pawns)},
                "coins": coins.to_lists(lambda v: coin_rank(v).code)}

    def accepted(self, state: Hunt) -> dict:
        return self.board(state)

    # -- the start -----------------------------------------------------------------------------
    def _start_problems(self, new: Seen) -> list[Reason]:
        """What keeps ``new`` from being a start (``sightings.start_problems``)."""
        pawns = {Suit.parse(s): cell for s, cell in new.pawns if s in "SMCA"}
        players = self.players if self.given else self._seated(pawns)
        coins = Grid.of([[None if v is None else parse_coin_side(v) for v in row] for row in new.coins])
        return sightings.start_problems(players, pawns, coins)

    def start(self, new: Seen, reading: Reading) -> Hunt | Verdict:
        """The placement rules checked on the first board; the players' frame fixed from it."""
        pawns = {Suit.parse(s): cell for s, cell in new.pawns if s in "SMCA"}
        players = self.players if self.given else self._seated(pawns)
        coins = Grid.of([[None if v is None else parse_coin_side(v) for v in row] for row in new.coins])
        problems = sightings.start_problems(players, pawns, coins)
        if problems:
            return _illegal(problems[0], problems[1:])
        game = State(players=players, pawns=tuple(pawns[s] for s in players), coins=coins,
                     collected=tuple(() for _ in players), last_shifts=tuple(None for _ in players), mode="public")
        self.players = players
        corners = getattr(reading, "corners", None)
        if corners is not None:
            self.frame = corners
        # each player's collected coins lie by their pawn's starting corner
        self.corners_of = {s: CORNER_SQUARES.index(pawns[s]) for s in players if pawns[s] in CORNER_SQUARES}
        return Hunt(game, None, tuple(False for _ in players))

    @staticmethod
    def _seated(pawns: dict[Suit, Cell]) -> tuple[Suit, ...]:
        """The players when none were named: the pawns in the corners in seat order, then any
        others in suit order (the start check names those)."""
        by_corner = {cell: suit for suit, cell in pawns.items()}
        seated = [by_corner[c] for c in CORNERS if c in by_corner]
        return tuple(seated + [s for s in SUITS if s in pawns and s not in seated])

    def starting(self, state: Hunt) -> tuple[Happening, ...]:
        first = state.game.mover
        return (Happening("turn", {"player": first.code, "first": True}, phrases.starts(first)),)

    def say_illegal(self, verdict: Verdict, start: bool) -> str:
        if start:
            return phrases.unreadable_start(verdict.why, verdict.also)
        return phrases.live_illegal(verdict.why)

    # -- turns ---------------------------------------------------------------------------------
    def judge(self, before: Hunt, position: Seen, max_moves: int, motion: Motion | None = None) -> Verdict:
        """The mover's turn (or its shift alone) that explains ``position``, or why none does."""
        game = before.game
        pawns = _standing_pawns(game.players, before.board()[1],
                                {Suit.parse(s): cell for s, cell in position.pawns if s in "SMCA"})
        coins = Grid.of([[None if v is None else parse_coin_side(v) for v in row] for row in position.coins])
        stray = [r for r in sightings.pawn_problems(game.players, pawns) if r.code == sightings.STRAY_PAWN]
        wrong = stray + sightings.turned_coins(coins)
        if wrong:
            return _illegal(wrong[0])
        # a pawn off the board is judged where it stood (its square hidden): when the rest of the
        # board is explained, the move is not finished (the pawn in a hand: ``PAWN_MISSING``,
        # which ``settle`` holds back for a while); otherwise what the rest shows is said
        seen = tuple(pawns.get(s) for s in game.players)
        verdict = self._turns(before, seen, coins)
        missing = [s for s in game.players if s not in pawns]
        if missing and verdict.legal:
            return _illegal(Reason(sightings.PAWN_MISSING, (), (missing[0],)))
        return verdict

    def _turns(self, before: Hunt, seen: tuple[Cell | None, ...], coins: Grid) -> Verdict:
        """``judge``'s search once the pieces are the game's: the mover's turn, the last mover's
        correction, two turns (not with a pawn off the board: the pawn's new square is what
        makes a second turn believable), the mover's turn with values read otherwise."""
        verdict = _explain(before, seen, coins)
        if verdict.legal:
            # the next player's shift that carries the last mover's pawn alone is also that pawn
            # moved on along a line: taken as the last turn corrected (``_corrected``), since
            # the other way round the mover's move to come reads as that pawn moved out of turn
            if _carries_last_pawn_alone(before, verdict):
                return _corrected(before, seen, coins) or verdict
            return verdict
        again = _corrected(before, seen, coins)
        if again is not None:
            return again
        both = None if None in seen else _two_turns(before, seen, coins)
        if both is not None:
            return both
        # last, the mover's turn with a coin value or two read otherwise (``VALUE_SLIPS``): only
        # when nothing read exactly explains the board, and never as part of two turns
        slipped = _explain(before, seen, coins, VALUE_SLIPS)
        return slipped if slipped.legal else verdict

    def expected(self, state: Hunt, reading: Reading) -> bool:
        """Whether ``reading`` is the mover's shift from ``state``: the tracker takes it after
        ``expected_s``. Not the pawn's move: a pawn carried low over the board and read on a
        square it only passes (two reads a tenth of a second apart) would be a move said and
        then corrected, so a move waits the full ``accept_s`` of a pawn seen standing. A single
        turn only, and no further search, since this is asked of every read while a board waits."""
        seen = self.parse(reading)
        pawns = {Suit.parse(s): cell for s, cell in seen.pawns if s in "SMCA"}
        if set(pawns) != set(state.game.players) or len(pawns) != len(seen.pawns):
            return False
        coins = Grid.of([[None if v is None else parse_coin_side(v) for v in row] for row in seen.coins])
        if any(isinstance(v, Suit) for v in coins.values()):
            return False
        verdict = _explain(state, tuple(pawns[s] for s in state.game.players), coins)
        return verdict.legal and not any(m.type == "move" for m in verdict.moves)

    def take(self, state: Hunt, new: Seen) -> Hunt | None:
        """The board ``new`` accepted as it is after a warning: a pawn of the mover moved means
        the turn was made (the next player plays, no shift barred for the mover); otherwise the
        turn is half made when a shift of the mover's carries their pawn where it stands and
        leaves fewer coins otherwise than none does (the pawn's move then completes it, as
        after any shift); coins hidden under pawns are those the state had there. None when a
        pawn or a coin is unread."""
        if state is None:
            return None
        game = state.game
        pawns = {Suit.parse(s): cell for s, cell in new.pawns if s in "SMCA"}
        if set(pawns) != set(game.players) or len(new.pawns) != len(pawns):
            return None
        try:
            marks = [[None if v is None else parse_coin_side(v) for v in row] for row in new.coins]
        except NotationError:
            return None
        if any(isinstance(v, Suit) for row in marks for v in row):
            return None
        coins_now, pawns_now = state.board()
        squares = tuple(pawns[s] for s in game.players)
        for cell in squares:
            marks[cell[0]][cell[1]] = value_of(coins_now[cell])
        me = game.to_move
        played = squares[me] != pawns_now[me]
        opened = tuple(o and squares[i] == pawns_now[i] for i, o in enumerate(state.open))
        if played:
            opened = opened[:me] + (marks[squares[me][0]][squares[me][1]] is not None,) + opened[me + 1:]
        after = replace(game, pawns=squares, coins=Grid.of(marks),
                        last_shifts=game.last_shifts[:me] + (None,) + game.last_shifts[me + 1:] if played else
                        game.last_shifts,
                        to_move=(me + 1) % len(game.players) if played else me, turn=game.turn + played)
        shift = None if played else _shift_made(game, after)
        if shift is not None:  # the board before the shift, the shift to be completed by the pawn's move
            coins, pawns_before = after.shifted(shift.reverse)
            after = replace(after, pawns=pawns_before, coins=coins)
        return Hunt(after, shift, opened)

    def claim(self, state: Hunt) -> tuple[Hunt | None, tuple[Happening, ...]]:
        """A player's "Done!" call: the claim that the coin under a pawn was collected and was
        that player's sixth. It stands when a pawn stands on a coin whose peek is unseen and
        whose value is the only one its player lacks (the last mover's first): the coin is
        then collected (``collect``) and the player wins. Its suit is the player's word, as
        for every collected coin. Otherwise the claim is refused with the counts (``fumble``)."""
        game = state.game
        n = len(game.players)
        for i in ((game.to_move - k) % n for k in range(1, n + 1)):
            if not state.open[i] or len(game.collected[i]) != len(RANKS) - 1:
                continue
            taken = _collect(state, i)
            if taken is not None:
                return taken[0], (taken[1],)
        counts = {s.code: len(got) for s, got in zip(game.players, game.collected)}
        return None, (Happening("fumble", {"correct": False, "collected": counts}, phrases.no_win(game)),)

    def winner(self, state: Hunt) -> tuple[dict, str] | None:
        suit = state.game.winner
        if suit is None:
            return None
        return {"player": suit.code, "collected": len(RANKS)}, phrases.won(suit)


#: the board's corner squares in the order the reader lists its corners (far-left, far-right,
#: near-right, near-left)
CORNER_SQUARES: tuple[Cell, ...] = ((0, 0), (0, SHAPE[1] - 1), (SHAPE[0] - 1, SHAPE[1] - 1), (SHAPE[0] - 1, 0))
#: reads in a row that must show a coin laid by a corner before it is taken as collected (or,
#: of another suit, warned about)
LAID_READS = 3
#: reads in a row that must show a collector's pile one coin smaller again before the coin
#: last laid there is taken as put back (``_put_back``): more than ``LAID_READS``, since a
#: withdrawal that the reader's missing a coin for a moment makes would be said, and the
#: collection said again
PUT_BACK_READS = 5
#: s: how long a player's pawn may be off the board, on still reads in a row with no hand seen,
#: while the rest of the board is explained (the move not finished: the pawn is in a hand),
#: before the Caller asks for it; a still moment of a hand holding the pawn must never be an
#: accusation
PAWN_AWAY_S = 4.0
_SUIT_LETTERS = frozenset(s.code for s in SUITS)
#: a coin on the board read suit side up below this confidence is read in doubt: turned over,
#: it is an accusation, and the squares model reads the coins it has seen suit side up with a
#: confidence of one (67 of 67 on the read benchmark's development renders); a 4 just uncovered
#: by a pawn's move read as an Arms coin at 0.96-0.97 read after read, and the Caller said it
#: lay suit side up
TURNED_SURE = 0.99
#: a board is still the one a turn leaves when at most this many of its coins, each lying where
#: it lay and outside the shifted line, are read with another value: coins never change their
#: value (a 3 taken for a 5 on a small board is the reader's slip, and must never be an
#: accusation); the state keeps the values it knows. In the shifted line the values are what
#: tells which shift was made (and a still moment in the middle of a shift, the head tile
#: lifted, must not pass for one), so they must be read as they are, until the shift has been
#: seen: then, the pawn's move to come, a value read otherwise in its line is a slip too while
#: ``PINNED`` of the line's other coins are read where the shift took them (the 3 a pawn stood
#: on, carried by the shift and uncovered by its move, read as a 5 with confidence on small squares)
VALUE_SLIPS = 2
#: ... and so is a board with at most this many coins not seen where they lie or seen where none
#: lies, the two counted together (a Null, white on a white square by the board's edge, read as
#: an empty square on every read while the lattice kept for the camera lies a few px off; a Null
#: read at 0.92-0.94 on the empty square at a standing pawn's foot): a coin leaves the board only
#: from under its collector's pawn, which the turn judges apart, and never comes onto it, so one
#: coin gone or come elsewhere is most likely the reader's slip; the state keeps what it knows.
#: (A player who takes one coin off the board away from the pawns, or lays one on an empty
#: square, is therefore not warned; two, or one coin moved to another square, are.) A coin seen
#: where none lies is a slip in the shifted line only once the shift was seen. ...
PLACE_SLIPS = 1
#: ... in the shifted line only when at least this many of the line's other coins are read where
#: the shift took them, values and all (they tell the shift; a tile lifted in the middle of a
#: push is no shift made), or once the shift was seen and the mover's pawn has moved on (the
#: move tells the shift: a pawn's shadow on a square it passed in a line of one coin read as a Null)
PINNED = 2


def _pawns_read_as_coins(coins: list[list], pawns: list, players) -> list:
    """The pawns the reader took for a coin of their suit turned suit side up (a pawn seen from
    above is a disc of its suit's colour, and a lamp's spot can wash out its shading), taken
    off ``coins`` (changed in place): a square read as a suit where that suit's pawn, one of
    the game's (``players``; None: any suit), is read nowhere. A coin turned over while its
    suit's pawn is off the board, in a hand, is so taken for the pawn for as long as the pawn is
    away; one turned while its pawn stands is still said."""
    seen = {suit for suit, _ in pawns}
    playing = None if players is None else {p.code for p in players}
    found: dict[str, list[Cell]] = {}
    for r, row in enumerate(coins):
        for c, v in enumerate(row):
            if v in _SUIT_LETTERS and v not in seen and (playing is None or v in playing):
                found.setdefault(v, []).append((r, c))
    out = []
    for suit, cells in found.items():
        if len(cells) == 1:  # two squares of one suit: neither is told to be the pawn
            (r, c), = cells
            coins[r][c] = None
            out.append((suit, (r, c)))
    return out


def _standing_pawns(players: Sequence[Suit], squares: Sequence[Cell], pawns: dict[Suit, Cell]) -> dict[Suit, Cell]:
    """``pawns`` (read: suit -> square) with a pawn of a suit not in the game taken for the
    player's whose pawn stands on that square (``squares``, turn order) and is read nowhere:
    the reader took its colour for another's (a Black pawn on a null read as Blue, sure, under
    a lamp). A pawn of another suit anywhere else is still a stray pawn."""
    out = dict(pawns)
    for suit, cell in pawns.items():
        if suit not in players:
            owner = [p for p, at in zip(players, squares) if at == cell and p not in pawns]
            if owner:
                out[owner[0]] = out.pop(suit)
    return out


def _shift_made(before: State, seen: State) -> Shift | None:
    """The mover's shift that leaves the board ``seen`` (its coins, the mover's pawn not moved)
    from ``before`` with the fewest coins otherwise, when fewer than no shift does; None when
    none carries the mover's pawn where it stands."""
    def misses(coins: Grid) -> int:
        return sum(1 for cell, v in coins.items() if value_of(v) != seen.coins[cell])

    me = before.to_move
    best: tuple[int, Shift] | None = None
    for shift in SHIFTS:
        coins, pawns = before.shifted(shift)
        if pawns[me] == seen.pawns[me]:
            n = misses(coins)
            if best is None or n < best[0]:
                best = (n, shift)
    if best is None or (before.pawns[me] == seen.pawns[me] and misses(before.coins) <= best[0]):
        return None
    return best[1]


def _collect(state: Hunt, i: int) -> tuple[Hunt, Happening] | None:
    """Player ``i``'s unseen peek ended in a collection: the coin under their pawn is theirs
    now (its suit their word, or seen by their corner). None when they already hold that value
    (that coin cannot be theirs: nothing is taken)."""
    game = state.game
    rank = coin_rank(game.coins[game.pawns[i]])
    if rank in game.collected[i]:
        return None
    suit = game.players[i]
    got = tuple(sorted(game.collected[i] + (rank,), key=int))
    after = replace(game, coins=game.coins.set(game.pawns[i], None),
                    collected=game.collected[:i] + (got,) + game.collected[i + 1:])
    said = Happening("collect", {"player": suit.code, "value": rank.code, "square": list(state.board()[1][i]),
                                 "count": len(got)}, phrases.collected(suit, rank, len(got)))
    return Hunt(after, state.shift, state.open[:i] + (False,) + state.open[i + 1:], state.redo), said


# -- explaining one turn ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Fit:
    """A shift (None: none) whose board matches the one seen, and the verdict on that turn."""

    shift: Shift | None
    verdict: Verdict
    slips: int = 0  # squares where a coin lies as it should but its value was read otherwise


def _illegal(why: Reason, also: Sequence[Reason] = ()) -> Verdict:
    cells = sorted({c for w in (why, *also) for c in w.cells})
    return Verdict.illegal(sightings.text(why), why, cells, also=tuple(also))


def _explain(before: Hunt, seen: tuple[Cell, ...], coins: Grid, slips: int = 0, seen_shift: Shift | None = None) -> Verdict:
    """The mover's turn (or its shift alone) from ``before`` that leaves the pawns on ``seen``
    (turn order) and the coin layer ``coins``, or why none does: what the shift that fits did
    wrong, another pawn moved, the next shift before the pawn moved, or the squares that no
    shift explains. ``seen_shift``: a shift the camera saw made, taken (and said) when it is
    one of several that explain the board."""
    game = before.game
    fits: list[_Fit] = []
    nearest: tuple[int, list[Cell]] | None = None
    wrong_pawn: Reason | None = None
    for shift in (None, *SHIFTS):
        fit = _fit(before, shift, seen, coins, slips)
        if isinstance(fit, Reason):
            wrong_pawn = wrong_pawn or fit
        elif isinstance(fit, list):
            if nearest is None or len(fit) < nearest[0]:
                nearest = (len(fit), fit)
        else:
            fits.append(fit)
    if fits:  # the boards read with the fewest coin values otherwise
        fewest = min(f.slips for f in fits)
        fits = [f for f in fits if f.slips == fewest]
    legal = [f for f in fits if f.verdict.legal]
    if legal:
        shifts = {f.shift for f in legal}
        if len(shifts) > 1:  # several shifts leave this board: the shift was not seen
            made = {before.shift, seen_shift} - {None}
            keep = [f for f in legal if f.shift in made] or [f for f in legal if f.shift == before.shift]
            if keep:
                return keep[0].verdict
            # a whole turn (a shift that carried nothing seen, the pawn moved) rather than a
            # turn half made by a shift that carried the pawn alone: if the pawn moves on, the
            # turn is corrected and its shift said then (``_revealed``); and of whole turns, one
            # whose shift left the pawn where it stood (the move said from there)
            me = game.to_move
            whole = sorted((f for f in legal if f.verdict.after.shift is None),
                           key=lambda f: f.shift is not None and game.shifted(f.shift)[1][me] != game.pawns[me])
            return _unseen(before, (whole or legal)[0])
        return legal[0].verdict
    if fits:  # what the shift that fits did wrong; a barred shift or no shift at all last
        barred = game.barred_shifts()
        return ([f for f in fits if f.shift is not None and f.shift not in barred]
                or [f for f in fits if f.shift is None] or fits)[0].verdict
    if wrong_pawn is not None:
        return _illegal(wrong_pawn)
    unmoved = _next_shift_unmoved(before, seen, coins)
    if unmoved is not None:
        return _illegal(unmoved)
    return _illegal(Reason(reasons.NO_SHIFT, tuple(sorted(nearest[1])) if nearest else ()))


def _two_turns(before: Hunt, seen: tuple[Cell, ...], coins: Grid) -> Verdict | None:
    """The mover's whole turn then the next player's turn (or shift), when the players were
    quicker than the Caller between two still boards; None when no such pair leaves this board.
    The first pair found, in the rules' order of turns; the first turn must leave the mover's
    pawn elsewhere than it started (a turn that leaves no mark is never assumed). A coin under the mover's pawn is left
    undecided (its square is judged in the second turn only as far as it is seen)."""
    for first in legal_moves(before.game):
        if (first.collect or (before.shift is not None and first.shift != before.shift)
                or first.to == before.game.pawns[before.game.to_move]):
            continue  # a first turn that leaves the mover's pawn where it was is not seen: not assumed
        one = _turn(before, first.shift, first.to, None)
        if not one.legal or one.after.shift is not None or one.after.game.winner is not None:
            continue
        two = _explain(replace(one.after, redo=None), seen, coins)
        if two.legal and two.moves:
            return Verdict.moved(one.moves + two.moves, after=two.after)
    return None


def _fit(before: Hunt, shift: Shift | None, seen: tuple[Cell, ...], coins: Grid,
         slips_ok: int = 0) -> "_Fit | Reason | list[Cell]":
    """How the board seen (``seen`` pawn squares in turn order, ``coins`` the coin layer)
    follows from the start of the mover's turn with ``shift`` made (None: no shift): a
    ``_Fit`` with the rules' verdict; a ``Reason`` (WRONG_PAWN) when the coins fit but another
    player's pawn moved; else the squares where the coins do not fit."""
    game = before.game
    me = game.to_move
    board, squares = (game.coins, game.pawns) if shift is None else game.shifted(shift)
    # a pawn off the board (None) is taken where the shift left it, its square hidden
    seen = tuple(squares[i] if cell is None else cell for i, cell in enumerate(seen))
    moved = seen[me] != squares[me]
    uncover = before.open[me] and moved  # the square the mover's pawn hid is seen again
    collected: bool | None = None
    misfit: list[Cell] = []
    slips: list[Cell] = []
    pinned = 0  # coins of the shifted line read where the shift took them, with their values
    known = shift is not None and shift == before.shift  # seen already: the line's values no longer tell it
    hidden = set(seen)
    for cell, mark in board.items():
        if cell in hidden:
            continue
        want = value_of(mark)
        got = coins[cell]
        if uncover and cell == squares[me]:
            if got is None and want is not None:
                collected = True
                continue
            collected = False
        carried = shift is not None and shift.carries(cell)
        if got != want:
            if want is not None and not isinstance(got, Suit) and (got is None or not carried or known):
                slips.append(cell)  # a coin where it should lie, its value misread, or not seen
            elif want is None and got is not None and not isinstance(got, Suit) and (not carried or known):
                slips.append(cell)  # a coin read where none lies, outside the shifted line or once it was seen
            else:
                misfit.append(cell)
        elif carried and want is not None:
            pinned += 1
    # coins not seen where they lie and coins seen where none lies count together (one coin
    # moved elsewhere is both, and is no slip); a slip in the shifted line (a coin unseen, or a
    # value read otherwise once the shift was seen) only while the line's other coins tell the shift
    placed = [c for c in slips if coins[c] is None or board[c] is None]
    # (not the square the mover's pawn has just left, once the shift was seen: the value of the
    # coin it uncovers is known, and the pawn moving off it tells where the line went)
    lined = [c for c in slips if shift is not None and shift.carries(c)
             and not (known and uncover and c == squares[me] and coins[c] is not None)]
    # (once the shift was seen and the mover's pawn has moved on, the move tells that the shift
    # was made: a line of few coins, one of them under the pawn, has none left to pin it)
    refused = set(placed if len(placed) > PLACE_SLIPS else ()) | set(
        lined if pinned < PINNED and not (known and moved) else ())
    misfit += [c for c in slips if c in refused]
    slips = [c for c in slips if c not in refused]
    if misfit or len(slips) > slips_ok:
        return misfit + slips
    others = [i for i in range(len(seen)) if i != me and seen[i] != squares[i]]
    if others:
        i = others[0]
        return Reason(reasons.WRONG_PAWN, (squares[i], seen[i]), (game.mover, game.players[i]))
    return _Fit(shift, _turn(before, shift, seen[me], collected), len(slips))


def _next_shift_unmoved(before: Hunt, seen: tuple[Cell, ...], coins: Grid) -> Reason | None:
    """MUST_MOVE when the board is the mover's shift followed by another shift, every pawn where
    the shifts carried it: the next player shifted before the mover's pawn, which could move,
    had moved (the half-made turn is otherwise explained as a wrong board)."""
    if before.shift is None:
        return None
    game = before.game
    me = game.to_move
    half = replace(game, coins=before.board()[0], pawns=before.board()[1])
    for shift in SHIFTS:
        fit = _fit(Hunt(half, None, tuple(False for _ in game.players)), shift, seen, coins)
        if isinstance(fit, _Fit) and seen[me] == half.shifted(shift)[1][me]:
            targets = rook_targets(half.coins, half.pawns, me)
            return Reason(reasons.MUST_MOVE, (half.pawns[me], targets[0]), (game.mover,))
    return None


def _turn(before: Hunt, shift: Shift | None, to: Cell, collected: bool | None) -> Verdict:
    """The verdict on the mover's turn: ``shift`` then the pawn to ``to`` (its own square: not
    moved yet), ``collected``: whether the coin its pawn stood on was seen gone (None: not seen)."""
    game = before.game
    me = game.to_move
    mover = game.mover
    events: list[Happening] = []
    if collected:  # the coin the mover's pawn ended on last turn was collected then
        rank = coin_rank(game.coins[game.pawns[me]])
        if rank in game.collected[me]:
            return _illegal(Reason(reasons.ALREADY_HELD, (game.pawns[me],), (mover, rank)))
        got = tuple(sorted(game.collected[me] + (rank,), key=int))
        game = replace(game, coins=game.coins.set(game.pawns[me], None),
                       collected=game.collected[:me] + (got,) + game.collected[me + 1:])
        events.append(Happening("collect", {"player": mover.code, "value": rank.code, "square": list(game.pawns[me]),
                                            "count": len(got)}, phrases.collected(mover, rank, len(got))))
        if game.winner is not None:  # the game ended with that coin
            return Verdict.moved(events, after=Hunt(game, None, before.open[:me] + (False,) + before.open[me + 1:]))
    opened = before.open if collected is None else before.open[:me] + (False,) + before.open[me + 1:]
    if shift is None:
        if to != game.pawns[me]:  # the pawn moved without a shift
            return _illegal(Reason(reasons.NO_SHIFT, (game.pawns[me], to)))
        return Verdict.moved(events, after=Hunt(game, None, opened))  # the shift taken back
    if shift != before.shift:
        events.append(Happening("shift", {"player": mover.code, **shift.to_json()}, phrases.shifted(mover, shift)))
    board, squares = game.shifted(shift)
    if to == squares[me] and rook_targets(board, squares, me):  # the shift made, the pawn still to move
        barred = game.barred_shifts()
        if shift in barred:
            return _illegal(Reason(reasons.REVERSED, (), (shift, barred[shift])))
        return Verdict.moved(events, after=Hunt(game, shift, opened))
    try:
        after = apply(game, Turn(shift, to, False))
    except IllegalMove as exc:
        return _illegal(exc.reason)
    coin = board[to] if to != squares[me] else None
    if to == squares[me]:
        events.append(Happening("move", {"pawn": mover.code, "from": list(to), "to": list(to), "coin": None},
                                phrases.stays(mover, to)))
    else:
        value = value_of(coin)
        events.append(Happening("move", {"pawn": mover.code, "from": list(squares[me]), "to": list(to),
                                         "coin": None if value is None else value.code},
                                phrases.moved(mover, to, value)))
    events.append(Happening("turn", {"player": after.mover.code}, phrases.to_play(after.mover)))
    # the turn's start for a correction, before any collection this turn's move was taken to
    # show: a pawn carried on its coin by the shift left that coin's square empty too
    redo = Hunt(before.game, shift, before.open)
    return Verdict.moved(events, after=Hunt(after, None, opened[:me] + (coin is not None,) + opened[me + 1:], redo))


def _corrected(before: Hunt, seen: tuple[Cell | None, ...], coins: Grid) -> Verdict | None:
    """The last mover's turn made again from its start (``before.redo``) to leave this board:
    the same shift with the pawn put elsewhere, or a shift the turn made unseen now shown by
    the pawn moving on (``_revealed``); None when no such correction explains it (or the turn
    in progress has a shift seen already: the next player has begun)."""
    if before.redo is None or before.shift is not None:
        return None
    # the shift that carried the pawn where the camera saw it when the turn was taken whole
    carried = next((s for s in SHIFTS if _shows_taken(before, s)), None)
    again = _explain(before.redo, seen, coins, seen_shift=carried)
    if (again.legal and again.after.shift is None and again.after.game.turn > before.redo.game.turn
            and (not any(m.type == "shift" for m in again.moves)  # the same shift, the pawn elsewhere
                 or _revealed(before, again))):
        return _recounted(before, again)
    return None


def _recounted(before: Hunt, again: Verdict) -> Verdict:
    """``again``, the last turn corrected, with its collections said as news only: one the turn
    as first taken said already is not said again, and one it said that the correction does
    not make is withdrawn (``put_back``: the pawn's coin rode under it on the shift, so its
    square was empty without the coin leaving the board)."""
    me, suit = before.redo.game.to_move, before.redo.game.mover
    start = before.redo.game.collected[me]
    said = [v for v in before.game.collected[me] if v not in start]
    kept = again.after.game.collected[me]
    events = [e for e in again.moves if not (e.type == "collect" and e.data["player"] == suit.code
                                             and e.data["value"] in {v.code for v in said})]
    square = list(again.after.redo.board()[1][me]) if again.after.redo is not None else None
    withdrawn = [Happening("put_back", {"player": suit.code, "value": v.code, "square": square, "count": len(kept)},
                           phrases.put_back(suit, v, len(kept))) for v in said if v not in kept]
    return Verdict.moved(withdrawn + events, after=again.after)


def _carries_last_pawn_alone(before: Hunt, verdict: Verdict) -> bool:
    """Whether ``verdict`` is the mover's turn half made by a shift that changes nothing the
    camera sees but the last mover's pawn: no coin value moved, the mover's own pawn and any
    other where they stood. Such a board is as well the last mover's pawn moved on along the
    line, which the last turn may still be (``Hunt.redo``)."""
    after: Hunt = verdict.after
    if before.redo is None or before.shift is not None or after.shift is None or any(
            m.type == "move" for m in verdict.moves):
        return False
    game = before.game
    coins, pawns = game.shifted(after.shift)
    last = (game.to_move - 1) % len(game.players)
    return all(value_of(v) == value_of(game.coins[c]) for c, v in coins.items()) and all(
        (pawns[i] != game.pawns[i]) == (i == last) for i in range(len(game.players)))


def _revealed(before: Hunt, again: Verdict) -> bool:
    """Whether ``again``, the last turn made again from its start (``before.redo``), shows the
    shift that turn made unseen: the turn was taken whole, its shift one of several that moved
    no coin the camera sees, and ``again``'s shift moves the coins as that one did. On a board
    of few coins a shift of a tile line that carries the mover's pawn alone looks like an
    unseen shift and a pawn moved one tile along the line; when the pawn then moves on, the
    shift carried it there and the turn is only now complete."""
    redo = before.redo
    me = redo.game.to_move
    if before.game.last_shifts[me] is not None or again.after.redo is None:
        return False
    shift = again.after.redo.shift
    return shift is not None and _shows_taken(before, shift)


def _shows_taken(before: Hunt, shift: Shift) -> bool:
    """Whether the last mover's ``shift`` from the start of their turn (``before.redo``) leaves
    the board the camera saw when it took that turn whole: their pawn where the turn put it, the
    coins alike on every square no pawn hides, the pawn carried."""
    redo = before.redo
    me = redo.game.to_move
    coins, pawns = redo.game.shifted(shift)
    hidden = set(pawns) | set(before.game.pawns)
    return pawns[me] == before.game.pawns[me] != redo.game.pawns[me] and all(
        value_of(v) == value_of(coins[c]) for c, v in before.game.coins.items() if c not in hidden)


def _unseen(before: Hunt, fit: _Fit) -> Verdict:
    """``fit``'s turn when several shifts leave the same board: its ``shift`` event dropped and
    no shift barred for the mover (which of them was made was not seen)."""
    verdict = fit.verdict
    events = tuple(e for e in verdict.moves if e.type != "shift")
    after: Hunt = verdict.after
    if after.shift is not None:  # the turn half made: any of the shifts shows the board seen
        return Verdict.moved(events, after=after)
    game = after.game
    me = (game.to_move - 1) % len(game.players)
    game = replace(game, last_shifts=game.last_shifts[:me] + (None,) + game.last_shifts[me + 1:])
    return Verdict.moved(events, after=replace(after, game=game))


def _agree_where_sure(a: HuntReading, b: HuntReading) -> bool:
    """Whether two reads see the same board on every square that neither doubts (a square's
    doubt may come and go read by read: a coin's numeral on the edge of the model's margin)."""
    doubt = set(a.uncertain) | set(b.uncertain)
    la, lb = _labels(a.board, a.pawns), _labels(b.board, b.pawns)
    return all(x == y or (r, c) in doubt for r, (ra, rb) in enumerate(zip(la, lb))
               for c, (x, y) in enumerate(zip(ra, rb)))


def _labels(coins, pawns) -> tuple[tuple[str | None, ...], ...]:
    """The 8x12 squares as one layer: a pawn as ``pawn:`` and its suit, else the coin seen. (A
    pawn's mark must be no coin's value: marked by its suit in lower case, the Arms pawn was
    the Ace, and Blue's pawn on an Ace agreed with a board where it stood elsewhere.)"""
    where = {tuple(cell): "pawn:" + suit for suit, cell in pawns}
    return tuple(tuple(where.get((r, c), v) for c, v in enumerate(row)) for r, row in enumerate(coins))
