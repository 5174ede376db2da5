"""Dice lying beside a board: found in a band around it, each read for its face and its suit.

Where a table description lays dice beside the board (``rules.table.Place.BESIDE_BOARD``),
the band from ``BAND[0]`` to ``BAND[1]`` pitches outside the board's four edges is sampled
into a top view (``VIEW_PX`` px a pitch) through the lattice. A die's top is a square about a
quarter of a pitch wide: every edge pixel of the view votes for the points half a die's side
away along its gradient, both ways, so that a die's four sides vote into its middle (the
same vote as ``vision.squares.find_round``'s for a coin's rim); the ``PROPOSALS`` strongest
local peaks at least a die apart are the places looked at.

Each place is cut in the player frame, turned so that its die's sides run along the axes
(``_angle``) and tried on a grid of offsets (``tries``: a tilted camera sees a die's sides and
its shadow, and the vote may fall between them and the top), never with its middle on the
board (the squares by the board's edge hold coins, whose numerals read as a die's). Each try
is measured (``face_features``): the face reader's tile features of the die's top
(``DIE_WINDOW`` pitches) and of its numeral alone (``GLYPH_WINDOW``, centred on its ink, at
twice the resolution), and how the place stands out as a flat light square. The dice model
(``vision/models/dice``, built by ``benchmarks/build_dice_model.py`` from renders of the
looks not held out) holds three class models: ``faces`` (``""`` the table, ``n`` null, ``s``
the suit symbol, ``2``-``5``), ``ranks`` (the marked faces, from the numeral alone) and
``suits`` (the colour of the numeral's ink, ``suit_features``). Each place keeps the try whose
best face beats the table by most, and is a die when that is ``DIE_MARGIN`` nats or more. A
piecepack has one die of each suit, so the suits are given jointly (an assignment: each
suit at most once); a die showing null is blank, with no colour to tell its suit, and takes
a suit no other die shows, sure only when that leaves one suit for each null die.

The numerals are read as they lie once the die's edges have turned it square: upright in the
player's frame within 45 degrees (as the renders lay them). A die lying a further quarter
turn round is read as its numeral turned (``TURNS`` = 4 reads every quarter turn, but made
blank table read as null dice with a model learnt on upright numerals).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import features as F
from vision.assign import assign, confidence_from_margin
from vision.locate import Lattice
from vision.squares import windows_at

#: the band searched, in pitches outside the board's edges (the dice lie a die or two off it)
BAND = (0.05, 1.0)
#: px a pitch of the top view searched
VIEW_PX = 80
#: a die's side in pitches (12.7 mm on a pitch of 51 mm tiles and their gaps)
DIE_SIDE = 0.225
#: the places looked at
PROPOSALS = 12
#: a die's window: its side in pitches (a little more than the die's top), its px
DIE_WINDOW = 0.32
DIE_PX = 32
#: quarter turns of a die's window read (the face's numeral may point any way)
TURNS = 1
#: a die's class must beat the table's by this many nats
DIE_MARGIN = 2.0
#: the bundled dice model
DICE_MODEL = Path(__file__).resolve().parent / "models" / "dice"
SUIT_LETTERS = "SMCA"
FACES = ("n", "s", "2", "3", "4", "5")


#: a die found within this many pitches of where one lay at the last read is the same die
#: lying still (the tries' grid puts a still die's place a few hundredths of a pitch about)
STILL_REACH = 0.1
#: the reads of a die lying still that its reading is the mean of (``DiceMemory``)
STILL_READS = 60
#: a read whose own best face (or mark) beats the one the die lay as by this many nats is a
#: die rolled onto the same place: its memory starts again
ROLLED_MARGIN = 4.0


@dataclass
class DiceMemory:
    """The dice found at the last read (a camera that does not move, the live Caller's): each
    one's place (lattice units) and its last ``STILL_READS`` reads' costs (faces model, ranks
    model, suits model rows).

    A small die's numeral is a few pixels across: at 1280x720, with squares of 28 px, a 2 and a
    3 are blobs that the faces model tells apart by a nat or less, and read after read the
    noise of the frame turns one into the other (a die lying still read 2, 3, 2, 3 for a whole
    turn). A die found where one lay at the last read is read from the mean of its reads'
    costs: the noise is averaged away, what the die shows is not."""

    places: list = field(default_factory=list)
    reads: list = field(default_factory=list)

    def blend(self, places: np.ndarray, faces: np.ndarray, ranks: np.ndarray | None,
              suits: np.ndarray) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """The K dice found now (``places``, K x 2 lattice units; their costs' rows) with each
        one's costs the mean of its reads while it lay still; remembers them for the next read
        (the dice not found now are forgotten)."""
        taken: set[int] = set()
        now_places, now_reads = [], []
        out_f, out_r, out_s = faces.copy(), None if ranks is None else ranks.copy(), suits.copy()
        for k, place in enumerate(np.asarray(places, float)):
            row = (faces[k], None if ranks is None else ranks[k], suits[k])
            history: list = []
            far = [np.hypot(*(place - p)) for p in self.places]
            j = int(np.argmin(far)) if far else -1
            if j >= 0 and far[j] <= STILL_REACH and j not in taken and not _rolled(self.reads[j], row):
                taken.add(j)
                history = self.reads[j][-(STILL_READS - 1):]
            history = history + [row]
            out_f[k] = np.mean([h[0] for h in history], 0)
            if out_r is not None and all(h[1] is not None for h in history):
                out_r[k] = np.mean([h[1] for h in history], 0)
            out_s[k] = np.mean([h[2] for h in history], 0)
            now_places.append(place)
            now_reads.append(history)
        self.places, self.reads = now_places, now_reads
        return out_f, out_r, out_s


def _rolled(history: list, row: tuple) -> bool:
    """Whether ``row`` (one read's costs) is another face than the die of ``history`` lay as,
    beyond doubt (``ROLLED_MARGIN``): by the faces model or by the ranks model."""
    for m in (0, 1):
        if row[m] is None or any(h[m] is None for h in history):
            continue
        was = int(np.argmin(np.mean([h[m] for h in history], 0)))
        if row[m][was] - row[m].min() > ROLLED_MARGIN:
            return True
    return False


@dataclass(frozen=True)
class DiceRead:
    """The dice found: ``dice`` (suit, face) in the suits' order, ``confidence`` one each,
    ``places`` each die's middle in lattice units."""

    dice: tuple[tuple[str, str], ...]
    confidence: tuple[float, ...]
    places: tuple[tuple[float, float], ...]


def _affine(frame) -> tuple[np.ndarray, np.ndarray]:
    """(A, b) with lattice = A @ player + b for a frame (a rotation of the board: affine)."""
    o = np.array(frame(0.0, 0.0), float)
    A = np.stack([np.array(frame(1.0, 0.0), float) - o, np.array(frame(0.0, 1.0), float) - o], 1)
    return A, o


def to_player(frame, points: np.ndarray) -> np.ndarray:
    """N x 2 lattice points -> the player frame of ``frame``."""
    A, o = _affine(frame)
    return (np.linalg.solve(A, (np.asarray(points, float) - o).T)).T


def propose(image: np.ndarray, lattice: Lattice, rows: int, cols: int, k: int = PROPOSALS) -> np.ndarray:
    """Up to ``k`` x 2 lattice points, the strongest places a die's square could lie in the band
    around the board (see the module's docstring), strongest first."""
    lo = -BAND[1]
    w, h = cols + 2 * BAND[1], rows + 2 * BAND[1]
    side = max(w, h)
    px = int(round(side * VIEW_PX))
    view = windows_at(image, lattice, lambda u, v: (u, v), np.array([[lo + side / 2, lo + side / 2]]), px=px,
                      side=side)[0]
    g = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    edges = cv2.Canny(g, 20, 50)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    ys, xs = np.nonzero(edges)
    mag = np.hypot(gx[ys, xs], gy[ys, xs]) + 1e-6
    ux, uy = gx[ys, xs] / mag, gy[ys, xs] / mag
    acc = np.zeros(px * px, np.float32)
    half = DIE_SIDE / 2 * VIEW_PX
    for sign in (-1.0, 1.0):
        for rr in (half - 1.5, half, half + 1.5):
            vx = np.rint(xs + sign * rr * ux).astype(np.int64)
            vy = np.rint(ys + sign * rr * uy).astype(np.int64)
            ok = (vx >= 0) & (vx < px) & (vy >= 0) & (vy < px)
            acc += np.bincount(vy[ok] * px + vx[ok], minlength=acc.size).astype(np.float32)
    acc = cv2.GaussianBlur(acc.reshape(px, px), (0, 0), 2.0)
    # lattice units of each view px; only the band is searched
    t = (np.arange(px) + 0.5) / VIEW_PX + lo
    X, Y = np.meshgrid(t, t)
    inside = (X > -BAND[0]) & (X < cols + BAND[0]) & (Y > -BAND[0]) & (Y < rows + BAND[0])
    beyond = (X < -BAND[1]) | (X > cols + BAND[1]) | (Y < -BAND[1]) | (Y > rows + BAND[1])
    acc[inside | beyond] = 0.0
    size = int(round(DIE_SIDE * VIEW_PX)) | 1
    peaks = (acc >= cv2.dilate(acc, np.ones((size, size), np.uint8))) & (acc > 0)
    py, pxs = np.nonzero(peaks)
    order = np.argsort(-acc[py, pxs])[:k]
    return np.stack([t[pxs[order]], t[py[order]]], 1) if len(order) else np.zeros((0, 2))


#: the window a place is first cut in (pitches, px): the die is turned upright in it
LOOK_WINDOW = 0.6
LOOK_PX = 96
#: the numeral's window (pitches: a die's numeral is about 0.12), centred on the ink found
#: within GLYPH_BOX of the top's middle
GLYPH_WINDOW = 0.17
GLYPH_BOX = 0.15


#: the grid of places around each proposal where a die's top is tried (pitches, each way):
#: the vote may fall between the top and the sides or the shadow a tilted camera sees, and
#: on two dice that touch, on their shadows, a fifth of a pitch from either top
TRY_REACH = 0.2
TRY_STEP = 0.05


def _angle(window: np.ndarray) -> float:
    """Degrees the die in the middle of ``window`` is turned (its sides' direction, a
    quarter-turn periodic mean of the gradients over the middle)."""
    px = window.shape[0]
    g = cv2.GaussianBlur(cv2.cvtColor(window, cv2.COLOR_BGR2GRAY).astype(np.float32), (3, 3), 0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    yy, xx = np.mgrid[0:px, 0:px] - (px - 1) / 2
    near = np.hypot(xx, yy) < 0.3 / LOOK_WINDOW * px
    w = (gx * gx + gy * gy) * near
    z = (w * np.exp(4j * np.arctan2(gy, gx))).sum()
    return float(np.degrees(np.angle(z) / 4))


def tries() -> np.ndarray:
    """T x 2 offsets (pitches, in a die's upright window) tried around each proposal, (0, 0) first."""
    n = int(round(TRY_REACH / TRY_STEP))
    axis = np.arange(-n, n + 1) * TRY_STEP
    grid = [(0.0, 0.0)] + [(float(x), float(y)) for x in axis for y in axis if x or y]
    return np.array(grid)


def die_windows(image: np.ndarray, lattice: Lattice, frame, places: np.ndarray,
                offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each of N lattice places cut upright (its die's sides along the window's axes, the
    player frame of ``frame``) and tried at T ``offsets`` (pitches): (N x T x DIE_PX x DIE_PX x 3
    windows of a die's top, the same of its numeral alone (``GLYPH_WINDOW`` pitches centred on
    the ink near the middle), N x T x 3 of how each stands out as a die's top: its brightness
    over the ring around it and its spread, over the window's white, N x T x 2 the lattice
    points tried)."""
    centres = to_player(frame, places)
    wide = windows_at(image, lattice, frame, centres, px=LOOK_PX, side=LOOK_WINDOW)
    T = len(offsets)
    out = np.empty((len(places), T, DIE_PX, DIE_PX, 3), np.uint8)
    glyphs = np.empty_like(out)
    shape = np.empty((len(places), T, 3), np.float32)
    points = np.empty((len(places), T, 2))
    scale = LOOK_PX / LOOK_WINDOW  # window px a pitch
    side = DIE_SIDE * scale
    k_in = int(round(side * 0.8)) | 1
    k_out = int(round(side * 1.5)) | 1
    mid = (LOOK_PX - 1) / 2
    half = DIE_WINDOW * scale / 2
    dst = np.float32([[0, 0], [DIE_PX, 0], [0, DIE_PX]]) - 0.5
    for i, w in enumerate(wide):
        angle = _angle(w)
        up = cv2.warpAffine(w, cv2.getRotationMatrix2D((mid, mid), angle, 1.0), (LOOK_PX, LOOK_PX),
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lum = cv2.cvtColor(up, cv2.COLOR_BGR2GRAY).astype(np.float32)
        inner = cv2.boxFilter(lum, -1, (k_in, k_in))
        outer = cv2.boxFilter(lum, -1, (k_out, k_out))
        ring = (outer * k_out * k_out - inner * k_in * k_in) / (k_out * k_out - k_in * k_in)
        spread = cv2.boxFilter(np.abs(lum - inner), -1, (k_in, k_in))
        white = float(np.percentile(lum, 90)) + 1.0
        # the window turned by ``angle`` (counter-clockwise in the image's axes): a point of
        # the upright window lies back at the turn's inverse in the player frame
        t = np.radians(angle)
        back = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        for k, (dx, dy) in enumerate(offsets):
            cx, cy = mid + dx * scale, mid + dy * scale
            src = np.float32([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]])
            out[i, k] = cv2.warpAffine(up, cv2.getAffineTransform(src, dst), (DIE_PX, DIE_PX), flags=cv2.INTER_AREA,
                                       borderMode=cv2.BORDER_REPLICATE)
            x, y = int(round(cx)), int(round(cy))
            shape[i, k] = ((inner[y, x] - ring[y, x]) / white, spread[y, x] / white, inner[y, x] / white)
            # the numeral (or symbol) alone, centred on its ink: at twice the top's resolution
            r = int(round(GLYPH_BOX * scale / 2))
            box = lum[max(y - r, 0):y + r + 1, max(x - r, 0):x + r + 1]
            ink = np.maximum(np.percentile(box, 90) - box - 0.15 * white, 0.0)
            if ink.sum() > 1e-3:
                yy, xx = np.mgrid[0:box.shape[0], 0:box.shape[1]]
                gx = max(x - r, 0) + float((ink * xx).sum() / ink.sum())
                gy = max(y - r, 0) + float((ink * yy).sum() / ink.sum())
            else:
                gx, gy = cx, cy
            g = GLYPH_WINDOW * scale / 2
            src = np.float32([[gx - g, gy - g], [gx + g, gy - g], [gx - g, gy + g]])
            glyphs[i, k] = cv2.warpAffine(up, cv2.getAffineTransform(src, dst), (DIE_PX, DIE_PX), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE)
        turned = (back @ offsets.T).T  # upright-window offsets in the player frame (pitches)
        points[i] = np.array([frame(u, v) for u, v in centres[i] + turned], float)
    return out, glyphs, shape, points


def _suit_features(glyphs: np.ndarray) -> np.ndarray:
    """N x 9: the colour of the ink of each die's numeral or symbol (``die_windows``' glyph
    windows, over the window's white): the darkness-weighted mean chroma and brightness of its
    middle, how much ink there is, and the chroma of its most coloured tenth of pixels (a
    faint or light ink, a blurred numeral, still shows its hue there). A die's suit is its
    ink's colour."""
    x = glyphs.astype(np.float32)
    N = len(x)
    white = np.percentile(x.reshape(N, -1, 3), 90, axis=1) + 1.0
    rel = x / white[:, None, None, :]
    k = DIE_PX // 6
    rel = rel[:, k:DIE_PX - k, k:DIE_PX - k].reshape(N, -1, 3)
    lum = rel.mean(-1)
    chroma = rel - lum[..., None]
    ink = np.maximum(0.97 - lum, 0.0)
    tot = ink.sum(1) + 1e-3
    mean_chroma = (chroma * ink[..., None]).sum(1) / tot[:, None]
    ink_lum = (lum * ink).sum(1) / tot
    size = np.abs(chroma).sum(-1)
    top = size >= np.percentile(size, 90, axis=1, keepdims=True)
    vivid = (chroma * top[..., None]).sum(1) / (top.sum(1, keepdims=True) + 1e-3)
    return np.concatenate([mean_chroma * 8.0, ink_lum[:, None] * 2.0, ink.mean(1, keepdims=True) * 8.0,
                           vivid * 8.0, size.mean(1, keepdims=True) * 4.0], 1)


def face_features(windows: np.ndarray, glyphs: np.ndarray, shape: np.ndarray, turns: int = 1) -> np.ndarray:
    """(turns x N) x D: the face reader's tile features of N die windows and of their numerals
    (``die_windows``), each also turned 1 .. turns - 1 quarter turns (a die lies any way
    round), turn-major, and how each stands out as a die's top."""
    def turned(w):
        return np.concatenate([np.rot90(w, k, axes=(1, 2)) for k in range(turns)]).copy()

    return np.concatenate([F.tile_features(turned(windows))[0], F.tile_features(turned(glyphs))[0],
                           np.tile(shape * 4.0, (turns, 1))], 1)


def rank_features(glyphs: np.ndarray) -> np.ndarray:
    """N x D: the face reader's tile features of N dice's numerals or symbols alone
    (``die_windows``' glyph windows): what the ranks model reads a marked face from."""
    return F.tile_features(np.ascontiguousarray(glyphs))[0]


def suit_features(glyphs: np.ndarray) -> np.ndarray:
    """N x 9 suit features of N die glyph windows (``_suit_features``)."""
    return _suit_features(glyphs)


def read_dice(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int, faces_model, suits_model,
              most: int = 4, ranks_model=None, memory: DiceMemory | None = None) -> DiceRead:
    """The dice beside the board (see the module's docstring); ``faces_model``: classes ``""``
    (the table), ``n``, ``s`` and the ranks; ``suits_model``: the suits' letters;
    ``ranks_model`` (optional): ``s`` and the ranks, read from the numeral alone; ``memory``
    (frames of one camera that does not move): each die lying still is read from its last
    reads (``DiceMemory``)."""
    places = propose(image, lattice, rows, cols)
    if len(places) == 0:
        return DiceRead((), (), ())
    labels = list(faces_model.classes)
    offsets = tries()
    windows, glyphs, shape, points = die_windows(image, lattice, frame, places, offsets)
    N, T = windows.shape[:2]
    flat = (N * T, DIE_PX, DIE_PX, 3)
    cost = faces_model.costs(face_features(windows.reshape(flat), glyphs.reshape(flat), shape.reshape(N * T, -1)))
    cost = cost.reshape(N, T, -1)
    die_cols = [i for i, lab in enumerate(labels) if lab]
    # each proposal's die where a die's class beats the table by most, its middle off the
    # board: a die lies beside it, and the tries about a place at the board's edge reach over
    # the squares there, where a coin's numeral reads as a die's (a 3 on the edge square,
    # taken for the Moons die, pushed the true Moons die onto the Arms and the blank Arms die out)
    H, W = lattice.shape
    on_board = (points[..., 0] > 0) & (points[..., 0] < W) & (points[..., 1] > 0) & (points[..., 1] < H)
    at = np.where(on_board, -np.inf, cost[:, :, labels.index("")] - cost[:, :, die_cols].min(2)).argmax(1)
    win = windows[np.arange(N), at]
    cost = faces_model.costs(face_features(win, glyphs[np.arange(N), at], shape[np.arange(N), at],
                                           TURNS)).reshape(TURNS, N, -1).min(0)
    where = points[np.arange(N), at]
    table = cost[:, labels.index("")]
    best_die = cost[:, die_cols].min(1)
    found = [i for i in np.argsort(best_die - table) if best_die[i] < table[i] - DIE_MARGIN]
    keep: list[int] = []
    for i in found:  # one die a place: two proposals of one die find the same top
        if all(np.hypot(*(where[i] - where[j])) > DIE_SIDE for j in keep):
            keep.append(int(i))
    keep = keep[:most]
    if not keep:
        return DiceRead((), (), ())
    kept = cost[keep]
    suit_cost = suits_model.costs(suit_features(glyphs[np.arange(N), at][keep]))
    rank_cost = None
    if ranks_model is not None:
        rank_cost = ranks_model.costs(rank_features(glyphs[np.arange(N), at][keep]))
        rank_cost = rank_cost[:, [list(ranks_model.classes).index(f) for f in FACES[1:]]]
    if memory is not None:
        kept, rank_cost, suit_cost = memory.blend(where[keep], kept, rank_cost, suit_cost)
    suit_cost = suit_cost - suit_cost.min(1, keepdims=True)  # what another suit than the best costs
    suit_cols = [list(suits_model.classes).index(s) for s in SUIT_LETTERS]
    null = kept[:, labels.index("n")]
    marked = [labels.index(f) for f in FACES[1:]]
    face_cost = kept[:, marked]
    if rank_cost is not None:
        # which mark a marked face shows: the ranks model, learnt on the marks alone, reads it
        # (the faces model's best mark stays its cost against a null and the table)
        face_cost = face_cost.min(1, keepdims=True) + rank_cost - rank_cost.min(1, keepdims=True)
    # each suit at most once: a die costs its best marked face plus the suit's colour, or its
    # null (a blank face has no colour: any suit)
    marked_best = face_cost.min(1)
    per_suit = np.minimum(null[:, None], marked_best[:, None] + suit_cost[:, suit_cols])
    chosen = assign(per_suit)
    out = []
    blank = null <= marked_best + suit_cost[np.arange(len(keep)), [suit_cols[int(c)] for c in chosen]]
    shown = {SUIT_LETTERS[int(chosen[e])] for e in range(len(keep)) if not blank[e]}
    for d, s in enumerate(chosen):
        s = int(s)
        face = "n" if blank[d] else FACES[1:][int(face_cost[d].argmin())]
        row = np.sort(kept[d])
        margin = min(row[1] - row[0], kept[d, labels.index("")] - kept[d, die_cols].min())
        if not blank[d]:
            srow = np.sort(suit_cost[d])
            margin = min(margin, srow[1] - srow[0])
        sure = float(confidence_from_margin(margin))
        if blank[d] and len(SUIT_LETTERS) - len(shown) != int(blank.sum()):
            # a blank face shows no colour: its suit is one no other die shows, sure only
            # when that leaves one suit for each null die
            sure = min(sure, 0.5)
        out.append((SUIT_LETTERS[s], face, sure, tuple(float(v) for v in where[keep[d]])))
    out.sort(key=lambda t: SUIT_LETTERS.index(t[0]))
    return DiceRead(tuple((s, f) for s, f, _, _ in out), tuple(c for _, _, c, _ in out), tuple(p for *_, p in out))
