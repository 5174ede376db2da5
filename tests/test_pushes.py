"""Two tiles pushed at once, told from two slides by the motion between still frames.

A rendered game (seed 881000): two slides along column 3 (the hand leaves between them),
then the Black 3 pushes the Red 5 along row 4 into the hole. The recording is cut, as a
fast player would play it, to check that two slides with no rest between them stay two slides.
"""

import numpy as np
import pytest

from calibration.camera import CameraProfile, distort_points, undistort_points
from caller.live import LiveCaller
from caller.referees.easy_slider_live import EasySliderLive
from caller.sources import open_source
from caller.watch import Watcher
from simulator.layouts import easy_slider_layout
from simulator.video import render_game_video
from vision.pushes import MotionTrack, TileTravel, _count
from vision.reader import Reader

SEED = 881000
ACTIONS = [{"type": "move", "from": [2, 2]}, {"type": "move", "from": [3, 2]}, {"type": "double", "from": [3, 0]}]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("pushes") / "pushes.mp4"
    layout = easy_slider_layout(SEED, kind="midgame")
    assert layout["board"][1][2] is None  # the hole the actions start from
    truth = render_game_video(layout, ACTIONS, seed=SEED, path=path)
    with open_source(str(path)) as src:
        frames = [(f.image, f.t) for f in src]
    return frames, truth


@pytest.fixture(scope="module")
def reader():
    return Reader()


def fast_cut(truth):
    """Frames from the first tile's arrival to the hand's return over the second cut out."""
    first, second = [e for e in truth["events"] if e["type"] == "move"]
    fps = truth["fps"]
    return int(first["t"] * fps) + 2, int((second["t_hand"] + 0.6) * fps)


def tracked(frames, reader, first_event, last_event, truth, cut=(0, 0)):
    fps = truth["fps"]
    f0 = int(first_event["t_hand"] * fps) - 2
    track = MotionTrack()
    track.reset(frames[f0][0], reader.read(frames[f0][0]).board_corners)
    for k in range(f0 + 1, int(last_event["t_clear"] * fps) + 5):
        if not cut[0] <= k < cut[1]:
            track.add(frames[k][0])
    return track


@pytest.mark.slow
def test_the_track_sees_the_push_and_not_the_two_slides(game, reader):
    frames, truth = game
    first, second, push = [e for e in truth["events"] if e["type"] in ("move", "illegal")]
    assert push["cells"] == [[3, 0], [3, 1], [3, 2]]
    track = tracked(frames, reader, push, push, truth)
    assert track.pushed_together((3, 2), (3, 1), (3, 0)) is True
    # while they move, the two tiles are the same part of a cell from home in the frames that show both
    both = [(a, b) for a, b in track.travel((3, 2), (3, 1), (3, 0)) if min(a.score, b.score) >= 0.6 and 0.2 < a.share < 0.8]
    assert both and all(abs(a.share - b.share) <= 0.2 for a, b in both)
    slides = tracked(frames, reader, first, second, truth)
    assert slides.pushed_together((1, 2), (2, 2), (3, 2)) is False
    fast = tracked(frames, reader, first, second, truth, cut=fast_cut(truth))
    assert fast.frames < slides.frames
    assert fast.pushed_together((1, 2), (2, 2), (3, 2)) is False


def watch(frames, cut=(0, 0)):
    watcher = Watcher(Reader(), LiveCaller(EasySliderLive()))
    events = []
    for k, (image, t) in enumerate(frames):
        if not cut[0] <= k < cut[1]:
            events += watcher.process(image, t)
    return [(e.type, e.data.get("from"), e.data.get("cells")) for e in events if e.type != "board"], events


@pytest.mark.slow
def test_watching_announces_the_push_once_after_the_two_slides(game):
    frames, truth = game
    for cut in ((0, 0), fast_cut(truth)):
        got, events = watch(frames, cut)
        assert got == [("go", None, None), ("move", [2, 2], None), ("move", [3, 2], None),
                       ("illegal", None, [[3, 0], [3, 1], [3, 2]])]
        illegal = events[-1]
        assert illegal.say == ("Illegal move. Row 4, column 1: the Black 3 pushed the Red 5 along into the hole; "
                               "slide one tile at a time.")
        push = next(e for e in truth["events"] if e["type"] == "illegal")
        assert 0.0 <= illegal.t - push["t_clear"] <= 1.0
    # played fast, the two slides are explained together from one still frame to the next
    fast_moves = [e.t for e in watch(frames, fast_cut(truth))[1] if e.type == "move"]
    assert fast_moves[0] == fast_moves[1]


def test_frames_count_as_together_or_apart_by_clear_faces_only():
    t = TileTravel
    frames = [
        (t(0.5, 0.9), t(0.45, 0.8)),  # both clear, both on the way, close: together
        (t(0.5, 0.3), t(0.5, 0.9)),  # the near face hidden, the far one on the way: together
        (t(0.5, 0.3), t(0.95, 0.9)),  # the near face hidden, the far one arrived: nothing
        (t(1.0, 0.9), t(0.0, 0.9)),  # both clear, one a cell on: apart
        (t(1.0, 0.9), t(0.5, 0.9)),  # both clear, half a cell apart: apart
        (t(0.5, 0.9), t(0.1, 0.5)),  # the far face faint, and far behind: nothing
        (t(0.5, 0.9), t(0.45, 0.5)),  # the far face faint right behind the near one: together
        (t(0.5, 0.9), t(0.45, 0.4)),  # the far face hidden: nothing
        (t(0.9, 0.9), t(0.9, 0.9)),  # both arrived: nothing
    ]
    assert _count(frames) == (3, 2)
    # once both have stayed in their new cells for SETTLED_FRAMES frames, the motion is over:
    # a face half under the leaving hand matched a cell off no longer counts
    # (the last frame above is the first of them)
    settled = [(t(1.0, 0.9), t(0.95, 0.9))] * 7
    assert _count(frames + settled + [(t(1.0, 0.9), t(0.3, 0.7))] * 3) == (3, 2)
    assert _count(frames + settled[:6] + [(t(1.0, 0.9), t(0.3, 0.7))] * 3) == (3, 5)


def test_a_track_without_an_accepted_picture_sees_no_push():
    track = MotionTrack()
    track.add(np.zeros((72, 128, 3), np.uint8))
    assert track.frames == 0
    assert track.pushed_together((0, 0), (0, 1), (0, 2)) is False


def test_board_corners_go_back_to_the_cameras_own_frame():
    size = (640, 480)
    profile = CameraProfile(np.array([[620.0, 0.0, 322.0], [0.0, 620.0, 238.0], [0.0, 0.0, 1.0]]),
                            np.array([-0.28, 0.09, 0.0, 0.0, 0.0]), size)
    seen = np.array([[100.0, 80.0], [540.0, 90.0], [520.0, 400.0], [120.0, 410.0]])
    ideal = undistort_points(seen, profile, size)
    assert np.abs(ideal - seen).max() > 10  # the lens moves the corners
    assert distort_points(ideal, profile, size) == pytest.approx(seen, abs=0.01)
