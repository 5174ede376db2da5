"""What a game gives the live Caller: its live referee.

``caller watch`` and ``caller race`` run one loop for every game (``caller.watch.Watcher``:
frames, motion gate, reader, ``PositionTracker``; ``caller.live.LiveCaller``: the start,
suspect-then-confirm warnings said once, blocked and restored, pause, the clock, camera
notices, "Done!"). Nothing in that loop knows a game's pieces or rules: it asks the game's
live referee, one object per board (``GameEntry.live()`` makes one), which holds whatever
the game keeps between reads.

A game's camera play therefore needs two things: its table description
(``rules/<game>/table.py``, which the reader in ``vision`` reads) and a ``LiveReferee``
subclass named as ``live`` in ``caller.games``. The referee answers:

* ``reading(obs)``: a reader's observation as a ``caller.tracker.Reading`` (its ``key``
  says which reads agree; its doubtful cells and pieces hold a position back);
* ``settle(t, obs, loop)``: the same, after the game's own deductions for doubtful items
  (by default none);
* ``parse(reading)`` and ``state(position)``: the position a reading shows and that
  position as a legal game state, or a ``Verdict`` saying why it is none;
* ``judge(before, position, max_moves, motion)``: the moves that explain a change as
  event data, or why no moves do (a ``rules.reasons.Reason``; the words come from the
  game's phrasebook);
* ``done(state)``, ``goal_problems(state)``: the goal met, or the cells that keep it unmet;
* ``setup_differences(setup, state)``, ``setup_mismatch(setup, seen)``: a start position
  checked against an announced setup (what to say; why the game never started);
* ``expected(state, reading)``: whether a reading is the current position with one legal
  move made (the tracker accepts it sooner);
* ``reading_of(state)``, ``board(state)``: a state as a reading and as event data;
* ``hint(state)`` (optional): the next move of a solution, for "Caller, hint";
* ``phrases``: the game's phrasebook (``voice.phrasebook.<game>``) for what the loop says.

A game of turns rather than a race against the clock (``clock = False``) also answers:

* ``start(new, reading)``: the first position checked as a start (and whatever the game fixes
  once there, such as which half turn of an oblong board the players sit at);
* ``starting(state)``: what is said once the start is accepted ("Red starts.");
* ``shows(state, new)``: whether the board seen is the state's (a state may hold more than the
  camera sees: whose turn it is, the coins collected);
* ``take(state, new)``: the state a board becomes when the players accept it after a warning;
* ``winner(state)``: the game won (or tied), as the ending event's data and words;
* ``resumed(state)``: what is said once a board is accepted after a warning (whose turn);
* ``claim(state)``: a player's "Done!" call checked as far as the camera can (a win made with
  a piece the camera cannot see).

Its moves (``Verdict.moves``) may be ``Happening`` values of any event type (``shift``,
``move``, ``collect``, ``turn``), each with its words, and its verdicts carry the state after
the change (``Verdict.after``), since a turn game's next state is not the board alone.

``tests/test_live_referee.py`` drives the loop with a toy game's referee, which is the
smallest example of a whole one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Protocol

from rules.reasons import Reason

if TYPE_CHECKING:
    from caller.events import Event
    from caller.tracker import PositionTracker, Reading


class Happening(NamedTuple):
    """One thing a legal change made happen, as an event: its ``type`` (``move``, ``shift``,
    ``collect``, ``turn`` ...), its data and what the Caller says of it (None: recorded only)."""

    type: str
    data: dict
    say: str | None = None


@dataclass(frozen=True)
class Verdict:
    """A change (or a reading) judged by a referee.

    ``legal``: the change is explained; ``moves`` then holds the event data of each move
    made, in order (one ``move`` event each; none when nothing changed). Otherwise ``why``
    is the verdict as data (None when the reader saw something no rule names), ``reason``
    its written form and ``cells`` the cells concerned (``[row, col]`` lists), both for the
    ``illegal`` event. ``seen``: the change was seen happening in the frames between still
    ones (Easy Slider: two tiles pushed together), so it is announced without the
    confirming re-read a possibly misread position waits for.
    """

    legal: bool
    moves: tuple[Any, ...] = ()
    why: Reason | None = None
    reason: str | None = None
    cells: tuple[list, ...] = ()
    seen: bool = False
    #: the state after a legal change, when the position seen does not make it alone (a turn
    #: game's next player, coins collected); None: the position's own ``state``
    after: Any = field(default=None, compare=False)
    #: further verdicts on the same reading, said after ``why`` (a start with several problems)
    also: tuple[Reason, ...] = ()

    @classmethod
    def moved(cls, moves, after: Any = None) -> "Verdict":
        """A legal change: ``moves`` as event data (a dict: a ``move`` event said by no words;
        a ``Happening``: an event of its own type and words); ``after``: see the field."""
        return cls(True, tuple(moves), after=after)

    @classmethod
    def illegal(cls, reason: str, why: Reason | None, cells=(), seen: bool = False,
                also: tuple[Reason, ...] = ()) -> "Verdict":
        """A change (or a reading) the rules do not allow."""
        return cls(False, (), why, reason, tuple(list(c) for c in cells), seen, also=tuple(also))


class Motion(Protocol):
    """The frames since the last accepted position (``vision.pushes.MotionTrack``)."""

    def pushed_together(self, hole, near, far) -> bool: ...


class LoopView(Protocol):
    """What ``settle`` may use of the loop (``caller.watch.Watcher``): the board's Caller, its
    tracker (``config``: ``[vision.tracker]``; ``accepted``: the last accepted reading, which
    a deduction that revises the position must keep in step) and the events to say with the
    next read (what a silent revision caused, "Done!")."""

    caller: Any  # the board's caller.live.LiveCaller (which imports this module)
    tracker: "PositionTracker"
    pending_events: "list[Event]"


def steady_run(recent: "list[tuple[float, Reading]]", reading: "Reading", t: float, cfg,
               holds: "Callable[[Reading], bool] | None" = None) -> list[float] | None:
    """The times of the last reads in a row (``recent``: (time, reading), oldest first, ending
    with ``reading`` read at ``t``) that saw what ``reading`` sees (or, given ``holds``, for
    which ``holds(read)`` is true), when they are at least ``cfg.tile_steady_reads`` and span
    ``cfg.tile_steady_s``; None otherwise. For a referee's ``settle``: a read with doubtful
    squares that has held that long may be taken as read."""
    run: list[float] = []
    for when, seen in reversed(recent):
        if not (holds(seen) if holds is not None else seen.key == reading.key):
            break
        run.insert(0, when)
    if len(run) < cfg.tile_steady_reads or t - run[0] < cfg.tile_steady_s - 1e-9:
        return None
    return run


class LiveReferee(ABC):
    """One board's live referee (see the module's docstring). States must be hashable and
    compare equal when they are the same position; positions (what ``parse`` gives) must be
    hashable."""

    #: the game's phrasebook: ``restored()``, ``accepted()``, ``illegal(why)``,
    #: ``unreadable_start(why)``, and for a game with a clock ``go()``, ``done(correct,
    #: elapsed_s)`` and ``fumble(cells)``
    phrases: Any
    #: a race against the clock: "Go!" when the start is accepted, "Done!" at the goal, a
    #: player's own "Done!" call checked (a fumble). False: a game of turns, which has no clock
    #: and ends with a winner (``winner``)
    clock: bool = True
    #: the key under which the ``illegal`` event lists the places it concerns
    cells_key: str = "cells"
    #: the type of the event that gives the first accepted position (Slide's is ``grid``)
    board_event: str = "board"
    #: the type of the event said right after it when the start is read sure: "go" in a race,
    #: "turn" (who starts) in a game of turns, "roll" in a solo game whose dice are on the table
    opening_event: str = "go"
    #: whether a start can be checked against an announced setup (``caller watch --setup-seed``)
    checks_setup: bool = True
    #: the options the referee's constructor takes from the command line (``--players``), each
    #: parsed by the class's ``parse_<option>(text)``, which raises ``CallerError`` in one line
    options: tuple[str, ...] = ()

    # -- readings ------------------------------------------------------------------------------
    @abstractmethod
    def reading(self, obs) -> "Reading":
        """A reader's observation (``vision`` Observation) as the tracker's Reading."""

    def settle(self, t: float, obs, loop: LoopView) -> "tuple[Reading | None, tuple[float, int] | None]":
        """The reading of a still frame's observation at ``t`` after the game's deductions for
        its doubtful items, and (since, reads) when that reading has already held since an
        earlier read (the tracker's ``offer(held=...)``). Default: no deductions."""
        return self.reading(obs), None

    @abstractmethod
    def reading_of(self, state) -> "Reading":
        """A state as the reading a sure read of it gives (the tracker's accepted reading)."""

    # -- positions -----------------------------------------------------------------------------
    @abstractmethod
    def parse(self, reading: "Reading") -> Any:
        """The position ``reading`` shows (hashable; it may break the game's invariants, which
        ``judge`` names relative to the last position), or an illegal ``Verdict`` when it is
        not one at all (a piece seen twice)."""

    @abstractmethod
    def state(self, position) -> Any:
        """``position`` as a legal game state, or an illegal ``Verdict`` saying why it is none."""

    @abstractmethod
    def judge(self, before, position, max_moves: int, motion: Motion | None = None) -> Verdict:
        """The change from the state ``before`` to ``position``: the moves that explain it (at
        most ``max_moves``; fewer is better), or why none do. ``motion``: the frames since
        ``before`` was accepted, for changes that only the motion tells apart (None: do not
        ask; the answer must then be the rules' alone)."""

    def done(self, state) -> bool:
        """Whether ``state`` meets the goal of a game with a clock. Default: never (a game of
        turns ends with a ``winner`` instead)."""
        return False

    def goal_problems(self, state) -> list:
        """The cells that keep ``state`` from the goal (empty when done), for a fumble."""
        return []

    @abstractmethod
    def board(self, state) -> dict:
        """``state`` as event data (the ``board`` event at the start; its ``board`` item also
        goes with an ``accepted`` event)."""

    # -- turns ---------------------------------------------------------------------------------
    def start(self, new, reading: "Reading") -> Any:
        """The first accepted position ``new`` (``state``'s answer) checked as a start: the
        start state, or an illegal ``Verdict`` naming what keeps it from being one (said once
        after the re-read, like an illegal change). ``reading``: the reading it was accepted
        from, for what the game fixes once at the start. Default: ``new`` as it is."""
        return new

    def behind_start(self, state) -> bool:
        """Whether the start ``state`` that ``start`` gave lies behind the board it was read from
        (the players moved before the Caller saw the start, and the start was told from the
        board after the move): that board is then judged from the start at once. Default:
        never."""
        return False

    def starting(self, state) -> "tuple[Happening, ...]":
        """What is said once the start position is accepted, after the ``board`` event (a
        turn game: who starts). Default: nothing (a game with a clock says "Go!")."""
        return ()

    def shows(self, state, new) -> bool:
        """Whether the position ``new`` (``state``'s answer) is the board of ``state``: no
        change. Default: they are equal."""
        return state == new

    def take(self, state, new) -> Any:
        """The state the board ``new`` becomes when the players accept it after a warning, the
        last legal state being ``state``; None when it cannot be accepted (a piece unread).
        Default: ``new`` itself."""
        return new

    def accepted(self, state) -> dict:
        """The ``accepted`` event's data for the state accepted. Default: its ``board``."""
        return {"board": self.board(state)["board"]}

    def winner(self, state) -> "tuple[dict, str] | tuple[dict, str, str] | None":
        """A game of turns ended in ``state``: (the ``won`` event's data, words), or (data, words,
        the event's type) for an end that is no win (``tie``); None while it goes on. Default: None."""
        return None

    def resumed(self, state) -> "tuple[Happening, ...]":
        """What is said after the ``accepted`` event, play going on from ``state`` (whose turn
        it is, a move the Caller plays itself). Default: nothing."""
        return ()

    def claim(self, state) -> "tuple[Any, tuple[Happening, ...]] | None":
        """A player's "Done!" call in a game of turns: a claim to have won with what the camera
        cannot see (the coin under a pawn collected). (the state after it, or None when it does
        not stand; what is said of it). None: the game takes no claims."""
        return None

    def say_illegal(self, verdict: Verdict, start: bool) -> str:
        """The words of an illegal change (``start``: of a first position that is no start).
        Default: the phrasebook's ``unreadable_start(why)``, or "Illegal move. " and its
        ``illegal(why)``."""
        if start:
            return self.phrases.unreadable_start(verdict.why)
        return "Illegal move. " + self.phrases.illegal(verdict.why)

    # -- optional ------------------------------------------------------------------------------
    def summary(self, events: "list[Event]") -> str | None:
        """The session in a few words for ``caller watch``'s last line, when the game counts
        its own way. Default: None (moves, warnings and the winner or "Done!")."""
        return None

    def wants_read(self, state) -> bool:
        """Whether a still scene whose position ``state`` is accepted is worth reading again
        soon: the last read saw something beside the board that ``state`` has not caught up
        with (a coin laid by a player's corner on the very reads that showed the move that let
        it be collected). Default: never."""
        return False

    def warm_up(self) -> None:
        """Load what the first judged change would otherwise wait for (compiled searches),
        once, before the camera starts. Default: nothing."""

    def setup_differences(self, setup, state) -> "tuple[dict, str] | None":
        """How a start position differs from the announced ``setup``: (event data, words), or
        None when it matches. Default: compared as states, no detail."""
        return None if state == setup else ({}, "The table does not match the setup.")

    def setup_mismatch(self, setup, seen) -> str:
        """What differs between the state ``seen`` and the announced ``setup``, for the one line
        of a game that never started because the table never matched (``caller watch
        --setup-seed``). Default: no detail."""
        return "the positions differ"

    def hint(self, state) -> "tuple[dict, str] | None":
        """The next move of a solution from ``state`` for a player who asks ("Caller, hint"):
        (the ``hint`` event's data, words), or None when the game offers no hints."""
        return None

    def expected(self, state, reading: "Reading") -> bool:
        """Whether ``reading`` is ``state`` with one legal move made (the change players make
        nearly every time, which the tracker accepts after ``expected_s``). Default: never."""
        return False
