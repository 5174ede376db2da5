"""The live referee of Slider (Leckie & Erfani) (``caller watch --game slider``).

What the live Caller (``caller.live``, ``caller.watch``) needs to know of Slider played on a
piecepack table: tiles grid side up (N/2 x N/2 tiles, 2x2 squares each; an odd N leaves the
last row and column of squares unused), Horizontal's pieces coins of one suit suit side up
(``h_suit``, default Suns), Vertical's of another (``v_suit``, default Arms), blocked squares
carrying a die. See ``caller.live_referee`` for the interface; the choices below are written
for players in docs/games/slider.md.

**The players' frame.** The reader reports the whole lattice in the camera's frame, which is
fixed for a fixed camera. The start fixes the players' frame once: the quarter turn in which
the pieces stand as the rules lay them out (``rules.slider.observed.start_turns``: H up the left
column, V along the bottom row). Every later read is turned the same way, so squares are
always said in the players' terms: "column i, row j", column from the left, row from the
bottom, both from 0, as the move notation ``(i,j): DIR`` writes them. Events carry squares
as ``[i, j]`` in the same terms. Before the start, a read that is no start is described in the
camera's frame (the players sit on the camera's side).

**The board size.** ``n`` (``--n``); by default the start's: the lattice read, 2 squares a
tile, or one less (an odd board, its last row and column unused) when the start stands on that
one; fixed at the start like the frame. The unused row and column must stay empty.

**Who starts.** The rules choose the first player "arbitrarily", so at a table it is the
players' choice: the Caller says either player may start, and the first coin moved decides.
Playing a side itself (``ai``), the Caller leaves the first move to the player.

**Turns.** Each change is one step of the player to move (H never left, V never down; a coin
off its far edge leaves the board); a side with no legal move passes, which the Caller says
at once (nothing on the table changes); two passes in a row tie the game. When players are
quicker than the Caller's stillness, two moves in turn are accepted between two still reads.
An illegal change is said once, in the players' squares; the Caller then waits until the board
is put back (or the players accept it). A read with doubtful squares is made sure only when one
board of the next move fits every sure square (``settle``).

**The Caller's own side** (``ai``, ``level``): on its turn the Caller chooses its move with
``rules.slider.ai.AlphaBetaPlayer`` limited by depth and nodes only (never wall time, so a
recording replays the same), says it (``call``), and waits for a player to make it for it. The
move made is judged like any other: the move called gives its ``move`` event; another legal
move of the Caller's side stands too, with a ``different`` event saying it was not the one
called.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from caller.errors import CallerError
from caller.live_referee import Happening, LiveReferee, Motion, Verdict, steady_run
from caller.tracker import Reading
from rules.errors import MalformedPosition, NotationError
from rules.grid import Cell
from rules.pieces import Suit
from rules.reasons import Reason
from rules.slider import reasons, sightings
from rules.slider.ai import DEFAULT_LEVEL, LEVELS, move_at_level
from rules.slider.board import Side
from rules.slider.explain import explain_change
from rules.slider.observed import start_turns, turned
from rules.slider.state import MAX_N, MIN_N, PASS, Move, SliderState, cell_to_xy, start_h, start_v, xy_to_cell
from rules.table import DIE_ON_SQUARE
from voice.phrasebook import slider as phrases

#: the legal changes last judged that a board put back as it was before can take back
TAKEN_KEPT = 8


@dataclass(frozen=True)
class SlideReading(Reading):
    """A read of a Slider table: ``board`` the lattice's squares in the camera's frame (codes as
    ``SquaresObservation.coins``); ``pawns`` and ``coins`` unused."""

    covered: frozenset[Cell] = field(default=frozenset(), compare=False)


@dataclass(frozen=True)
class Board:
    """A Slider board as seen in the players' frame: its size and the squares (i, j) of the H
    and V coins and of the dice."""

    n: int
    h: frozenset[Cell]
    v: frozenset[Cell]
    blocked: frozenset[Cell]


@dataclass(frozen=True)
class Slide:
    """The live Caller's state: ``game`` the rules' state (whose turn, passes); ``open``: no one
    has moved yet and either player may start, or the first two moves were seen together and
    either may have started, so either may move next (``game.to_move`` then means nothing);
    ``called``: the move the Caller called for its own side and waits for."""

    game: SliderState
    open: bool = False
    called: Move | None = None

    def board(self) -> Board:
        g = self.game
        return Board(g.n, g.h, g.v, g.blocked)


def parse_side(text: str) -> Side:
    """``--ai H|V``."""
    try:
        return Side.parse(text)
    except NotationError:
        raise CallerError(f"--ai {text!r}: expected H or V, the side the Caller plays") from None


def parse_suit(text: str, option: str) -> Suit:
    try:
        return Suit.parse(text.strip().upper())
    except NotationError:
        raise CallerError(f"{option} {text!r}: expected one suit letter, S, M, C or A") from None


def parse_level(text: str) -> int:
    if not text.strip().isdigit() or int(text) not in LEVELS:
        raise CallerError(f"--level {text!r}: expected a whole number from {min(LEVELS)} to {max(LEVELS)}")
    return int(text)


def parse_n(text: str) -> int:
    if not text.strip().isdigit() or not MIN_N <= int(text) <= MAX_N:
        raise CallerError(f"--n {text!r}: expected the board size, a whole number from {MIN_N} to {MAX_N}")
    return int(text)


def move_data(side: Side, move: Move, n: int) -> dict:
    """A move as event data: ``to`` None for a coin that leaves the board."""
    dest = move.target()
    on = 0 <= dest[0] < n and 0 <= dest[1] < n
    return {"side": side.value, "from": list(move.square), "to": list(dest) if on else None}


def camera_squares(game: SliderState, h_code: str = "S", v_code: str = "A", turns: int = 0,
                   size: int | None = None) -> tuple[tuple[str | None, ...], ...]:
    """What a sure read of ``game``'s table reports: the lattice's squares (``size`` a side; by
    default N rounded up to whole tiles) in the camera's frame, the players' frame being
    ``turns`` quarter turns from it (``rules.slider.observed.turned``): coins by suit, dice as
    ``DIE_ON_SQUARE``."""
    size = size or game.n + game.n % 2
    grid: list[list[str | None]] = [[None] * size for _ in range(size)]
    for squares, code in ((game.h, h_code), (game.v, v_code), (game.blocked, DIE_ON_SQUARE)):
        for sq in squares:
            r, c = xy_to_cell(sq, game.n)
            grid[r][c] = code
    return tuple(map(tuple, turned(grid, (4 - turns) % 4)))


class SliderLive(LiveReferee):
    """Slider's live referee for one table (see the module's docstring)."""

    phrases = phrases
    clock = False
    opening_event = "turn"
    cells_key = "squares"
    checks_setup = False
    options = ("h_suit", "v_suit", "n", "ai", "level")
    parse_ai = staticmethod(parse_side)
    parse_level = staticmethod(parse_level)
    parse_n = staticmethod(parse_n)

    @staticmethod
    def parse_h_suit(text: str) -> Suit:
        return parse_suit(text, "--h-suit")

    @staticmethod
    def parse_v_suit(text: str) -> Suit:
        return parse_suit(text, "--v-suit")

    def __init__(self, h_suit: Suit | str = Suit.SUNS, v_suit: Suit | str = Suit.ARMS, n: int | None = None,
                 ai: Side | str | None = None, level: int | None = None) -> None:
        self.h_suit = h_suit if isinstance(h_suit, Suit) else parse_suit(h_suit, "--h-suit")
        self.v_suit = v_suit if isinstance(v_suit, Suit) else parse_suit(v_suit, "--v-suit")
        if self.h_suit == self.v_suit:
            raise CallerError(f"--h-suit and --v-suit are both {self.h_suit.code}: the players need coins of "
                              "two suits")
        self.n = n
        self.ai = None if ai is None else parse_side(ai) if isinstance(ai, str) else ai
        if level is not None and self.ai is None:
            raise CallerError("--level: the level of the Caller's own play, so it needs --ai H|V")
        self.level = DEFAULT_LEVEL if level is None else level
        self._calls: dict[SliderState, Move | object] = {}  # the Caller's move in each position searched
        self._taken: dict[Slide, Slide] = {}  # the last legal changes judged: the state after each -> before
        self.colours = {Side.H: self.h_suit.colour, Side.V: self.v_suit.colour}
        self.turns: int | None = None  # quarter turns from the camera's frame to the players', fixed at the start
        self.size: int | None = None  # squares a side of the lattice read
        #: the quarter turn and board size the last read's start stands in (None: no start)
        self._found: tuple[int, int] | None = None
        #: the last read's start lies one or two moves behind it (``_late_start``)
        self._late = False
        self._start_events: tuple[Happening, ...] = ()
        self._resumed: tuple[Happening, ...] = ()  # what follows the last board taken (``take``)
        self._recent: list[tuple[float, SlideReading]] = []  # the last reads, for ``settle``

    # -- readings ------------------------------------------------------------------------------
    def reading(self, obs) -> SlideReading:
        """A ``vision.observation.SquaresObservation`` (camera's frame) as a reading."""
        board = tuple(tuple(row) for row in obs.coins)
        covered = frozenset(tuple(c) for c in getattr(obs, "covered", ()))
        uncertain = frozenset(tuple(c) for c in obs.uncertain) | covered
        return SlideReading(board, (), (), uncertain, covered=covered)

    def settle(self, t: float, obs, loop) -> tuple[Reading | None, tuple[float, int] | None]:
        """A read with doubtful squares, made sure where it can be: before the start, when it has
        read the same over ``tile_steady_s`` and is a start (``_steady_start``); after the start,
        with no hand over the board (``covered``) and no warning standing, the one board among
        the current one and those a single legal move leaves that agrees with every square the
        reader is sure of; where none does (or a warning stands) and only dice are doubtful, the
        read with its dice once it has held (``_steady_change``); otherwise the read as it is,
        which is never a position."""
        reading = self.reading(obs)
        self._recent = (self._recent + [(t, reading)])[-16:]
        state = loop.caller.current
        if state is None and reading.uncertain and not reading.covered:
            return self._steady_start(reading, t, loop.tracker.config)
        if not reading.uncertain or reading.covered or state is None or self.turns is None:
            return reading, None
        if loop.caller.blocked:  # an illegal board stands: put back, or changed again
            return self._steady_change(state, reading, t, loop.tracker.config)
        size = len(reading.board)
        sure = [(r, c) for r in range(size) for c in range(size) if (r, c) not in reading.uncertain]
        fits = set()
        for game in self._steps(state):
            squares = camera_squares(game, self.h_suit.code, self.v_suit.code, self.turns, size)
            if all(squares[r][c] == reading.board[r][c] for r, c in sure):
                fits.add(squares)
        if len(fits) == 1:
            return SlideReading(fits.pop(), (), ()), None
        if not fits:
            return self._steady_change(state, reading, t, loop.tracker.config)
        return reading, None

    def _steady_change(self, state: Slide, reading: SlideReading, t: float, cfg) -> tuple[Reading, tuple[float, int] | None]:
        """A read that no legal move explains, whose only doubtful squares are the blocks' (the
        reader is sometimes never quite sure of a die, and blocks never move): taken with those
        squares holding their dice once every read over ``tile_steady_s`` (``tile_steady_reads``
        at least) saw the same, so that an illegal move is called while a doubtful die stands
        beside it; any other doubtful square leaves the read as it is (never a position)."""
        size = len(reading.board)
        now = camera_squares(state.game, self.h_suit.code, self.v_suit.code, self.turns, size)
        if any(now[r][c] != DIE_ON_SQUARE for r, c in reading.uncertain):
            return reading, None
        run = steady_run(self._recent, reading, t, cfg)
        if run is None:
            return reading, None
        board = tuple(tuple(DIE_ON_SQUARE if (r, c) in reading.uncertain else v for c, v in enumerate(row))
                      for r, row in enumerate(reading.board))
        return SlideReading(board, (), ()), (run[0], len(run))

    def _steady_start(self, reading: SlideReading, t: float, cfg) -> tuple[Reading, tuple[float, int] | None]:
        """Before the start, a read with doubtful squares taken as read when every read over
        ``tile_steady_s`` (``tile_steady_reads`` at least) saw the same squares and they make a
        start (a square the reader is never quite sure of must not keep the game from starting;
        a misread never makes a start the players did not lay out)."""
        run = steady_run(self._recent, reading, t, cfg)
        if run is None:
            return reading, None
        sure = SlideReading(reading.board, (), ())
        if isinstance(self.parse(sure), Verdict) or self._found is None:
            return reading, None
        return sure, (run[0], len(run))

    def _steps(self, state: Slide):
        """The boards the table may show next: ``state``'s, and each legal move's from it (of
        either side before the first move)."""
        g = state.game
        yield g
        for side in (Side.H, Side.V) if state.open else (g.to_move,):
            mover = replace(g, to_move=side)
            for move in mover.piece_moves(side):
                yield mover.apply(move)

    def reading_of(self, state: Slide | SliderState) -> SlideReading:
        """A state (or a rules state, a setup) as a sure read of it, in the camera's frame."""
        g = state.game if isinstance(state, Slide) else state
        squares = camera_squares(g, self.h_suit.code, self.v_suit.code, self.turns or 0, self.size)
        return SlideReading(squares, (), ())

    # -- positions -----------------------------------------------------------------------------
    def parse(self, reading: Reading) -> Board | Verdict:
        """The board a read shows in the players' frame; before the start, in the quarter turn
        its start stands in (the camera's own when it shows none). An illegal ``Verdict`` for a
        read that is no Slider board (a stray piece) or, before the start, no start."""
        grid = reading.board
        size = len(grid)
        n = self.n or size
        if size < n:
            why = Reason(sightings.STRAY, ((n - 1, n - 1),), ("outside",))
            return Verdict.illegal(f"a lattice of {size} squares a side cannot hold a {n} x {n} board", why)
        turns = self.turns
        if turns is None:  # before the start: the quarter turn (and size) its start stands in
            self._found, self._late = None, False
            sizes = [n_ for n_ in ([self.n] if self.n else [size, size - 1]) if MIN_N <= n_ <= MAX_N]
            for size_n in sizes:  # an odd board leaves a row and a column
                found = start_turns(grid, size_n, self.h_suit.code, self.v_suit.code)
                if found:
                    self._found, n = (found[0], size_n), size_n
                    break
            for size_n in sizes if self._found is None else ():
                late = self._late_start(grid, size_n)
                if late is not None:
                    self._found, self._late, n = (late, size_n), True, size_n
                    break
            turns = 0 if self._found is None else self._found[0]
        board = self._board(turned(grid, turns), n)
        if isinstance(board, Verdict) or self.turns is not None or self._found is not None:
            return board
        why = sightings.not_a_start(n, board.h, board.v)
        return Verdict.illegal(sightings.text(why), why, why.cells)

    def _late_start(self, grid, n: int) -> int | None:
        """The quarter turn in which ``grid`` shows a start of size ``n`` with one legal move
        made, or two in turn (players who moved before the Caller had seen the start), or None."""
        h0, v0 = start_h(n), start_v(n)
        for k in range(4):
            board = self._board(turned(grid, k), n)
            # (read before the start on every frame: only a board with a start's coins, two of
            # them at most off their start squares, is searched)
            if (isinstance(board, Verdict) or board.blocked & (h0 | v0) or len(board.h) != len(h0)
                    or len(board.v) != len(v0) or len(board.h - h0) + len(board.v - v0) > 2):
                continue
            try:
                after = SliderState(n, board.h, board.v, board.blocked, Side.H, 0)
            except MalformedPosition:
                continue
            start = SliderState(n, h0, v0, board.blocked, Side.H, 0)
            for side in (Side.H, Side.V):
                base = replace(start, to_move=side)
                report = explain_change(base, after)
                if (report.legal and isinstance(report.move, Move)) or self._two_moves(base, after) is not None:
                    return k
        return None

    def _board(self, grid, n: int) -> Board | Verdict:
        """The players'-frame squares ``grid`` as a board of size ``n``, or the first stray piece."""
        pieces = {self.h_suit.code: "H", self.v_suit.code: "V", DIE_ON_SQUARE: "B"}
        found: dict[str, set[Cell]] = {"H": set(), "V": set(), "B": set()}
        size = len(grid)
        for r in range(size):
            for c in range(size):
                code = grid[r][c]
                if code is None:
                    continue
                if r >= n or c >= n:
                    why = Reason(sightings.STRAY, ((c, n - 1 - r),), ("outside",))
                    return Verdict.illegal(sightings.text(why), why, why.cells)
                if code not in pieces:
                    why = Reason(sightings.STRAY, (cell_to_xy((r, c), n),), (code,))
                    return Verdict.illegal(sightings.text(why), why, why.cells)
                found[pieces[code]].add(cell_to_xy((r, c), n))
        return Board(n, frozenset(found["H"]), frozenset(found["V"]), frozenset(found["B"]))

    def state(self, position: Board) -> Board:
        """A board alone is no state (whose turn, passes): ``judge`` makes the state."""
        return position

    def board(self, state: Slide) -> dict:
        """The ``board`` event: size, rows from the top ("H", "V", "B", None), the suits, who is
        to move (None: either may start) and the players' frame (quarter turns from the camera's)."""
        g = state.game
        return {"n": g.n, "board": g.grid().to_lists(lambda v: v), "h_suit": self.h_suit.code,
                "v_suit": self.v_suit.code, "to_move": None if state.open else g.to_move.value,
                "turns": self.turns}

    def accepted(self, state: Slide) -> dict:
        return self.board(state)

    def shows(self, state: Slide, new: Board) -> bool:
        return state.board() == new

    # -- the start -----------------------------------------------------------------------------
    def start(self, new: Board, reading: Reading) -> Slide | Verdict:
        """The first board: a start (``parse`` found its quarter turn), which fixes the frame."""
        if self._found is None:  # parse says why it is none; kept for a caller that skips it
            why = sightings.not_a_start(new.n, new.h, new.v)
            return Verdict.illegal(sightings.text(why), why, why.cells)
        self.turns, self.n = self._found
        self.size = len(reading.board)
        first = Side.H if self.ai is None else self.ai.other
        h, v = (start_h(new.n), start_v(new.n)) if self._late else (new.h, new.v)
        game = SliderState(new.n, h, v, new.blocked, first, 0)
        state, events = self._next(Slide(game, open=self.ai is None), ())
        first_turn = Happening("turn", {"side": None if state.open else state.game.to_move.value, "first": True,
                                        "ai": None if self.ai is None else self.ai.value},
                               phrases.live_start(self.colours, None if state.open else state.game.to_move, self.ai))
        rest = [e for e in events if e.type != "turn"]  # the start's turn event says whose turn it is
        calls = [e for e in rest if e.type == "call"]
        self._start_events = tuple(e for e in rest if e.type != "call") + (first_turn,) + tuple(calls)
        return state

    def starting(self, state: Slide) -> tuple[Happening, ...]:
        return self._start_events

    def behind_start(self, state: Slide) -> bool:
        """A start told from the board one or two moves past it (``_late_start``)."""
        return self._late

    def say_illegal(self, verdict: Verdict, start: bool) -> str:
        return phrases.live_illegal(verdict.why, self.colours)

    # -- turns ---------------------------------------------------------------------------------
    def judge(self, before: Slide, position: Board, max_moves: int, motion: Motion | None = None) -> Verdict:
        """The move (or, for quick players, two moves in turn) that explains ``position``; the
        board put back as it was before the last legal change is that change taken back (a
        player who changes their mind, or who sees that the move the Caller took was not the
        one they meant): the state before it again, said as nothing but ``undone``."""
        prior = self._taken.get(before)
        if prior is not None and prior.board() == position:
            return Verdict.moved([Happening("undone", {"board": prior.game.grid().to_lists(lambda v: v)})], after=prior)
        try:
            after = SliderState(position.n, position.h, position.v, position.blocked, Side.H, 0)
        except MalformedPosition:  # more coins of a side than it has: one appeared
            return self._appeared(before, position)
        g = before.game
        bases = [replace(g, to_move=Side.H), replace(g, to_move=Side.V)] if before.open else [g]
        first = None
        for base in bases:
            report = explain_change(base, after)
            if report.legal and isinstance(report.move, Move):
                return self._moved(before, base, (report.move,))
            if first is None or (first.why is not None and first.why.code == reasons.WRONG_TURN):
                first = report
        if max_moves >= 2:
            found = [(base, moves) for base in bases if (moves := self._two_moves(base, after)) is not None]
            if found:
                # before the first move, a board two moves on that either player may have
                # started: who moved first was not seen, so either may move next
                unseen = len(found) > 1
                return self._moved(before, *found[0], open_after=unseen)
        return Verdict.illegal(first.reason, first.why, first.squares)

    def _two_moves(self, base: SliderState, after: SliderState) -> tuple[Move, Move] | None:
        """Two moves, the first of ``base.to_move``, the second of the player after it, that
        lead from ``base`` to ``after``, or None."""
        for m1 in base.piece_moves(base.to_move):
            one, _ = self._passes(base.apply(m1))
            if one.is_over:
                continue
            report = explain_change(one, after)
            if report.legal and isinstance(report.move, Move):
                return m1, report.move
        return None

    def _appeared(self, before: Slide, position: Board) -> Verdict:
        g = before.game
        for side, now, was in ((Side.H, position.h, g.h), (Side.V, position.v, g.v)):
            extra = sorted(now - was)
            if len(now) > len(was) and extra:
                why = Reason(reasons.APPEARED, (extra[0],), (side,))
                return Verdict.illegal(reasons.text(why), why, (extra[0],))
        why = Reason(reasons.GAME_OVER)
        return Verdict.illegal(reasons.text(why), why)

    def _moved(self, before: Slide, base: SliderState, moves: tuple[Move, ...], open_after: bool = False) -> Verdict:
        """The verdict on ``moves`` made in turn from ``base``: their events, the passes they
        force, whose turn it is, and the Caller's next call; with ``open_after``, either player
        may move next (who moved first was not seen)."""
        events: list[Happening] = []
        state = base
        n = base.n
        for k, move in enumerate(moves):
            side = state.to_move
            called = before.called if k == 0 else None
            if called is not None and move != called:
                events.append(Happening("different", {**move_data(side, move, n), "called": move_data(side, called, n)},
                                        phrases.ai_different(self.colours[side], called, n)))
            data = move_data(side, move, n)
            if self.ai is side:
                data["ai"] = True
            say = None if called is not None and move == called else phrases.live_moved(self.colours[side], move, n)
            events.append(Happening("move", data, say))
            state = state.apply(move)
            if k < len(moves) - 1:
                state, passed = self._passes(state)
                events += [self._pass(s) for s in passed]
        after, more = self._next(Slide(state, open=open_after and not state.is_over), ())
        # (judged changes are not all taken: a read the tracker asks about may never be)
        self._taken = {k: v for k, v in list(self._taken.items())[-TAKEN_KEPT:] if k != after} | {after: before}
        return Verdict.moved(events + list(more), after=after)

    def _passes(self, state: SliderState) -> tuple[SliderState, list[Side]]:
        """``state`` after the forced passes that follow it, and the sides that passed."""
        passed = []
        while not state.is_over and state.legal_moves() == [PASS]:
            passed.append(state.to_move)
            state = state.apply(PASS)
        return state, passed

    def _pass(self, side: Side) -> Happening:
        return Happening("pass", {"side": side.value}, phrases.live_pass(self.colours[side]))

    def _next(self, state: Slide, events: tuple) -> tuple[Slide, tuple[Happening, ...]]:
        """After a move (or the start): the forced passes, whose turn, and the Caller's call on
        its own turn."""
        if state.open:
            return state, events
        game, passed = self._passes(state.game)
        out = list(events) + [self._pass(s) for s in passed]
        if game.is_over:
            return Slide(game), tuple(out)
        side = game.to_move
        mine = self.ai is side
        out.append(Happening("turn", {"side": side.value}, None if mine else phrases.live_turn(self.colours[side])))
        called = None
        if mine:
            choice = self._calls.get(game)
            if choice is None:  # judged again and again while a board waits: searched once
                choice = self._calls[game] = move_at_level(game, self.level)
            if isinstance(choice, Move):
                called = choice
                out.append(Happening("call", move_data(side, choice, game.n),
                                     phrases.ai_call(self.colours[side], choice, game.n)))
        return Slide(game, called=called), tuple(out)

    def expected(self, state: Slide, reading: Reading) -> bool:
        """Whether ``reading`` is ``state`` with one legal move made."""
        position = self.parse(reading)
        if isinstance(position, Verdict):
            return False
        verdict = self.judge(state, position, 1)
        return verdict.legal and sum(1 for m in verdict.moves if m.type == "move") == 1

    def take(self, state: Slide, new: Board) -> Slide | None:
        """The board ``new`` accepted after a warning: the player whose coins changed has played
        (the other moves next; before the first move, the side whose coins changed started); a
        board that is no position of the game (too many coins) is refused."""
        if state is None:
            return None
        g = state.game
        try:
            game = SliderState(new.n, new.h, new.v, new.blocked, g.to_move, 0)
        except MalformedPosition:
            return None
        if state.open and game.h == g.h and game.v == g.v:
            self._resumed = ()
            return Slide(game, open=True)
        mover = (Side.H if game.h != g.h else Side.V) if state.open else g.to_move
        if game.pieces(mover) != g.pieces(mover):
            game = replace(game, to_move=mover.other)
        taken, self._resumed = self._next(Slide(game), ())
        return taken

    def resumed(self, state: Slide) -> tuple[Happening, ...]:
        """Whose turn it is after an accepted board, and the Caller's call on its own turn."""
        return self._resumed

    def winner(self, state: Slide) -> tuple | None:
        g = state.game
        if g.winner is not None:
            side = g.winner
            return ({"side": side.value, "suit": (self.h_suit if side is Side.H else self.v_suit).code},
                    phrases.live_won(self.colours[side]))
        if g.is_tie:
            return {}, phrases.live_tie(), "tie"
        return None
