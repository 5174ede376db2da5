"""Find a board of tiles lying grid side up: every tile shows the same 2x2 grid of squares.

A grid-side tile has no glyph to tell it from the table's pattern, but it has a pattern of its
own: a cross of lines through its middle (and, in most sets, a line around the four squares).
The search gathers quadrilaterals from several cues, keeps those whose inside shows that
cross (``gridness``), and fits the same lattice (homography plus lens) that the face-up
finder fits (``vision.locate``):

* bright blobs with the thin lines closed (light tiles on a darker table);
* blobs far from the table's colours (the table's colours are taken from the frame's border);
* groups of four square cells closed into one tile (the regions between thin lines);
* the line pattern itself: a cross's four arm ends, or the outline of a whole grid.

The board's window, ``shape`` tiles (rows x cols, either way round), is placed where the
lattice cells show the grid best. Units and frames are those of ``vision.locate``.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.config import GridConfig, VisionConfig
from vision.errors import BoardNotFound
from vision.locate import (Lattice, best_lattice, bright_mask, distort, fit_lens, one_per_place, order_clockwise, prepare, quad_areas,
                           refit_on_tight, thin_lines, undistort, warp)

#: samples per side of a candidate quad when its grid is measured
_N = 20
_UV = np.stack(np.meshgrid((np.arange(_N) + 0.5) / _N, (np.arange(_N) + 0.5) / _N), -1).reshape(-1, 1, 2).astype(np.float32)
_UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
#: a score of how clearly each of K quads shows a tile's cross (``gridness``, ``edge_gridness``)
Measure = Callable[[np.ndarray, np.ndarray], np.ndarray]
#: ``edge_gridness`` looks for a cross's arm within ``_BAND`` of a quad's middle line either
#: way (a share of its side), sampled ``_STEP`` apart, against the grey of its edges, three
#: lines of samples ``_EDGE`` away (past a sharp line's flanks, clear of coins that reach
#: close to it); ``_ALONG`` points along each arm
_BAND, _STEP, _EDGE = 0.06, 0.01, 0.11
_ALONG = 20
_inner = np.arange(-_BAND, _BAND + _STEP / 2, _STEP)
_edge = _EDGE + np.array([-_STEP, 0.0, _STEP])
_across = 0.5 + np.concatenate([-_edge[::-1], _inner, _edge])
_ACROSS = len(_across)
_INNER = np.abs(_across - 0.5) <= _BAND + 1e-9
_along = 0.1 + 0.8 * (np.arange(_ALONG) + 0.5) / _ALONG
_ARMS = np.stack([np.stack(np.meshgrid(_across, _along), -1),  # the arm along y: x across it
                  np.stack(np.meshgrid(_across, _along)[::-1], -1)]).reshape(-1, 2)
_ARMS_H = np.concatenate([_ARMS, np.ones((len(_ARMS), 1))], 1)


def gridness(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """K scores: how clearly each quad (K x 4 x 2 image px) shows a cross of lines through its
    middle on alike squares. The cross's median grey against the squares', less the spread of
    the two middle squares (sorted by grey: a coin or a pawn on one or two squares does not
    count), over that spread. A check of a tablecloth (two light squares and two dark), a
    blank face or a coin has no cross and scores about 0 or below."""
    if len(quads) == 0:
        return np.zeros(0)
    g = gray.astype(np.float32)
    out = np.empty(len(quads))
    for i, q in enumerate(quads):
        H = cv2.getPerspectiveTransform(_UNIT, np.asarray(q, np.float32))
        p = cv2.perspectiveTransform(_UV, H).reshape(_N, _N, 2)
        s = cv2.remap(g, p[..., 0], p[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        cross = float(np.median(np.concatenate([s[2:18, 9:11].ravel(), s[9:11, 2:18].ravel()])))
        squares = np.sort([np.median(s[a:a + 4, b:b + 4]) for a in (3, 13) for b in (3, 13)])
        ref, spread = float(squares[1:3].mean()), float(squares[2] - squares[1])
        out[i] = (abs(ref - cross) - spread) / (8.0 + spread)
    return out


def edge_gridness(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """K scores like ``gridness``'s, measured against the line's own edges rather than the
    squares: each arm of the cross is sampled in lines across a band about the quad's middle
    line (``_BAND``: a printed line may be a fortieth of a tile wide and fall between
    ``gridness``'s samples, and a quad found or fitted lies a little off it), each line of
    samples taken as its median along the arm (a coin or a die over part of it does not hide
    it). The arm's line is the one furthest from the grey of the arm's edges, its score how
    far, less how far the two edges differ (a step between a light and a dark region is no
    line), over that difference (``_arm_scores``); the weaker arm scores the cross. Coins that
    crowd a tile's squares (two of them unlike its face) do not hide it, where they spread
    ``gridness``'s squares; a line blurred wider than the band is missed, where ``gridness``
    sees it. A check of a tablecloth (its arms are steps that turn over halfway), a stripe
    (one arm), a blank face or a coin scores about 0 or below. A block of 2 x 2 or 2 x 1 tiles
    shows a cross too (the gaps between them and their own lines), but each of its quarters
    shows a line through its middle, where a tile's quarters are plain squares: the weakest
    quarter's stronger arm, where above 0, is taken off."""
    if len(quads) == 0:
        return np.zeros(0)
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    g = gray if gray.dtype == np.float32 else gray.astype(np.float32)
    out = _arm_scores(_profiles(g, q)).min(-1)
    # a quad with a cross: is it a block of tiles? (its quarters, 4 a quad, measured only here)
    crossed = np.flatnonzero(out > 0)
    if len(crossed):
        quarters = _arm_scores(_profiles(g, _quarters(q[crossed]).reshape(-1, 4, 2))).max(-1).reshape(-1, 4)
        out[crossed] -= np.maximum(quarters.min(-1), 0.0)
    return out


def _profiles(g: np.ndarray, q: np.ndarray) -> np.ndarray:
    """K x 2 x ``_ACROSS``: across each arm of K quads' crosses, the grey of each line of
    samples along it (its median) in grey image ``g``."""
    Hs = np.stack([cv2.getPerspectiveTransform(_UNIT, p.astype(np.float32)) for p in q])
    pts = np.matmul(_ARMS_H[None], Hs.transpose(0, 2, 1))
    pts = (pts[..., :2] / pts[..., 2:]).astype(np.float32)
    samples = cv2.remap(g, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.median(samples.reshape(-1, 2, _ALONG, _ACROSS), axis=2)


def middle_lines(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """K x 2 grey levels: how far a line through the middle of each of K quads (along y, along
    x) stands from the grey of its two edges, less half the difference of the edges (a step
    between a light and a dark region, whose middle lies half way, scores about 0). The gap
    between two tiles laid side by side is such a line, whatever lies on the tiles."""
    if len(quads) == 0:
        return np.zeros((0, 2))
    line, step = _line_and_step(_profiles(gray if gray.dtype == np.float32 else gray.astype(np.float32),
                                          np.asarray(quads, np.float64)))
    return line - step / 2


def _line_and_step(profile: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(how far each arm's line, ``_profiles``, stands from the mean grey of its two edges
    ``_EDGE`` out; how far those edges differ)."""
    left, right = profile[..., :3].mean(-1), profile[..., -3:].mean(-1)
    line = np.abs(profile[..., _INNER] - ((left + right) / 2)[..., None]).max(-1)
    return line, np.abs(left - right)


def _arm_scores(profile: np.ndarray) -> np.ndarray:
    """K x 2: how clearly each arm's line (``_profiles``) stands from the grey of its two edges
    (``_EDGE`` out), less how far the edges differ (a step is no line), over that difference."""
    line, step = _line_and_step(profile)
    return (line - step) / (8.0 + step)


def _quarters(q: np.ndarray) -> np.ndarray:
    """K x 4 x 4 x 2: the four quarters of each of K quads (K x 4 x 2), each clockwise from the
    corner it shares with its quad (near enough to the perspective inside one quad)."""
    mid = q.mean(1, keepdims=True)
    half = (q + np.roll(q, -1, axis=1)) / 2  # the middle of side i (corner i to i + 1)
    out = []
    for i in range(4):
        out.append(np.stack([q[:, i], half[:, i], mid[:, 0], half[:, i - 1]], 1))
    return np.stack(out, 1)


def _hull_quad(contour: np.ndarray, approx: float) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    ap = cv2.approxPolyDP(hull, approx * cv2.arcLength(hull, True), True)
    return ap.reshape(4, 2).astype(np.float32) if len(ap) == 4 else None


def _blob_quads(mask: np.ndarray, lo: float, hi: float, fill: float, crosses: bool = True) -> list[np.ndarray]:
    """Quads of the outer contours of ``mask`` between ``lo`` and ``hi`` px whose area fills at
    least ``fill`` of their hull (solid blobs: tiles with their lines closed). ``crosses``
    False: blobs that are crosses (``_cross_tile``) give none (their hull is the diamond through
    their arm ends; see ``locate_grid``)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE if crosses else cv2.CHAIN_APPROX_NONE)
    out = []
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if max(w, h) < lo or max(w, h) > hi or min(w, h) < 0.3 * max(w, h):
            continue
        if fill > 0:
            hull_area = cv2.contourArea(cv2.convexHull(c))
            if hull_area < 0.5 * lo * lo or cv2.contourArea(c) < fill * hull_area:
                continue
        q = _hull_quad(c, 0.04 if fill > 0 else 0.05)
        if q is not None and not crosses:
            hull = cv2.convexHull(c)
            if _cross_tile(c.reshape(-1, 2).astype(np.float64), hull, cv2.contourArea(hull)) is not None:
                continue
        if q is not None:
            out.append(q)
    return out


def _table_distance(image: np.ndarray, cfg: GridConfig) -> np.ndarray:
    """H x W: each pixel's Lab distance to the nearest of the table's colours, which are
    clustered from a border strip of the frame (a patterned cloth has several)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    b = max(4, min(h, w) // 12)
    border = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3),
                             lab[:, -b:].reshape(-1, 3)])[::7]
    k = min(cfg.table_colours, len(border))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(0)  # the same frame gives the same colours
    _, _, centres = cv2.kmeans(border, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    d = np.full((h, w), np.inf, np.float32)
    for c in centres:
        d = np.minimum(d, np.sqrt(((lab - c) ** 2).sum(-1)))
    return d


def _square_groups(lines: np.ndarray, threshold: int, lo: float, hi: float) -> list[np.ndarray]:
    """Tiles as groups of square cells: the regions between thin lines of square size, filled
    and closed by a tenth of a square's side (the lines inside a tile) but not by the gap
    between tiles (wider: the tiles' margins and the table between them)."""
    free = cv2.compare(lines, threshold, cv2.CMP_LE)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    cells = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) < lo or max(w, h) > hi or min(w, h) < 0.35 * max(w, h) or area < 0.3 * w * h:
            continue
        contours, _ = cv2.findContours((labels[y:y + h, x:x + w] == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        c = max(contours, key=cv2.contourArea) + np.array([x, y])
        hull_area = cv2.contourArea(cv2.convexHull(c))
        if hull_area <= 0 or area < 0.6 * hull_area:
            continue
        q = _hull_quad(c, 0.06)
        if q is not None:
            cells.append(q)
    if not cells:
        return []
    side = float(np.median([np.sqrt(abs(cv2.contourArea(q))) for q in cells]))
    mask = np.zeros(lines.shape, np.uint8)
    for q in cells:
        cv2.fillConvexPoly(mask, q.astype(np.int32), 255)
    out = []
    for frac in (0.12, 0.2):
        k = max(3, int(round(frac * side)) | 1)
        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        for c in cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            hull_area = cv2.contourArea(cv2.convexHull(c))
            if 2.5 * side * side <= hull_area <= 6 * side * side and cv2.contourArea(c) >= 0.8 * hull_area:
                q = _hull_quad(c, 0.04)
                if q is not None:
                    out.append(q)
    return out


def _crosses(mask: np.ndarray, lo: float, hi: float) -> list[np.ndarray]:
    """Tiles from the crosses of their grids: a thin component whose hull is a quad with its
    pixels along the diagonals (the arms), the diagonals crossing near their middles; the
    tile's grid is the parallelogram through the four arm ends."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    big = np.maximum(stats[:, 2], stats[:, 3])
    for i in np.flatnonzero((big >= lo) & (big <= hi)):
        if i == 0:
            continue
        x, y, w, h, area = stats[i]
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        pts = np.stack([xs + x, ys + y], 1).astype(np.float32)
        hull = cv2.convexHull(pts)
        hull_area = cv2.contourArea(hull)
        if hull_area < 0.3 * lo * lo or area > 0.45 * hull_area:
            continue
        tile = _cross_tile(pts.astype(np.float64), hull, hull_area)
        if tile is not None:
            out.append(tile)
    return out


def _cross_tile(pts: np.ndarray, hull: np.ndarray, hull_area: float) -> np.ndarray | None:
    """The tile (4 x 2) whose cross is the blob of points ``pts`` (N x 2: its pixels, or its
    contour's), ``hull`` their convex hull: the parallelogram through the hull's four corners
    (the arm ends), when the hull is a quad whose diagonals cross near their middles and four
    points in five lie within 0.08 of its side of one diagonal or the other; else None."""
    ap = cv2.approxPolyDP(hull, 0.08 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(ap) != 4:
        return None
    p0, p1, p2, p3 = ap
    d1, d2 = p2 - p0, p3 - p1
    try:
        s, t = np.linalg.solve(np.array([d1, -d2]).T, p1 - p0)
    except np.linalg.LinAlgError:
        return None
    if not (0.3 < s < 0.7 and 0.3 < t < 0.7):
        return None

    def dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        v = b - a
        return np.abs((pts[:, 0] - a[0]) * v[1] - (pts[:, 1] - a[1]) * v[0]) / max(float(np.linalg.norm(v)), 1e-9)

    if np.mean(np.minimum(dist(p0, p2), dist(p1, p3)) < 0.08 * np.sqrt(hull_area)) < 0.8:
        return None
    c = p0 + s * d1
    return np.array([p0 + p1 - c, p1 + p2 - c, p2 + p3 - c, p3 + p0 - c], np.float32)


def grid_candidates(image: np.ndarray, cfg: VisionConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """(K x 4 x 2 clockwise quads in the search copy's px, K gridness scores, the copy's scale)."""
    return _search(image, cfg)[:3]


def _search(image: np.ndarray, cfg: VisionConfig, measure: Measure = gridness, crosses: bool = True) -> tuple:
    """``grid_candidates``, and the search copy's distance from the table's colours
    (``_table_distance``), its prepared copy (``vision.locate.prepare``), its grey and every
    candidate quad, whatever its cross (a list, as the cues gave them). ``crosses``: as
    ``_line_quads`` takes it."""
    h, w = image.shape[:2]
    scale = min(1.0, cfg.locate.detect_fine_long_side / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    d = prepare(gray, cfg)
    gc = cfg.grid
    lo, hi = cfg.locate.min_tile_px, d.max_side
    far = _table_distance(small, gc)
    quads = _blob_candidates(d, far, cfg)
    contrasts = (gc.line_contrast, 2 * gc.line_contrast, int(3.5 * gc.line_contrast))
    quads += _line_quads(d, contrasts, lo, hi, crosses)
    q, score = _kept(quads, gray, cfg, measure)
    return q, score, scale, far, d, gray, quads


def _blob_candidates(d, far: np.ndarray, cfg: VisionConfig) -> list[np.ndarray]:
    """Tile quads from blobs that stand out whole: the bright mask of the prepared copy ``d``
    (closed a little), and the pixels far from the table's colours (``far``) at three distances."""
    gc = cfg.grid
    lo, hi = cfg.locate.min_tile_px, d.max_side
    quads: list[np.ndarray] = []
    erode = np.ones((3, 3), np.uint8)
    bright = bright_mask(d, cfg)
    for k in (3, 5):
        closed = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        quads += _blob_quads(cv2.erode(closed, erode), lo, hi, 0.75)
    for t in (gc.table_distance, gc.table_distance * 5 / 3, gc.table_distance * 5 / 2):
        quads += _blob_quads(cv2.erode((far > t).astype(np.uint8) * 255, erode), lo, hi, 0.75)
    return quads


def _line_quads(d, contrasts: tuple[int, ...], lo: float, hi: float, crosses: bool = True) -> list[np.ndarray]:
    """Tile quads from the grid's thin lines at each of ``contrasts`` (grey levels over their
    surroundings): the regions between lines grouped four to a tile (the two lowest), the
    outlines of line blobs (``crosses`` False: not those of crosses), and the crosses of the
    tiles' grids."""
    quads: list[np.ndarray] = []
    both = cv2.max(thin_lines(d, True, 5), thin_lines(d, False, 5))
    for t in contrasts[:2]:
        quads += _square_groups(both, t, 0.4 * lo, 0.6 * hi)
    for dark in (True, False):
        for px in (3, 5):
            lines = thin_lines(d, dark, px)
            for t in contrasts:
                mask = cv2.compare(lines, t, cv2.CMP_GT)
                quads += _blob_quads(mask, 0.6 * lo, hi, 0.0, crosses)
                if px == 5:
                    quads += _crosses(mask, 0.5 * lo, hi)
    return quads


def _kept(quads: list[np.ndarray], gray: np.ndarray, cfg: VisionConfig,
          measure: Measure = gridness) -> tuple[np.ndarray, np.ndarray]:
    """(quads, gridness) of the candidate quads that show a grid's cross, one per tile, best first."""
    if not quads:
        return np.zeros((0, 4, 2), np.float32), np.zeros(0)
    q = order_clockwise(np.stack(quads).astype(np.float32))
    score = measure(gray, q)
    # a tile is at least ``locate.min_tile_px`` a side (a square half that): smaller crosses
    # are a numeral's strokes or a cloth's weave
    keep = score > cfg.grid.min_gridness
    keep &= np.sqrt(np.abs(quad_areas(q))) >= cfg.locate.min_tile_px
    # the same tile is found by several cues: its best quad stands for it
    return one_per_place(q[keep], score[keep])


def lattice_fit(lattice: Lattice) -> tuple[int, float]:
    """(how many of the board's tiles the search found, the median distance in pitches of
    their centres from the middles of their places on the lattice): how far the lattice can
    be trusted. A lattice fitted to few tiles, or bent to fit them, may put the board a tile
    off."""
    if len(lattice.quads) == 0:
        return 0, float("inf")
    centres = lattice.to_lattice(np.asarray(lattice.quads, np.float64).reshape(-1, 2)).reshape(-1, 4, 2).mean(1)
    return len(lattice.tiles), _median_offset(centres, np.floor(centres) + 0.5)


def _median_offset(centres: np.ndarray, middles: np.ndarray) -> float:
    """The median distance (pitches) of N tile centres from N middles (lattice units)."""
    return float(np.median(np.hypot(*(np.asarray(centres) - middles).T)))


def _cell_quads(Hn: np.ndarray, lam: float, centre, radius: float, nodes: np.ndarray, face: float) -> np.ndarray:
    """N x 4 x 2 search-copy px: the face quad of each lattice node (x, y)."""
    f = face / 2
    offs = np.array([[-f, -f], [f, -f], [f, f], [-f, f]])
    pts = (nodes[:, None, :] + 0.5 + offs[None]).reshape(-1, 2)
    x = warp(np.linalg.inv(Hn), pts)
    return (distort(x, lam) * radius + centre).reshape(-1, 4, 2).astype(np.float32)


def _off_table(far: np.ndarray, cells: np.ndarray, threshold: float) -> np.ndarray:
    """K: the share of each cell quad's (K x 4 x 2 px) inner 6 x 6 points whose colour is further
    than ``threshold`` from the table's (``far``: ``_table_distance``); the points are spread
    bilinearly between the corners (near enough to the perspective inside one tile)."""
    t = ((np.arange(6) + 0.5) / 6).astype(np.float32)
    u, v = np.meshgrid(t, t)
    u, v = u.ravel()[None, :, None], v.ravel()[None, :, None]
    c = cells.astype(np.float32)
    p = (c[:, None, 0] * (1 - u) * (1 - v) + c[:, None, 1] * u * (1 - v) + c[:, None, 2] * u * v
         + c[:, None, 3] * (1 - u) * v)
    d = cv2.remap(far, np.ascontiguousarray(p[..., 0]), np.ascontiguousarray(p[..., 1]), cv2.INTER_NEAREST,
                  borderMode=cv2.BORDER_REPLICATE)
    return (d > threshold).mean(1)


def off_table(image: np.ndarray, quads: np.ndarray, cfg: GridConfig) -> np.ndarray:
    """K: the share of each quad's (K x 4 x 2 image px) inner points whose colour is not the
    table's (further than 5/3 ``grid.table_distance`` from every colour of the frame's border,
    as ``_place_window`` weighs a window's cells): about 1 on a tile, 0 on bare table."""
    return _off_table(_table_distance(image, cfg), np.asarray(quads, np.float32), cfg.table_distance * 5 / 3)


def _place_window(gray: np.ndarray, far: np.ndarray, Hn: np.ndarray, lam: float, centre_s, radius_s: float, face: float,
                  seen: np.ndarray, shape: tuple[int, int], gc: GridConfig,
                  measure: Measure = gridness) -> tuple[float, int, int, int, int]:
    """(score, x0, y0, rows, cols): the board's window of ``shape`` tiles, either way round, on a
    lattice (search-copy px), placed where its cells show the grid best: each cell's gridness,
    capped at ``grid.cell_score_cap`` (a tile under a hand costs its cell's score, a stray quad
    off the board adds none), and the cap again for a node where the search found a tile
    (``seen``, N x 2 nodes: a coin on a square lowers its cell's gridness)."""
    hs, ws = gray.shape[:2]
    x_lo, y_lo = seen.min(0)
    x_hi, y_hi = seen.max(0)
    span = max(shape)
    xs = np.arange(x_lo - span, x_hi + span + 1)
    ys = np.arange(y_lo - span, y_hi + span + 1)
    grid_nodes = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    cells = _cell_quads(Hn, lam, centre_s, radius_s, grid_nodes, face)
    inside = np.all((cells >= 0) & (cells <= [ws - 1, hs - 1]), axis=(1, 2))
    score = np.full(len(grid_nodes), -1.0)
    if inside.any():
        score[inside] = np.clip(measure(gray, cells[inside]), -1.0, gc.cell_score_cap)
        if gc.window_table_weight > 0:
            score[inside] += gc.window_table_weight * _off_table(far, cells[inside], gc.table_distance * 5 / 3)
    seen_set = {(int(x), int(y)) for x, y in seen}
    score += np.array([gc.cell_score_cap if (int(x), int(y)) in seen_set else 0.0 for x, y in grid_nodes])
    table = score.reshape(len(ys), len(xs))
    best = None
    for rows, cols in dict.fromkeys((shape, shape[::-1])):
        for iy in range(0, len(ys) - rows + 1):
            for ix in range(0, len(xs) - cols + 1):
                s = float(table[iy:iy + rows, ix:ix + cols].sum())
                if best is None or s > best[0]:
                    best = (s, int(xs[ix]), int(ys[iy]), rows, cols)
    return best


def _outline_tiles(far: np.ndarray, gray: np.ndarray, shape: tuple[int, int], cfg: VisionConfig,
                   measure: Measure = gridness) -> tuple[np.ndarray, np.ndarray]:
    """(K x 4 x 2 quads, K gridness scores): tiles cut from the board's outline. Where the
    tiles lie edge to edge their gaps close up under blur (the shadows in them are no table
    colour either), so the board stands out from the table as one blob (``_table_distance``)
    while no tile stands out on its own. A blob that approximates a quad of about a board's
    size is cut into ``shape`` tiles, both ways round, and the cuts that show a grid's cross
    (``gridness``) are kept; the lattice is then fitted to them as to any tiles found."""
    gc = cfg.grid
    rows, cols = shape
    lo = cfg.locate.min_tile_px
    out: list[np.ndarray] = []
    erode = np.ones((3, 3), np.uint8)
    for t in (gc.table_distance, gc.table_distance * 5 / 3, gc.table_distance * 5 / 2):
        mask = cv2.erode((far > t).astype(np.uint8) * 255, erode)
        for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            if cv2.contourArea(c) < 0.5 * rows * cols * lo * lo:
                continue
            q = _hull_quad(c, 0.02)
            if q is None:
                continue
            q = order_clockwise(q[None])[0]
            for r, k in dict.fromkeys((shape, shape[::-1])):
                H = cv2.getPerspectiveTransform(np.float32([[0, 0], [k, 0], [k, r], [0, r]]), q)
                ys, xs = np.mgrid[0:r, 0:k]
                corners = np.stack([xs.ravel(), ys.ravel()], 1)[:, None, :] + _UNIT[None]
                out += list(cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float32), H).reshape(-1, 4, 2))
    if not out:
        return np.zeros((0, 4, 2), np.float32), np.zeros(0)
    q = order_clockwise(np.stack(out).astype(np.float32))
    score = measure(gray, q)
    keep = (score > gc.min_gridness) & (np.sqrt(np.abs(quad_areas(q))) >= lo)
    return q[keep], score[keep]


#: how much larger or smaller than the tiles already on a lattice a second look's tiles may be
#: (a square is half a tile: the quarters of a tile's own outline, cut as if it were the board,
#: are not its tiles)
SAME_TILES = 1.5


#: a candidate is of the found tiles' size when its side lies within this ratio of their median side
TILE_SIZED = 1.15


def _tile_sized(candidates: list[np.ndarray], gray: np.ndarray, measure: Measure,
                found: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(quads, ``measure`` scores) of the ``candidates`` (the search's quads, whatever their
    cross) whose side lies within ``TILE_SIZED`` of the median side of the tiles ``found``
    (quads: a board's, or the quads whose cross stood out where no board was found), one per
    place: tiles whose cross the pieces on them hide. A coin or a die is a square's size or
    less, a block of tiles twice a tile's."""
    if not len(found) or not candidates:
        return np.zeros((0, 4, 2), np.float32), np.zeros(0)
    raw = order_clockwise(np.stack(candidates).astype(np.float32))
    side = np.sqrt(np.abs(quad_areas(raw)))
    size = float(np.median(np.sqrt(np.abs(quad_areas(found)))))
    q = raw[(side >= size / TILE_SIZED) & (side <= size * TILE_SIZED)]
    if not len(q):
        return q, np.zeros(0)
    return one_per_place(q, measure(gray, q))


def _same_tiles(found: np.ndarray, again: np.ndarray) -> bool:
    """Whether the tiles of a second look's lattice (``again``, quads) are of the size of those
    the first look had put on its lattice (``found``): a second look adds tiles to the board
    found, it never trades them for a lattice of other sizes (the outline of one tile among
    faint others, cut into a whole board's tiles, once outnumbered the board's seven real
    tiles)."""
    if not len(found) or not len(again):
        return True
    ratio = float(np.median(np.sqrt(np.abs(quad_areas(again)))) / np.median(np.sqrt(np.abs(quad_areas(found)))))
    return 1 / SAME_TILES <= ratio <= SAME_TILES


def _median_off(quads: np.ndarray, nodes: np.ndarray, H: np.ndarray, lam: float, centre, radius: float) -> float:
    """The median distance (pitches) of the quads' centres (search-copy px) from the middles
    of their ``nodes`` on the lattice ``H`` with lens ``lam``: how closely the tiles sit on it,
    as ``lattice_fit`` measures a lattice found."""
    x = (np.asarray(quads, np.float64).reshape(-1, 2) - centre) / radius
    return _median_offset(warp(H, undistort(x, lam)).reshape(-1, 4, 2).mean(1), nodes + 0.5)


def _fits(quads: np.ndarray, first: tuple, tight: tuple, lam: float, centre, radius: float, min_tiles: int,
          cut: bool) -> list[tuple]:
    """The lattices (H, nodes, inliers) whose windows ``locate_grid`` compares: the ``first``
    fit, and the ``tight`` refit (``refit_on_tight``; H None where too few tiles were tight).

    A refit that moved tiles to other nodes, or took more on, is a lattice of its own: both
    are compared. One that keeps the same tiles on the same nodes replaces the first fit when
    the tiles found sit on it as closely (``_median_off``): a quad cut round a tile and the
    table beside it, or a quad off the board that fell near a node, then no longer bends the
    lattice (on a small board of sixteen tiles such quads pulled its far corner a third of a
    square off, and the coins on the tiles there were read on their neighbours' squares); where
    most tiles sit loosely (a blurred board) the tight few are no better a guide than all of
    them, and the board, its tiles further off the refit, was put in doubt. Not where tiles
    were ``cut`` from the board's outline: they sit tightly on the lattice they were cut by
    and would pull it back to the outline's. The tiles found stay the first fit's."""
    Hn, nodes, inl = first
    H2, nodes2, inl2 = tight
    if H2 is None or inl2.sum() < min_tiles:
        return [first]
    both = inl & inl2
    if np.any(nodes2[both] != nodes[both]) or inl2.sum() > inl.sum():
        return [first, tight]
    if not cut and (_median_off(quads[inl], nodes[inl], H2, lam, centre, radius)
                    <= _median_off(quads[inl], nodes[inl], Hn, lam, centre, radius)):
        return [(H2, nodes, inl)]
    return [first]


def _chequered(nodes: np.ndarray) -> bool:
    """Whether the lattice nodes ``nodes`` (N x 2; four different ones at least) touch only
    corner to corner, every other node of a chequerboard: none beside another in a row or a
    column."""
    taken = {tuple(int(v) for v in n) for n in nodes}
    return len(taken) >= 4 and not any((x + 1, y) in taken or (x, y + 1) in taken for x, y in taken)


def locate_grid(image: np.ndarray, cfg: VisionConfig, shape: tuple[int, int], measure: Measure = gridness,
                whole_blobs: bool = False) -> Lattice:
    """The board of ``shape`` (rows, cols) tiles grid side up in a BGR frame, as a Lattice whose
    ``shape`` is the window's (rows, cols) in the lattice frame: ``shape`` or its transpose.

    The lattice fitted to the tiles found (``best_lattice``, ``fit_lens``) and the same lattice
    refitted to the tiles that sit tightly on it (``refit_on_tight``: a lattice that took a row
    of tiles too few or too many fits the tiles near its seed tightly, the others loosely) each
    get their best window (``_place_window``) and the lattice whose window scores higher is
    kept; a refit that keeps every tile on its node takes the first fit's place instead, where
    the tiles sit on it as closely (``_fits``).

    ``measure`` scores each candidate quad's and each cell's cross: ``gridness``, or
    ``edge_gridness`` for the square boards of ``vision.board_size``. ``whole_blobs``: where
    ``measure`` finds too few tiles, the blobs that stand out whole are scored by ``gridness``
    too (a small board's tiles laid apart; left to the search for a few tiles, since on a
    larger board's search the coins, blobs of a square's size, build a lattice of squares).

    Raises BoardNotFound when fewer than ``grid.min_tiles`` tiles lie on one lattice."""
    h, w = image.shape[:2]
    quads, scores, scale, far, d, gray, candidates = _search(image, cfg, measure)
    gc = cfg.grid
    fewest = min(4, gc.min_tiles)  # a small board's search needs fewer tiles than four
    found = best_lattice(quads, cfg, seeds=gc.seeds, fewest=fewest)
    crosses = found is None or not _chequered(found[3][found[4]])
    if not crosses:
        # no board lies so: the diamonds through the arm ends of tiles' crosses do (the hull of
        # a cross drawn apart from its tile's frame, scored by the tile's lines where its squares
        # should be; on a board whose coins dimmed the tiles' own crosses, eight of them built a
        # lattice turned by an eighth with a pitch of 1/sqrt(2), and a tile's own quad, where it
        # was found, lost to the diamond at its place): the search again without them
        quads, scores, scale, far, d, gray, candidates = _search(image, cfg, measure, crosses)
        found = best_lattice(quads, cfg, seeds=gc.seeds, fewest=fewest)
        if found is not None and _chequered(found[3][found[4]]):
            found = None
    tiles = 0 if found is None else len({tuple(n) for n in found[3][found[4]].tolist()})
    hs, ws = round(h * scale), round(w * scale)
    looks = []  # where few tiles stood out, the search looks again, in turn:
    # their lines may be faint (light grey on white, blurred, noisy): looked for down to
    # ``grid.faint_contrast`` grey levels
    looks.append(lambda: _kept(_line_quads(d, tuple(range(gc.faint_contrast, gc.line_contrast)),
                                           cfg.locate.min_tile_px, d.max_side, crosses), gray, cfg, measure))
    if whole_blobs and measure is not gridness:
        # tiles standing apart, crowded with coins and dice, show their cross too little for
        # ``measure``, which looks for lines: the blobs that stand out whole are scored against
        # their squares instead (``gridness``; a block of touching tiles is one blob with the
        # whole board, not a tile)
        looks.append(lambda: _kept(_blob_candidates(d, far, cfg), gray, cfg, gridness))
    # the candidates the size of the tiles found, whatever their cross: coins that crowd a
    # tile's squares (two of them unlike its face, as light as its lines) hide its cross from
    # ``measure``, and the lattice takes only those that lie on its nodes. Before a board is
    # found, of the size of the quads whose cross stood out (two clear tiles of a 2 x 2 board,
    # the two others crowded with coins and a die, were too few for a board)
    looks.append(lambda: _tile_sized(candidates, gray, measure,
                                     quads[found[4]] if found is not None and tiles >= gc.min_tiles else quads))
    # the board's outline, cut into its tiles (kept apart: not found one by one)
    looks.append(lambda: _outline_tiles(far, gray, shape, cfg, measure))
    outline = None  # the quads cut from the board's outline, where they were taken
    for k, look in enumerate(looks):
        if tiles >= gc.search_again_below:
            break
        more, more_scores = look()
        if not len(more):
            continue
        both, both_scores = one_per_place(np.concatenate([quads, more]), np.concatenate([scores, more_scores]))
        again = best_lattice(both, cfg, seeds=gc.seeds, fewest=fewest)
        n = 0 if again is None else len({tuple(n) for n in again[3][again[4]].tolist()})
        if n > tiles and (found is None or _same_tiles(quads[found[4]], both[again[4]])):
            quads, scores, found, tiles = both, both_scores, again, n
            outline = more if k == len(looks) - 1 else None
    cut = np.array([outline is not None and any(np.array_equal(q, m) for m in outline) for q in quads], bool)
    if found is None or tiles < gc.min_tiles:
        raise BoardNotFound(f"no board in view: found {tiles} grid-side tiles on a lattice, expected at least "
                            f"{gc.min_tiles} of the {shape[0] * shape[1]}")
    _, H, face, nodes, inl = found
    lam, Hn, nodes, inl, centre_s, radius_s = fit_lens(quads, H, face, nodes, inl, (hs, ws), cfg, gc.min_tiles)
    if Hn is None:
        raise BoardNotFound("no board in view: the grid-side tiles found do not fit one lattice")
    H2, nodes2, inl2 = refit_on_tight(quads, nodes, inl, face, lam, Hn, centre_s, radius_s, cfg, gc.tight_centre,
                                      gc.tight_rounds)
    fits = _fits(quads, (Hn, nodes, inl), (H2, nodes2, inl2), lam, centre_s, radius_s, gc.min_tiles, outline is not None)
    best = None
    for Hf, nodes_f, inl_f in fits:
        window = _place_window(gray, far, Hf, lam, centre_s, radius_s, face, np.unique(nodes_f[inl_f], axis=0), shape,
                               gc, measure)
        if best is None or window[0] > best[0][0]:
            best = (window, Hf, nodes_f, inl_f)
    (_, x0, y0, rows, cols), Hn, nodes, inl = best
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    Hi = T @ Hn
    Hi /= Hi[2, 2]
    sel = inl & (nodes[:, 0] >= x0) & (nodes[:, 0] < x0 + cols) & (nodes[:, 1] >= y0) & (nodes[:, 1] < y0 + rows)
    # the tiles found are those the search found one by one: tiles cut from the outline all
    # fit the lattice they were cut by, and say nothing of how far it can be trusted
    sel &= ~cut
    found_tiles = frozenset((int(y - y0), int(x - x0)) for x, y in nodes[sel])
    return Lattice(Hi, lam, ((w - 1) / 2, (h - 1) / 2), float(np.hypot(w, h) / 2), found_tiles, face, quads[sel] / scale,
                   quads / scale, False, shape=(rows, cols))
