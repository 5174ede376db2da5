"""The live Caller: accepted positions in, events out, for any game with a live referee.

This is the game-calling half of ``caller watch``; ``caller.watch`` feeds it. It is pure
logic over accepted positions (no images, no clocks), so tests drive it exactly. What a
position means (its moves, its goal, why a change is illegal) is asked of the game's live
referee (``caller.live_referee.LiveReferee``); what the Caller does with the answers is the
same for every game.

What a player at the table expects, and how it is done here:

* The first accepted position is the start (or, with an announced setup, it is checked
  against the setup and the differences are named until the table matches; then "Go!").
  A game whose referee checks the start (a turn game's setup) warns about a first position
  that is not one once: further positions that are not a start for the same reason are not
  said again (players who went on while the camera could not read the setup would hear it
  for every move), and the start, once right, is thanked for (``restored``) and begun.
* Each new accepted position is explained by the referee from the last legal one: one or
  several legal moves become ``move`` events (fast players make several moves between
  two still frames).
* A change that no moves explain is suspected first and announced only when the same
  position is accepted a second time after a fresh re-read (``needs_confirmation`` asks
  the loop for that: ``caller.watch`` takes two more agreeing reads of fresh frames), so
  one misread never becomes an accusation. It is then announced
  once; the Caller waits until the board is put back (``restored``) or the player accepts
  the new position (``accept`` command). A player who plays on with legal moves from the
  board that was warned about is followed silently (no new warning for each move); a new
  illegal change is warned about again, unless the referee gives it the same reason as the
  warning that stands (the same wrong still being made or put right: a line pushed on while
  the Caller confirmed the first push's board), which is not said twice.
* Some illegal changes are seen happening rather than read from a still position (Easy
  Slider: two tiles pushed together, which leaves the board of two quick slides): the
  referee asks ``motion`` (set by ``caller.watch``: a ``vision.pushes.MotionTrack`` over
  the frames since the last accepted position) and marks its verdict ``seen``. Such a change
  is announced at once, without the re-read other illegal changes wait for: the re-read
  guards against a misread position, and this position was read surely; what makes it
  illegal is the motion seen over many frames (and a player who plays on before a re-read
  would undo the evidence). Without ``motion``, the referee judges by the rules alone.
* A camera or stream that stops sending pictures is reported ("The camera stopped sending
  pictures") and the game is kept as it stands (position, clock, a standing warning); when
  the pictures come back the next accepted position is explained from the last one, so the
  moves made while the camera was away are registered too.
* "Done!" is called once, the moment an accepted position meets the goal, with the time
  since "Go!". A player's own "Done!" call (the ``done`` command) on a wrong board is a
  fumble and names the wrong cells.
* A game of turns (the referee's ``clock`` False) has no "Go!", clock or "Done!": the start
  position is checked as a start by the referee (``start``) and its first words said (who
  starts), each change's events come from the referee with their words (the shift, the
  move, whose turn it is now), the state after a change is the referee's (``Verdict.after``:
  whose turn, the coins collected), and the game ends, once, with a ``won`` event; positions
  after that are not judged.
"""

from __future__ import annotations

from typing import Any

from caller.events import Event
from caller.live_referee import Happening, LiveReferee, Motion, Verdict
from caller.tracker import Reading
from voice.phrasebook import common


class LiveCaller:
    """Calls one player's board of the game ``referee`` judges.

    ``setup``: the announced setup to verify the table against (None: the first accepted
    position is the start). ``start_t``: source time of "Go!" when the clock was started
    elsewhere (a race round); otherwise the clock starts when the start position is accepted.
    """

    def __init__(self, referee: LiveReferee, setup: Any = None, start_t: float | None = None):
        self.referee = referee
        self.phrases = referee.phrases
        self.setup = setup
        self.current: Any = None  # the last legal, accepted state
        self.observed: Any = None  # the last accepted position as a state (legal or not; None: no state)
        self.start_t = start_t
        self.blocked = False  # an illegal change was announced and is not yet resolved
        self.done_t: float | None = None
        self.slides = 0  # moves registered (the ``done`` event's "slides")
        self._suspect: tuple | None = None  # the key of a change awaiting its confirming re-read
        self._announced_illegal: tuple | None = None
        self._setup_announced: Any = None
        self.needs_confirmation = False
        self._warned: Any = None  # the state the standing warning is about
        self._warned_why: Any = None  # the standing warning's reason (``Verdict.why``)
        self._seen_t: float | None = None  # source time of the last position the Caller followed
        #: the frames since the last accepted position, for the referee (see the module's
        #: docstring); None: changes are judged by the rules alone
        self.motion: Motion | None = None
        self.paused_t: float | None = None  # source time the clock was paused ("Caller, pause")

    @property
    def suspecting(self) -> bool:
        """True while an illegal-looking change waits for its confirming re-read."""
        return self._suspect is not None

    # -- positions ---------------------------------------------------------------------------------
    def on_position(self, t: float, reading: Reading) -> list[Event]:
        """An accepted position at source time ``t``; returns the events it causes."""
        cap = self._max_moves(t)
        self._seen_t = t
        if self.over:
            return []  # a game of turns was won: nothing after that is judged
        position = self.referee.parse(reading)
        if isinstance(position, Verdict):  # a piece seen twice...: nothing a move can make
            return self._suspect_illegal(t, reading.key, position)
        new = self.referee.state(position)
        if self.current is None:
            if isinstance(new, Verdict):
                return self._suspect_illegal(t, reading.key, new)
            start = self.referee.start(new, reading)
            if isinstance(start, Verdict):  # not a start position (a turn game's placement rules)
                return self._suspect_illegal(t, reading.key, start)
            self.observed = start
            events = self._start(t, start)
            if self.current is start and self.referee.behind_start(start):
                events += self.on_position(t, reading)  # the board read, judged from the start
            return events
        if self.referee.shows(self.current, new):
            return self._back_to_current(t)
        change = self.referee.judge(self.current, position, cap, self.motion)
        if change.legal:
            self.observed = new
            self._suspect = None
            self._announced_illegal = None
            was_blocked, self.blocked = self.blocked, False
            events = [] if not was_blocked else [Event(t, "restored", {}, self.phrases.restored())]
            for move in change.moves:
                if isinstance(move, Happening):
                    self.slides += move.type == "move"
                    events.append(Event(t, move.type, move.data, move.say))
                else:
                    self.slides += 1
                    events.append(Event(t, "move", move, None))
            self.current = new if change.after is None else change.after
            return events + self._check_done(t)
        previous = self.observed
        self.observed = None if isinstance(new, Verdict) else new  # None: a lifted piece, say
        if self.blocked and previous is not None and previous == self._warned and self.observed is not None:
            # the player plays on from the board the Caller warned about: follow it silently (the
            # warning stands until the board is put back or accepted), warn again only about a
            # new illegal change
            base = self.referee.take(self.current, previous)
            if base is not None and self.referee.judge(base, position, cap).legal:
                self._suspect = None
                self._announced_illegal = reading.key
                self._warned = self.observed
                return []
        return self._suspect_illegal(t, reading.key, change)

    #: a fast player makes about 3 moves a second; more than this many moves per second of
    #: source time between two accepted positions is not believed (the change is illegal)
    MOVES_PER_SECOND = 4.0
    MIN_MOVES = 12

    def _max_moves(self, t: float) -> int:
        """How many moves can explain a change seen at ``t`` (bounded by the time since the last one)."""
        dt = 0.0 if self._seen_t is None else max(0.0, t - self._seen_t)
        return int(self.MIN_MOVES + self.MOVES_PER_SECOND * dt)

    def _start(self, t: float, new: Any) -> list[Event]:
        events: list[Event] = []
        if self.setup is not None:
            differs = self.referee.setup_differences(self.setup, new)
            if differs is not None:
                if new == self._setup_announced:
                    return []
                self._setup_announced = new
                data, say = differs
                return [Event(t, "setup", data, say, warning=True)]
        self.current = new
        if self.blocked:  # the warning about the start is answered: the start is right now
            self.blocked, self._suspect, self._announced_illegal, self._warned_why = False, None, None, None
            events.append(Event(t, "restored", {}, self.phrases.restored()))
        events.append(Event(t, self.referee.board_event, self.referee.board(new), None))
        if self.start_t is None:
            self.start_t = t
            if self.referee.clock:
                events.append(Event(t, "go", {}, self.phrases.go()))
        events += [Event(t, h.type, h.data, h.say) for h in self.referee.starting(new)]
        return events + self._check_done(t)

    def _back_to_current(self, t: float) -> list[Event]:
        self._suspect = None
        if self.blocked:
            self.blocked = False
            self._announced_illegal = None
            return [Event(t, "restored", {}, self.phrases.restored())]
        return []

    def _suspect_illegal(self, t: float, key: tuple, verdict: Verdict) -> list[Event]:
        """``verdict``: the referee's (its ``reason`` and ``cells`` written in the event, its
        ``why`` said); a ``seen`` one is announced without waiting for a re-read (see the
        module's docstring)."""
        if key == self._announced_illegal:
            return []  # the same warning is not repeated while nothing changed
        if self.blocked and verdict.why is not None and self._same_warning(verdict.why):
            # the wrong warned about still being made or put right: it stands, said once, now
            # about this board (which the players may play on from)
            self._suspect = None
            self._announced_illegal = key
            self._warned = self.observed
            return []
        if self._suspect != key and not verdict.seen:
            self._suspect = key
            self.needs_confirmation = True  # the loop re-reads before anything is said
            return []
        self._suspect = None
        self._announced_illegal = key
        self._warned = self.observed
        self._warned_why = verdict.why
        self.blocked = True
        say = self.referee.say_illegal(verdict, start=self.current is None)
        return [Event(t, "illegal", {"reason": verdict.reason, self.referee.cells_key: list(verdict.cells)}, say,
                      warning=True)]

    def _same_warning(self, why) -> bool:
        """Whether ``why`` is the reason of the warning that stands (its case: the squares it
        names move as the board is pushed on or put right)."""
        return self._warned_why is not None and why.code == self._warned_why.code

    @property
    def over(self) -> bool:
        """A game of turns has been won (a race's "Done!" leaves the board watched)."""
        return self.done_t is not None and not self.referee.clock

    def _check_done(self, t: float) -> list[Event]:
        if not self.referee.clock:
            won = None if self.done_t is not None or self.current is None else self.referee.winner(self.current)
            if won is None:
                return []
            self.done_t = t
            return [Event(t, won[2] if len(won) > 2 else "won", won[0], won[1])]
        if self.done_t is None and self.current is not None and self.referee.done(self.current):
            self.done_t = t
            elapsed = t - (self.start_t if self.start_t is not None else t)
            return [Event(t, "done", {"correct": True, "elapsed": round(elapsed, 2), "slides": self.slides},
                          self.phrases.done(True, elapsed))]
        return []

    def follows(self, t: float, reading: Reading) -> bool:
        """Whether ``reading`` at ``t`` is a position the Caller takes without a warning: its
        current one, or legal moves from it (while no warning stands or is pending)."""
        if self.current is None or self.blocked or self._suspect is not None:
            return False
        position = self.referee.parse(reading)
        if isinstance(position, Verdict):
            return False
        if self.referee.shows(self.current, self.referee.state(position)):
            return True
        return self.referee.judge(self.current, position, self._max_moves(t)).legal

    def expects(self, reading: Reading) -> bool:
        """Whether ``reading`` is the change a player makes nearly every time: the current
        position with one legal move made (no warning standing or pending). ``caller.watch``
        accepts such a reading sooner."""
        if self.current is None or self.blocked or self._suspect is not None:
            return False
        return self.referee.expected(self.current, reading)

    def revise(self, t: float, state: Any, observed: Any = None) -> list[Event]:
        """The current position read anew without a move (the referee's deductions settled a
        doubtful piece another way): ``state`` is set silently, and ``observed`` too when
        given; "Done!" if it now meets the goal."""
        if self.current is None:
            return []
        if observed is not None:
            self.observed = observed
        self.current = state
        return self._check_done(t)

    # -- the source -------------------------------------------------------------------------------
    def on_source(self, t: float, kind: str, detail: str) -> list[Event]:
        """Something happened to the camera or recording, not on the table (``kind`` of a
        ``caller.sources.SourceNotice``): the game is kept as it is. A lost camera is said as a
        warning and its return said too (``camera`` events); a frame skipped or a recording cut
        short is written down (``source`` events) but not said: the game goes on."""
        if kind == "lost":
            return [Event(t, "camera", {"state": "lost", "detail": detail}, common.camera_lost(), warning=True)]
        if kind == "back":
            return [Event(t, "camera", {"state": "back", "detail": detail}, common.camera_back())]
        return [Event(t, "source", {"problem": kind, "detail": detail}, None)]

    # -- player commands ---------------------------------------------------------------------------
    def accept(self, t: float) -> list[Event]:
        """The player says the new position is right (after an illegal-move warning)."""
        if not self.blocked or self.observed is None:
            return []
        new = self.referee.take(self.current, self.observed)
        if new is None:
            return []
        self.current = new
        self.blocked = False
        self._announced_illegal = None
        return ([Event(t, "accepted", self.referee.accepted(self.current), self.phrases.accepted())]
                + [Event(t, h.type, h.data, h.say) for h in self.referee.resumed(self.current)]
                + self._check_done(t))

    def toggle_pause(self, t: float) -> bool:
        """"Caller, pause": stops the clock (True), or, said again, runs it on (False); the
        paused time is left out of the finish time."""
        if self.paused_t is None:
            self.paused_t = t
            return True
        if self.start_t is not None:
            self.start_t += t - self.paused_t
        self.paused_t = None
        return False

    def call_done(self, t: float) -> list[Event]:
        """The player calls "Done!" (a key): verified against the goal; a wrong board is a fumble.
        In a game of turns it is a claim to have won (``LiveReferee.claim``), checked as far as
        the camera can: a ``won`` event when it stands, the referee's words when it does not."""
        if self.current is None or self.over:
            return []
        if not self.referee.clock:
            answer = None if self.blocked else self.referee.claim(self.current)
            if answer is None:
                return []
            after, said = answer
            events = [Event(t, h.type, h.data, h.say, warning=h.type == "fumble") for h in said]
            if after is not None:
                self.current = after
                events += self._check_done(t)
            return events
        if self.done_t is not None:
            return []
        wrong = self.referee.goal_problems(self.current)
        if not wrong and not self.blocked:
            return self._check_done(t)
        return [Event(t, "fumble", {"correct": False, "cells": [list(c) for c in wrong]},
                      self.phrases.fumble(wrong), warning=True)]
