"""Finding a grid of cards laid out in rows and columns with gaps between them.

Cards lie apart (a few mm between neighbours), so unlike tiles they do not make one board
with lines on it: each card is found on its own, as a region of the picture closed by edges
whose outline is a quadrilateral, and the grid is the lattice most of these quadrilaterals
agree on. A checked tablecloth also gives quadrilaterals, but they touch, while cards leave a
gap; and another card game's cards or loose cards away from the grid do not fall on the
lattice's slots.

The lattice is a plane homography from *card units* to the image: slot (i, j) (column i,
row j) covers ``[i (1 + gap_u), i (1 + gap_u) + 1] x [j (1 + gap_v), j (1 + gap_v) + 1]``,
a card being 1 x 1 in its own units whatever its size and proportions. Its rows run along
the cards' short side (cards stand upright in their rows, as players lay them), so row 0 is
at one end of the cards' long side; which end is the far side is told by the numerals
(``vision.cards``), not here.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import BoardNotFound

#: the picture is searched at this size (long side, px): 1080p frames are searched at 2/3
SEARCH_LONG_SIDE = 1920
#: the gaps between cards the lattice may have, in the units of the card outlines found (a
#: little inside a card's edge, so a little more than the gap on the table): from about 3 mm
#: between cards (the squares of a checked cloth touch) to half a card
GAP_RANGE = (0.03, 0.6)
#: a card's height over its width, as the lattice's homography tells it: playing cards are
#: 1.4 to 1.55 (a checked tablecloth's squares, 1, are no cards)
ASPECT_RANGE = (1.2, 1.85)
#: a quad inside another at most this many times its area is the same card's print, not a card
NESTED_AREA = 2.5
#: an outline lies on a slot when it spans this many card units each way (an outline is a
#: card's, so about 1; a checked cloth's square beside the grid is smaller)
SPAN = (0.78, 1.3)
#: how many rings of neighbours a lattice grows by, each from the fit of those before, before
#: a last fit to every outline on it
RINGS = 3
#: how many lattices on different cards ``card_lattices`` offers the reader at most
CANDIDATES = 3
#: how many outlines seed a lattice (``_seeds``), at most SEEDS_A_SIZE of each size (areas a
#: factor exp(SEED_SIZE_STEP) apart) before more of any
SEEDS = 16
SEEDS_A_SIZE = 3
SEED_SIZE_STEP = 0.5
#: a webcam's focal length as a share of the picture's width (a 67 degree field of view)
FOCAL_SHARE = 0.75
#: a region's outline counts as a card's when the outline's hull is this close to its
#: 4-corner approximation (area ratio)
QUAD_FILL = 0.9


@dataclass(frozen=True)
class CardLattice:
    """A found grid of ``rows`` x ``cols`` card slots (see the module docstring).

    ``homography`` maps card units (u along a row, v down a column) to image px; ``gap`` is
    (gap_u, gap_v); ``found`` the slots a card was seen on, as (row, col); ``quads`` the card
    outlines seen there, in the same order (image px, 4 x 2 each, corners in no set order)."""

    homography: np.ndarray
    gap: tuple[float, float]
    rows: int
    cols: int
    found: tuple[tuple[int, int], ...]
    quads: tuple[np.ndarray, ...]

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def slot_origin(self, row: int, col: int) -> tuple[float, float]:
        """Card units of slot (row, col)'s top-left corner."""
        return col * (1 + self.gap[0]), row * (1 + self.gap[1])

    def slot_corners(self, row: int, col: int, inset: float = 0.0) -> np.ndarray:
        """The slot's corners in image px, TL TR BR BL, ``inset`` card units in from its edges."""
        u, v = self.slot_origin(row, col)
        a, b = inset, 1 - inset
        return self.to_image(np.array([[u + a, v + a], [u + b, v + a], [u + b, v + b], [u + a, v + b]]))

    def board_corners(self) -> np.ndarray:
        """The grid's outer corners in image px, TL TR BR BL."""
        w = self.cols + (self.cols - 1) * self.gap[0]
        h = self.rows + (self.rows - 1) * self.gap[1]
        return self.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))

    def slot_patch(self, image: np.ndarray, row: int, col: int, size: tuple[int, int], margin: float = 0.0) -> np.ndarray:
        """The slot's picture warped upright to ``size`` (w, h) px, ``margin`` card units beyond
        its edges (negative: inside them)."""
        u, v = self.slot_origin(row, col)
        w, h = size
        m = margin
        src = np.array([[u - m, v - m], [u + 1 + m, v - m], [u + 1 + m, v + 1 + m], [u - m, v + 1 + m]], np.float64)
        # (the patch's outer pixel edges on the slot's: pixel centres lie half a pixel in, so
        # that the patch of the lattice turned a half turn is this one turned, pixel for pixel)
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - 0.5
        to_patch = cv2.getPerspectiveTransform(dst.astype(np.float32), src.astype(np.float32))
        full = self.homography @ to_patch
        return cv2.warpPerspective(image, full, (w, h), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    def turned(self) -> "CardLattice":
        """The same lattice with its rows and columns turned a half turn (row 0 at the other end)."""
        w = self.cols + (self.cols - 1) * self.gap[0]
        h = self.rows + (self.rows - 1) * self.gap[1]
        flip = np.array([[-1, 0, w], [0, -1, h], [0, 0, 1]], np.float64)
        found = tuple((self.rows - 1 - r, self.cols - 1 - c) for r, c in self.found)
        return CardLattice(self.homography @ flip, self.gap, self.rows, self.cols, found, self.quads)


#: Canny thresholds (low, high) on the picture's lightness and how many px the edges are
#: thickened, each pass its own search for closed outlines: a card's outline closes at one
#: threshold or another (a faint one with a break in it once thickened), while a table's
#: texture (grain, a checked cloth) breaks into outlines at the low ones only
EDGE_PASSES = ((30, 90, 0), (60, 160, 0), (120, 300, 0), (40, 120, 1), (80, 200, 1), (20, 60, 1), (15, 45, 2))
#: the colour channels' thresholds are this share of the lightness's
COLOUR_EDGE_SHARE = 0.6


def _edges(lab: np.ndarray, low: float, high: float, thicken: int = 0) -> np.ndarray:
    """Edges of the (blurred, Lab) picture in lightness and in colour, ``thicken`` px thicker
    each way (a faint outline with a break in it then closes)."""
    out = np.zeros(lab.shape[:2], np.uint8)
    for ch in range(3):
        f = 1.0 if ch == 0 else COLOUR_EDGE_SHARE
        out |= cv2.Canny(lab[..., ch], low * f, high * f, L2gradient=True)
    if thicken:
        out = cv2.dilate(out, np.ones((2 * thicken + 1, 2 * thicken + 1), np.uint8))
    return out


def _order(quad: np.ndarray) -> np.ndarray:
    """A quad's corners clockwise (in the image) from the one nearest the top left."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]
    start = int(np.argmin(q.sum(1)))
    return np.roll(q, -start, axis=0)


def card_quads(small: np.ndarray) -> list[np.ndarray]:
    """Outlines (4 x 2, px of ``small``) of the regions closed by edges that look like cards:
    convex four-cornered, not too thin, neither specks nor most of the picture; from every
    pass of ``EDGE_PASSES``, the outermost of those that nest."""
    return _outermost(_all_quads(small))


def _all_quads(small: np.ndarray) -> list[np.ndarray]:
    """Every pass's card-like outlines (``card_quads``), nested ones included."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB)
    out: list[np.ndarray] = []
    for low, high, thicken in EDGE_PASSES:
        out += _closed_quads(_edges(lab, low, high, thicken), thicken)
    return out


#: a quad of two cards' size holding two of about half its area each (this share of it), their
#: centres off its own by about a quarter of its long axis (this share of that axis, and
#: little across it) one each way, and whose halves are of a card's shape, is two cards laid
#: touching, closed as one outline as well as one by one: the last look splits it in two.
#: A card's printed frame or a back's panel is centred on the card, and the two parts of a
#: back's panel cut apart by its printed ring lie inside one card's size
PAIR_AREA = (0.38, 0.62)
PAIR_OFFSET = (0.17, 0.33)
PAIR_ACROSS = 0.1
#: an outline of two cards is twice a card's size within this (log of the area ratio: a
#: quarter either way)
PAIR_SIZE = 0.22


def split_pairs(quads: list[np.ndarray], size: tuple[int, int]) -> list[np.ndarray]:
    """``quads`` (every pass's, nested ones included, in a picture of ``size``, w, h px) with
    each outline of two touching cards (see ``PAIR_AREA``) replaced by its two halves, cut
    across its long axis; the others as they are. A card's size is the median of the
    outlines no larger one holds."""
    if len(quads) < 2:
        return quads
    areas = np.array([cv2.contourArea(q.astype(np.float32)) for q in quads])
    centres = np.array([q.mean(0) for q in quads])
    card = float(np.median([cv2.contourArea(q.astype(np.float32)) for q in _outermost(quads)]))
    out = []
    for q, area in zip(quads, areas):
        halves = _pair_halves(q, area, card, areas, centres, size)
        out += halves if halves else [q]
    return out


def _pair_halves(q, area, card, areas, centres, size) -> list[np.ndarray] | None:
    """The two halves of ``q`` when it is two touching cards' outline (``split_pairs``)."""
    if area <= 0 or abs(np.log(area / (2 * card))) >= PAIR_SIZE:
        return None
    # the long axis: from the middle of one short side to the middle of the other
    mids = (q + np.roll(q, -1, 0)) / 2  # the middles of sides 0-1, 1-2, 2-3, 3-0
    sides = np.linalg.norm(q - np.roll(q, -1, 0), axis=1)
    k = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1  # sides k and k+2 are the short ones
    axis = mids[k + 2] - mids[k]
    length = float(np.linalg.norm(axis))
    inside = (areas > PAIR_AREA[0] * area) & (areas < PAIR_AREA[1] * area)
    if length == 0 or not inside.any():
        return None
    unit = axis / length
    d = centres[inside] - q.mean(0)
    along = (d @ unit) / length
    across = np.abs(d @ np.array([-unit[1], unit[0]])) / length
    near = (np.abs(along) > PAIR_OFFSET[0]) & (np.abs(along) < PAIR_OFFSET[1]) & (across < PAIR_ACROSS)
    if not (np.any(near & (along > 0)) and np.any(near & (along < 0))):
        return None
    # corners k, k+1 make one short side, k+2, k+3 the other; the cut joins the long sides' middles
    a, b, c, e = (q[(k + i) % 4] for i in range(4))
    m1, m2 = (b + c) / 2, (e + a) / 2
    halves = [_order(np.array([a, b, m1, m2])), _order(np.array([m2, m1, c, e]))]
    aspects = [card_aspect(_unit_homography(half), size) for half in halves]
    if not all(ASPECT_RANGE[0] <= max(x, 1 / x) <= ASPECT_RANGE[1] for x in aspects):
        return None
    return halves


#: the table's colours are those of the picture's border strip (this share of each side),
#: which a camera framing the grid sees as table: ``TABLE_COLOURS`` of them (a wood's planks,
#: a print's inks), so a card is a region far from every one
TABLE_BORDER = 0.08
TABLE_COLOURS = 4
#: the distances (Lab units) from the nearest table colour at which regions are cut, each
#: its own search for outlines: light cards on a light table stand a little off it, a card's
#: frame of another colour than its face a lot
OFF_TABLE_LEVELS = (10.0, 18.0, 30.0)


def off_table_quads(small: np.ndarray) -> list[np.ndarray]:
    """Outlines (as ``card_quads``) of the regions that stand off the table's colours (see
    ``_off_table``) at each of ``OFF_TABLE_LEVELS``: light cards on a light table, whose
    edges are too faint to close, still differ from it in colour."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB)
    far = _off_table(lab)
    out: list[np.ndarray] = []
    for level in OFF_TABLE_LEVELS:
        # (the regions shrunk a pixel, so that cards a narrow gap apart come apart; the
        # outline is grown back by as much, as for a thickened edge)
        region = cv2.erode((far > level).astype(np.uint8), np.ones((3, 3), np.uint8))
        out += _closed_quads(np.where(region > 0, 0, 255).astype(np.uint8), 1)
    return out


def _off_table(lab: np.ndarray) -> np.ndarray:
    """Every pixel's Lab distance from the nearest of the table's colours (``TABLE_BORDER``)."""
    h, w = lab.shape[:2]
    bh, bw = max(1, int(h * TABLE_BORDER)), max(1, int(w * TABLE_BORDER))
    border = np.concatenate([lab[:bh].reshape(-1, 3), lab[-bh:].reshape(-1, 3),
                             lab[:, :bw].reshape(-1, 3), lab[:, -bw:].reshape(-1, 3)]).astype(np.float32)
    border = border[:: max(1, len(border) // 4000)]
    k = min(TABLE_COLOURS, len(border))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    # (k-means starts from OpenCV's random numbers: seeded, so that a photo reads the same
    # every time, whatever was drawn before)
    cv2.setRNGSeed(TABLE_COLOURS)
    _, _, centres = cv2.kmeans(border, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    px = lab.reshape(-1, 3).astype(np.float32)
    d = np.min(np.stack([np.linalg.norm(px - c, axis=1) for c in centres]), axis=0)
    return d.reshape(h, w)


def _closed_quads(edges: np.ndarray, thicken: int = 0) -> list[np.ndarray]:
    """The card-like outlines of the regions ``edges`` closes (see ``card_quads``)."""
    h, w = edges.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    min_area, max_area = (h * w) / 2500.0, (h * w) / 12.0
    out = []
    for k in range(1, n):
        x, y, bw, bh, area = stats[k]
        if area < min_area * 0.3 or bw * bh < min_area or bw * bh > max_area * 2:
            continue
        mask = (labels[y:y + bh, x:x + bw] == k).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            continue
        contour = max(contours, key=cv2.contourArea)
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if not (min_area <= hull_area <= max_area):
            continue
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(approx) != 4:
            continue
        quad = _straight_sides(contour.reshape(-1, 2).astype(np.float64), approx.reshape(4, 2).astype(np.float64)) + (x, y)
        q_area = cv2.contourArea(quad.astype(np.float32))
        if q_area <= 0 or min(q_area, hull_area) / max(q_area, hull_area) < QUAD_FILL:
            continue
        sides = np.linalg.norm(quad - np.roll(quad, -1, 0), axis=1)
        if sides.min() < 0.25 * sides.max():
            continue
        # (the half pixel the edge line took off every side, and what thickening took)
        quad = _order(quad)
        c = quad.mean(0)
        quad = c + (quad - c) * (1 + (1.0 + 2 * thicken) / max(sides.mean(), 1.0))
        out.append(quad)
    return out


#: a side's line is fitted to the outline's points this close to it (a share of its length),
#: leaving out this share of it at each end (where a rounded corner turns away)
SIDE_NEAR = 0.08
SIDE_END = 0.2


def _straight_sides(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (the outline's four-corner approximation, whose corners are points of the
    outline) with its corners where the outline's straight sides meet: a card's or a printed
    frame's rounded corners otherwise cut the quad short of them, the more so the smaller
    the card. Where a side has too few points along it, or a corner found strays far from
    the approximation's, the approximation is kept as it is."""
    d = np.roll(quad, -1, 0) - quad  # side k runs from corner k to corner k + 1
    length = np.hypot(d[:, 0], d[:, 1])
    if length.min() < 4:
        return quad
    rel = points[None, :, :] - quad[:, None, :]
    t = (rel[..., 0] * d[:, 0, None] + rel[..., 1] * d[:, 1, None]) / (length * length)[:, None]
    off = np.abs(rel[..., 1] * d[:, 0, None] - rel[..., 0] * d[:, 1, None]) / length[:, None]
    on = (t > SIDE_END) & (t < 1 - SIDE_END) & (off < SIDE_NEAR * length[:, None] + 1.5)
    if on.sum(axis=1).min() < 5:
        return quad
    lines = [cv2.fitLine(points[on[k]].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel() for k in range(4)]
    out = np.empty_like(quad)
    for k in range(4):
        # where side k - 1's line meets side k's (corner k): p + s u = q + r v
        (ux, uy, px, py), (vx, vy, qx, qy) = (map(float, line) for line in (lines[k - 1], lines[k]))
        det = vx * uy - ux * vy
        if abs(det) < 1e-6:
            return quad
        s = (vx * (qy - py) - vy * (qx - px)) / det
        out[k] = (px + s * ux, py + s * uy)
    # (a corner far from the approximation's is a bad fit, not a rounded corner)
    if np.linalg.norm(out - quad, axis=1).max() > 0.25 * length.min():
        return quad
    return out


def _outermost(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Drop quads lying inside a larger one of a card's size (a card's printed frame or a back's
    inset panel); a region of table enclosing the whole grid keeps the cards inside it."""
    if not quads:
        return []
    areas = np.array([cv2.contourArea(q.astype(np.float32)) for q in quads])
    # (a checked cloth closes thousands of squares: each quad is tested only against those
    # whose bounding box holds its centre, found for all at once, in the float32 the polygon
    # test works in)
    shapes = [q.astype(np.float32) for q in quads]
    centres = np.array([q.mean(0) for q in quads]).astype(np.float32)
    lo = np.array([q.min(0) for q in shapes])
    hi = np.array([q.max(0) for q in shapes])
    around: dict[int, np.ndarray] = {}
    for start in range(0, len(quads), 1024):
        cx, cy = centres[start:start + 1024, 0, None], centres[start:start + 1024, 1, None]
        holds = (lo[None, :, 0] <= cx) & (hi[None, :, 0] >= cx) & (lo[None, :, 1] <= cy) & (hi[None, :, 1] >= cy)
        holds &= areas[None, :] < NESTED_AREA * areas[start:start + 1024, None]
        for row in np.flatnonzero(holds.any(axis=1)):
            around[start + int(row)] = np.flatnonzero(holds[row])
    kept = np.zeros(len(quads), bool)
    order = np.argsort(-areas)
    for i in order:
        c = centres[i]
        if any(kept[k] and cv2.pointPolygonTest(shapes[k], (float(c[0]), float(c[1])), False) >= 0
               for k in around.get(int(i), ())):
            continue
        kept[i] = True
    return [quads[i] for i in order if kept[i]]


def _seeds(quads: list[np.ndarray], most: int) -> list[int]:
    """The outlines with the most neighbours where a card's would be: one card along and
    across, a gap apart, and of about its size (a grid's cards have several, a checked
    cloth's squares none, having no gap)."""
    centres = np.array([q.mean(0) for q in quads])
    areas = np.array([cv2.contourArea(q.astype(np.float32)) for q in quads])
    support = np.zeros(len(quads))
    for k, q in enumerate(quads):
        uv = _map(np.linalg.inv(_unit_homography(q)), centres) - 0.5
        alike = (areas > 0.6 * areas[k]) & (areas < 1.6 * areas[k])
        counts = []
        for a, b in ((0, 1), (1, 0)):
            d = np.abs(uv[:, a]) - 1.0
            counts.append(int(np.sum(alike & (np.abs(uv[:, b]) < 0.3) & (d > GAP_RANGE[0]) & (d < GAP_RANGE[1]))))
        # a card of a grid has neighbours both along its row and along its column (the
        # stripes of wood grain or of a cloth lie side by side one way only)
        support[k] = min(counts) + 0.1 * sum(counts)
    order = [int(k) for k in np.argsort(-support, kind="stable") if support[k] >= 1]
    # a few of each size first: a cloth's many small squares must not crowd out the cards
    size = np.floor(np.log(np.maximum(areas, 1.0)) / SEED_SIZE_STEP).astype(int)
    taken: dict[int, int] = {}
    first, rest = [], []
    for k in order:
        (first if taken.get(size[k], 0) < SEEDS_A_SIZE else rest).append(k)
        taken[size[k]] = taken.get(size[k], 0) + 1
    return (first + rest)[:most]


def _unit_homography(quad: np.ndarray) -> np.ndarray:
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(unit, quad.astype(np.float32))


def _map(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def _gap(offsets: np.ndarray) -> float | None:
    """The gap told by neighbours' centre offsets along one axis (card units from the seed's
    centre), or None when no neighbour lies along it."""
    d = np.abs(offsets) - 1.0
    d = d[(d > GAP_RANGE[0]) & (d < GAP_RANGE[1])]
    return float(np.median(d)) if len(d) else None


def _fit(quads: list[np.ndarray], seed: int, rows: int, cols: int, size: tuple[int, int]):
    """The lattice seeded by quad ``seed``: (score, homography, gap, {(i, j): quad index})."""
    hs = _unit_homography(quads[seed])
    inv = np.linalg.inv(hs)
    centres = np.array([q.mean(0) for q in quads])
    uv = _map(inv, centres) - 0.5
    near_row = np.abs(uv[:, 1]) < 0.3
    near_col = np.abs(uv[:, 0]) < 0.3
    gu, gv = _gap(uv[near_row, 0]), _gap(uv[near_col, 1])
    if gu is None and gv is None:
        return None
    gu = gv if gu is None else gu
    gv = gu if gv is None else gv
    h = hs
    slots: dict = {}
    # grown ring by ring from the seed: one card's outline foretells its neighbours well and
    # the far side of the grid badly, so each ring is placed by the fit of the ones before
    for ring in range(RINGS + 1):
        last = ring == RINGS
        inv = np.linalg.inv(h)
        uv = _map(inv, centres) - 0.5
        i = np.round(uv[:, 0] / (1 + gu)).astype(int)
        j = np.round(uv[:, 1] / (1 + gv)).astype(int)
        res = np.hypot(uv[:, 0] - i * (1 + gu), uv[:, 1] - j * (1 + gv))
        at = {}
        for k in np.argsort(res):
            if res[k] > 0.25:
                break
            if not last and slots and min(max(abs(i[k] - a), abs(j[k] - b)) for a, b in slots) > 1:
                continue
            corners = _map(inv, quads[k])
            span = np.ptp(corners, axis=0)
            if not (SPAN[0] < span[0] < SPAN[1] and SPAN[0] < span[1] < SPAN[1]):
                continue
            at.setdefault((int(i[k]), int(j[k])), int(k))
        if last and len(at) < 4:
            return None
        slots = _best_window(at, rows, cols) if at else {}
        if not slots:
            return None
        src, dst = [], []
        for (a, b), k in slots.items():
            corners = _map(inv, quads[k])
            expected = _slot_unit(a, b, gu, gv)
            # the seen corners in the turn of the slot's that fits them best (both go clockwise)
            shift = min(range(4), key=lambda t: float(np.linalg.norm(np.roll(corners, -t, 0) - expected, axis=1).sum()))
            src += list(expected)
            dst += list(np.roll(quads[k], -shift, 0))
        h_new, _ = cv2.findHomography(np.array(src, np.float64), np.array(dst, np.float64), 0)
        if h_new is None or abs(np.linalg.det(h_new)) < 1e-12:
            return None
        h = h_new
        # the gaps again, from where the cards fall in the new frame
        gu, gv = _refit_gaps(h, quads, slots, gu, gv)
    aspect = card_aspect(h, size)
    if not (ASPECT_RANGE[0] <= max(aspect, 1 / aspect) <= ASPECT_RANGE[1]):
        return None
    return len(slots), h, (gu, gv), slots, ()


def _slot_unit(a: int, b: int, gu: float, gv: float) -> np.ndarray:
    """Slot (column ``a``, row ``b``)'s corners in card units, clockwise from its top left."""
    u0, v0 = a * (1 + gu), b * (1 + gv)
    return np.array([[u0, v0], [u0 + 1, v0], [u0 + 1, v0 + 1], [u0, v0 + 1]])


#: a slot without a closed outline counts as a card's when its outline, as the lattice puts
#: it, runs along an edge of the picture (a step across the side, within EDGE_REACH px, of at
#: least the picture's edge step: see ``_gradients``) at this share of its points, and each
#: side at least at SIDE_SUPPORT: a card's edges run all round it, the table's grain or a
#: print's lines across a side here and there
EDGE_SUPPORT = 0.7
SIDE_SUPPORT = 0.4
EDGE_REACH = 2
#: the edge step (Lab units) is EDGE_NOISE times the table's own steps (the 90th percentile
#: over the picture's border strip, ``TABLE_BORDER``), between EDGE_STEP_MIN and EDGE_STEP: a
#: grained or printed table needs the full step, while on a smooth light table a white card's
#: only outline may be a faint line of shade a couple of units deep
EDGE_STEP = 6.0
EDGE_STEP_MIN = 1.5
EDGE_NOISE = 3.0
#: points sampled along each side of a slot's outline
SIDE_POINTS = 16
#: a slot whose edges are not all round it where the lattice puts it is tried again shifted
#: by up to this share of a card along and across, in SHIFT_STEPS steps each way: a row or
#: column beyond every closed outline is placed by extrapolation, which a steep tilt throws
#: off by more than EDGE_REACH (the slot is then read where the lattice puts it: the reader
#: takes a card a few hundredths off its slot)
SHIFT_REACH = 0.08
SHIFT_STEPS = 2


def _gradients(small: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The picture's gradient (x, y) in the Lab channel where it is strongest, per px (a
    Sobel step: about 8 times the step in channel levels), and the step (Sobel units) that
    counts as an edge on this picture's table (see ``EDGE_NOISE``)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = np.stack([cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0, ksize=3) for c in range(3)], -1)
    gy = np.stack([cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1, ksize=3) for c in range(3)], -1)
    best = np.argmax(gx * gx + gy * gy, axis=-1)[..., None]
    gx, gy = np.take_along_axis(gx, best, -1)[..., 0], np.take_along_axis(gy, best, -1)[..., 0]
    h, w = gx.shape
    bh, bw = max(1, int(h * TABLE_BORDER)), max(1, int(w * TABLE_BORDER))
    size = np.hypot(gx, gy)
    border = np.concatenate([size[:bh].ravel(), size[-bh:].ravel(), size[:, :bw].ravel(), size[:, -bw:].ravel()])
    step = float(np.clip(EDGE_NOISE * np.percentile(border, 90) / 8.0, EDGE_STEP_MIN, EDGE_STEP))
    return gx, gy, 8.0 * step


def _edge_support(grads, corners: np.ndarray) -> np.ndarray:
    """For each side of the outline ``corners`` (4 x 2 image px, or N x 4 x 2 for N outlines),
    the share of its points with an edge across it nearby (see ``EDGE_SUPPORT``; ``grads``
    from ``_gradients``): 4 shares, or N x 4 (an outline with a side under a pixel long has
    none)."""
    gx, gy, edge = grads
    h, w = gx.shape
    c = np.asarray(corners, np.float64)
    quads = c.reshape(-1, 4, 2)
    d = np.roll(quads, -1, axis=1) - quads  # each side, corner k to corner k + 1
    length = np.hypot(d[..., 0], d[..., 1])
    n = np.stack([-d[..., 1], d[..., 0]], -1) / np.maximum(length, 1e-12)[..., None]
    t = (np.arange(SIDE_POINTS) + 0.5) / SIDE_POINTS
    pts = quads[:, :, None, :] + t[None, None, :, None] * d[:, :, None, :]  # N x 4 x points x 2
    offsets = np.arange(-EDGE_REACH, EDGE_REACH + 1, dtype=np.float64)
    p = np.rint(pts[:, :, :, None, :] + offsets[None, None, None, :, None] * n[:, :, None, None, :]).astype(int)
    inside = (p[..., 0] >= 0) & (p[..., 0] < w) & (p[..., 1] >= 0) & (p[..., 1] < h)
    px, py = np.clip(p[..., 0], 0, w - 1), np.clip(p[..., 1], 0, h - 1)
    across = np.abs(gx[py, px] * n[:, :, None, None, 0] + gy[py, px] * n[:, :, None, None, 1]) * inside
    out = np.mean(across.max(axis=3) >= edge, axis=2)
    out[(length < 1).any(axis=1)] = 0.0
    return out[0] if c.ndim == 2 else out


def _edged_slot(grads, h, a: int, b: int, gu: float, gv: float) -> bool:
    """Whether slot (column ``a``, row ``b``) has a card's edges all round it where the
    lattice ``h`` puts it, or, on a smooth table, at one of its shifts (``SHIFT_REACH``)."""
    unit = _slot_unit(a, b, gu, gv)
    # (only on a smooth table, whose own steps are under the full edge step: on a grained or
    # checked one, a shift finds the table's own lines as readily as a card's edges)
    reach = SHIFT_REACH if grads[2] < 8.0 * EDGE_STEP else 0.0
    steps = np.linspace(-reach, reach, 2 * SHIFT_STEPS + 1) if reach else np.zeros(1)
    shifts = np.array([(du, dv) for du in steps for dv in steps])
    corners = _map(h, (unit[None] + shifts[:, None, :]).reshape(-1, 2)).reshape(-1, 4, 2)
    sides = _edge_support(grads, corners)
    return bool(np.any((sides.mean(axis=1) >= EDGE_SUPPORT) & (sides.min(axis=1) >= SIDE_SUPPORT)))


def _extended(fit, grads, rows: int, cols: int):
    """``fit`` (see ``_fit``) with the slots of its window that have a card's edges all round
    them counted as well; the window is shifted to where it holds the most (the outlines
    alone may leave its place open)."""
    n, h, (gu, gv), slots, _ = fit
    keys = np.array(list(slots))
    support: dict = {}
    best, best_n = fit, -1
    for i0 in range(keys[:, 0].max() - cols + 1, keys[:, 0].min() + 1):
        for j0 in range(keys[:, 1].max() - rows + 1, keys[:, 1].min() + 1):
            seen = []
            for a in range(i0, i0 + cols):
                for b in range(j0, j0 + rows):
                    if (a, b) in slots:
                        continue
                    if (a, b) not in support:
                        support[(a, b)] = _edged_slot(grads, h, a, b, gu, gv)
                    if support[(a, b)]:
                        seen.append((a - i0, b - j0))
            if len(seen) > best_n:
                shift = np.array([[1, 0, i0 * (1 + gu)], [0, 1, j0 * (1 + gv)], [0, 0, 1]])
                moved = {(a - i0, b - j0): k for (a, b), k in slots.items()}
                best, best_n = (n + len(seen), h @ shift, (gu, gv), moved, tuple(seen)), len(seen)
    return best


def _refit_gaps(h, quads, slots, gu, gv):
    inv = np.linalg.inv(h)
    us, ius, vs, ivs = [], [], [], []
    for (a, b), k in slots.items():
        c = _map(inv, quads[k]).mean(0) - 0.5
        us.append(c[0])
        ius.append(a)
        vs.append(c[1])
        ivs.append(b)

    def slope(x, idx, g):
        idx = np.asarray(idx, float)
        if np.ptp(idx) == 0:
            return g
        s = np.polyfit(idx, np.asarray(x), 1)[0]
        return float(np.clip(s - 1.0, *GAP_RANGE))

    return slope(us, ius, gu), slope(vs, ivs, gv)


def _best_window(slots: dict, rows: int, cols: int) -> dict:
    """The slots inside the ``cols`` x ``rows`` window (columns i, rows j) holding the most of them."""
    keys = np.array(list(slots))
    best, best_n = slots, -1
    for i0 in range(keys[:, 0].min() - cols + 1, keys[:, 0].max() + 1):
        for j0 in range(keys[:, 1].min() - rows + 1, keys[:, 1].max() + 1):
            inside = {(a - i0, b - j0): k for (a, b), k in slots.items() if i0 <= a < i0 + cols and j0 <= b < j0 + rows}
            if len(inside) > best_n:
                best, best_n = inside, len(inside)
    return best


def locate_cards(image: np.ndarray, rows: int = 4, cols: int = 4, min_cards: int | None = None) -> CardLattice:
    """The grid of ``rows`` x ``cols`` card slots in ``image`` on which the most card outlines
    lie (the first of ``card_lattices``); raises BoardNotFound as it does."""
    return card_lattices(image, rows, cols, min_cards)[0]


def card_lattices(image: np.ndarray, rows: int = 4, cols: int = 4, min_cards: int | None = None,
                  most: int = CANDIDATES) -> list[CardLattice]:
    """Up to ``most`` lattices of ``rows`` x ``cols`` card slots on different parts of ``image``,
    the one with the most card outlines on it first. A checked cloth's squares with stripes
    between may lie on a lattice like cards with gaps: the reader tells which holds cards.
    Raises BoardNotFound when none holds ``min_cards`` outlines (default: half the slots)
    spanning all its rows and columns with the cards upright in their rows. The second look
    (``CardGridSearch.second``) is taken only where the first finds no lattice."""
    search = CardGridSearch(image, rows, cols, min_cards, most)
    return search.first or search.second() or search.raise_not_found()


class CardGridSearch:
    """One picture's search for a grid of cards, in two looks.

    ``first``: the lattices fitted to the closed outlines (see ``card_lattices``). The second
    look (``second``), taken only when asked for, adds the outlines of the regions off the
    table's colours and counts the slots between those seen by the edges round them (and
    where that finds nothing either, splits the outlines of two cards laid touching,
    ``split_pairs``): the
    reader asks for it where the first look finds nothing, or nothing that reads as cards (a
    checked cloth's lattice), so that a grid found at first is read as before."""

    def __init__(self, image: np.ndarray, rows: int = 4, cols: int = 4, min_cards: int | None = None,
                 most: int = CANDIDATES):
        self.image, self.rows, self.cols, self.most = image, rows, cols, most
        self.need = min_cards if min_cards is not None else rows * cols // 2
        self.scale = min(1.0, SEARCH_LONG_SIDE / max(image.shape[:2]))
        self.small = image if self.scale == 1.0 else cv2.resize(image, None, fx=self.scale, fy=self.scale,
                                                                 interpolation=cv2.INTER_AREA)
        self._all = _all_quads(self.small)
        self._quads = _outermost(self._all)
        self.first, self._why = self._look(self._quads, extend=False)
        self._second: list[CardLattice] | None = None

    def _look(self, quads, extend: bool):
        return _lattices(quads, self.small, self.scale, self.image, self.rows, self.cols, self.need, self.most,
                         extend=extend)

    def second(self) -> list[CardLattice]:
        """The second look's lattices (up to ``most``), those on a grid the first look offered
        left out; taken once."""
        if self._second is None:
            off = off_table_quads(self.small)
            more, why = self._look(_outermost(self._quads + off), extend=True)
            if not more and not self.first:
                # still nothing: the outlines of two cards laid touching, split (a checked
                # cloth's two squares can pass for two cards, so only as the last resort)
                size = (self.small.shape[1], self.small.shape[0])
                more, why = self._look(_outermost(split_pairs(self._all, size) + off), extend=True)
            self._why = self._why if self.first else why
            self._second = [lat for lat in more if not any(_same_grid(lat, kept) for kept in self.first)]
        return self._second

    def raise_not_found(self) -> list[CardLattice]:
        """Raises BoardNotFound: why no look found a grid."""
        raise BoardNotFound(f"no grid of cards in view: {self._why}")


def _same_grid(a: CardLattice, b: CardLattice) -> bool:
    """Whether lattice ``a``'s centre lies inside ``b``'s outer corners (the same grid found
    again, or found on the cards' prints)."""
    centre = a.board_corners().mean(0)
    return cv2.pointPolygonTest(b.board_corners().astype(np.float32), (float(centre[0]), float(centre[1])), False) >= 0


#: a lattice's rank among those found: its closed outlines, and each slot counted by its
#: edges as this much of one
EDGED_WEIGHT = 0.5
#: with the slots between counted by their edges, a lattice may be fitted to as few outlines
#: (and no fewer: three cards in an L already tell a homography only by their corners)
MIN_OUTLINES = 4


def _lattices(quads, small, scale, image, rows, cols, need, most, extend):
    """The lattices of ``card_lattices`` fitted to ``quads`` (outlines in ``small``, the
    picture searched, ``scale`` times ``image``), and why none when none; with ``extend``,
    the slots without an outline that have a card's edges all round them count as well."""
    if len(quads) < (MIN_OUTLINES if extend else need):
        return [], f"{len(quads)} card-shaped outlines found, {need} needed"
    fits = []
    # (an oblong grid's lattice may first be found across: its cards tell, below)
    shapes = {(rows, cols), (cols, rows)}
    grads = None
    for s in _seeds(quads, SEEDS):
        for shape in shapes:
            got = _fit(quads, int(s), *shape, (small.shape[1], small.shape[0]))
            if got is not None and ((extend and got[0] < need) or not _spans(got[3], *shape)):
                # too few outlines closed (second look), or not in every row and column: the
                # slots between and around them are counted where the picture has a card's
                # edges all round them
                grads = _gradients(small) if grads is None else grads
                got = _extended(got, grads, *shape)
            if got is not None:
                fits.append((got, shape))
    # (a slot counted by its edges is weaker evidence than a closed outline: a lattice on a few
    # outlines whose window reaches over the table's lines must not outrank one on many)
    fits.sort(key=lambda f: -(len(f[0][3]) + EDGED_WEIGHT * len(f[0][4])))
    out: list[CardLattice] = []
    used: set[int] = set()
    why = f"at most {fits[0][0][0] if fits else 0} cards lie on one {rows}x{cols} lattice, {need} needed"
    for (n, h, gap, slots, edged), (r_, c_) in fits:
        if n < need:
            break
        if used & set(slots.values()):
            continue  # the same cards again
        held = set(slots) | set(edged)
        if len({a for a, _ in held}) < c_ or len({b for _, b in held}) < r_:
            why = (f"the cards found span {len({b for _, b in held})} x {len({a for a, _ in held})} slots, "
                   f"not {r_} x {c_}")
            continue
        found = {(b, a): quads[k] / scale for (a, b), k in slots.items()}
        lattice = CardLattice(np.diag([1 / scale, 1 / scale, 1.0]) @ h, gap, r_, c_, tuple(found), tuple(found.values()))
        if _long_axis_across_rows(lattice, (image.shape[1], image.shape[0])):
            lattice = _transposed(lattice)
        if (lattice.rows, lattice.cols) != (rows, cols):
            why = f"the cards found lie {lattice.rows} x {lattice.cols}, not {rows} x {cols} upright in their rows"
            continue
        if any(_same_grid(lattice, kept) for kept in out):
            continue  # the same grid again, on the cards' prints
        used |= set(slots.values())
        out.append(lattice)
        if len(out) == most:
            break
    return out, why


def _spans(slots: dict, rows: int, cols: int) -> bool:
    """Whether ``slots`` ((column, row) keys) hold an outline in every row and column."""
    return len({a for a, _ in slots}) >= cols and len({b for _, b in slots}) >= rows


def _long_axis_across_rows(lattice: CardLattice, size: tuple[int, int]) -> bool:
    """Whether the cards' long side runs along the lattice's rows (u): the cards then stand
    across the rows, and the lattice must be transposed."""
    return card_aspect(lattice.homography, size) < 1.0


def card_aspect(homography: np.ndarray, size: tuple[int, int]) -> float:
    """A card's height over its width on the table (v over u), from the lattice's homography
    seen by a pinhole camera centred on the picture (``size``: w, h px) with a webcam's usual
    focal length (``FOCAL_SHARE`` of the width). The focal length that would make the
    lattice's axes square to each other is no better: lens distortion throws it far off."""
    w, h = size
    t = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
    hh = t @ homography
    h1, h2 = hh[:, 0], hh[:, 1]
    f = FOCAL_SHARE * w
    lu = np.linalg.norm([h1[0] / f, h1[1] / f, h1[2]])
    lv = np.linalg.norm([h2[0] / f, h2[1] / f, h2[2]])
    return float(lv / lu)


def _transposed(lattice: CardLattice) -> CardLattice:
    """The lattice with u and v swapped (its rows become its columns), kept right-handed by
    turning the new columns' order (so the picture's clockwise order of corners holds)."""
    swap = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float64)
    gu, gv = lattice.gap
    h = lattice.homography @ swap  # (u', v') = (v, u)
    w = lattice.rows + (lattice.rows - 1) * gv  # new u extent
    mirror = np.array([[-1, 0, w], [0, 1, 0], [0, 0, 1]], np.float64)
    h = h @ mirror
    rows, cols = lattice.cols, lattice.rows
    found = tuple((c, cols - 1 - r) for r, c in lattice.found)
    return CardLattice(h, (gv, gu), rows, cols, found, lattice.quads)
