"""Frame sources for ``caller watch``: a webcam, a video file, a folder or glob of frames, a stream URL.

Every source yields ``Frame(index, t, image)`` where ``image`` is an HxWx3 uint8 BGR array
and ``t`` is seconds of *source* time: ``index / fps`` for files and folders (so results do
not depend on the machine's speed, and no frame is ever dropped), and seconds since the
first frame for live sources (a webcam or a stream), where a grabber thread always hands
over the newest frame and drops stale ones so the Caller never falls behind the table.

Besides frames, ``items()`` yields ``SourceNotice``s about the source itself: a live source
that stops sending pictures ("lost", within ``LOST_AFTER_S``) and sends again ("back", after
a reconnection), a frame of a folder that cannot be read ("skipped"), a recording that ends
before the frames its header promises ("truncated"). Plain iteration yields the frames only;
the notices are also kept in ``notices``. Opening a stream or camera is bounded
(``OPEN_TIMEOUT_S``) and runs in a worker thread, so Ctrl-C stops it at once.
"""

from __future__ import annotations

import glob as globmod
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from caller.errors import CallerError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
STREAM_PREFIXES = ("rtsp://", "rtmp://", "http://", "https://", "udp://", "tcp://")
#: seconds a live source may send no new picture before it is reported lost (at least two of
#: its frame intervals)
LOST_AFTER_S = 1.0
#: bound on opening a camera or stream (FFmpeg's open timeout; the wait for the first frame)
OPEN_TIMEOUT_S = 5.0
#: bound on one read of a stream that has stopped sending data; then it is reconnected
READ_TIMEOUT_S = 3.0
#: pause between two attempts to reopen a lost camera or stream
RECONNECT_EVERY_S = 0.5
#: a recording that ends this many frames short of its header's count is reported truncated
#: (containers round their frame count; a frame or two short is not a damaged file)
TRUNCATED_SLACK = 2

# FFmpeg's own log lines ("Stream ends prematurely", "Connection refused") would land on the
# user's terminal between the Caller's lines; a dropped stream is reported by the Caller itself
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")


@contextmanager
def _quiet_opencv():
    try:
        previous = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:  # an OpenCV build without the logging utilities
        yield
        return
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(previous)


class SourceError(CallerError):
    """A camera that is missing or busy, a file that cannot be read, an empty folder."""


@dataclass(frozen=True)
class SourceNotice:
    """Something that happened to the source, not on the table, at source time ``t``.

    ``kind``: "lost" (a live source stopped sending pictures), "back" (it sends again),
    "skipped" (a frame that cannot be read was left out), "truncated" (a recording ended
    before the frames its header promises). ``detail``: one line for the user; ``file``: the
    frame left out, for "skipped".
    """

    t: float
    kind: str
    detail: str
    file: str | None = None


@dataclass(frozen=True)
class Frame:
    index: int  # 0-based frame number in the source
    t: float  # seconds of source time
    image: np.ndarray  # HxWx3 uint8 BGR


class FrameSource:
    """Base: iterate frames; ``close()`` releases the device. Use as a context manager."""

    fps: float = 30.0
    live: bool = False
    description: str = ""
    frame_count: int | None = None  # known for files and folders, None for live sources

    def items(self) -> Iterator[Frame | SourceNotice]:  # pragma: no cover - overridden
        raise TypeError("FrameSource is abstract")

    def __iter__(self) -> Iterator[Frame]:
        """The frames alone; the notices on the way are kept in ``notices``."""
        for item in self.items():
            if isinstance(item, Frame):
                yield item

    @property
    def notices(self) -> list[SourceNotice]:
        if "_notices" not in self.__dict__:
            self._notices = []
        return self._notices

    def _notice(self, t: float, kind: str, detail: str, file: str | None = None) -> SourceNotice:
        notice = SourceNotice(t, kind, detail, file)
        self.notices.append(notice)
        return notice

    def close(self) -> None:
        pass

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class VideoFileSource(FrameSource):
    """Every frame of a video file, in order; ``t = index / fps``."""

    def __init__(self, path: str | Path, fps: float | None = None):
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise SourceError(f"{self.path}: cannot be opened as a video (unknown format or damaged file)")
        ok, first = self._cap.read()
        if not ok or first is None:
            self._cap.release()
            raise SourceError(f"{self.path}: cannot decode any frame (damaged or empty video)")
        self._first = first
        native = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (native if native and native > 0 else 30.0))
        count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.frame_count = count if count > 0 else None
        self.description = f"video {self.path.name} ({self.fps:g} fps)"

    def items(self) -> Iterator[Frame | SourceNotice]:
        index = 0
        image = self._first
        while image is not None:
            yield Frame(index, index / self.fps, image)
            index += 1
            ok, image = self._cap.read()
            if not ok:
                image = None
        if self.frame_count is not None and index < self.frame_count - TRUNCATED_SLACK:
            yield self._notice(index / self.fps, "truncated",
                               f"{self.path.name} ended after {index} of the {self.frame_count} frames its header "
                               f"promises (a truncated or damaged recording)")

    def close(self) -> None:
        self._cap.release()


class ImageFolderSource(FrameSource):
    """Still frames from a folder (sorted by name) or a glob pattern; ``t = index / fps``."""

    def __init__(self, spec: str, fps: float | None = None):
        p = Path(spec)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
        else:
            files = sorted(Path(f) for f in globmod.glob(spec) if Path(f).suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise SourceError(f"{spec}: no image frames found (expected .jpg/.png files)")
        self.files = files
        self.fps = float(fps or 30.0)
        self.frame_count = len(files)
        self.description = f"{len(files)} frames from {spec} ({self.fps:g} fps)"

    def items(self) -> Iterator[Frame | SourceNotice]:
        for index, f in enumerate(self.files):
            try:
                with _quiet_opencv():
                    image = cv2.imread(str(f), cv2.IMREAD_COLOR)
            except (cv2.error, OSError):
                image = None
            if image is None:
                # one bad frame must not end the session: the frame's time slot stays empty
                yield self._notice(index / self.fps, "skipped", f"{f}: cannot be read as an image, skipped", str(f))
                continue
            yield Frame(index, index / self.fps, image)


class LiveSource(FrameSource):
    """A webcam or stream. A grabber thread reads continuously and keeps only the newest frame.

    ``t`` is seconds since the first frame arrived (wall clock: the table happens in real time;
    a gap while the source was lost stays in the times, as it did at the table).

    Opening is bounded by ``open_timeout_s`` and runs in a worker thread the caller can
    abandon (Ctrl-C stops the wait at once). When no new picture has come for
    ``lost_after_s``, or the source fails, ``items()`` yields a "lost" notice; with
    ``reconnect`` the grabber then reopens the source every ``RECONNECT_EVERY_S`` until it
    sends again ("back"), otherwise the frames end there. A stream that stalls (open but
    silent) is given up after ``read_timeout_s`` and reopened.
    """

    live = True

    def __init__(self, target: int | str, *, width: int | None = None, height: int | None = None,
                 fps: float | None = None, reconnect: bool = False, open_timeout_s: float | None = None,
                 read_timeout_s: float | None = None, lost_after_s: float | None = None):
        self.target = target
        self.reconnect = reconnect
        self.open_timeout_s = OPEN_TIMEOUT_S if open_timeout_s is None else float(open_timeout_s)
        self.read_timeout_s = READ_TIMEOUT_S if read_timeout_s is None else float(read_timeout_s)
        self.lost_after_s = LOST_AFTER_S if lost_after_s is None else float(lost_after_s)
        self._mode = (width, height, fps)
        what = f"camera {target}" if isinstance(target, int) else f"stream {target}"
        self.description = what
        cap, answered = _open_abandonable(self._open_capture, self.open_timeout_s + 1.0)
        if cap is None and answered:
            raise SourceError(f"{what} cannot be opened (missing, busy, no permission, or nothing sent "
                              f"within {self.open_timeout_s:g} s)")
        if cap is None:
            raise SourceError(f"{what} did not open within {self.open_timeout_s:g} s (nothing answers there?)")
        native = cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (native if native and 0 < native < 1000 else 30.0))
        self._lock = threading.Condition()
        self._latest: tuple[int, np.ndarray] | None = None
        self._latest_at = 0.0  # monotonic time the newest frame arrived
        self._grabbed = 0
        self._handed = 0
        self._stop = threading.Event()
        self._down = False  # the grabber lost the source and is reconnecting
        self._failed = False  # the grabber lost the source and gave up (no reconnect)
        self._thread = threading.Thread(target=self._grab, args=(cap,), name="frame-grabber", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self.open_timeout_s
        with self._lock:
            while self._latest is None and not self._failed and time.monotonic() < deadline:
                self._lock.wait(timeout=0.1)
            first = self._latest
        if first is None:
            self.close()
            raise SourceError(f"{what} opened but sent no frame within {self.open_timeout_s:g} s (busy?)")

    def _open_capture(self):
        """A capture of the target that has opened, or None. Runs in a worker thread."""
        width, height, fps = self._mode
        try:
            with _quiet_opencv():  # OpenCV logs its own multi-line complaint about a missing camera
                if isinstance(self.target, str) and cv2.videoio_registry.hasBackend(cv2.CAP_FFMPEG):
                    cap = cv2.VideoCapture(self.target, cv2.CAP_FFMPEG, [
                        cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(self.open_timeout_s * 1000),
                        cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(self.read_timeout_s * 1000)])
                else:
                    cap = cv2.VideoCapture(self.target)
        except (cv2.error, OverflowError, SystemError):  # e.g. a camera index beyond any device number
            return None
        if not cap.isOpened():
            cap.release()
            return None
        if width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            cap.set(cv2.CAP_PROP_FPS, fps)
        return cap

    def _grab(self, cap) -> None:
        try:
            while not self._stop.is_set():
                with _quiet_opencv():
                    ok, image = cap.read()
                if ok and image is not None:
                    with self._lock:
                        self._grabbed += 1
                        self._latest = (self._grabbed, image)  # older frames are simply dropped
                        self._latest_at = time.monotonic()
                        self._down = False
                        self._lock.notify_all()
                    continue
                cap.release()
                cap = None
                with self._lock:
                    self._down = True
                    self._failed = not self.reconnect
                    self._lock.notify_all()
                if not self.reconnect:
                    return
                while cap is None and not self._stop.wait(RECONNECT_EVERY_S):
                    cap = self._open_capture()
        finally:
            if cap is not None:
                cap.release()

    def items(self) -> Iterator[Frame | SourceNotice]:
        seen = 0
        t0: float | None = None
        index = 0
        lost = False
        # a slow camera (an IP camera at 1 frame/s) is not lost between two of its pictures
        quiet_s = max(self.lost_after_s, 2.0 / self.fps)
        while True:
            with self._lock:
                self._lock.wait_for(lambda: (self._latest is not None and self._latest[0] > seen) or self._failed,
                                    timeout=0.1)
                fresh = self._latest is not None and self._latest[0] > seen
                if fresh:
                    seen, image = self._latest
                    self._handed += 1
                down, failed, latest_at = self._down, self._failed, self._latest_at
            now = time.monotonic()
            if fresh:
                t0 = now if t0 is None else t0
                if lost:
                    lost = False
                    yield self._notice(now - t0, "back", f"{self.description} sends pictures again")
                yield Frame(index, now - t0, image)
                index += 1
                continue
            if not lost and (down or failed or now - latest_at >= quiet_s):
                lost = True
                yield self._notice(0.0 if t0 is None else now - t0, "lost",
                                   f"{self.description} stopped sending pictures"
                                   + ("; reconnecting" if self.reconnect else ""))
            if failed or self._stop.is_set():
                return

    @property
    def dropped(self) -> int:
        """Frames the grabber read but never handed over: a newer one came while the Caller was busy."""
        with self._lock:
            return max(0, self._grabbed - self._handed)

    def close(self) -> None:
        # the grabber releases the capture itself; one stuck in a stalled read is abandoned (it
        # ends within ``read_timeout_s``), so that closing, and Ctrl-C, never wait on the source
        self._stop.set()
        self._thread.join(timeout=0.5)


def _open_abandonable(open_capture, timeout_s: float):
    """``open_capture()`` run in a worker thread: (its capture or None, whether it returned within
    ``timeout_s``). The wait is in short slices, so Ctrl-C interrupts it at once;
    a capture that opens after the wait was given up is released by the worker."""
    box: dict = {"cap": None, "abandoned": False}
    done = threading.Event()
    guard = threading.Lock()

    def work() -> None:
        cap = open_capture()
        with guard:
            if box["abandoned"]:
                if cap is not None:
                    cap.release()
            else:
                box["cap"] = cap
        done.set()

    threading.Thread(target=work, name="source-open", daemon=True).start()
    deadline = time.monotonic() + timeout_s
    try:
        while not done.wait(0.05) and time.monotonic() < deadline:
            pass
    finally:
        with guard:
            box["abandoned"] = not done.is_set()
    return box["cap"], not box["abandoned"]


def open_source(spec: str, *, fps: float | None = None, width: int | None = None,
                height: int | None = None, reconnect: bool | None = None) -> FrameSource:
    """Open what the user typed: ``"0"`` a camera index, a URL, a folder, a glob, or a video file.

    ``reconnect``: reopen a camera or stream that was lost (None: yes; files and folders end)."""
    spec = str(spec)
    again = True if reconnect is None else reconnect
    if spec.isascii() and spec.isdigit():
        if len(spec) > 4:  # OpenCV takes a C int; no machine has thousands of cameras
            raise SourceError(f"camera {spec[:12]}{'...' if len(spec) > 12 else ''}: no such camera index (expected 0 to 9999)")
        return LiveSource(int(spec), width=width, height=height, fps=fps, reconnect=again)
    if spec.startswith(STREAM_PREFIXES):
        return LiveSource(spec, fps=fps, reconnect=again)
    p = Path(spec)
    if p.is_dir() or any(ch in spec for ch in "*?["):
        return ImageFolderSource(spec, fps=fps)
    if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFolderSource(spec, fps=fps)
    if not p.exists():
        raise SourceError(f"{spec}: no such file, folder or camera")
    return VideoFileSource(p, fps=fps)
