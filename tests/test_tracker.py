"""The position tracker and the motion gate, driven with exact synthetic inputs."""

import numpy as np

from caller.tracker import PositionTracker, Reading, TrackerConfig
from vision.motion import MotionConfig, MotionGate

B1 = tuple(tuple(f"S{r}" if c == 0 else None for c in range(5)) for r in "na234")
B2 = (("M5",) + B1[0][1:],) + B1[1:]


def reading(board=B1, uncertain=()):
    return Reading(board, ("S", "M", "C", "A"), ("a", "2", "3", "4", "5"), frozenset(uncertain))


def test_accepts_after_stable_confident_reads():
    tr = PositionTracker(TrackerConfig(accept_s=0.3, min_reads=2))
    assert tr.offer(0.0, reading()) is None
    assert tr.pending
    assert tr.offer(0.2, reading()) is None
    accepted = tr.offer(0.3, reading())
    assert accepted == reading()
    assert tr.accepted == reading()
    # the same position again is not a new acceptance
    tr.offer(1.0, reading())
    assert tr.offer(1.4, reading()) is None


def test_flicker_restarts_the_wait():
    tr = PositionTracker(TrackerConfig(accept_s=0.3, min_reads=2))
    tr.offer(0.0, reading())
    tr.offer(0.1, reading(B2))  # one misread cell
    assert tr.offer(0.3, reading()) is None  # B1 must hold for 0.3 s again from t=0.3
    assert tr.offer(0.6, reading()) == reading()


def test_a_pause_with_the_same_position_after_it_goes_on_waiting():
    tr = PositionTracker(TrackerConfig(accept_s=0.3, min_reads=2))
    assert tr.offer(0.0, reading()) is None
    tr.interrupt()  # a hand hovers: the scene moves
    assert not tr.pending
    assert tr.offer(0.2, reading(uncertain=[(1, 1)])) is None  # ... and hides a cell
    assert tr.offer(0.3, None) is None  # ... or the whole board
    # the same position again: it has held since t=0
    assert tr.offer(0.35, reading()) == reading()
    # after a pause, another position starts its own wait
    tr.offer(1.0, reading(B2))
    tr.interrupt()
    assert tr.offer(1.4, reading()) is None
    assert tr.offer(1.7, reading()) is None  # B1 is already the accepted position


def test_a_confirming_re_read_takes_fresh_reads_not_the_wait_again():
    tr = PositionTracker(TrackerConfig(accept_s=0.3, min_reads=2))
    tr.offer(0.0, reading(B2))
    assert tr.offer(0.3, reading(B2)) == reading(B2)  # a change the Caller suspects
    tr.accepted, tr.confirming = reading(), True  # the loop asks for it to be read again
    assert tr.offer(0.4, reading(B2)) is None  # one fresh read is not enough
    assert tr.offer(0.5, reading(B2)) == reading(B2)  # two are, 0.1 s apart
    assert not tr.confirming
    # afterwards positions wait accept_s again
    tr.offer(1.0, reading())
    assert tr.offer(1.1, reading()) is None
    assert tr.offer(1.3, reading()) == reading()


def test_uncertain_cells_never_accepted():
    tr = PositionTracker(TrackerConfig(accept_s=0.1, min_reads=2))
    for t in (0.0, 0.2, 0.4, 0.6):
        assert tr.offer(t, reading(uncertain=[(2, 2)])) is None
    assert tr.accepted is None
    assert tr.offer(1.0, None) is None and not tr.pending


def test_wants_read_throttles_confirmation():
    tr = PositionTracker(TrackerConfig(accept_s=0.3, min_reads=2, reread_s=0.1))
    assert tr.wants_read(0.0)
    tr.offer(0.0, reading())
    assert not tr.wants_read(0.05)
    assert tr.wants_read(0.1)


def _frame(value, box=None):
    img = np.full((90, 160, 3), value, np.uint8)
    if box is not None:
        x, y = box
        img[y : y + 20, x : x + 20] = 255
    return img


def test_motion_gate_moving_then_still():
    gate = MotionGate(MotionConfig(settle_s=0.2))
    states = [gate.update(_frame(40, (10 + 8 * i, 30)), i / 10) for i in range(5)]  # a moving square
    assert [s.moving for s in states] == [False, True, True, True, True]
    still = [gate.update(_frame(40, (42, 30)), 0.5 + i / 10) for i in range(4)]
    # the square last moved at t=0.4, so the scene is still from 0.4 + settle_s
    assert [s.still for s in still] == [False, True, True, True]
    assert still[1].still_since == 0.6 and still[3].still_since == 0.6
    gate.mark()
    assert not gate.changed_since_mark()
    gate.update(_frame(40, (100, 30)), 1.0)
    assert gate.changed_since_mark()


def test_motion_gate_asks_for_a_read_after_anything_moved_even_when_the_scene_ends_nearly_the_same():
    """A hand comes and goes and one small tile has slid: the frames before and after differ in
    too few pixels to tell, but the scene moved in between, so it must be read again."""
    gate = MotionGate(MotionConfig(settle_s=0.2))
    before = _frame(2, (42, 30))
    gate.update(before, 0.0)
    gate.mark()
    assert not gate.changed_since_mark()
    for i in range(5):  # the hand passes
        gate.update(_frame(40, (10 + 8 * i, 30)), 0.1 + i / 10)
    after = _frame(2, (42, 30))
    after[60:65, 100:105] = 120  # a small tile slid into view: fewer pixels than moving_fraction
    assert gate._fraction(gate._thumb(before), gate._thumb(after)) <= gate.config.moving_fraction
    for i in range(4):
        state = gate.update(after, 0.6 + i / 10)
    assert state.still and gate.changed_since_mark()
    gate.mark()
    gate.update(after, 1.0)
    assert not gate.changed_since_mark()  # read once; unchanged still frames are not read again


def test_camera_profile_undistorts_frames_before_reading(tmp_path):
    from calibration.camera import CameraProfile, save_camera_profile, undistort
    from caller.watch import UndistortingReader, with_camera

    class Recorder:
        def __init__(self):
            self.seen = []

        def read(self, image):
            self.seen.append(image)
            return "observation"

    profile = CameraProfile(K=np.array([[300.0, 0, 80], [0, 300.0, 45], [0, 0, 1]]),
                            dist=np.array([-0.3, 0.1, 0, 0, 0]), image_size=(160, 90))
    path = save_camera_profile(profile, tmp_path / "cam.json")
    inner = Recorder()
    assert with_camera(inner, None) is inner
    reader = with_camera(inner, str(path))
    assert isinstance(reader, UndistortingReader)
    frame = np.zeros((90, 160, 3), np.uint8)
    frame[::10, :] = 255  # straight lines that the lens model bends
    assert reader.read(frame) == "observation"
    assert np.array_equal(inner.seen[0], undistort(frame, profile))
    assert not np.array_equal(inner.seen[0], frame)


def test_the_expected_change_is_accepted_sooner_and_nothing_else_is():
    expected = {B2}
    tr = PositionTracker(TrackerConfig(accept_s=0.3, expected_s=0.1, min_reads=2))
    assert tr.offer(0.0, reading(B2), expected=lambda r: r.board in expected) is None  # one read is never enough
    assert tr.offer(0.1, reading(B2), expected=lambda r: r.board in expected) == reading(B2)
    tr = PositionTracker(TrackerConfig(accept_s=0.3, expected_s=0.1, min_reads=2))
    assert tr.offer(0.0, reading(B1), expected=lambda r: r.board in expected) is None
    assert tr.offer(0.1, reading(B1), expected=lambda r: r.board in expected) is None  # not expected: the full wait
    assert tr.offer(0.2, reading(B1), expected=lambda r: r.board in expected) is None
    assert tr.offer(0.3, reading(B1), expected=lambda r: r.board in expected) == reading(B1)
