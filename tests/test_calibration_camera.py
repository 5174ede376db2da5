"""Camera calibration on synthetic photos of printed patterns seen through a known lens."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from caller.cli import main
from calibration.camera import (
    CAMERA_VERSION,
    CameraProfile,
    CameraProfileError,
    Pattern,
    PatternNotFound,
    calibrate_camera,
    detect_pattern,
    load_camera_profile,
    save_camera_profile,
    undistort,
    undistort_points,
)
from calibration.errors import CalibrationError
from calibration.synthetic import look_at_pose, pattern_view, pattern_views

SIZE = (640, 480)
K_TRUE = np.array([[620.0, 0.0, 322.0], [0.0, 620.0, 238.0], [0.0, 0.0, 1.0]])
D_TRUE = np.array([-0.28, 0.09, 0.0, 0.0, 0.0])  # barrel distortion, as in most webcams
CHARUCO = Pattern(kind="charuco", cols=7, rows=5, square_mm=30.0)
CHESS = Pattern(kind="chessboard", cols=9, rows=7, square_mm=25.0)


@pytest.fixture(scope="module")
def charuco_views():
    return pattern_views(CHARUCO, K_TRUE, D_TRUE, SIZE, n=6, seed=3)


@pytest.fixture(scope="module")
def chess_views():
    return pattern_views(CHESS, K_TRUE, D_TRUE, SIZE, n=6, seed=4)


def test_charuco_detection_gives_flat_point_arrays_on_the_printed_sheet():
    det = detect_pattern(CHARUCO.image(60, 30), CHARUCO)
    assert det is not None
    assert det.image_points.shape == (24, 2)  # (7-1) x (5-1) inner corners, (N, 2) whatever the OpenCV version
    assert det.object_points.shape == (24, 3)
    # corner 0 is one square in from the sheet's top-left square corner: 30 px margin + 60 px
    assert det.image_points[0] == pytest.approx([89.5, 89.5], abs=1.0)
    assert det.object_points[0].tolist() == [30.0, 30.0, 0.0]


def test_chessboard_detection_on_the_printed_sheet():
    det = detect_pattern(CHESS.image(40, 30), CHESS)
    assert det is not None
    assert det.image_points.shape == (48, 2)
    assert det.object_points[:2, :2].tolist() == [[0.0, 0.0], [25.0, 0.0]]


@pytest.mark.parametrize("which", ["charuco", "chessboard"])
def test_calibration_recovers_focal_length_and_barrel_distortion(which, charuco_views, chess_views):
    pattern, views = (CHARUCO, charuco_views) if which == "charuco" else (CHESS, chess_views)
    seen = []
    prof = calibrate_camera([(f"v{i}", v) for i, v in enumerate(views)], pattern, progress=lambda i, n, ok: seen.append((i, n, ok)))
    assert seen == [(i, f"v{i}", True) for i in range(6)]
    assert prof.frames_used == 6 and prof.frames_given == 6
    assert prof.image_size == SIZE
    assert prof.fx == pytest.approx(620.0, rel=0.02)
    assert prof.fy == pytest.approx(620.0, rel=0.02)
    assert prof.K[0, 2] == pytest.approx(322.0, abs=4.0)
    assert prof.K[1, 2] == pytest.approx(238.0, abs=4.0)
    assert prof.dist[0] < -0.2  # barrel, of about the right strength
    assert prof.rms_px < 0.5
    # where the sheet was seen, the fitted model moves pixels where the true lens does
    corner = np.array([[100.0, 80.0]])
    truth = CameraProfile(K_TRUE, D_TRUE, SIZE)
    assert undistort_points(corner, prof, SIZE) == pytest.approx(undistort_points(corner, truth, SIZE), abs=1.5)


def test_too_few_frames_with_the_pattern_is_a_clear_error(charuco_views):
    blank = np.full((480, 640, 3), 128, np.uint8)
    frames = [("a.png", charuco_views[0]), ("blank1.png", blank), ("blank2.png", blank)]
    with pytest.raises(PatternNotFound) as err:
        calibrate_camera(frames, CHARUCO)
    msg = str(err.value)
    assert "found in only 1 of 3 frames, need at least 3" in msg
    assert "blank1.png, blank2.png" in msg
    assert "a.png" not in msg


def test_frames_of_different_sizes_are_refused(charuco_views):
    small = cv2.resize(charuco_views[1], (320, 240))
    with pytest.raises(CalibrationError, match=r"small.png: frame of 320x240 px, but big.png is 640x480"):
        calibrate_camera([("big.png", charuco_views[0]), ("small.png", small)], CHARUCO)


def test_undistort_with_the_true_lens_gives_the_pinhole_view():
    rvec, tvec = look_at_pose(25.0, 40.0, 420.0, (105.0, 75.0))
    distorted = pattern_view(CHARUCO, K_TRUE, D_TRUE, rvec, tvec, SIZE)
    ideal = pattern_view(CHARUCO, K_TRUE, np.zeros(5), rvec, tvec, SIZE)
    fixed = undistort(distorted, CameraProfile(K_TRUE, D_TRUE, SIZE))
    inner = (slice(60, 420), slice(80, 560))  # borders are replicated where the lens saw nothing
    before = np.abs(distorted[inner].astype(int) - ideal[inner]).mean()
    after = np.abs(fixed[inner].astype(int) - ideal[inner]).mean()
    assert after < 3.0 < before
    assert undistort(distorted, None) is distorted


def test_undistort_scales_intrinsics_for_another_resolution_of_the_same_aspect():
    prof = CameraProfile(K_TRUE, D_TRUE, SIZE)
    half = prof.for_size((320, 240))
    assert half.K[0].tolist() == [310.0, 0.0, 161.0]
    assert undistort(np.zeros((240, 320, 3), np.uint8), prof).shape == (240, 320, 3)
    with pytest.raises(CameraProfileError, match="1280x720 px from a camera calibrated at 640x480: the aspect ratio differs"):
        prof.for_size((1280, 720))


def test_camera_profile_round_trip_and_version_errors(tmp_path):
    prof = CameraProfile(K_TRUE, D_TRUE, SIZE, rms_px=0.123, frames_used=5, frames_given=6, pattern=CHARUCO.to_json())
    path = save_camera_profile(prof, tmp_path / "cam.json")
    obj = json.loads(path.read_text())
    assert obj["format"] == "table-caller-camera" and obj["version"] == CAMERA_VERSION
    assert obj["pattern"] == {"kind": "charuco", "cols": 7, "rows": 5, "square_mm": 30.0, "marker_mm": 22.5,
                              "dictionary": "DICT_5X5_100"}
    back = load_camera_profile(path)
    assert back.K.tolist() == K_TRUE.tolist() and back.dist.tolist() == D_TRUE.tolist()
    assert (back.image_size, back.rms_px, back.frames_used) == (SIZE, 0.123, 5)
    obj["version"] = 99
    (tmp_path / "v99.json").write_text(json.dumps(obj))
    with pytest.raises(CameraProfileError, match="camera profile version 99, this program reads version 1"):
        load_camera_profile(tmp_path / "v99.json")
    (tmp_path / "other.json").write_text(json.dumps({"format": "table-caller-profile", "version": 1}))
    with pytest.raises(CameraProfileError, match="not a table-caller camera profile"):
        load_camera_profile(tmp_path / "other.json")
    with pytest.raises(CameraProfileError, match="no such camera profile"):
        load_camera_profile(tmp_path / "missing.json")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "circles"}, "pattern 'circles': expected one of chessboard, charuco"),
        ({"cols": 2}, "pattern of 2x7 squares: expected at least 3x3 squares"),
        ({"square_mm": 0.0}, "square size 0.0 mm: expected a positive length"),
        ({"kind": "charuco", "square_mm": 20.0, "marker_mm": 25.0}, "marker size 25.0 mm: expected less than the square size"),
        ({"kind": "charuco", "cols": 15, "rows": 15, "dictionary": "DICT_4X4_50"}, "needs 112 markers but DICT_4X4_50 has 50"),
    ],
)
def test_bad_patterns_are_refused(kwargs, message):
    with pytest.raises(CalibrationError, match=message):
        Pattern(**kwargs)


def test_cli_writes_a_camera_profile(tmp_path, charuco_views, capsys):
    paths = []
    for i, v in enumerate(charuco_views):
        paths.append(str(tmp_path / f"f{i}.png"))
        cv2.imwrite(paths[-1], v)
    out = tmp_path / "camera.json"
    rc = main(["calibrate-camera", *paths, "--pattern", "charuco", "--cols", "7", "--rows", "5", "--square-mm", "30",
               "--out", str(out)])
    cap = capsys.readouterr()
    assert rc == 0
    assert "6/6 frames, pattern in 6" in cap.err
    assert cap.out.startswith(f"wrote {out}: 640x480 px, fx ")
    assert load_camera_profile(out).fx == pytest.approx(620.0, rel=0.02)


def test_cli_reports_frames_without_the_pattern_in_one_line(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((120, 160, 3), 200, np.uint8))
    rc = main(["calibrate-camera", str(blank), "--pattern", "chessboard", "--cols", "9", "--rows", "7", "--quiet",
               "--out", str(tmp_path / "c.json")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert len(err) == 1
    assert err[0].startswith("caller: error: the chessboard pattern of 9x7 squares was found in only 0 of 1 frames")
    assert not (tmp_path / "c.json").exists()


def test_cli_prints_a_board_to_print(tmp_path, capsys):
    png = tmp_path / "sheet.png"
    assert main(["calibrate-camera", "--print-board", str(png), "--pattern", "charuco", "--cols", "7", "--rows", "5"]) == 0
    sheet = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert sheet.shape == (5 * 200 + 160, 7 * 200 + 160)
    assert detect_pattern(sheet, CHARUCO).image_points.shape == (24, 2)
