"""The simulated webcam: a pinhole camera with OpenCV lens distortion, placed over the table.

World frame (mm): the table is the plane z = 0; x points to the player's right, y points
towards the player (down the board: row 1 is at the smallest y), z points DOWN into the table,
so a point at height h above the table has z = -h. This frame is right-handed and makes an
overhead camera with zero rotation see the board exactly as the player does.

Camera pose: the optical axis passes through ``target`` (a table point), tilted ``tilt_deg``
from straight down; ``rotation_deg`` is where around the board the camera stands (0 = behind
the player, 90 = on the player's right side, 180 = across the table); ``roll_deg`` turns the
image about the axis. ``distance_mm`` is from the camera centre to the target.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from simulator.errors import SimulatorError

FOOT_MM = 304.8


@dataclass(frozen=True)
class CameraSpec:
    """Intrinsics (pixels), distortion (k1, k2, p1, p2, k3) and pose of one webcam."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float]
    tilt_deg: float
    rotation_deg: float
    distance_mm: float
    roll_deg: float = 0.0
    target: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not (0.0 <= self.tilt_deg < 80.0):
            raise SimulatorError(f"camera tilt {self.tilt_deg!r} degrees: expected 0 to 80")
        if self.distance_mm <= 50:
            raise SimulatorError(f"camera distance {self.distance_mm!r} mm: expected more than 50")
        if self.width < 16 or self.height < 16:
            raise SimulatorError(f"image size {self.width}x{self.height}: expected at least 16x16")

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], np.float64)

    @property
    def dist_array(self) -> np.ndarray:
        return np.asarray(self.dist, np.float64)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def for_size(self, size: tuple[int, int]) -> "CameraSpec":
        """The same camera at another resolution (intrinsics scaled, same field of view)."""
        w, h = size
        if (w, h) == (self.width, self.height):
            return self
        sx, sy = w / self.width, h / self.height
        return replace(self, width=w, height=h, fx=self.fx * sx, fy=self.fy * sy, cx=self.cx * sx, cy=self.cy * sy)

    def pose(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(R 3x3 world->camera, t 3-vector, C camera centre in world mm)."""
        return _pose(self.tilt_deg, self.rotation_deg, self.roll_deg, self.distance_mm, self.target)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) mm -> distorted pixel coordinates (N, 2) of the final image."""
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        R, t, _ = self.pose()
        rvec, _ = cv2.Rodrigues(R)
        out, _ = cv2.projectPoints(pts, rvec, t, self.K, self.dist_array)
        return out.reshape(-1, 2)

    def to_json(self) -> dict:
        R, t, C = self.pose()
        rvec, _ = cv2.Rodrigues(R)
        return {
            "width": self.width,
            "height": self.height,
            "K": [[round(float(v), 4) for v in row] for row in self.K],
            "dist": [round(float(v), 6) for v in self.dist],
            "rvec": [round(float(v), 6) for v in rvec.ravel()],
            "tvec": [round(float(v), 4) for v in t.ravel()],
            "position_mm": [round(float(v), 3) for v in C.ravel()],
            "tilt_deg": round(self.tilt_deg, 4),
            "rotation_deg": round(self.rotation_deg, 4),
            "roll_deg": round(self.roll_deg, 4),
            "distance_mm": round(self.distance_mm, 3),
            "target_mm": [round(float(v), 3) for v in self.target],
        }

    @classmethod
    def from_json(cls, obj: dict) -> "CameraSpec":
        try:
            K = obj["K"]
            return cls(
                width=int(obj["width"]), height=int(obj["height"]), fx=float(K[0][0]), fy=float(K[1][1]),
                cx=float(K[0][2]), cy=float(K[1][2]), dist=tuple(float(v) for v in obj["dist"]),
                tilt_deg=float(obj["tilt_deg"]), rotation_deg=float(obj["rotation_deg"]),
                distance_mm=float(obj["distance_mm"]), roll_deg=float(obj.get("roll_deg", 0.0)),
                target=tuple(float(v) for v in obj.get("target_mm", (0.0, 0.0))),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SimulatorError(f"bad camera JSON ({exc.__class__.__name__}: {exc}): expected the 'camera' object of a truth file") from None


@lru_cache(maxsize=64)
def _pose(tilt, rotation, roll, distance, target):
    th, ph = math.radians(tilt), math.radians(rotation)
    # d: horizontal unit vector from the target towards the camera's foot
    d = np.array([math.sin(ph), math.cos(ph), 0.0])
    T = np.array([target[0], target[1], 0.0])
    C = T + distance * (math.sin(th) * d + np.array([0.0, 0.0, -math.cos(th)]))
    f = (T - C) / np.linalg.norm(T - C)
    u = d - (d @ f) * f
    if np.linalg.norm(u) < 1e-9:
        u = d
    u = u / np.linalg.norm(u)
    r = np.cross(u, f)
    if roll:
        a = math.radians(roll)
        r, u = math.cos(a) * r + math.sin(a) * u, -math.sin(a) * r + math.cos(a) * u
    R = np.stack([r, u, f])
    t = -R @ C
    R.setflags(write=False)
    t.setflags(write=False)
    C.setflags(write=False)
    return R, t, C


def plane_homography(K: np.ndarray, R: np.ndarray, t: np.ndarray, height_mm: float) -> np.ndarray:
    """3x3 map from table-plane (x, y) mm at ``height_mm`` above the table to pinhole pixels of K."""
    return K @ np.column_stack([R[:, 0], R[:, 1], R[:, 2] * (-height_mm) + t])


def random_camera(
    rng: np.random.Generator,
    size: tuple[int, int],
    extent: tuple[float, float, float, float],
    *,
    tilt_range: tuple[float, float] = (0.0, 40.0),
    distortion: bool = True,
    rotation_range: tuple[float, float] = (0.0, 360.0),
) -> CameraSpec:
    """A plausible webcam that sees the whole table box ``extent`` (x0, y0, x1, y1 in mm).

    Field of view 55-85 degrees horizontally, tilt in ``tilt_range``, a rotation around the
    board in ``rotation_range`` (degrees, 0 = behind the player; by default any), and the closest distance (1 to 4 feet when the board allows) that keeps the box in
    view with a 5% margin, or further out to 4 feet (the distance's distribution favours the
    close end).
    """
    w, h = size
    hfov = math.radians(rng.uniform(55.0, 85.0))
    fx = (w / 2) / math.tan(hfov / 2)
    fy = fx * rng.uniform(0.995, 1.005)
    cx = w / 2 + rng.uniform(-0.015, 0.015) * w
    cy = h / 2 + rng.uniform(-0.015, 0.015) * h
    if distortion:
        k1 = rng.uniform(-0.22, 0.03)
        dist = (k1, rng.uniform(-0.02, 0.06) if k1 < -0.1 else rng.uniform(-0.01, 0.02),
                rng.normal(0, 0.0008), rng.normal(0, 0.0008), 0.0)
    else:
        dist = (0.0, 0.0, 0.0, 0.0, 0.0)
    tilt = rng.uniform(*tilt_range)
    rotation = rng.uniform(*rotation_range) % 360.0
    roll = rng.normal(0.0, 2.0)
    x0, y0, x1, y1 = extent
    target = ((x0 + x1) / 2 + rng.normal(0, 8), (y0 + y1) / 2 + rng.normal(0, 8))
    box = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0],
                    [x0, y0, -25], [x1, y0, -25], [x1, y1, -25], [x0, y1, -25]], np.float64)
    base = CameraSpec(w, h, fx, fy, cx, cy, tuple(float(v) for v in dist), tilt, rotation, 1000.0, roll, target)
    margin = 0.05
    lo = None
    for distance in np.arange(FOOT_MM, 6 * FOOT_MM, 10.0):
        cam = replace(base, distance_mm=float(distance))
        p = cam.project(box)
        if (p[:, 0].min() > margin * w and p[:, 0].max() < (1 - margin) * w
                and p[:, 1].min() > margin * h and p[:, 1].max() < (1 - margin) * h):
            lo = float(distance)
            break
    if lo is None:
        lo = 6 * FOOT_MM
    # anywhere out to 4 feet, but mostly close: people frame the board rather than the room
    hi = max(lo, 4 * FOOT_MM)
    return replace(base, distance_mm=float(lo + (hi - lo) * rng.uniform(0.0, 1.0) ** 2.5))


def undistort_source_map(cam: CameraSpec) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]]:
    """For each final (distorted) pixel, where it comes from in the ideal pinhole render.

    Returns (map_x, map_y, (ox, oy, W, H)): the ideal render is drawn on a W x H canvas whose
    pixel (0, 0) is pixel (ox, oy) of the final camera's ideal image plane (ox, oy <= 0), so
    barrel distortion can pull in content from outside the final frame. Maps index that canvas.
    """
    return _undistort_map(cam.width, cam.height, cam.fx, cam.fy, cam.cx, cam.cy, cam.dist)


@lru_cache(maxsize=16)
def _undistort_map(w, h, fx, fy, cx, cy, dist):
    K = np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], np.float64)
    if not any(dist):
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        return xs, ys, (0, 0, w, h)
    step = 8
    gx = np.arange(0, w + step, step, dtype=np.float64)
    gy = np.arange(0, h + step, step, dtype=np.float64)
    xs, ys = np.meshgrid(gx, gy)
    pts = np.stack([xs.ravel(), ys.ravel()], 1).reshape(-1, 1, 2)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-6)
    und = cv2.undistortPoints(pts, K, np.asarray(dist), None, None, K, crit).reshape(len(gy), len(gx), 2)
    ux = cv2.resize(und[..., 0].astype(np.float32), (len(gx) * step, len(gy) * step), interpolation=cv2.INTER_LINEAR)
    uy = cv2.resize(und[..., 1].astype(np.float32), (len(gx) * step, len(gy) * step), interpolation=cv2.INTER_LINEAR)
    # resize maps grid node i to pixel i*step + (step-1)/2; shift so node i lands on pixel i*step
    shift = (step - 1) / 2.0
    M = np.float32([[1, 0, -shift], [0, 1, -shift]])
    ux = cv2.warpAffine(ux, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    uy = cv2.warpAffine(uy, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ox = int(math.floor(min(0.0, float(ux.min())))) - 2
    oy = int(math.floor(min(0.0, float(uy.min())))) - 2
    ox, oy = max(ox, -w // 3), max(oy, -h // 3)
    W = int(math.ceil(max(w, float(ux.max()) + 2))) - ox
    H = int(math.ceil(max(h, float(uy.max()) + 2))) - oy
    W, H = min(W, w + 2 * (w // 3)), min(H, h + 2 * (h // 3))
    return ux - ox, uy - oy, (ox, oy, W, H)
