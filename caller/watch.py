"""The ``caller watch`` loop: frames -> motion gate -> reader -> tracker -> live Caller -> events.

Per frame (times are source time, so a recorded file gives the same events on any machine):

1. The motion gate looks at a thumbnail. While the scene moves (a hand, a sliding tile)
   nothing is read and any pending candidate is dropped.
2. Once still, the reader reads the frame; the tracker accepts a position only when
   confident reads agree for ``accept_s``. Unchanged still frames after an accepted
   position are not read again, which is what keeps the loop fast.
3. Accepted positions go to the ``LiveCaller``; a suspected illegal change makes the loop
   re-read the table before anything is announced.
4. Every frame, moving or not, also goes to a ``MotionTrack`` (a small warped picture of the
   board since the last accepted position), which the Caller asks when a change could be two
   tiles pushed at once rather than two slides (see ``vision.pushes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from caller.events import Event
from caller.live import LiveCaller
from caller.tracker import PositionTracker, Reading, TrackerConfig
from rules import exact_search
from vision import kernels
from vision.assign import assign
from vision.config import VisionConfig
from vision.errors import BoardNotFound
from vision.motion import MotionConfig, MotionGate
from vision.pushes import MotionTrack


class FrameReader(Protocol):
    def read(self, image: np.ndarray):  # -> vision Observation
        ...


@dataclass
class WatchStats:
    frames: int = 0
    reads: int = 0
    not_found: int = 0


class UndistortingReader:
    """Undistorts each frame with a camera profile (``caller calibrate-camera``) before reading it.

    The observation's image coordinates (board corners) are then those of the undistorted frame.
    """

    def __init__(self, reader: FrameReader, camera_profile):
        self.reader = reader
        self.camera_profile = camera_profile

    def read(self, image: np.ndarray):
        from calibration.camera import undistort

        return self.reader.read(undistort(image, self.camera_profile))

    def frame_points(self, points, size: tuple[int, int]) -> np.ndarray:
        """Points of a read's undistorted frame (board corners) in the camera's own frame."""
        from calibration.camera import distort_points

        return distort_points(np.asarray(points), self.camera_profile, size)


def with_camera(reader: FrameReader, camera_path: str | None) -> FrameReader:
    """``reader`` itself, or wrapped to undistort frames when a camera profile file is given."""
    if camera_path is None:
        return reader
    from calibration.camera import load_camera_profile

    return UndistortingReader(reader, load_camera_profile(camera_path))


def _vision_config(reader) -> VisionConfig:
    """The config of ``reader`` (or of the reader it wraps), else the defaults."""
    for r in (reader, getattr(reader, "reader", None)):
        if isinstance(getattr(r, "config", None), VisionConfig):
            return r.config
    return VisionConfig()


def reading_from(obs) -> Reading:
    """The tracker's view of a vision Observation: codes plus every cell/pawn/coin in doubt."""
    uncertain = set(map(tuple, obs.uncertain))
    pawns = tuple(None if i in obs.uncertain_pawns else p for i, p in enumerate(obs.pawns))
    coins = tuple(None if i in obs.uncertain_coins else c for i, c in enumerate(obs.coins))
    return Reading(tuple(tuple(r) for r in obs.board), pawns, coins, frozenset(uncertain))


# The numbers below are ``TrackerConfig``'s (``[vision.tracker]``).
#
# Before the start position is accepted, a pawn or coin the reader is unsure of is taken as
# the reader's choice once that choice has held on every read for ``steady_s`` seconds of
# source time and at least ``steady_reads`` reads (a small or blurred coin is often never read
# sure, and without the coins the game cannot start); a choice that changes between reads resets it.
#
# A pawn or coin whose choice keeps changing between reads (a small blurred coin read 2, 3,
# 5 in turn) would hold the start back for ever while the tiles are read sure. Once the
# tiles alone have held as the tracker asks of a position (``accept_s``, ``min_reads``; the
# coins do not take part in any slide), such a piece is taken *provisionally* as the reader's most
# frequent choice (a sure read counts ``sure_vote`` times an unsure one, the pieces kept
# distinct): the game starts and the slides are followed. Pawns and coins never move, so
# every later read keeps voting; when the vote moves, the piece is revised silently (never
# reported as a change) and "Done!" is checked against the revised goal.
#
# After the start, a read with one doubtful cell, or two that are not the hole, read the
# same way on the last ``tile_steady_reads`` reads over ``tile_steady_s``, is taken as sure when the
# Caller would follow the position it makes (the same, or legal slides from the last one):
# a shaded row can stay just below the confidence threshold for a second after the hand has
# gone, and would hold "Done!" back. This deduces, it does not guess: the reader's 25 labels
# are distinct, so one doubtful cell can only hold the label the other 24 leave, and two
# doubtful tiles read the wrong way round are two tiles swapped, which no slides can do (a
# swap changes the permutation's parity, a slide into the hole does not). A tile and the
# hole swapped is one slide, which is why the hole must be read sure. Before the start, one
# doubtful cell read the same way is taken too (the same deduction; there is no last
# position to follow): otherwise a blurred corner tile read just below the threshold holds
# the start back until after the first slide, and every slide is then registered one
# position late.


class Watcher:
    """Drives one board's ``LiveCaller`` from frames. ``process(image, t)`` returns new events."""

    def __init__(self, reader: FrameReader, caller: LiveCaller, *, tracker: TrackerConfig | None = None,
                 motion: MotionConfig | None = None, retry_s: float | None = None):
        self.reader = reader
        self.caller = caller
        vc = _vision_config(reader)  # [vision.motion], [vision.pushes], [vision.tracker]
        self.gate = MotionGate(motion or vc.motion)
        self.track = MotionTrack(vc.pushes)
        caller.motion = self.track
        self.tracker = PositionTracker(tracker or vc.tracker)
        self.retry_s = self.tracker.config.retry_s if retry_s is None else retry_s
        self.stats = WatchStats()
        self.last_observation = None
        self._last_read_t: float | None = None
        self._last_confident = False
        self._recent: list[_Read] = []  # the last reads, for steady_s, sure_vote and tile_steady_s
        self.provisional: dict[str, dict[int, dict[str, float]]] = {}  # kind -> slot -> votes, see sure_vote
        self.pending_events: list[Event] = []  # what a silent revision of the pieces caused ("Done!")
        # load the compiled slide search and the reader's compiled loops now (about a second,
        # once per process), so that neither the first read nor the first explained move
        # holds up a live camera
        exact_search.warm_up()
        kernels.warm_up()

    def process(self, image: np.ndarray, t: float) -> list[Event]:
        self.stats.frames += 1
        motion = self.gate.update(image, t)
        self.track.add(image)
        if not motion.still:
            self.tracker.interrupt()
            return []
        if not self._should_read(t):
            return []
        reading, held = self._read(image, t)
        self._last_read_t = t
        self._last_confident = reading is not None and reading.confident
        self.gate.mark()
        events, self.pending_events = self.pending_events, []
        accepted = self.tracker.offer(t, reading, held=held, expected=self.caller.expects)
        if accepted is None:
            return events
        events += self.caller.on_position(t, accepted)
        if self.last_observation is not None and not self.caller.suspecting:
            # the frames from here on are those the next change is judged by (while a change
            # waits for its confirming re-read the Caller's position has not moved: the frames
            # since it stay, in case that re-read differs and its change is asked about)
            corners = self.last_observation.board_corners
            to_frame = getattr(self.reader, "frame_points", None)  # a camera profile's undistortion
            self.track.reset(image, corners if to_frame is None else to_frame(corners, (image.shape[1], image.shape[0])))
        if self.caller.needs_confirmation:
            # a change no slides explain: forget the acceptance so the same position must be
            # read and accepted again from fresh frames before the Caller says anything
            self.caller.needs_confirmation = False
            self.tracker.accepted = None if self.caller.current is None else _reading_of(self.caller.current)
            self.tracker.confirming = True
        return events

    def source_notice(self, notice) -> list[Event]:
        """A ``caller.sources.SourceNotice`` (the camera lost or back, a frame skipped...): the
        game is kept; a candidate position building up when the pictures stopped must be seen
        again in the frames after the gap before it is accepted."""
        if notice.kind in ("lost", "back"):
            self.tracker.interrupt()
        return self.caller.on_source(notice.t, notice.kind, notice.detail)

    def _should_read(self, t: float) -> bool:
        if self.tracker.pending:
            return self.tracker.wants_read(t)
        if self._last_read_t is None or self.gate.changed_since_mark():
            return True
        if self.caller.needs_confirmation or not self._last_confident:
            return t - self._last_read_t >= self.retry_s - 1e-9
        # an unchanged still scene whose position is accepted: confirm a suspect, else rest
        return self.caller.suspecting and t - self._last_read_t >= self.tracker.config.reread_s

    def _read(self, image: np.ndarray, t: float) -> tuple[Reading | None, tuple[float, int] | None]:
        """(the frame's reading, or None when no board was found; (since, reads) when that
        reading has already held since an earlier read, see ``_steady``)."""
        self.stats.reads += 1
        try:
            obs = self.reader.read(image)
        except BoardNotFound:
            self.stats.not_found += 1
            self.last_observation = None
            return None, None
        self.last_observation = obs
        reading = reading_from(obs)
        self._recent = (self._recent + [_Read(t, reading, tuple(obs.pawns), tuple(obs.coins))])[-4 * self.tracker.config.steady_reads:]
        current = self.caller.current
        if current is None:
            if None in reading.pawns or None in reading.coins:
                return self._steady(reading, t)
            self.provisional = {}
            return self._steady_tiles(reading, t) if reading.uncertain else (reading, None)
        if self.provisional:
            reading = self._revise(reading, obs, t)
        if None in reading.pawns or None in reading.coins:
            # pawns and coins never move in Easy Slider: once the start position is accepted, a
            # pawn or coin the reader is unsure of is taken as the one already seen there (a
            # confidently different one is still a change the Caller reports)
            pawns = tuple(p.code if r is None else r for r, p in zip(reading.pawns, current.pawns))
            coins = tuple(c.code if r is None else r for r, c in zip(reading.coins, current.coins))
            reading = Reading(reading.board, pawns, coins, reading.uncertain)
        if reading.uncertain:
            return self._steady_tiles(reading, t)
        return reading, None

    def _steady_tiles(self, reading: Reading, t: float) -> tuple[Reading, tuple[float, int] | None]:
        """``reading`` taken as sure when its few doubtful cells have been read the same on the
        last reads (``tile_steady_s``) and the position it makes is one the Caller follows from its
        current one (the same, or legal slides); else ``reading`` as it is."""
        cfg = self.tracker.config
        run = self._recent[-cfg.tile_steady_reads:]
        start = self.caller.current is None
        if (len(run) < cfg.tile_steady_reads or t - run[0].t < cfg.tile_steady_s - 1e-9
                or any(v.reading.board != reading.board or not _deducible(reading.board, v.reading.uncertain, start)
                       for v in run)):
            return reading, None
        sure = Reading(reading.board, reading.pawns, reading.coins)
        if not sure.confident or not (start or self.caller.follows(t, sure)):
            return reading, None
        return sure, (run[0].t, len(run))

    def _steady(self, reading: Reading, t: float) -> tuple[Reading, tuple[float, int] | None]:
        """``reading`` with each doubtful pawn or coin filled in by the reader's steady choice
        (``steady_s``), and (since, reads) when every read of that time saw the same board, pawns
        and coins as the filled-in reading: the position has then already held that long, and
        the tracker need not wait its own ``accept_s`` again (a player's first slide often
        follows the deal by two or three seconds, with hands over the board in between).
        Failing that, once the tiles alone have held, the doubtful pieces are filled in
        provisionally (``sure_vote``).
        """
        cfg = self.tracker.config
        self.provisional = {}
        recent = [v for v in self._recent if v.t >= t - cfg.steady_s - 1e-9]
        filled = reading
        # the reads must also spread over most of that time, not come in one burst
        if len(recent) >= cfg.steady_reads and t - recent[0].t >= cfg.steady_spread * cfg.steady_s - 1e-9:
            def fill(doubtful, kind):
                out = []
                for i, r in enumerate(doubtful):
                    seen = {getattr(v, kind)[i] for v in recent}
                    out.append(r if r is not None or len(seen) != 1 else seen.pop())
                return tuple(out)

            filled = Reading(reading.board, fill(reading.pawns, "pawns"), fill(reading.coins, "coins"), reading.uncertain)
            if filled.confident:
                held = all((v.reading.board, v.pawns, v.coins) == filled.key for v in recent)
                return filled, (recent[0].t, len(recent)) if held else None
        # the reads since the tiles were last read otherwise (or in doubt)
        run = []
        for v in reversed(self._recent):
            if v.reading.uncertain or v.reading.board != reading.board:
                break
            run.insert(0, v)
        cfg = self.tracker.config
        if reading.uncertain or len(run) < cfg.min_reads or t - run[0].t < cfg.accept_s - 1e-9:
            return filled, None
        pawns = self._provisional_fill("pawns", filled.pawns, [(v.reading.pawns, v.pawns) for v in run])
        coins = self._provisional_fill("coins", filled.coins, [(v.reading.coins, v.coins) for v in run])
        return Reading(reading.board, pawns, coins, reading.uncertain), (run[0].t, len(run))

    def _provisional_fill(self, kind: str, filled: tuple, reads: list[tuple[tuple, tuple]]) -> tuple:
        """``filled`` with its doubtful slots set to the most voted choices (distinct from the
        others), recording those slots' votes in ``provisional``. ``reads``: (the reading's
        sure-or-None pieces, the reader's choices) of each read."""
        doubtful = [i for i, v in enumerate(filled) if v is None]
        if not doubtful:
            return filled
        slots = self.provisional.setdefault(kind, {})
        for i in doubtful:
            slots[i] = {}
            for sure, choice in reads:
                w = self.tracker.config.sure_vote if sure[i] is not None else 1.0
                slots[i][choice[i]] = slots[i].get(choice[i], 0.0) + w
        return _most_voted(filled, slots)

    def _revise(self, reading: Reading, obs, t: float) -> Reading:
        """After a provisional start: each provisional piece takes this read's vote and its
        most voted choice; a choice that moved is set on the Caller's position silently."""
        pieces = {"pawns": list(reading.pawns), "coins": list(reading.coins)}
        held = {"pawns": [p.code for p in self.caller.current.pawns], "coins": [c.code for c in self.caller.current.coins]}
        current = dict(held)
        for kind, slots in self.provisional.items():
            sure, choice = getattr(reading, kind), getattr(obs, kind)
            for i, votes in slots.items():
                votes[choice[i]] = votes.get(choice[i], 0.0) + (self.tracker.config.sure_vote if sure[i] is not None else 1.0)
            # the other slots keep what the Caller holds: only the provisional ones are re-voted
            voted = _most_voted(tuple(None if i in slots else v for i, v in enumerate(current[kind])), slots)
            pieces[kind] = [voted[i] if i in slots else v for i, v in enumerate(sure)]
            # a sure read of another slot that repeats a voted piece contradicts the set (its
            # pieces are all different): that slot is doubtful, and keeps what the Caller holds
            for i, v in enumerate(pieces[kind]):
                if i not in slots and v is not None and pieces[kind].count(v) > 1:
                    pieces[kind][i] = None
            current[kind] = list(voted)
        if current != held:
            self.pending_events += self.caller.revise_pieces(t, tuple(current["pawns"]), tuple(current["coins"]))
            if self.tracker.accepted is not None:
                self.tracker.accepted = Reading(self.tracker.accepted.board, tuple(current["pawns"]), tuple(current["coins"]))
        return Reading(reading.board, tuple(pieces["pawns"]), tuple(pieces["coins"]), reading.uncertain)


class _Read(NamedTuple):
    """One read of a still frame: its reading (sure pieces, doubtful ones None) and the reader's choices."""

    t: float
    reading: Reading
    pawns: tuple
    coins: tuple


def _deducible(board: tuple, doubtful: frozenset, start: bool = False) -> bool:
    """Whether the doubtful cells of a board read with distinct labels are fixed by the rest
    and the rules (``tile_steady_s``): one cell, or two that are not the hole; before the
    ``start`` position only one cell (with no position before it, two tiles the wrong way
    round are just another deal)."""
    return len(doubtful) == 1 or (not start and len(doubtful) == 2 and all(board[r][c] is not None for r, c in doubtful))


def _most_voted(fixed: tuple, slots: dict[int, dict[str, float]]) -> tuple:
    """``fixed`` (pieces, None where open) with each open slot given a choice from its votes:
    the distinct choices with the most votes in all (the pieces of a set are all different)."""
    open_ = [i for i, v in enumerate(fixed) if v is None]
    taken = {v for v in fixed if v is not None}
    values = sorted({v for i in open_ for v in slots.get(i, {})} - taken)
    if not open_ or len(values) < len(open_):
        return fixed
    cost = np.array([[-slots.get(i, {}).get(v, 0.0) for v in values] for i in open_])
    out = list(fixed)
    for i, j in zip(open_, assign(cost)):
        out[i] = values[int(j)]
    return tuple(out)


def _reading_of(state) -> Reading:
    board = tuple(tuple(None if v is None else v.code for v in row) for row in state.board.rows)
    return Reading(board, tuple(p.code for p in state.pawns), tuple(c.code for c in state.coins))


def apply_command(caller: LiveCaller, command: str, t: float) -> list[Event]:
    command = command.strip().lower()
    if command in ("accept", "a"):
        return caller.accept(t)
    if command in ("done", "d"):
        return caller.call_done(t)
    from caller.listening import apply_phrase

    return apply_phrase(caller, command, t)  # hands-free: heard or typed repeat / hint / pause
