"""Frame sources against real files: a video written with OpenCV, a folder of PNG frames."""

import threading

import cv2
import numpy as np
import pytest

from caller.sources import ImageFolderSource, SourceError, VideoFileSource, open_source


def _frames(n, size=(64, 48)):
    out = []
    for i in range(n):
        img = np.zeros((size[1], size[0], 3), np.uint8)
        img[:, :, 1] = 10 * i  # frame number readable back from the green channel
        out.append(img)
    return out


def _clip(path, n):
    """A 10 frames/s MJPG recording of ``n`` numbered frames."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for img in _frames(n):
        writer.write(img)
    writer.release()
    return path


def test_video_file_every_frame_in_source_time(tmp_path):
    path = _clip(tmp_path / "clip.avi", 12)
    with open_source(str(path)) as src:
        assert isinstance(src, VideoFileSource)
        frames = list(src)
    assert [f.index for f in frames] == list(range(12))
    assert [round(f.t, 3) for f in frames] == [round(i / 10.0, 3) for i in range(12)]
    greens = [int(round(f.image[:, :, 1].mean() / 10)) for f in frames]
    assert greens == list(range(12))


def test_folder_and_glob(tmp_path):
    for i, img in enumerate(_frames(5)):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), img)
    (tmp_path / "notes.txt").write_text("not a frame")
    src = open_source(str(tmp_path), fps=5)
    assert isinstance(src, ImageFolderSource)
    assert [f.t for f in src] == [0.0, 0.2, 0.4, 0.6, 0.8]
    assert open_source(str(tmp_path / "f00[0-2].png")).frame_count == 3


def test_errors_are_one_line(tmp_path):
    with pytest.raises(SourceError, match="no such file, folder or camera"):
        open_source(str(tmp_path / "missing.mp4"))
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"this is not a video")
    with pytest.raises(SourceError, match="bad.mp4"):
        open_source(str(bad))
    with pytest.raises(SourceError, match="no image frames"):
        open_source(str(tmp_path / "*.png"))


def test_missing_camera_is_a_clear_error():
    # index 97 does not exist on any test machine; the real camera path is exercised
    with pytest.raises(SourceError, match="camera 97 cannot be opened"):
        open_source("97")


class _PacedCapture:
    """OpenCV's real capture of a recording, paced by the test as a camera is paced by time.

    Each ``read`` waits until the test allows one more frame; entering the next ``read`` means
    the grabber has stored the frame before it, which ``stored`` counts.
    """

    def __init__(self, real, target, *options):
        self._cap = real(target, *options)
        self.allowed = threading.Semaphore(0)
        self.stored = threading.Semaphore(0)
        self._reads = 0

    def read(self):
        if self._reads:
            self.stored.release()
        self._reads += 1
        self.allowed.acquire()
        return self._cap.read()

    def deliver(self, n):
        """Let the camera send ``n`` frames and wait until the grabber has kept each."""
        for _ in range(n):
            self.allowed.release()
        for _ in range(n):
            assert self.stored.acquire(timeout=30), "the grabber stopped reading"

    def __getattr__(self, name):  # isOpened, get, set, release
        return getattr(self._cap, name)


def test_the_live_grabber_hands_over_the_newest_frame_and_drops_stale_ones(tmp_path, monkeypatch):
    # a recorded file stands in for the camera; the camera sends three frames for every one
    # the busy Caller takes, so two of every three are stale when it looks again
    from caller.sources import LiveSource

    captures = []

    def paced(target, *options, real=cv2.VideoCapture):
        captures.append(_PacedCapture(real, target, *options))
        captures[-1].allowed.release()  # the first frame, which opening the source waits for
        return captures[-1]

    monkeypatch.setattr(cv2, "VideoCapture", paced)
    src = LiveSource(str(_clip(tmp_path / "clip.avi", 25)))
    camera = captures[0]
    assert camera.stored.acquire(timeout=30)  # the first frame is kept before the loop starts
    got = []
    for frame in src:
        got.append(int(round(frame.image[:, :, 1].mean() / 10)))
        if got[-1] < 24:
            camera.deliver(3)
        else:
            camera.allowed.release()  # the end of the recording: the grabber stops
    src.close()
    # never an older frame after a newer one, and the last frame of the recording arrives
    assert got == list(range(0, 25, 3))
    # what was not handed over was dropped, not queued
    assert src.dropped == 25 - len(got) == 16


def test_a_stream_that_cannot_be_opened_is_one_error_line():
    with pytest.raises(SourceError, match=r"^stream rtsp://127.0.0.1:9/none cannot be opened"):
        open_source("rtsp://127.0.0.1:9/none")
