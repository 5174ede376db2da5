"""Camera calibration: intrinsics and lens distortion from chessboard or ChArUco frames.

A *camera profile* is one small JSON file, no pickle::

    {"format": "table-caller-camera", "version": 1,
     "image_size": [1280, 720],            # width, height in pixels the intrinsics are for
     "K": [[fx, 0, cx], [0, fy, cy], [0, 0, 1]],   # pixels
     "dist": [k1, k2, p1, p2, k3],          # OpenCV's radial-tangential model
     "rms_px": 0.31,                        # RMS reprojection error of the fit, pixels
     "frames_used": 12, "frames_given": 15,
     "pattern": {"kind": "charuco", "cols": 7, "rows": 5, "square_mm": 30.0, ...}}

``undistort(image, profile)`` maps a frame of that camera to an ideal pinhole frame with the
same K (so pixel scale barely changes); the remap tables are cached per (profile, size).

Patterns are given by the number of *squares* across (``cols``) and down (``rows``), what one
counts on the printed sheet, for both kinds; a chessboard of 9x7 squares has 8x6 inner corners.

OpenCV 4 returns ChArUco corners as (N, 1, 2) and ids as (N, 1); OpenCV 5 as (N, 2) and (N,).
Everything here reshapes to (N, 2) / (N,) right after detection so either works.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

from calibration.errors import CalibrationError
from rules.outputs import write_text

CAMERA_FORMAT = "table-caller-camera"
CAMERA_VERSION = 1
PATTERN_KINDS = ("chessboard", "charuco")
MIN_FRAMES = 3  # fewer views leave focal length and distortion poorly constrained
MIN_CHARUCO_CORNERS = 6  # a homography needs 4; a few more keep one frame from being degenerate
ARUCO_DICTIONARIES = ("DICT_4X4_50", "DICT_4X4_100", "DICT_5X5_50", "DICT_5X5_100", "DICT_6X6_50", "DICT_6X6_250")


class CameraProfileError(CalibrationError):
    """A camera profile that is missing, damaged, of another format version, or for another size."""


class PatternNotFound(CalibrationError):
    """Too few of the given frames show the calibration pattern to calibrate from."""


@dataclass(frozen=True)
class Pattern:
    """A printed calibration target.

    ``cols`` x ``rows``: squares across and down; ``square_mm``: side of one square (mm);
    ``marker_mm``: ArUco marker side for ChArUco (default 0.75 of the square);
    ``dictionary``: the ArUco dictionary name (ChArUco only).
    """

    kind: str = "chessboard"
    cols: int = 9
    rows: int = 7
    square_mm: float = 25.0
    marker_mm: float | None = None
    dictionary: str = "DICT_5X5_100"

    def __post_init__(self) -> None:
        if self.kind not in PATTERN_KINDS:
            raise CalibrationError(f"pattern {self.kind!r}: expected one of {', '.join(PATTERN_KINDS)}")
        if not (isinstance(self.cols, int) and isinstance(self.rows, int)) or self.cols < 3 or self.rows < 3:
            raise CalibrationError(f"pattern of {self.cols}x{self.rows} squares: expected at least 3x3 squares")
        if not self.square_mm > 0:
            raise CalibrationError(f"square size {self.square_mm!r} mm: expected a positive length")
        if self.kind == "charuco":
            if self.dictionary not in ARUCO_DICTIONARIES:
                raise CalibrationError(
                    f"ArUco dictionary {self.dictionary!r}: expected one of {', '.join(ARUCO_DICTIONARIES)}"
                )
            if not 0 < self.marker_side_mm < self.square_mm:
                raise CalibrationError(
                    f"marker size {self.marker_mm!r} mm: expected less than the square size {self.square_mm} mm"
                )
            need = (self.cols * self.rows) // 2
            have = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary)).bytesList.shape[0]
            if need > have:
                raise CalibrationError(
                    f"a {self.cols}x{self.rows} ChArUco board needs {need} markers but {self.dictionary} has {have}"
                )

    @property
    def marker_side_mm(self) -> float:
        return float(self.marker_mm) if self.marker_mm is not None else 0.75 * float(self.square_mm)

    @property
    def inner_corners(self) -> tuple[int, int]:
        """(columns, rows) of inner corners, OpenCV's ``patternSize`` for chessboards."""
        return (self.cols - 1, self.rows - 1)

    def to_json(self) -> dict:
        out = {"kind": self.kind, "cols": self.cols, "rows": self.rows, "square_mm": self.square_mm}
        if self.kind == "charuco":
            out["marker_mm"] = self.marker_side_mm
            out["dictionary"] = self.dictionary
        return out

    def charuco_board(self) -> "cv2.aruco.CharucoBoard":
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return _charuco_board(self.cols, self.rows, float(self.square_mm), self.marker_side_mm, dictionary)

    def object_points(self) -> np.ndarray:
        """All corners of the pattern in its own plane: (N, 3) float32 mm, z = 0, row-major."""
        if self.kind == "charuco":
            return np.asarray(self.charuco_board().getChessboardCorners(), np.float32).reshape(-1, 3)
        cx, cy = self.inner_corners
        grid = np.zeros((cy * cx, 3), np.float32)
        grid[:, :2] = np.mgrid[0:cx, 0:cy].T.reshape(-1, 2) * float(self.square_mm)
        return grid

    def image(self, px_per_square: int = 100, margin_px: int = 40) -> np.ndarray:
        """The printable pattern: H x W uint8 grey, ``px_per_square`` pixels per square plus a white margin."""
        w, h = self.cols * px_per_square + 2 * margin_px, self.rows * px_per_square + 2 * margin_px
        if self.kind == "charuco":
            return self.charuco_board().generateImage((w, h), marginSize=margin_px)
        img = np.full((h, w), 255, np.uint8)
        for r in range(self.rows):
            for c in range(self.cols):
                if (r + c) % 2 == 0:
                    y0, x0 = margin_px + r * px_per_square, margin_px + c * px_per_square
                    img[y0 : y0 + px_per_square, x0 : x0 + px_per_square] = 0
        return img


def _charuco_board(cols, rows, square, marker, dictionary):
    return cv2.aruco.CharucoBoard((cols, rows), square, marker, dictionary)


@dataclass(frozen=True)
class Detection:
    """The pattern in one frame: ``object_points`` (N, 3) float32 mm and ``image_points`` (N, 2) float32 px."""

    object_points: np.ndarray
    image_points: np.ndarray


def _grey(image: np.ndarray) -> np.ndarray:
    a = np.asarray(image)
    if a.dtype != np.uint8 or a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] not in (3, 4)):
        raise CalibrationError(f"image of shape {a.shape} and type {a.dtype}: expected H x W x 3 uint8 BGR or H x W grey")
    if a.ndim == 3:
        return cv2.cvtColor(a, cv2.COLOR_BGR2GRAY if a.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
    return a


def detect_pattern(image: np.ndarray, pattern: Pattern) -> Detection | None:
    """Find ``pattern`` in an H x W (x 3) uint8 image; None when it is not (sufficiently) in view."""
    grey = _grey(image)
    if pattern.kind == "chessboard":
        found, corners = cv2.findChessboardCornersSB(grey, pattern.inner_corners, flags=0)
        if not found or corners is None:
            return None
        img = np.asarray(corners, np.float32).reshape(-1, 2)
        obj = pattern.object_points()
        if img.shape[0] != obj.shape[0]:
            return None
        return Detection(obj, img)
    board = pattern.charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    corners, ids, _marker_corners, _marker_ids = detector.detectBoard(grey)
    if corners is None or ids is None:
        return None
    corners = np.asarray(corners, np.float32).reshape(-1, 2)
    ids = np.asarray(ids, np.int32).reshape(-1)
    if ids.size < MIN_CHARUCO_CORNERS:
        return None
    if board.checkCharucoCornersCollinear(ids.reshape(-1, 1)):
        return None  # all on one line: no information about the plane's tilt
    obj = np.asarray(board.getChessboardCorners(), np.float32).reshape(-1, 3)[ids]
    return Detection(obj, corners)


@dataclass(frozen=True, eq=False)
class CameraProfile:
    """Intrinsics of one camera at one resolution.

    ``K``: 3 x 3 float64 (pixels); ``dist``: OpenCV distortion coefficients (k1, k2, p1, p2, k3[, ...]);
    ``image_size``: (width, height) px; ``rms_px``: RMS reprojection error of the fit (px).
    """

    K: np.ndarray
    dist: np.ndarray
    image_size: tuple[int, int]
    rms_px: float = 0.0
    frames_used: int = 0
    frames_given: int = 0
    pattern: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        K = np.asarray(self.K, np.float64)
        d = np.asarray(self.dist, np.float64).reshape(-1)
        if K.shape != (3, 3) or not np.all(np.isfinite(K)) or K[0, 0] <= 0 or K[1, 1] <= 0:
            raise CameraProfileError(f"camera matrix {K.tolist()}: expected 3x3 with positive focal lengths")
        if d.size not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(d)):
            raise CameraProfileError(f"distortion {d.tolist()}: expected 4, 5, 8, 12 or 14 finite coefficients")
        w, h = (int(v) for v in self.image_size)
        if w < 16 or h < 16:
            raise CameraProfileError(f"image size {w}x{h}: expected at least 16x16")
        object.__setattr__(self, "K", K)
        object.__setattr__(self, "dist", d)
        object.__setattr__(self, "image_size", (w, h))

    @property
    def fx(self) -> float:
        return float(self.K[0, 0])

    @property
    def fy(self) -> float:
        return float(self.K[1, 1])

    def for_size(self, size: tuple[int, int]) -> "CameraProfile":
        """The same camera at another resolution of the same aspect ratio (intrinsics scaled)."""
        w, h = int(size[0]), int(size[1])
        W, H = self.image_size
        if (w, h) == (W, H):
            return self
        if abs(w * H - h * W) > max(W, H):  # 1 px of rounding allowed
            raise CameraProfileError(
                f"frame of {w}x{h} px from a camera calibrated at {W}x{H}: the aspect ratio differs, recalibrate at this resolution"
            )
        s = np.diag([w / W, h / H, 1.0])
        return CameraProfile(s @ self.K, self.dist, (w, h), self.rms_px, self.frames_used, self.frames_given, self.pattern)

    def to_json(self) -> dict:
        return {
            "format": CAMERA_FORMAT,
            "version": CAMERA_VERSION,
            "image_size": list(self.image_size),
            "K": [[round(float(v), 6) for v in row] for row in self.K],
            "dist": [round(float(v), 8) for v in self.dist],
            "rms_px": round(float(self.rms_px), 4),
            "frames_used": int(self.frames_used),
            "frames_given": int(self.frames_given),
            "pattern": dict(self.pattern),
        }

    @classmethod
    def from_json(cls, obj: object, source: str = "camera profile") -> "CameraProfile":
        if not isinstance(obj, dict) or obj.get("format") != CAMERA_FORMAT:
            fmt = obj.get("format") if isinstance(obj, dict) else None
            raise CameraProfileError(f"{source}: not a table-caller camera profile (format {fmt!r}, expected {CAMERA_FORMAT!r})")
        if obj.get("version") != CAMERA_VERSION:
            raise CameraProfileError(
                f"{source}: camera profile version {obj.get('version')!r}, this program reads version {CAMERA_VERSION}"
            )
        try:
            return cls(
                K=np.asarray(obj["K"], np.float64),
                dist=np.asarray(obj["dist"], np.float64),
                image_size=(int(obj["image_size"][0]), int(obj["image_size"][1])),
                rms_px=float(obj.get("rms_px", 0.0)),
                frames_used=int(obj.get("frames_used", 0)),
                frames_given=int(obj.get("frames_given", 0)),
                pattern=dict(obj.get("pattern", {})),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CameraProfileError(f"{source}: camera profile is incomplete or malformed ({exc.__class__.__name__}: {exc})") from None


def save_camera_profile(profile: CameraProfile, path: str | Path) -> Path:
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    write_text(p, json.dumps(profile.to_json(), indent=1) + "\n")  # whole or not at all
    return p


def load_camera_profile(path: str | Path) -> CameraProfile:
    """Read a camera profile JSON; raises CameraProfileError naming the file and the problem."""
    p = Path(path)
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CameraProfileError(f"{p}: no such camera profile") from None
    except IsADirectoryError:
        raise CameraProfileError(f"{p}: is a folder, expected a camera profile JSON file") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # bad, deeply nested or huge-number JSON
        raise CameraProfileError(f"{p}: not a readable camera profile ({exc.__class__.__name__}: {exc})") from None
    return CameraProfile.from_json(obj, source=str(p))


def calibrate_camera(
    frames: Iterable[tuple[str, np.ndarray]],
    pattern: Pattern,
    *,
    min_frames: int = MIN_FRAMES,
    progress: Callable[[int, str, bool], None] | None = None,
) -> CameraProfile:
    """Calibrate from ``(name, image)`` frames (all of one size) that show ``pattern``.

    ``progress(i, name, found)`` is called after each frame. Raises PatternNotFound (naming
    the frames without the pattern) when fewer than ``min_frames`` show it, and
    CalibrationError when the frames differ in size.
    """
    obj_pts: list[np.ndarray] = []
    img_pts: list[np.ndarray] = []
    missing: list[str] = []
    size: tuple[int, int] | None = None
    first_name = ""
    given = 0
    for i, (name, image) in enumerate(frames):
        given += 1
        h, w = np.asarray(image).shape[:2]
        if size is None:
            size, first_name = (w, h), name
        elif (w, h) != size:
            raise CalibrationError(f"{name}: frame of {w}x{h} px, but {first_name} is {size[0]}x{size[1]}: calibrate one resolution at a time")
        det = detect_pattern(image, pattern)
        if det is None:
            missing.append(name)
        else:
            obj_pts.append(det.object_points)
            img_pts.append(det.image_points)
        if progress is not None:
            progress(i, name, det is not None)
    if given == 0:
        raise PatternNotFound("no frames given: expected at least {min_frames} images of the pattern")
    if len(obj_pts) < min_frames:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        raise PatternNotFound(
            f"the {pattern.kind} pattern of {pattern.cols}x{pattern.rows} squares was found in only {len(obj_pts)} of "
            f"{given} frames, need at least {min_frames} (not found in: {shown}); check --pattern, --cols and --rows "
            f"(squares, not inner corners) and that the whole sheet is in view"
        )
    assert size is not None
    w, h = size
    f0 = 0.9 * max(w, h)  # a webcam's focal length is near its long side; a sane start for the solver
    K0 = np.array([[f0, 0, (w - 1) / 2], [0, f0, (h - 1) / 2], [0, 0, 1]], np.float64)
    # k3 is left at 0: with a sheet that never reaches the frame corners it only overfits there
    flags = cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_K3
    criteria = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 100, 1e-9)
    try:
        rms, K, dist, _rvecs, _tvecs = cv2.calibrateCamera(
            [o.astype(np.float32) for o in obj_pts],
            [p.astype(np.float32).reshape(-1, 1, 2) for p in img_pts],
            (w, h), K0, np.zeros(5), flags=flags, criteria=criteria,
        )
    except cv2.error as exc:
        raise CalibrationError(f"calibration failed on {len(obj_pts)} frames ({str(exc).strip().splitlines()[-1]}): add frames at more angles") from None
    if not math.isfinite(rms) or not np.all(np.isfinite(K)) or not np.all(np.isfinite(dist)):
        raise CalibrationError(f"calibration on {len(obj_pts)} frames did not converge: add frames at more angles and distances")
    return CameraProfile(
        K=K, dist=np.asarray(dist, np.float64).reshape(-1)[:5], image_size=(w, h), rms_px=float(rms),
        frames_used=len(obj_pts), frames_given=given, pattern=pattern.to_json(),
    )


@lru_cache(maxsize=8)
def _maps(K_key: tuple, dist_key: tuple, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    K = np.asarray(K_key, np.float64).reshape(3, 3)
    d = np.asarray(dist_key, np.float64)
    # the new camera matrix is K itself: straight lines come out straight at the same scale,
    # so the reader's pixel-size settings mean the same with and without a camera profile
    return cv2.initUndistortRectifyMap(K, d, None, K, size, cv2.CV_16SC2)


def undistort_maps(profile: CameraProfile, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The cached ``cv2.remap`` tables (fixed-point) that undistort ``size`` = (width, height) frames."""
    cam = profile.for_size(size)
    key_k = tuple(round(float(v), 9) for v in cam.K.ravel())
    key_d = tuple(round(float(v), 12) for v in cam.dist.ravel())
    return _maps(key_k, key_d, (int(size[0]), int(size[1])))


def undistort(image: np.ndarray, profile: CameraProfile | None) -> np.ndarray:
    """``image`` (H x W x 3 or H x W, uint8) as an ideal pinhole camera with the profile's K would see it.

    ``profile=None`` returns the image unchanged (reading works without a camera profile).
    A frame at another resolution of the same aspect ratio uses the scaled intrinsics.
    """
    if profile is None:
        return image
    a = np.asarray(image)
    if a.ndim not in (2, 3) or a.shape[0] < 16 or a.shape[1] < 16:
        raise CalibrationError(f"image of shape {a.shape}: expected H x W x 3 or H x W")
    m1, m2 = undistort_maps(profile, (a.shape[1], a.shape[0]))
    return cv2.remap(a, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def undistort_points(points: np.ndarray, profile: CameraProfile, size: tuple[int, int]) -> np.ndarray:
    """Pixel points (N, 2) of a distorted ``size`` frame -> (N, 2) pixels of the undistorted frame."""
    cam = profile.for_size(size)
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    out = cv2.undistortPoints(pts, cam.K, cam.dist, None, None, cam.K, (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-8))
    return np.asarray(out, np.float64).reshape(-1, 2)


def distort_points(points: np.ndarray, profile: CameraProfile, size: tuple[int, int]) -> np.ndarray:
    """Pixel points (N, 2) of the undistorted ``size`` frame -> (N, 2) pixels of the camera's
    own (distorted) frame: the inverse of ``undistort_points``."""
    cam = profile.for_size(size)
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    rays = np.column_stack([(pts[:, 0] - cam.K[0, 2]) / cam.K[0, 0], (pts[:, 1] - cam.K[1, 2]) / cam.K[1, 1], np.ones(len(pts))])
    out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), cam.K, cam.dist)
    return np.asarray(out, np.float64).reshape(-1, 2)


def pattern_from_args(kind: str, cols: int, rows: int, square_mm: float, marker_mm: float | None = None,
                      dictionary: str = "DICT_5X5_100") -> Pattern:
    return Pattern(kind=kind, cols=cols, rows=rows, square_mm=square_mm, marker_mm=marker_mm, dictionary=dictionary)


def frames_from_paths(paths: Sequence[str | Path]) -> Iterable[tuple[str, np.ndarray]]:
    """``(name, BGR image)`` for each file; raises CalibrationError for a file that is not an image."""
    for p in paths:
        p = Path(p)
        if not p.is_file():
            raise CalibrationError(f"{p}: no such image file")
        image = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if image is None:
            raise CalibrationError(f"{p}: cannot be read as an image (expected .jpg/.png)")
        yield str(p), image
