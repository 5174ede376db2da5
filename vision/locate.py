"""Find the Easy Slider board in a frame: tile candidates, then a robust 5x5 lattice homography.

Frames: *image px* are (x, y) pixels of the input frame; *detection px* the same in the
downscaled copy the search runs in; *lattice units* (u, v) are pitches (one tile plus one
gap) with the board's outer tile edges at 0 and 5 on both axes. The lattice frame is the
table seen from above (x right, y down in the image's handedness): it is a rotation of the
player's frame by a multiple of 90 degrees, which ``orientation`` resolves.

The search: threshold the frame at a few levels (local and global), keep blobs that are
convex quadrilaterals of tile size (when that finds few: also the regions between thin
dark lines, for faces as light as the table), then for a few seed quads map every candidate into the
seed's square frame, snap them to the integer lattice, refit the homography on the snapped
tiles' corners and keep the seed that explains most tiles. A second lattice with many
tiles among the rest means two boards are in view.

When that finds fewer than a board's worth of tiles, the same searches run again on other
renderings of the frame, each kept only when it explains more tiles: its negative (dark faces
with light inks become light faces with dark inks) and both with their local contrast
equalised (faint faces on a table of their own shade). When tiles are missing along an edge,
the 5x5 window is chosen by the tileness of its cells and by how many of them have the colour
of the tiles found, whatever their shade, and are bounded by edges where a tile's sides are.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import LocateConfig, VisionConfig
from vision.errors import BoardNotFound, TooManyBoards

BOARD = 5
#: per brightness d, the least integer of at least 18 d / 25: a pixel darker than it is ink
_INK_BAR = np.ceil(np.arange(256) * 18 / 25).astype(np.uint8)


def undistort(x: np.ndarray, lam: float) -> np.ndarray:
    """Division model: N x 2 distorted normalised coords -> undistorted (``x / (1 + lam |x|^2)``)."""
    r2 = (x * x).sum(-1, keepdims=True)
    return x / (1.0 + lam * r2)


def distort(x: np.ndarray, lam: float) -> np.ndarray:
    """Inverse of :func:`undistort` (closed form of the division model's quadratic).

    The distorted radius is ``r (1 - sqrt(D)) / (2 lam r^2)`` with ``D = 1 - 4 lam r^2``,
    written as ``r * 2 / (1 + sqrt(D))`` (the same number, without dividing by r); beyond
    the model's range (D <= 0) D is held at 1e-12 in the first form, as always."""
    if abs(lam) < 1e-9:
        return x
    r2 = (x * x).sum(-1, keepdims=True)
    disc = 1.0 - 4.0 * lam * r2
    f = 2.0 / (1.0 + np.sqrt(np.maximum(disc, 0.0)))
    out = disc < 1e-12
    if out.any():
        f = np.where(out, (1.0 - np.sqrt(1e-12)) / (2.0 * lam * np.maximum(r2, 1e-300)), f)
    return x * f


@dataclass(frozen=True, eq=False)
class Lattice:
    """A found board, with the lens's radial distortion.

    Image px p are normalised as ``x = (p - centre) / radius`` (centre: the frame's centre,
    radius: half its diagonal), undistorted with the division model ``lam`` (negative for
    barrel distortion), then ``H`` (3x3) maps them to lattice units. ``tiles``: the lattice
    nodes (row, col) in 0..4 where a tile face was seen; ``face``: tile side over pitch;
    ``quads``: those tiles' corners in image px (N x 4 x 2); ``candidates``: every tile-like
    quad found (image px), for the debug picture; ``dark_faces``: the tiles were found in the
    frame's negative (faces darker than their inks), where a face model learnt on light faces
    says little about where the window lies.
    """

    H: np.ndarray
    lam: float
    centre: tuple[float, float]
    radius: float
    tiles: frozenset[tuple[int, int]]
    face: float
    quads: np.ndarray
    candidates: np.ndarray
    dark_faces: bool = False
    shape: tuple[int, int] = (BOARD, BOARD)
    """The board's window in lattice nodes, (rows, cols) along (y, x): 5x5 for a face-up board,
    a grid-side board's tiles either way round."""

    def to_lattice(self, pts: np.ndarray) -> np.ndarray:
        """N x 2 image px -> N x 2 lattice units."""
        x = (np.asarray(pts, np.float64).reshape(-1, 2) - self.centre) / self.radius
        return warp(self.H, undistort(x, self.lam))

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """... x 2 lattice units -> image px (same shape)."""
        p = np.asarray(pts, np.float64)
        x = warp(np.linalg.inv(self.H), p.reshape(-1, 2))
        return (distort(x, self.lam) * self.radius + self.centre).reshape(p.shape)

    def shifted(self, dx: int, dy: int) -> "Lattice":
        """The same lattice with its window moved ``dx`` columns and ``dy`` rows (the tiles
        seen that stay in the window keep their place on the table)."""
        T = np.array([[1, 0, -dx], [0, 1, -dy], [0, 0, 1]], np.float64)
        rows, cols = self.shape
        tiles = frozenset((r - dy, c - dx) for r, c in self.tiles if 0 <= r - dy < rows and 0 <= c - dx < cols)
        return Lattice(T @ self.H, self.lam, self.centre, self.radius, tiles, self.face, self.quads, self.candidates,
                       self.dark_faces, self.shape)

    def pitch_px(self) -> float:
        """Mean length of one pitch in image px (over the board's four edges)."""
        rows, cols = self.shape
        c = self.corners_px()
        d = c - c[_NEXT]
        sides = np.sqrt((d * d).sum(1))
        if rows == cols:
            return float(sides.mean() / cols)
        return float((sides[0] / cols + sides[1] / rows + sides[2] / cols + sides[3] / rows) / 4)

    def corners_px(self) -> np.ndarray:
        """4 x 2 image px: the corners of the board's window (lattice corners (0, 0), (cols, 0),
        (cols, rows), (0, rows))."""
        rows, cols = self.shape
        return self.to_image(np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float64))


def same_board(a: Lattice, b: Lattice, share: float = 0.25) -> bool:
    """Whether two found boards lie in the same place: each corner of either window lies within
    ``share`` of a pitch of a corner of the other (in whatever order the searches numbered
    their nodes), and both windows have the same number of tiles."""
    if sorted(a.shape) != sorted(b.shape):
        return False
    ca, cb = a.corners_px(), b.corners_px()
    d = np.sqrt(((ca[:, None] - cb[None]) ** 2).sum(-1))
    reach = share * min(a.pitch_px(), b.pitch_px())
    return bool(d.min(1).max() <= reach and d.min(0).max() <= reach)


#: each corner's successor around a quad
_NEXT = [1, 2, 3, 0]


def _side_lengths(quads: np.ndarray) -> np.ndarray:
    """K x 4 lengths of the sides of K x 4 x 2 quads (corner i to corner i + 1)."""
    d = quads[:, _NEXT] - quads
    return np.sqrt((d * d).sum(-1))


def order_clockwise(q: np.ndarray) -> np.ndarray:
    """... x 4 x 2 points -> the same points clockwise on screen (y down), starting nearest the top-left."""
    q = np.asarray(q)
    flat = q.reshape(-1, 4, 2)
    c = flat.mean(1, keepdims=True)
    ang = np.arctan2(flat[..., 1] - c[..., 1], flat[..., 0] - c[..., 0])
    # increasing angle with y down is clockwise on screen
    flat = np.take_along_axis(flat, np.argsort(ang, axis=1)[..., None], axis=1)
    start = np.argmin(flat[..., 0] + flat[..., 1], axis=1)
    idx = (start[:, None] + np.arange(4)[None]) % 4
    return np.take_along_axis(flat, idx[..., None], axis=1).reshape(q.shape)


def _component_quads(mask: np.ndarray, ink: np.ndarray, cfg: VisionConfig, max_side: float, grow: float) -> list[np.ndarray]:
    """Convex quadrilaterals fitted to the tile-sized blobs of a binary mask (corners not yet ordered).

    Blobs are the outer contours of the mask (``findContours`` is several times faster than
    labelling with statistics); a blob's area is its outer polygon less its holes (the glyph),
    corrected to pixel counts by half the perimeters. ``ink``: the frame's ink mask; a blob
    of tile size is only considered when the inner 70% of its bounding box holds some ink
    (the glyph or the corner symbol). That drops most blank look-alikes (checks of a
    tablecloth) cheaply (counted per blob: an integral image of the frame cost more).
    """
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return []
    hier = hier.reshape(-1, 4)
    lc = cfg.locate
    lo = lc.min_tile_px
    outer = np.nonzero(hier[:, 3] < 0)[0]
    # a tile-sized blob's outer contour has at least 4 points; tiny specks are skipped unmeasured
    outer = outer[[len(contours[i]) >= 4 for i in outer]] if len(outer) else outer
    if len(outer) == 0:
        return []
    rects = np.array([cv2.boundingRect(contours[i]) for i in outer], np.int64).reshape(-1, 4)
    x, y, w, h = rects.T
    small, big = lo * lc.blob_small_slack, max_side * lc.blob_big_slack
    ok = (w >= small) & (h >= small) & (w <= big) & (h <= big)
    ok &= np.maximum(w, h) <= lc.blob_max_aspect * np.minimum(w, h)
    x0, x1 = x + (w * 3) // 20, x + w - (w * 3) // 20
    y0, y1 = y + (h * 3) // 20, y + h - (h * 3) // 20
    for i in np.flatnonzero(ok):
        area = max(int((x1[i] - x0[i]) * (y1[i] - y0[i])), 1)
        ok[i] = cv2.countNonZero(ink[y0[i] : y1[i], x0[i] : x1[i]]) > lc.blob_min_ink * area
    sel = outer[ok]
    if len(sel) == 0:
        return []
    holes: dict[int, float] = {}
    for j in np.nonzero(np.isin(hier[:, 3], sel))[0]:
        c = contours[j]
        # a hole's contour runs through the blob's pixels around it
        p = int(hier[j, 3])
        holes[p] = holes.get(p, 0.0) + max(0.0, cv2.contourArea(c) - 0.5 * cv2.arcLength(c, True))
    bbox_area = (w * h)[ok]
    quads, areas, hull_areas = [], [], []
    for i, bb in zip(sel.tolist(), bbox_area.tolist()):
        cnt = contours[i]
        area = cv2.contourArea(cnt) + 0.5 * cv2.arcLength(cnt, True) + 1.0 - holes.get(i, 0.0)
        if area < lc.blob_min_area * lo * lo or area < lc.blob_min_box_fill * bb:
            continue
        hull = cv2.convexHull(cnt)
        approx = cv2.approxPolyDP(hull, lc.quad_approx * cv2.arcLength(hull, True), True)
        if len(approx) != 4:
            continue
        quads.append(approx)
        areas.append(area)
        hull_areas.append(cv2.contourArea(hull))
    if not quads:
        return []
    q = np.array(quads, np.float32).reshape(-1, 4, 2)
    qa = np.abs(quad_areas(q))
    areas_a, hull_a = np.array(areas), np.array(hull_areas)
    sides = _side_lengths(q)
    smin, smax = sides.min(1), sides.max(1)
    good = (hull_a > 0) & (qa > 0)
    qa_safe = np.where(good, qa, 1.0)
    good &= (areas_a / qa_safe >= lc.quad_fill * 0.8) & (hull_a / qa_safe >= lc.quad_hull_fill)
    good &= (smin >= lc.min_tile_px) & (smax <= max_side) & (smax <= lc.quad_max_aspect * smin)
    q, qa = q[good], qa[good]
    if grow:
        cen = q.mean(1, keepdims=True)
        q = cen + (q - cen) * (1.0 + 2.0 * grow / np.maximum(1.0, np.sqrt(qa)))[:, None, None]
    return list(q.astype(np.float32))


def _tileness(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """How much each quad looks like a tile face (>0 plausible): a flat light face with a
    little dark ink (every face has a suit symbol in one corner), unlike checks of a
    tablecloth (no ink) or the outline of a glyph (mostly ink). ``vision.kernels.tileness``."""
    if len(quads) == 0:
        return np.zeros(0)
    from vision import kernels

    return kernels.tileness(gray, np.ascontiguousarray(quads, np.float32))


@dataclass
class _Detect:
    """One detection copy of the frame and what its masks share: the 3x3-blurred copy, the
    ink mask (dark strokes), the adaptive threshold's block, the largest tile side,
    and the raw (unscored) quads found so far."""

    gray: np.ndarray
    blur: np.ndarray
    ink: np.ndarray
    block: int
    max_side: float
    raw: list
    mean: np.ndarray | None = None


def prepare(gray: np.ndarray, cfg: VisionConfig) -> _Detect:
    h, w = gray.shape
    max_side = cfg.locate.max_tile_frac * min(h, w)
    block = int(max(15, (2 * max_side) // 2 * 2 + 1))
    blur = cv2.GaussianBlur(gray, (3, 3), 0)
    k = max(3, int(round(cfg.locate.min_tile_px / 4)) | 1)
    # ink: darker than 0.72 of the brightest nearby (25 * blur < 18 * max in integers, that is
    # blur < ceil(18 * max / 25): one table look-up and a comparison)
    dil = cv2.dilate(blur, np.ones((k, k), np.uint8))
    ink = cv2.compare(blur, cv2.LUT(dil, _INK_BAR), cv2.CMP_LT)
    return _Detect(gray, blur, ink, block, max_side, [])


def _add_quads(d: _Detect, masks: list[np.ndarray], cfg: VisionConfig, erosions: tuple[int, ...] = (1, 2),
               done: int = 0) -> list[np.ndarray]:
    """Quads of each mask eroded once and twice (touching tiles part after one or two px), or
    as many times as ``erosions`` says; ``done``: how many times the masks given are already
    eroded. Returns the masks as last eroded."""
    kernel = np.ones((3, 3), np.uint8)
    out = []
    for m in masks:
        for it in range(done + 1, max(erosions) + 1):
            m = cv2.erode(m, kernel)
            if it in erosions:
                d.raw += _component_quads(m, d.ink, cfg, d.max_side, float(it))
        out.append(m)
    return out


def bright_mask(d: _Detect, cfg: VisionConfig) -> np.ndarray:
    """Faces lighter than their surroundings (the gaps and most tables: 4 grey levels over the
    local mean, :func:`_local_mean`); in a copy finer than
    ``detect_long_side`` less the thin dark lines (gaps between touching tiles, a glare's faint
    seams) so neighbours part."""
    bright = cv2.compare(d.blur, cv2.add(_local_mean(d), 4), cv2.CMP_GT)
    if max(d.gray.shape) > cfg.locate.detect_long_side and cfg.locate.gap_line_contrast > 0:
        bright = cv2.bitwise_and(bright, cv2.compare(thin_lines(d, True, cfg.locate.gap_line_px), cfg.locate.gap_line_contrast, cv2.CMP_LT))
    return bright


def _local_mean(d: _Detect) -> np.ndarray:
    """The blurred copy's mean over a ``block`` x ``block`` window around each pixel, computed
    in a copy a quarter the size and spread back linearly (the window is a tile or two wide:
    its mean varies slowly; adaptiveThreshold's full-size box filter cost four times more)."""
    if d.mean is None:
        h, w = d.blur.shape
        f = 4
        small = cv2.resize(d.blur, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
        k = max(3, (d.block // f) | 1)
        box = cv2.boxFilter(small, -1, (k, k), borderType=cv2.BORDER_REPLICATE)
        d.mean = cv2.resize(box, (w, h), interpolation=cv2.INTER_LINEAR)
    return d.mean


def thin_lines(d: _Detect, dark: bool, px: int) -> np.ndarray:
    """How much darker (``dark``) or lighter each pixel is than its surroundings across a line
    up to ``px`` wide: a morphological black-hat or top-hat of the blurred copy."""
    k = np.ones((px, px), np.uint8)
    return cv2.morphologyEx(d.blur, cv2.MORPH_BLACKHAT if dark else cv2.MORPH_TOPHAT, k)


def _thorough_masks(d: _Detect, cfg: VisionConfig) -> list[np.ndarray]:
    """Flat regions bounded by edges, and faces darker than the table (tan wood on white laminate)."""
    # smoothed more than the tile edges are, so that wood grain on a face still counts as flat
    soft = cv2.GaussianBlur(d.gray, (0, 0), 1.3)
    gx = cv2.Sobel(soft, cv2.CV_16S, 1, 0)
    gy = cv2.Sobel(soft, cv2.CV_16S, 0, 1)
    grad = cv2.addWeighted(cv2.convertScaleAbs(gx), 0.5, cv2.convertScaleAbs(gy), 0.5, 0)
    # at least 15: on a smooth table with tiles almost touching (tan wood on white) the
    # boundaries between tiles are faint, and a lower bar lets neighbours merge
    t = float(np.clip(3.0 * _median_u8(grad), 15, 40))
    flat = (grad < t).astype(np.uint8) * 255
    dark = cv2.compare(d.blur, cv2.subtract(_local_mean(d), 4), cv2.CMP_LE)
    if cfg.locate.gap_line_contrast <= 0:
        return [flat, cv2.bitwise_and(dark, flat)]
    # dark faces part along thin lines of either kind: a lighter gap where the table shows
    # through, a shadow where the tiles nearly touch (the flat mask loses faces with big glyphs)
    # a shadow line beside a dark face is wider than a gap in a light one
    px = cfg.locate.gap_line_px + 2
    lines = cv2.max(thin_lines(d, True, px), thin_lines(d, False, px))
    return [flat, cv2.bitwise_and(dark, cv2.compare(lines, cfg.locate.gap_line_contrast, cv2.CMP_LT))]


def _outline_masks(d: _Detect, cfg: VisionConfig) -> list[np.ndarray]:
    """Everything but thin dark lines, at a low and a higher contrast (3 px black-hat) and with a
    wider line (5 px): light faces on a table as light as they are (white tiles on cream) are
    only told apart by their grey outlines and the gaps between them. The table is one blob
    too big for a tile, thick glyph strokes stay inside their face, thin ones are its holes."""
    c = cfg.locate.outline_line_contrast
    px = cfg.locate.gap_line_px
    return [cv2.compare(thin_lines(d, True, k), t, cv2.CMP_LT) for k, t in ((px, c), (px, 2 * c), (px + 2, c + 1))]


def _median_u8(img: np.ndarray) -> float:
    """Median of a uint8 image from its histogram (what ``np.median`` gives, without sorting)."""
    hist = cv2.calcHist([img], [0], None, [256], [0, 256]).ravel().cumsum()
    n = int(hist[-1])
    lo = int(np.searchsorted(hist, (n - 1) // 2 + 1))
    hi = int(np.searchsorted(hist, n // 2 + 1))
    return 0.5 * (lo + hi)


def _scored(d: _Detect) -> tuple[np.ndarray, np.ndarray]:
    """The raw quads ordered clockwise, scored, those that look like faces kept, one per tile."""
    if not d.raw:
        return np.zeros((0, 4, 2), np.float32), np.zeros(0)
    quads_a = order_clockwise(np.stack(d.raw).astype(np.float32))
    score = _tileness(d.gray, quads_a)
    good = score > 0
    quads_a, score = quads_a[good], score[good]
    return one_per_place(quads_a, score)


def one_per_place(quads: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(quads, scores) best first, one per tile: among quads whose centres nearly coincide
    (within 0.35 of the smaller one's side) only the best scored is kept."""
    order = np.argsort(-score, kind="stable")
    quads_a, score = quads[order], score[order]
    centres = quads_a.mean(1)
    sizes = np.sqrt(np.abs(quad_areas(quads_a)))
    close = np.linalg.norm(centres[:, None] - centres[None], axis=2) <= 0.35 * np.minimum(sizes[:, None], sizes[None])
    keep = np.ones(len(quads_a), bool)
    for i in range(len(quads_a)):
        if keep[i]:
            keep[i + 1 :] &= ~close[i, i + 1 :]
    return quads_a[keep], score[keep]


def tile_candidates(gray: np.ndarray, cfg: VisionConfig, thorough: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Tile-face quadrilaterals in a grey detection image: (K x 4 x 2 float32 clockwise corners, K tileness scores).

    The first search of ``locate``: brightness against the local mean (faces are lighter than
    the gaps and most tables), less thin dark lines in a fine copy; ``thorough`` adds flat
    regions bounded by edges and faces darker than the table (tan wood on white laminate).
    """
    d = prepare(gray, cfg)
    _add_quads(d, [bright_mask(d, cfg)], cfg)
    if thorough:
        _add_quads(d, _thorough_masks(d, cfg), cfg)
    return _scored(d)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Signed shoelace areas of K x 4 x 2 quads (positive when clockwise on screen)."""
    x, y = quads[..., 0].astype(np.float64), quads[..., 1].astype(np.float64)
    return 0.5 * (x * y[:, _NEXT] - x[:, _NEXT] * y).sum(1)


def _fit(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """Least-squares homography src -> dst (OpenCV: linear fit refined on the geometric error)."""
    if len(src) < 4:
        return None
    H, _ = cv2.findHomography(src.astype(np.float64), dst.astype(np.float64), 0)
    return H


def warp(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), H).reshape(pts.shape)


def _grow_lattice(quads: np.ndarray, seed: int, cfg: VisionConfig):
    """Lattice explained from one seed quad: (H to pitch units with the seed at node (0,0) centre
    (0.5, 0.5), face fraction, node per quad (K x 2 int), inlier mask); the loop is
    ``vision.kernels.grow_lattice`` (compiled), with linear fits (the lens fit refits the
    tiles it finds; a least-squares fit refined on the geometric error would cost most of
    the search's time and chooses the same tiles on 166 of 174 development seeds)."""
    from vision import kernels

    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    H = cv2.getPerspectiveTransform(quads[seed].astype(np.float32), unit).astype(np.float64)
    return kernels.grow_lattice(np.ascontiguousarray(quads, np.float64), int(seed), H, float(cfg.locate.lattice_tol))


def best_lattice(quads: np.ndarray, cfg: VisionConfig, seeds: int = 8, first: int = 0, fewest: int = 4):
    """(tiles, H, face, nodes, inliers) of the seed among the ``first``..``seeds`` best ranked that
    explains most quads, or None (fewer than ``fewest`` quads: a board of 2x2 tiles may show
    three)."""
    if len(quads) < max(1, fewest):
        return None
    sizes = np.sqrt(np.abs(quad_areas(quads)))
    med = np.median(sizes)
    centres = quads.mean(1)
    mid = np.median(centres, axis=0)
    # seeds: typical size first, near the middle of the candidates
    rank = np.abs(np.log(sizes / med)) * 3 + np.linalg.norm(centres - mid, axis=1) / (med * 6)
    best = None
    for seed in np.argsort(rank)[first:seeds]:
        H, face, nodes, inl = _grow_lattice(quads, int(seed), cfg)
        n = int(inl.sum())
        if best is None or n > best[0]:
            best = (n, H, face, nodes, inl)
        if n >= min(cfg.locate.seed_enough_tiles, cfg.locate.seed_enough_share * len(quads)):
            break
    return best


def corner_dev(warped: np.ndarray, nodes: np.ndarray, face: float) -> np.ndarray:
    """K: how far (pitches) the worst corner of each quad (K x 4 x 2, lattice units) lies from
    the nearest corner of its node's face (whatever the corners' order)."""
    d = np.abs(warped - (nodes[:, None, :] + 0.5))
    return np.abs(d - face / 2).max((1, 2))


def _centres(quads: np.ndarray) -> np.ndarray:
    """K x 2 projective centres (diagonal intersections) of K x 4 x 2 quads."""
    q = quads.astype(np.float64)
    p1, p2, p3, p4 = q[:, 0], q[:, 2], q[:, 1], q[:, 3]
    d1, d2 = p2 - p1, p4 - p3
    den = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]
    t = ((p3[:, 0] - p1[:, 0]) * d2[:, 1] - (p3[:, 1] - p1[:, 1]) * d2[:, 0]) / np.where(np.abs(den) < 1e-9, 1e-9, den)
    out = p1 + t[:, None] * d1
    bad = np.abs(den) < 1e-9
    out[bad] = q[bad].mean(1)
    return out


def fit_distortion(quads: np.ndarray, nodes: np.ndarray, face: float, centre, radius, near: float | None = None,
                    corners: np.ndarray | None = None, *, signs: np.ndarray,
                    lc: LocateConfig | None = None) -> tuple[float, np.ndarray, float]:
    """(lam, H normalised-undistorted -> lattice, RMS residual in pitches) fitted to tile corners.

    ``signs`` (K x 4 x 2, +-1): which corner of its node's face each quad corner is;
    ``corners`` (K bools): the quads whose corners are fitted (the others give their centre only).

    ``lam`` is searched on a grid over the plausible range (only the grid's steps around ``near``
    when given: a refit after a few tiles joined), refined by a parabola through the best three."""
    f = face / 2
    sel = slice(None) if corners is None or corners.sum() < 4 else corners
    dst = (nodes[sel, None, :] + 0.5 + f * signs[sel]).reshape(-1, 2)
    x = (quads[sel].reshape(-1, 2).astype(np.float64) - centre) / radius
    cen_x = (_centres(quads) - centre) / radius
    cen_dst = nodes + 0.5

    both_x = np.vstack([x] + [cen_x] * 4)
    both_dst = np.vstack([dst] + [cen_dst] * 4)

    def costs_of(lams: np.ndarray) -> np.ndarray:
        # the linear fit under each distortion, judged on the tile centres (which
        # thresholding does not bias the way it biases corners)
        from vision import kernels

        return kernels.lens_costs(both_x, both_dst, cen_x, cen_dst, np.asarray(lams, np.float64))

    lc = lc or LocateConfig()
    grid = np.linspace(lc.lens_min, lc.lens_max, lc.lens_steps)
    if near is not None:
        # the steps either side of ``near``, kept inside the plausible range
        step = grid[1] - grid[0]
        c = float(np.clip(near, grid[0] + step, grid[-1] - step))
        grid = c + step * np.arange(-1, 2)
    costs = costs_of(grid).tolist()
    i = int(np.argmin(costs))
    lam = float(grid[i])
    if 0 < i < len(grid) - 1:
        c0, c1, c2 = costs[i - 1], costs[i], costs[i + 1]
        den = c0 - 2 * c1 + c2
        if den > 1e-12:
            lam = float(grid[i] + 0.5 * (c0 - c2) / den * (grid[1] - grid[0]))
    if lam != float(grid[i]) and float(costs_of(np.array([lam]))[0]) > costs[i]:
        lam = float(grid[i])
    # the least-squares fit (refined on the geometric error) at the distortion found
    H = _fit(undistort(both_x, lam), both_dst)
    if H is None:
        return lam, None, 1e9
    r = warp(H, undistort(cen_x, lam)) - cen_dst
    return lam, H, float(np.sqrt((r * r).sum(1).mean()))


def fit_lens(quads: np.ndarray, H: np.ndarray, face: float, nodes: np.ndarray, inl: np.ndarray, shape: tuple[int, ...],
             cfg: VisionConfig, min_tiles: int | None = None):
    """(lam, Hn, nodes, inliers, centre, radius): the homography and lens fitted to the tiles a
    lattice search found (``H``, ``face``, ``nodes``, ``inl`` from ``best_lattice``) in a search
    copy of ``shape`` (h, w), then refitted (``refit_with_lens``); ``Hn`` is None when the
    corners fit no homography. Centre and radius are the copy's (normalised coordinates do not
    depend on its scale)."""
    h_s, w_s = shape[:2]
    centre_s = np.array([(w_s - 1) / 2, (h_s - 1) / 2])
    radius_s = float(np.hypot(w_s, h_s) / 2)
    # a tile whose outline is off (half under a hand, merged with a shadow) still marks its
    # node with its centre, but its corners are left out of the lens fit
    w0 = warp(H, quads)
    # before the lens is modelled, more lenient
    outline = corner_dev(w0, nodes, face) < cfg.locate.first_fit_outline_slack * cfg.locate.outline_tol
    signs = np.where(w0 >= nodes[:, None, :] + 0.5, 1.0, -1.0)
    lam, Hn, _ = fit_distortion(quads[inl], nodes[inl], face, centre_s, radius_s, corners=outline[inl], signs=signs[inl],
                                lc=cfg.locate)
    if Hn is None:
        return lam, None, nodes, inl, centre_s, radius_s
    lam, Hn, nodes, inl = refit_with_lens(quads, nodes, inl, outline, face, lam, Hn, centre_s, radius_s, cfg, min_tiles)
    return lam, Hn, nodes, inl, centre_s, radius_s


def refit_with_lens(quads: np.ndarray, nodes: np.ndarray, inl: np.ndarray, outline: np.ndarray, face: float, lam: float,
                     Hn: np.ndarray, centre_s, radius_s: float, cfg: VisionConfig, min_tiles: int | None = None):
    """(lam, Hn, nodes, inliers) refitted twice at most: with the lens modelled, tiles the local
    fit missed may now sit on the lattice (kept when at least as many tiles, and ``min_tiles``,
    sit on it; default ``locate.min_tiles``)."""
    need = cfg.locate.min_tiles if min_tiles is None else min_tiles
    x = (quads.reshape(-1, 2).astype(np.float64) - centre_s) / radius_s
    for _ in range(2):
        warped = warp(Hn, undistort(x, lam)).reshape(-1, 4, 2)
        cen = warped.mean(1) - 0.5
        nodes2 = np.round(cen).astype(np.int64)
        side = _side_lengths(warped).mean(1)
        inl2 = (np.abs(cen - nodes2).max(1) < cfg.locate.lattice_tol) & (side > cfg.locate.refit_side_min * face) & (side < cfg.locate.refit_side_max * face)
        outline2 = corner_dev(warped, nodes2, face) < cfg.locate.outline_tol
        if inl2.sum() < max(need, inl.sum()):
            break
        if np.array_equal(inl2, inl) and np.array_equal(nodes2[inl], nodes[inl]) and np.array_equal(outline2[inl], outline[inl]):
            break  # the same tiles on the same nodes: the fit would not change
        nodes, inl, outline = nodes2, inl2, outline2
        signs = np.where(warped >= nodes[:, None, :] + 0.5, 1.0, -1.0)
        lam, Hn, _ = fit_distortion(quads[inl], nodes[inl], face, centre_s, radius_s, lam, corners=outline[inl], signs=signs[inl],
                                     lc=cfg.locate)
    return lam, Hn, nodes, inl


def refit_on_tight(quads: np.ndarray, nodes: np.ndarray, inl: np.ndarray, face: float, lam: float, Hn: np.ndarray,
                   centre_s, radius_s: float, cfg: VisionConfig, tight: float, rounds: int):
    """(Hn, nodes, inliers): the lattice refitted, at the lens ``lam`` it was fitted with, to the
    tiles that sit *tightly* on it: centre within ``tight`` pitches of its node's middle and
    every corner within ``locate.outline_tol`` of its face's corner.

    A lattice grown from one seed can take a row of tiles too few or too many far from the seed
    (two rows of tiles snapped onto one row of nodes, the lens and perspective then bent to fit
    both): the tiles near the seed still fit it tightly, the squeezed ones only loosely (their
    centres a third of a pitch off, their outlines too large or too small). Refitted on the
    tight tiles alone, every tile is snapped again to its nearest node and the fit repeated,
    ``rounds`` times at most; the inliers are taken as ``refit_with_lens`` takes them. Returns
    ``Hn`` None when fewer than four tiles are tight."""
    lc = cfg.locate
    f = face / 2
    x = (quads.reshape(-1, 2).astype(np.float64) - centre_s) / radius_s
    cen_x = (_centres(quads) - centre_s) / radius_s
    ux, ucen = undistort(x, lam), undistort(cen_x, lam)

    def snap(H: np.ndarray):
        warped = warp(H, ux).reshape(-1, 4, 2)
        cen = warped.mean(1) - 0.5
        near = np.round(cen).astype(np.int64)
        off = np.abs(cen - near).max(1)
        side = _side_lengths(warped).mean(1)
        on = (off < lc.lattice_tol) & (side > lc.refit_side_min * face) & (side < lc.refit_side_max * face)
        return warped, near, on, on & (off < tight) & (corner_dev(warped, near, face) < lc.outline_tol)

    for k in range(rounds + 1):
        warped, near, on, sure = snap(Hn)
        if sure.sum() < 4:
            return None, nodes, inl
        done = (k > 0 and np.array_equal(on, inl) and np.array_equal(near[on], nodes[on])) or k == rounds
        nodes, inl = near, on
        if done or (k == 0 and np.array_equal(sure, on)):
            break  # the same tiles on the same nodes, or every tile already tight: the fit stands
        signs = np.where(warped[sure] >= nodes[sure, None, :] + 0.5, 1.0, -1.0)
        dst = (nodes[sure, None, :] + 0.5 + f * signs).reshape(-1, 2)
        src = ux.reshape(-1, 4, 2)[sure].reshape(-1, 2)
        H = _fit(np.vstack([src] + [ucen[sure]] * 4), np.vstack([dst] + [nodes[sure] + 0.5] * 4))
        if H is None:
            return None, nodes, inl
        Hn = H
    return Hn, nodes, inl


def _window(nodes: np.ndarray, slack: int = 0) -> list[tuple[int, int]]:
    """Top-left nodes of the 5x5 windows holding at least (the most of ``nodes`` - ``slack``), best first."""
    xs, ys = nodes[:, 0], nodes[:, 1]
    x0s = np.arange(int(xs.min()) - BOARD + 1, int(xs.max()) + 1)
    y0s = np.arange(int(ys.min()) - BOARD + 1, int(ys.max()) + 1)
    X0, Y0 = (a.ravel() for a in np.meshgrid(x0s, y0s, indexing="ij"))
    counts = (((xs >= X0[:, None]) & (xs < X0[:, None] + BOARD) & (ys >= Y0[:, None]) & (ys < Y0[:, None] + BOARD))).sum(1)
    order = np.argsort(-counts, kind="stable")
    keep = order[counts[order] >= counts.max() - slack]
    return [(int(X0[i]), int(Y0[i])) for i in keep]


def _tile_like_cells(image: np.ndarray, tiles: np.ndarray, windows: list[tuple[int, int]], Hn: np.ndarray, lam: float, centre, radius: float,
                     scale: float, face: float, lc: LocateConfig):
    """A test ``like(x, y)``: whether the face at lattice node (x, y) has the colour of the
    board's tiles found, whatever their shade. A cell's colour is the median of its middle (half
    the face each way, so the ink of a glyph does not move it); it is a tile's when it lies
    nearer the found tiles' median colour than any cell of the ring just outside every window
    ``windows`` allows (table, coins, pawns: never the board), and within ``window_like_spread``
    times the 90th percentile of the found tiles' distances from their median (at least
    ``window_like_min`` levels)."""
    g = (np.arange(5) / 4 - 0.5) * 0.5 * face
    offs = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    Hinv = np.linalg.inv(Hn)
    h, w = image.shape[:2]
    cache: dict[tuple[int, int], np.ndarray] = {}

    def colour(x: int, y: int) -> np.ndarray:
        if (x, y) not in cache:
            pts = warp(Hinv, np.array([x + 0.5, y + 0.5]) + offs)
            p = (distort(pts, lam) * radius + centre) / scale
            xi = np.clip(np.rint(p[:, 0]).astype(np.int64), 0, w - 1)
            yi = np.clip(np.rint(p[:, 1]).astype(np.int64), 0, h - 1)
            px = image[yi, xi].reshape(len(offs), -1).astype(np.float64)
            cache[(x, y)] = np.median(px, 0)
        return cache[(x, y)]

    ref = np.array([colour(int(x), int(y)) for x, y in tiles])
    mid = np.median(ref, 0)
    bar = max(lc.window_like_min, lc.window_like_spread * float(np.percentile(np.linalg.norm(ref - mid, axis=1), 90)))
    xs, ys = [x for x, _ in windows], [y for _, y in windows]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + BOARD, min(ys) - 1, max(ys) + BOARD
    ring = np.array([colour(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if x in (x0, x1) or y in (y0, y1)])

    def like(x: int, y: int) -> bool:
        c = colour(x, y)
        d = float(np.linalg.norm(c - mid))
        return d <= bar and d < float(np.linalg.norm(ring - c, axis=1).min())

    return like


def _edged_cells(gray: np.ndarray, tiles: np.ndarray, Hn: np.ndarray, lam: float, centre, radius: float, face: float,
                 lc: LocateConfig):
    """A test ``edged(x, y)``: whether the face at lattice node (x, y) is bounded by edges where
    a tile's would be, whatever the shades on either side: along each of its four sides
    (detection px, sampled where the lattice puts them) the median gradient across the side;
    the cell's score is the mean of the middle two of the four (a table cell beside the board
    shares at most one side's worth of edge with it, a tile beside the hole still has three),
    and it is edged when that is at least ``window_edge_share`` of the found tiles' median."""
    soft = cv2.GaussianBlur(gray, (0, 0), 1.0)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1)
    h, w = gray.shape
    Hinv = np.linalg.inv(Hn)
    f = face / 2
    t = (np.arange(8) + 0.5) / 8 * 2 * f - f
    # per side: points along it, and the side's normal in lattice units
    sides = [(np.stack([t, np.full(8, -f)], 1), (0.0, 1.0)), (np.stack([t, np.full(8, f)], 1), (0.0, 1.0)),
             (np.stack([np.full(8, -f), t], 1), (1.0, 0.0)), (np.stack([np.full(8, f), t], 1), (1.0, 0.0))]
    cache: dict[tuple[int, int], float] = {}

    def to_px(p: np.ndarray) -> np.ndarray:
        return distort(warp(Hinv, p), lam) * radius + centre

    def score(x: int, y: int) -> float:
        if (x, y) not in cache:
            c = np.array([x + 0.5, y + 0.5])
            meds = []
            for pts, nrm in sides:
                a, b = to_px(c + pts), to_px(c + pts + 0.05 * np.array(nrm))
                n = b - a
                n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)
                xi = np.clip(np.rint(a[:, 0]).astype(np.int64), 0, w - 1)
                yi = np.clip(np.rint(a[:, 1]).astype(np.int64), 0, h - 1)
                meds.append(float(np.median(np.abs(gx[yi, xi] * n[:, 0] + gy[yi, xi] * n[:, 1]))))
            meds.sort()
            cache[(x, y)] = 0.5 * (meds[1] + meds[2])
        return cache[(x, y)]

    bar = lc.window_edge_share * float(np.median([score(int(x), int(y)) for x, y in tiles]))
    return lambda x, y: score(x, y) >= bar


def locate(image: np.ndarray, cfg: VisionConfig, hint=None) -> list[Lattice]:
    """The board in a BGR frame (H x W x 3 uint8), as one or more equally good lattice placements.

    More than one placement is returned only when tiles are missing along an edge (a hand
    over a whole column) so that the 5x5 window is ambiguous; the orientation step picks.
    ``hint``: a calibrated set's colours (``vision.colour_hint.ColourHint``): when the usual
    searches find few tiles, they also run on its rendering of the frame (faces light).
    Raises BoardNotFound when no lattice of at least ``cfg.locate.min_tiles`` tiles is found, and
    TooManyBoards when a second one of ``cfg.locate.second_board_tiles`` is.
    """
    h, w = image.shape[:2]
    grey_full = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    # the fine copy (at most detect_fine_long_side px): the bright mask less thin dark lines
    # (the gaps between tiles a pixel wide), then the thorough masks added to it, then the
    # faces' outlines; the low-resolution copy only when those find no board
    best = None
    fine_scale = min(1.0, cfg.locate.detect_fine_long_side / max(h, w))
    quick_scale = min(1.0, cfg.locate.detect_long_side / max(h, w))

    def copy(scale: float, grey: np.ndarray) -> _Detect:
        g = cv2.resize(grey, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else grey
        return prepare(g, cfg)

    def search(d: _Detect, masks: list[np.ndarray], scale: float, erosions: tuple[int, ...] = (1, 2),
               done: int = 0) -> list[np.ndarray]:
        nonlocal best
        eroded = _add_quads(d, masks, cfg, erosions, done)
        q, _ = _scored(d)
        f = best_lattice(q, cfg)
        # a later search of the same copy wins ties; another rendering's must find more tiles
        if f is not None and (best is None or f[0] > best[0][0] or (f[0] == best[0][0] and not again)):
            best = (f, q, d.gray, scale, inverted)
        return eroded

    again, inverted = False, False

    def searches(grey: np.ndarray) -> None:
        nonlocal best
        d = copy(fine_scale, grey)
        # the bright mask eroded once parts most boards' tiles; only when it leaves few on a
        # lattice are the quads of the mask eroded twice added (see ``single_erosion_tiles``)
        once = search(d, [bright_mask(d, cfg)], fine_scale, (1,))
        if best is None or best[0][0] < cfg.locate.single_erosion_tiles:
            search(d, once, fine_scale, (2,), done=1)
        if best is None or best[0][0] < cfg.locate.min_quick_tiles:
            search(d, _thorough_masks(d, cfg), fine_scale)
        if cfg.locate.outline_line_contrast > 0 and (best is None or best[0][0] < cfg.locate.outline_search_tiles):
            # the searches found few tiles: faces bounded by their outlines
            _add_quads(d, _outline_masks(d, cfg), cfg)
            q, _ = _scored(d)
            # a lattice whose faces fill little of a pitch is one of glyph-sized fragments, not of
            # tiles; when the usual seeds give none better, every other candidate is tried as the seed
            for first, seeds in ((0, 8), (8, 24)):
                f = best_lattice(q, cfg, seeds, first)
                if f is not None and f[2] >= cfg.locate.outline_min_face and (best is None or f[0] > best[0][0]):
                    best = (f, q, d.gray, fine_scale, inverted)
                    break
        if (best is None or best[0][0] < cfg.locate.min_tiles) and quick_scale < fine_scale:
            # faces so large that the fine copy's masks break them up
            dq = copy(quick_scale, grey)
            search(dq, [bright_mask(dq, cfg)], quick_scale)

    searches(grey_full)
    lc = cfg.locate
    if hint is not None and (best is None or best[0][0] < hint.below_tiles):
        again, inverted = True, False
        searches(hint.rendering(image))
    if lc.dark_face_tiles > 0 and (best is None or best[0][0] < lc.dark_face_tiles):
        # few tiles: the same searches on other renderings of the frame, each taken only with
        # more tiles. The negative: dark faces with light inks are light faces with dark inks
        # there (on a light table its table is dark, as usual; on a dark one light, and the
        # outlines and flat regions find them). Then both with their local contrast
        # equalised (faint faces on a table of their own shade, in dim light or a lamp's pool)
        again = True
        clahe = cv2.createCLAHE(lc.contrast_clip, (lc.contrast_grid, lc.contrast_grid)) if lc.contrast_clip > 0 else None
        for g in (cv2.bitwise_not(grey_full), "eq", "eq-neg"):
            if best is not None and best[0][0] >= lc.dark_face_tiles:
                break
            inverted = g is not None and not (isinstance(g, str) and g == "eq")
            if isinstance(g, str):
                if clahe is None:
                    break
                eq = clahe.apply(grey_full)
                g = eq if g == "eq" else cv2.bitwise_not(eq)
            searches(g)
    found, quads, gray, scale, inverted = best if best is not None else (None, None, None, 1.0, False)
    if found is None or found[0] < cfg.locate.min_tiles:
        n = 0 if found is None else found[0]
        raise BoardNotFound(
            f"no board in view: found {n} tiles on a lattice, expected at least {cfg.locate.min_tiles} of the 24"
        )
    n, H, face, nodes, inl = found
    rest = quads[~inl]
    # exclude candidates inside the found board before looking for another one
    if len(rest):
        cen = warp(H, rest).mean(1)
        span_lo, span_hi = nodes[inl].min(0) - 0.5, nodes[inl].max(0) + 1.5
        outside = ~np.all((cen >= span_lo) & (cen <= span_hi), axis=1)
        rest = rest[outside]
        # (a lattice of fewer candidates than a second board's tiles is none: not searched)
        second = best_lattice(rest, cfg) if len(rest) >= cfg.locate.second_board_tiles else None
        if second is not None and second[0] >= cfg.locate.second_board_tiles:
            raise TooManyBoards(
                f"two boards in view ({n} and {second[0]} tiles on separate lattices): expected one board"
            )
    lam, Hn, nodes, inl, centre_s, radius_s = fit_lens(quads, H, face, nodes, inl, gray.shape, cfg)
    out = []
    windows = _window(nodes[inl])
    x0, y0 = windows[0]
    inside = (nodes[inl, 0] >= x0) & (nodes[inl, 0] < x0 + BOARD) & (nodes[inl, 1] >= y0) & (nodes[inl, 1] < y0 + BOARD)
    if (~inside).sum() >= cfg.locate.second_board_tiles:
        # boards side by side can share one lattice: many tiles outside any 5x5 window
        raise TooManyBoards(
            f"two boards in view ({int(inside.sum())} and {int((~inside).sum())} tiles on one lattice): expected one board"
        )
    if len(windows) > 1:
        # tiles missing along an edge: prefer the window whose cells look most like tiles
        f = face / 2
        offs = np.array([[-f, -f], [f, -f], [f, f], [-f, f]])
        scores = []
        like = _tile_like_cells(image, nodes[inl], windows, Hn, lam, centre_s, radius_s, scale, face, cfg.locate)
        edged = _edged_cells(gray, nodes[inl], Hn, lam, centre_s, radius_s, face, cfg.locate)
        for x0, y0 in windows:
            cells = np.array([[x0 + c + 0.5, y0 + r + 0.5] for r in range(BOARD) for c in range(BOARD)])
            pts = warp(np.linalg.inv(Hn), (cells[:, None, :] + offs[None]).reshape(-1, 2))
            q = (distort(pts, lam) * radius_s + centre_s).reshape(-1, 4, 2).astype(np.float32)
            n_like = sum(like(x0 + c, y0 + r) + edged(x0 + c, y0 + r) for r in range(BOARD) for c in range(BOARD))
            scores.append(float(np.clip(_tileness(gray, q), -1, 1).sum()) + cfg.locate.window_like_weight * n_like)
        best_score = max(scores)
        windows = [w_ for s_, w_ in sorted(zip(scores, windows), reverse=True) if s_ >= best_score - cfg.locate.window_score_tie]
    centre = ((w - 1) / 2, (h - 1) / 2)
    radius = float(np.hypot(w, h) / 2)
    for x0, y0 in windows:
        T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        Hi = T @ Hn
        Hi /= Hi[2, 2]
        sel = inl & (nodes[:, 0] >= x0) & (nodes[:, 0] < x0 + BOARD) & (nodes[:, 1] >= y0) & (nodes[:, 1] < y0 + BOARD)
        tiles = frozenset((int(y - y0), int(x - x0)) for x, y in nodes[sel])
        out.append(Lattice(Hi, lam, centre, radius, tiles, face, quads[sel] / scale, quads / scale, inverted))
    return out
