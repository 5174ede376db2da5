"""The ``caller watch`` loop: frames -> motion gate -> reader -> tracker -> live Caller -> events.

Per frame (times are source time, so a recorded file gives the same events on any machine):

1. The motion gate looks at a thumbnail. While the scene moves (a hand, a sliding tile)
   nothing is read and any pending candidate is dropped.
2. Once still, the reader reads the frame and the game's live referee turns the reading
   into a ``Reading`` (``LiveReferee.settle``: its deductions for doubtful items); the
   tracker accepts a position only when confident reads agree for ``accept_s``. Unchanged still frames after an accepted
   position are not read again, which is what keeps the loop fast.
3. Accepted positions go to the ``LiveCaller``; a suspected illegal change makes the loop
   re-read the table before anything is announced.
4. Every frame, moving or not, also goes to a ``MotionTrack`` (a small warped picture of the
   board since the last accepted position), which the referee may ask when a change could be
   told apart only by how it was made (Easy Slider: two tiles pushed at once rather than two
   slides; see ``vision.pushes``).

Nothing here knows a game: the game is the ``LiveCaller``'s referee
(``caller.live_referee``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from caller.events import Event
from caller.live import LiveCaller
from caller.tracker import PositionTracker, Reading, TrackerConfig
from vision import kernels
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
        self.pending_events: list[Event] = []  # what the referee's deductions caused, said with the next read
        # load the referee's compiled searches and the reader's compiled loops now (about a
        # second, once per process), so that neither the first read nor the first explained
        # move holds up a live camera
        caller.referee.warm_up()
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
            # a change no moves explain: forget the acceptance so the same position must be
            # read and accepted again from fresh frames before the Caller says anything
            self.caller.needs_confirmation = False
            self.tracker.accepted = None if self.caller.current is None else self.caller.referee.reading_of(self.caller.current)
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
            return t - self._last_read_t >= self._retry_after() - 1e-9
        if getattr(self.last_observation, "read_again", False) or self.caller.referee.wants_read(self.caller.current):
            # the reader asks to see the still scene again (``SquaresObservation.read_again``),
            # or the referee, which saw more than the position it has accepted explains
            return t - self._last_read_t >= self.retry_s - 1e-9
        # an unchanged still scene whose position is accepted: confirm a suspect, else rest
        return self.caller.suspecting and t - self._last_read_t >= self.tracker.config.reread_s

    def _retry_after(self) -> float:
        """Seconds before a still frame whose read was not confident is read again: ``retry_s``,
        or the tracker's ``reread_s`` when all that was covered is settling (pieces just set
        on a tile's cross, which the reader tells from a hand after a few reads in a row:
        ``SquaresObservation.settling``), so that a move is not held up by those reads."""
        obs = self.last_observation
        covered = getattr(obs, "covered", None)
        if covered and set(covered) <= set(getattr(obs, "settling", ())):
            return self.tracker.config.reread_s
        return self.retry_s

    def _read(self, image: np.ndarray, t: float) -> tuple[Reading | None, tuple[float, int] | None]:
        """(the frame's reading, or None when no board was found; (since, reads) when that
        reading has already held since an earlier read: ``LiveReferee.settle``)."""
        self.stats.reads += 1
        try:
            obs = self.reader.read(image)
        except BoardNotFound:
            self.stats.not_found += 1
            self.last_observation = None
            return None, None
        self.last_observation = obs
        return self.caller.referee.settle(t, obs, self)


def apply_command(caller: LiveCaller, command: str, t: float) -> list[Event]:
    command = command.strip().lower()
    if command in ("accept", "a"):
        return caller.accept(t)
    if command in ("done", "d"):
        return caller.call_done(t)
    from caller.listening import apply_phrase

    return apply_phrase(caller, command, t)  # hands-free: heard or typed repeat / hint / pause
