"""The board's four outer corners, given by the person (``caller calibrate --corners`` or clicked).

When the board finder cannot find the tiles of an unfamiliar set (dark faces on a dark cloth,
wood without printed frames), a person still sees the board. Its four outer corners, in
image pixels, far-left first and clockwise in the player's frame (far-left, far-right,
near-right, near-left), fix both where the board lies and which side is the player's: the
lattice is built from them (no lens distortion, ``lam`` 0) instead of searched for.

* :func:`parse_corners` reads ``x,y`` strings; :func:`check_corners` refuses corners that
  cannot be a board's (not inside the image, not convex, self-crossing, counter-clockwise,
  tiny) with one line;
* :func:`estimate_face` measures the tile side over the pitch from the gaps between the
  tiles seen through the corners;
* :func:`lattice_from_corners` builds the :class:`vision.locate.Lattice`, in the player's
  frame (quarter turn 0).
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.errors import CalibrationError
from vision.locate import BOARD, Lattice

#: tile side over pitch when the gaps cannot be measured (2-inch tiles 4.5 to 8 mm apart: 0.86 to 0.92)
DEFAULT_FACE = 0.89
#: the faces measured from the gaps are searched in this range
FACE_RANGE = (0.75, 0.995)
#: the shortest board side accepted (image px): five tiles the reader can still tell apart
MIN_SIDE_PX = 60.0
ORDER_WORDS = ("far-left", "far-right", "near-right", "near-left")
CORNERS_HELP = ("the board's 4 outer corners in image pixels, far-left first, clockwise "
                "(far-left, far-right, near-right, near-left as the player sees it)")


class BadCorners(CalibrationError):
    """Corners that cannot be the board's (one line; exit status 2)."""


def parse_corners(values) -> np.ndarray:
    """``["x,y", ...]`` (4 of them) -> 4 x 2 float64 image px; raises BadCorners."""
    values = list(values or [])
    if len(values) != 4:
        raise BadCorners(f"--corners takes 4 corners x,y (far-left, far-right, near-right, near-left), got {len(values)}")
    pts = []
    for word, v in zip(ORDER_WORDS, values):
        parts = str(v).replace(" ", "").split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            x, y = float(parts[0]), float(parts[1])
        except ValueError:
            raise BadCorners(f"--corners: the {word} corner {v!r} is not x,y (two numbers, image pixels)") from None
        if not (np.isfinite(x) and np.isfinite(y)):
            raise BadCorners(f"--corners: the {word} corner {v!r} is not a finite number pair")
        pts.append((x, y))
    return np.array(pts, np.float64)


def check_corners(corners: np.ndarray, shape: tuple[int, ...], source: str = "--corners") -> np.ndarray:
    """The corners (4 x 2 image px) when they can be the board's outer corners in an image of
    ``shape``, else BadCorners naming the problem."""
    c = np.asarray(corners, np.float64).reshape(-1, 2)
    h, w = shape[:2]
    if len(c) != 4:
        raise BadCorners(f"{source}: {len(c)} corners, expected 4")
    for word, (x, y) in zip(ORDER_WORDS, c):
        if not (0 <= x <= w - 1 and 0 <= y <= h - 1):
            raise BadCorners(f"{source}: the {word} corner ({x:g}, {y:g}) is outside the {w}x{h} image")
    side = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
    if side.min() < MIN_SIDE_PX:
        raise BadCorners(f"{source}: the board's sides must be at least {MIN_SIDE_PX:g} px long, the shortest is "
                         f"{side.min():.0f} px (corners on top of each other, or a board too small to read)")
    # the turn at each corner: all the same sign for a convex quadrilateral (clockwise on screen,
    # y down, when positive); mixed signs: a dent or sides that cross
    d = np.roll(c, -1, axis=0) - c
    turn = d[:, 0] * np.roll(d, -1, axis=0)[:, 1] - d[:, 1] * np.roll(d, -1, axis=0)[:, 0]
    area = 0.5 * float((c[:, 0] * np.roll(c[:, 1], -1) - np.roll(c[:, 0], -1) * c[:, 1]).sum())
    if not (np.all(turn > 0) or np.all(turn < 0)) or _crosses(c):
        raise BadCorners(f"{source}: the corners do not outline a convex board (their sides cross or bend inwards): "
                         "give them in order around the board, far-left first, clockwise")
    if area < 0:
        raise BadCorners(f"{source}: the corners go anticlockwise around the board: give them clockwise, far-left first "
                         "(far-left, far-right, near-right, near-left)")
    return c


def _crosses(c: np.ndarray) -> bool:
    """Whether the quadrilateral's opposite sides (0-1 with 2-3, 1-2 with 3-0) cross."""
    def cross(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    def meet(a, b, e, f):
        return cross(a, b, e) * cross(a, b, f) < 0 and cross(e, f, a) * cross(e, f, b) < 0

    return meet(c[0], c[1], c[2], c[3]) or meet(c[1], c[2], c[3], c[0])


def _board_corners_uv(face: float) -> np.ndarray:
    """The outer tile edges' corners in lattice units (TL, TR, BR, BL): half a gap inside the pitch lattice."""
    e = (1.0 - face) / 2.0
    return np.array([[e, e], [BOARD - e, e], [BOARD - e, BOARD - e], [e, BOARD - e]], np.float64)


def lattice_through(px: np.ndarray, uv: np.ndarray, shape: tuple[int, ...], face: float,
                    candidates: np.ndarray | None = None) -> Lattice:
    """The lattice (no lens distortion) taking the 4 image points ``px`` to the lattice units ``uv``."""
    h, w = shape[:2]
    centre = ((w - 1) / 2.0, (h - 1) / 2.0)
    radius = float(np.hypot(w, h) / 2.0)
    x = (np.asarray(px, np.float64).reshape(4, 2) - centre) / radius
    H = cv2.getPerspectiveTransform(x.astype(np.float32), np.asarray(uv, np.float32).reshape(4, 2)).astype(np.float64)
    H /= H[2, 2]
    none = np.zeros((0, 4, 2), np.float32)
    return Lattice(H, 0.0, centre, radius, frozenset(), float(face), none,
                   none if candidates is None else np.asarray(candidates, np.float32))


def lattice_from_corners(corners: np.ndarray, shape: tuple[int, ...], face: float = DEFAULT_FACE,
                         candidates: np.ndarray | None = None) -> Lattice:
    """The board's lattice in the player's frame from its outer corners (far-left first, clockwise).

    ``tiles`` is empty (no face was found by the search); ``candidates``: the tile-like quads
    the search did find, kept for the debug picture."""
    return lattice_through(corners, _board_corners_uv(face), shape, face, candidates)


def estimate_face(image: np.ndarray, corners: np.ndarray, size: int = 400) -> float:
    """Tile side over pitch, measured from the gaps between the tiles inside the corners.

    The board is warped to a ``size`` square (outer tile edges at its borders); along each
    axis the mean edge strength across it is a profile with peaks at the tiles' sides. With
    faces ``f`` pitches wide, tile i spans [i, i + f] of the board's 4 + f: the face whose
    eight inner sides per axis fall on the strongest edges is taken. A board with no visible
    gaps (edges no stronger than the faces' insides) keeps :data:`DEFAULT_FACE`."""
    dst = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    M = cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2), dst)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    board = cv2.warpPerspective(grey, M, (size, size), flags=cv2.INTER_AREA).astype(np.float32)
    board = cv2.GaussianBlur(board, (0, 0), 1.0)
    gx = np.abs(cv2.Sobel(board, cv2.CV_32F, 1, 0))
    gy = np.abs(cv2.Sobel(board, cv2.CV_32F, 0, 1))
    # edge strength across each axis (columns for vertical sides, rows for horizontal ones)
    prof = gx.mean(0) + gy.mean(1)
    best, best_score = DEFAULT_FACE, -np.inf
    xs = np.arange(size)
    for f in np.arange(FACE_RANGE[0], FACE_RANGE[1], 0.0025):
        edges = np.array([i + f for i in range(BOARD - 1)] + [float(i) for i in range(1, BOARD)]) / (BOARD - 1 + f) * size
        score = float(np.interp(edges, xs, prof).mean())
        if score > best_score:
            best, best_score = float(f), score
    inside = float(np.median(prof[int(0.05 * size): int(0.95 * size)]))
    if best_score < max(1.5 * inside, 1.0):
        return DEFAULT_FACE
    return round(best, 4)
