"""Frame sources for ``caller watch``: a webcam, a video file, a folder or glob of frames, a stream URL.

Every source yields ``Frame(index, t, image)`` where ``image`` is an HxWx3 uint8 BGR array
and ``t`` is seconds of *source* time: ``index / fps`` for files and folders (so results do
not depend on the machine's speed, and no frame is ever dropped), and seconds since the
first frame for live sources (a webcam or a stream), where a grabber thread always hands
over the newest frame and drops stale ones so the Caller never falls behind the table.
"""

from __future__ import annotations

import glob as globmod
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

    def __iter__(self) -> Iterator[Frame]:  # pragma: no cover - overridden
        raise TypeError("FrameSource is abstract")

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

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        image = self._first
        while image is not None:
            yield Frame(index, index / self.fps, image)
            index += 1
            ok, image = self._cap.read()
            if not ok:
                image = None

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

    def __iter__(self) -> Iterator[Frame]:
        for index, f in enumerate(self.files):
            image = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{f}: cannot be read as an image")
            yield Frame(index, index / self.fps, image)


class LiveSource(FrameSource):
    """A webcam or stream. A grabber thread reads continuously and keeps only the newest frame.

    ``t`` is seconds since the first frame arrived (wall clock: the table happens in real time).
    """

    live = True

    def __init__(self, target: int | str, *, width: int | None = None, height: int | None = None,
                 fps: float | None = None, open_timeout_s: float = 5.0):
        self.target = target
        what = f"camera {target}" if isinstance(target, int) else f"stream {target}"
        with _quiet_opencv():  # OpenCV logs its own multi-line complaint about a missing camera
            self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            self._cap.release()
            raise SourceError(f"{what} cannot be opened (missing, busy, or no permission)")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        native = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (native if native and native > 0 else 30.0))
        self.description = what
        self._lock = threading.Condition()
        self._latest: tuple[int, np.ndarray] | None = None
        self._grabbed = 0
        self._handed = 0
        self._stop = threading.Event()
        self._failed = False
        self._thread = threading.Thread(target=self._grab, name="frame-grabber", daemon=True)
        self._thread.start()
        with self._lock:
            self._lock.wait_for(lambda: self._latest is not None or self._failed, timeout=open_timeout_s)
            if self._latest is None:
                self.close()
                raise SourceError(f"{what} opened but sent no frame within {open_timeout_s:g} s (busy?)")

    def _grab(self) -> None:
        while not self._stop.is_set():
            ok, image = self._cap.read()
            with self._lock:
                if not ok or image is None:
                    self._failed = True
                    self._lock.notify_all()
                    return
                self._grabbed += 1
                self._latest = (self._grabbed, image)  # older frames are simply dropped
                self._lock.notify_all()

    def __iter__(self) -> Iterator[Frame]:
        seen = 0
        t0: float | None = None
        index = 0
        while True:
            with self._lock:
                self._lock.wait_for(lambda: (self._latest and self._latest[0] > seen) or self._failed, timeout=2.0)
                if self._latest is None or self._latest[0] <= seen:
                    if self._failed or self._stop.is_set():
                        return
                    continue
                seen, image = self._latest
                self._handed += 1
            now = time.monotonic()
            t0 = now if t0 is None else t0
            yield Frame(index, now - t0, image)
            index += 1

    @property
    def dropped(self) -> int:
        """Frames the grabber read but never handed over: a newer one came while the Caller was busy."""
        with self._lock:
            return max(0, self._grabbed - self._handed)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        self._cap.release()


def open_source(spec: str, *, fps: float | None = None, width: int | None = None,
                height: int | None = None) -> FrameSource:
    """Open what the user typed: ``"0"`` a camera index, a URL, a folder, a glob, or a video file."""
    spec = str(spec)
    if spec.isascii() and spec.isdigit():
        if len(spec) > 4:  # OpenCV takes a C int; no machine has thousands of cameras
            raise SourceError(f"camera {spec[:12]}{'...' if len(spec) > 12 else ''}: no such camera index (expected 0 to 9999)")
        return LiveSource(int(spec), width=width, height=height, fps=fps)
    if spec.startswith(STREAM_PREFIXES):
        return LiveSource(spec, fps=fps)
    p = Path(spec)
    if p.is_dir() or any(ch in spec for ch in "*?["):
        return ImageFolderSource(spec, fps=fps)
    if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFolderSource(spec, fps=fps)
    if not p.exists():
        raise SourceError(f"{spec}: no such file, folder or camera")
    return VideoFileSource(p, fps=fps)
