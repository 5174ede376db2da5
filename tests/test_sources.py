"""Frame sources against real files: a video written with OpenCV, a folder of PNG frames."""

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


def test_the_live_grabber_hands_over_the_newest_frame_and_drops_stale_ones(tmp_path):
    # a recorded file stands in for the camera: OpenCV's capture decodes it as fast as it can,
    # as a camera delivers frames whether or not the Caller is ready
    import time

    from caller.sources import LiveSource

    src = LiveSource(str(_clip(tmp_path / "clip.avi", 25)))
    got = []
    for frame in src:
        got.append(int(round(frame.image[:, :, 1].mean() / 10)))
        time.sleep(0.05)  # a busy Caller: the grabber runs ahead
    src.close()
    # never an older frame after a newer one, and the last frame of the recording arrives
    assert got == sorted(set(got)) and got[-1] == 24
    # what was not handed over was dropped, not queued
    assert src.dropped == 25 - len(got) > 0


def test_a_stream_that_cannot_be_opened_is_one_error_line():
    with pytest.raises(SourceError, match=r"^stream rtsp://127.0.0.1:9/none cannot be opened"):
        open_source("rtsp://127.0.0.1:9/none")
