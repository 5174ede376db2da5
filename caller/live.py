"""The live Caller for Easy Slider: accepted positions in, events out.

This is the game-calling half of ``caller watch``; ``caller.watch`` feeds it. It is pure
logic over accepted positions (no images, no clocks), so tests drive it exactly.

What a player at the table expects, and how it is done here:

* The first accepted position is the start (or, with an announced setup, it is checked
  against the setup and the differing cells are named until the table matches; then "Go!").
* Each new accepted position is explained by the rules engine from the last legal one:
  one or several legal slides become ``move`` events (fast players make several slides
  between two still frames).
* A change that no slides explain is suspected first and announced only when the same
  position is accepted a second time after a fresh re-read (``needs_confirmation`` asks
  the loop for that: ``caller.watch`` takes two more agreeing reads of fresh frames), so
  one misread never becomes an accusation. It is then announced
  once; the Caller waits until the board is put back (``restored``) or the player accepts
  the new position (``accept`` command). A player who plays on with legal slides from the
  board that was warned about is followed silently (no new warning for each slide); a new
  illegal change is warned about again.
* Two tiles pushed together along a line into the hole leave the same board as two quick
  slides along that line. When a change is explained with such a pair, the Caller asks
  ``motion`` (set by ``caller.watch``: a ``vision.pushes.MotionTrack`` over the frames since
  the last accepted position) whether the two tiles were seen moving together; only then is
  it an illegal move. It is announced at once, without the re-read other illegal changes
  wait for: the re-read guards against a misread position, and this position is a legal
  one that was read surely; what makes it illegal is the motion seen over many frames (and a
  player who slides on before a re-read would undo the evidence). Without ``motion``, or when
  the frames do not show it (a hand over the tiles), it is two slides: a push the Caller did
  not see is never held against the player.
* A camera or stream that stops sending pictures is reported ("The camera stopped sending
  pictures") and the game is kept as it stands (position, clock, a standing warning); when
  the pictures come back the next accepted position is explained from the last one, so the
  slides made while the camera was away are registered too.
* "Done!" is called once, the moment an accepted position matches the goal, with the time
  since "Go!". A player's own "Done!" call (the ``done`` command) on a wrong board is a
  fumble and names the wrong cells.
"""

from __future__ import annotations

from caller.events import Event
from caller.tracker import Reading
from rules.easy_slider import reasons
from rules.easy_slider.codec import parse_observation
from rules.easy_slider.explain import explain
from rules.easy_slider.state import EasySliderState, apply, goal_problems, is_done, legal_moves
from rules.errors import MalformedPosition
from rules.reasons import Reason
from voice.phrasebook import common
from voice.phrasebook import easy_slider as phrases


class LiveCaller:
    """Calls one player's Easy Slider board.

    ``setup``: the announced setup to verify the table against (None: the first accepted
    position is the start). ``start_t``: source time of "Go!" when the clock was started
    elsewhere (a race round); otherwise the clock starts when the start position is accepted.
    """

    def __init__(self, setup: EasySliderState | None = None, start_t: float | None = None):
        self.setup = setup
        self.current: EasySliderState | None = None  # the last legal, accepted position
        self.observed: EasySliderState | None = None  # the last accepted position (legal or not)
        self.start_t = start_t
        self.blocked = False  # an illegal change was announced and is not yet resolved
        self.done_t: float | None = None
        self.slides = 0
        self._suspect: tuple | None = None  # the key of a change awaiting its confirming re-read
        self._announced_illegal: tuple | None = None
        self._setup_announced: tuple | None = None
        self.needs_confirmation = False
        self._warned: EasySliderState | None = None  # the board the standing warning is about
        self._seen_t: float | None = None  # source time of the last position the Caller followed
        #: answers ``pushed_together(hole, near, far)`` from the frames since the last accepted
        #: position (see the module's docstring); None: pairs of slides are never questioned
        self.motion = None
        self._pushes: dict[tuple, tuple | None] = {}  # (current, seen) -> a push seen, asked once
        self.paused_t: float | None = None  # source time the clock was paused ("Caller, pause")

    @property
    def suspecting(self) -> bool:
        """True while an illegal-looking change waits for its confirming re-read."""
        return self._suspect is not None

    # -- positions ---------------------------------------------------------------------------------
    def on_position(self, t: float, reading: Reading) -> list[Event]:
        """An accepted position at source time ``t``; returns the events it causes."""
        cap = self._max_slides(t)
        self._seen_t = t
        obs = {"board": [list(r) for r in reading.board], "pawns": list(reading.pawns), "coins": list(reading.coins)}
        try:
            board, pawns, coins = parse_observation(obs, "the table")
        except MalformedPosition as exc:
            # a tile seen twice, pawns or coins that repeat: nothing a slide can make
            return self._suspect_illegal(t, reading.key, str(exc), [], exc.reason)
        if self.current is None:
            try:
                new = EasySliderState(board, pawns, coins)
            except MalformedPosition as exc:
                return self._suspect_illegal(t, reading.key, str(exc), [], exc.reason)
            self.observed = new
            return self._start(t, new)
        if board == self.current.board and pawns == self.current.pawns and coins == self.current.coins:
            return self._back_to_current(t)
        change = explain(self.current, board, max_slides=cap, pawns=pawns, coins=coins)
        push = self._push(change, reading.key) if change.legal else None
        if change.legal and push is None:
            new = EasySliderState(board, pawns, coins)
            self.observed = new
            self._suspect = None
            self._announced_illegal = None
            was_blocked, self.blocked = self.blocked, False
            events = [] if not was_blocked else [Event(t, "restored", {}, phrases.restored())]
            for slide in change.slides:
                self.slides += 1
                events.append(Event(t, "move", slide.to_json(), None))
            self.current = new
            return events + self._check_done(t)
        previous = self.observed
        try:
            self.observed = EasySliderState(board, pawns, coins)
        except MalformedPosition:
            self.observed = None  # a lifted tile: nothing to accept until it is back
        if self.blocked and previous is not None and previous == self._warned and self.observed is not None:
            # the player plays on from the board the Caller warned about: follow it silently (the
            # warning stands until the board is put back or accepted), warn again only about a
            # new illegal change
            if explain(previous, board, max_slides=cap, pawns=pawns, coins=coins).legal:
                self._suspect = None
                self._announced_illegal = reading.key
                self._warned = self.observed
                return []
        if push is not None:
            hole, near, far = push
            why = Reason(reasons.PUSHED, (far, near, hole), (self.current.board[far], self.current.board[near]))
            return self._suspect_illegal(t, reading.key, reasons.text(why), sorted([list(far), list(near), list(hole)]),
                                         why, seen=True)
        return self._suspect_illegal(t, reading.key, change.reason, [list(c) for c in change.cells], change.why)

    #: a fast player makes about 3 slides a second; more than this many slides per second of
    #: source time between two accepted positions is not believed (the change is illegal)
    SLIDES_PER_SECOND = 4.0
    MIN_SLIDES = 12

    def _max_slides(self, t: float) -> int:
        """How many slides can explain a change seen at ``t`` (bounded by the time since the last one)."""
        dt = 0.0 if self._seen_t is None else max(0.0, t - self._seen_t)
        return int(self.MIN_SLIDES + self.SLIDES_PER_SECOND * dt)

    def _start(self, t: float, new: EasySliderState) -> list[Event]:
        events: list[Event] = []
        if self.setup is not None:
            wrong = self.setup.board.diff(new.board)
            pawns_ok = new.pawns == self.setup.pawns
            coins_ok = new.coins == self.setup.coins
            if wrong or not pawns_ok or not coins_ok:
                key = (new.board, new.pawns, new.coins)
                if key == self._setup_announced:
                    return []
                self._setup_announced = key
                data = {"cells": [list(c) for c in wrong], "pawns_ok": pawns_ok, "coins_ok": coins_ok}
                say = phrases.setup_differences(self.setup, new, wrong, pawns_ok, coins_ok)
                return [Event(t, "setup", data, say, warning=True)]
        self.current = new
        events.append(Event(t, "board", {"board": _codes(new), "pawns": [p.code for p in new.pawns],
                                         "coins": [c.code for c in new.coins]}, None))
        if self.start_t is None:
            self.start_t = t
            events.append(Event(t, "go", {}, phrases.go()))
        return events + self._check_done(t)

    def _back_to_current(self, t: float) -> list[Event]:
        self._suspect = None
        if self.blocked:
            self.blocked = False
            self._announced_illegal = None
            return [Event(t, "restored", {}, phrases.restored())]
        return []

    def _push(self, change, key: tuple) -> tuple | None:
        """(hole, near, far) of the first pair of the change's slides that could be one push of
        two tiles along a line, when ``motion`` saw those tiles move together; else None.
        Asked once for each change (the confirming re-read reuses the answer: by then the
        frames of the push are gone). Only pairs whose tiles are still where the last accepted
        position had them can be followed in the frames since it."""
        if self.motion is None or len(change.slides) < 2:
            return None
        memo = (self.current, key)
        if memo not in self._pushes:
            found, touched = None, set()
            for first, second in zip(change.slides, change.slides[1:]):
                hole, near, far = first.dst, first.src, second.src
                in_line = second.dst == near and (far[0] - near[0], far[1] - near[1]) == (near[0] - hole[0], near[1] - hole[1])
                if in_line and near not in touched and far not in touched and self.motion.pushed_together(hole, near, far):
                    found = (hole, near, far)
                    break
                touched |= {first.src, first.dst}
            self._pushes = {memo: found}
        return self._pushes[memo]

    def _suspect_illegal(self, t: float, key: tuple, reason: str, cells: list, why: Reason | None,
                         seen: bool = False) -> list[Event]:
        """``reason`` and ``cells``: the event's written verdict; ``why``: the same as data, which
        the Caller says. ``seen``: the change was seen happening (a push in the frames between
        still ones), so it is announced without waiting for a re-read (see the module's docstring)."""
        if key == self._announced_illegal:
            return []  # the same warning is not repeated while nothing changed
        if self._suspect != key and not seen:
            self._suspect = key
            self.needs_confirmation = True  # the loop re-reads before anything is said
            return []
        self._suspect = None
        self._announced_illegal = key
        self._warned = self.observed
        self.blocked = True
        if self.current is None:
            say = phrases.unreadable_start(why)
        else:
            say = "Illegal move. " + phrases.illegal(why)
        return [Event(t, "illegal", {"reason": reason, "cells": cells}, say, warning=True)]

    def _check_done(self, t: float) -> list[Event]:
        if self.done_t is None and self.current is not None and is_done(self.current):
            self.done_t = t
            elapsed = t - (self.start_t if self.start_t is not None else t)
            return [Event(t, "done", {"correct": True, "elapsed": round(elapsed, 2), "slides": self.slides},
                          phrases.done(True, elapsed))]
        return []

    def follows(self, t: float, reading: Reading) -> bool:
        """Whether ``reading`` at ``t`` is a position the Caller takes without a warning: its
        current one, or legal slides from it (while no warning stands or is pending)."""
        if self.current is None or self.blocked or self._suspect is not None:
            return False
        obs = {"board": [list(r) for r in reading.board], "pawns": list(reading.pawns), "coins": list(reading.coins)}
        try:
            board, pawns, coins = parse_observation(obs, "the table")
        except MalformedPosition:
            return False
        if board == self.current.board and pawns == self.current.pawns and coins == self.current.coins:
            return True
        return explain(self.current, board, max_slides=self._max_slides(t), pawns=pawns, coins=coins).legal

    def expects(self, reading: Reading) -> bool:
        """Whether ``reading`` is the change a player makes nearly every time: the current
        position with one legal slide made, pawns and coins as they were (no warning standing
        or pending). ``caller.watch`` accepts such a reading sooner."""
        if self.current is None or self.blocked or self._suspect is not None:
            return False
        pieces = (tuple(p.code for p in self.current.pawns), tuple(c.code for c in self.current.coins))
        if (reading.pawns, reading.coins) != pieces:
            return False
        return any(tuple(map(tuple, _codes(apply(self.current, move)))) == reading.board
                   for move in legal_moves(self.current))

    def revise_pieces(self, t: float, pawns: tuple[str, ...], coins: tuple[str, ...]) -> list[Event]:
        """The pawns and coins read anew (``caller.watch`` started on a provisional read of a
        piece and the reads now favour another): set on the position silently, not a move
        (pawns and coins never move in Easy Slider); "Done!" if the board now meets the goal."""
        if self.current is None:
            return []
        try:
            board, p, c = parse_observation({"board": _codes(self.current), "pawns": list(pawns), "coins": list(coins)}, "the table")
            new = EasySliderState(board, p, c)
        except MalformedPosition:
            return []
        if self.observed is not None and self.observed.board == new.board:
            self.observed = new
        self.current = new
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
        self.current = self.observed
        self.blocked = False
        self._announced_illegal = None
        return [Event(t, "accepted", {"board": _codes(self.current)}, phrases.accepted())] + self._check_done(t)

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
        """The player calls "Done!" (a key): verified against the goal; a wrong board is a fumble."""
        if self.current is None:
            return []
        if self.done_t is not None:
            return []
        wrong = goal_problems(self.current)
        if not wrong and not self.blocked:
            return self._check_done(t)
        return [Event(t, "fumble", {"correct": False, "cells": [list(c) for c in wrong]},
                      phrases.fumble(wrong), warning=True)]


def _codes(state: EasySliderState) -> list[list[str | None]]:
    return state.board.to_lists(lambda tile: tile.code)
