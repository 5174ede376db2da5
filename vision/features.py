"""Feature vectors of tile faces, coins and pawns, cut from the player view or the frame.

Everything is normalised by a white reference (the paper of the face itself, or of the
board's tiles for pawns) so that exposure, white balance and uneven light cancel.
The feature id ``FEATURES`` is stored in profiles: a profile is only used with the
features it was learnt on.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.locate import BOARD, Lattice

FEATURES = {"id": "es-v11", "tile_grid": 10, "glyph_grid": 14, "coin_grid": 12, "tile_crop": 0.80, "coin_window": 1.0, "coin_crop": 0.40,
            "coin_hog": [16, 4, 24], "tile_hog": [16, 4, 32], "pawn_hist": 5}

_TILE_GRID = FEATURES["tile_grid"]
_COIN_GRID = FEATURES["coin_grid"]
_GLYPH_GRID = FEATURES["glyph_grid"]
#: the coin digit's gradient histogram: signed direction bins, cells per side, map px per side
_HOG_BINS, _HOG_CELLS, _HOG_PX = FEATURES["coin_hog"]
#: the same for the whole tile face
_TILE_HOG_BINS, _TILE_HOG_CELLS, _TILE_HOG_PX = FEATURES["tile_hog"]


def _white(crops: np.ndarray, q: float = 90) -> np.ndarray:
    """N x 3 per-crop white level (the q-th percentile of each channel)."""
    return channel_percentile(crops.reshape(crops.shape[0], -1, 3), q)


def channel_percentile(pixels: np.ndarray, q: float) -> np.ndarray:
    """N x 3: the q-th percentile of each channel of N x P x 3 uint8 pixels, interpolated as
    ``np.percentile`` does (from 256-bin counts, ``vision.kernels.channel_percentiles``)."""
    from vision import kernels

    return kernels.channel_percentiles(np.ascontiguousarray(pixels), float(q))


def _shrink_all(maps: np.ndarray, size: int, interpolation: int) -> np.ndarray:
    """N x h x w float maps -> N x size x size, each resized as ``cv2.resize`` would alone.

    When shrinking, every output pixel of a map draws on its own map's pixels only, so the
    maps are stacked into one tall image and resized in one call (the same numbers, a
    fraction of the calls); growing would blend neighbours at the seams, so it goes map by map.
    """
    n, h, w = maps.shape
    if size > h or size > w:
        return np.stack([cv2.resize(m, (size, size), interpolation=interpolation) for m in maps])
    tall = np.ascontiguousarray(maps, np.float32).reshape(n * h, w)
    return cv2.resize(tall, (size, n * size), interpolation=interpolation).reshape(n, size, size)


def faces_negative(crops: np.ndarray, ratio: float = 1.0) -> bool:
    """Whether a board's faces are darker than their inks (black plastic with white numerals,
    dark wood with light inks), from its N x s x s x 3 uint8 cell crops.

    On each face the ink is the minority: on a light face with dark inks the darkest pixels lie
    far below the face's median and the brightest just above it; on a dark face with light inks
    the other way round. The board is negative when, over its cells, the bright tail (95th
    percentile less the median) is longer than ``ratio`` times the dark tail (the median less
    the 5th). On the named looks and the light tuning editions (400-519) the ratio is 0.01 to
    0.21, on dark ones 3.3 to 63, and mid-grey sets fall on either side by their inks (0.05 to
    0.18 with dark inks, 2.7 to 26 with light ones)."""
    # every other pixel's brightness (the channels' sum), sorted per face: the percentiles by rank
    lum = np.sort(crops[:, ::2, ::2].sum(-1, dtype=np.uint16).reshape(len(crops), -1), axis=1)
    n = lum.shape[1] - 1
    p5, p50, p95 = (lum[:, int(round(q * n))].astype(np.float32) for q in (0.05, 0.5, 0.95))
    return bool(np.median(p95 - p50) > ratio * np.median(p50 - p5))


def tile_features(crops: np.ndarray, negative: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """N x s x s x 3 uint8 face crops (player view, upright) -> (N x D features, N x 3 white levels).

    ``negative``: the faces are darker than their inks (:func:`faces_negative`); they are then
    measured in the negative, so that ink is ink whichever way round the set is printed (the
    white levels returned are still the crops' own: the pawns are measured against them).

    Features: the ink map (1 - brightness / paper) on a 10 x 10 grid (the glyphs' shapes), the
    central glyph's on a finer grid, then the ink's colour (chroma of inked pixels, over the
    face and over the corner symbol), the amount of ink, and last the face's gradient
    histograms (:func:`gradient_histograms`: they tell a 4 from an A and a 3 from a 5 where
    the blurred ink maps look alike; measured on 870 training renders, 5-fold, 397 -> 103
    wrong cells before nudging).
    """
    from vision import kernels

    white = _white(crops)
    paper = white
    if negative:
        crops = 255 - crops
        # the face's own level, from the middle of each crop: the gaps and table round a dark
        # face are darker still, so in the negative they outshine the face
        s = crops.shape[1]
        m = int(round(s * 0.2))
        paper = _white(np.ascontiguousarray(crops[:, m : s - m, m : s - m]))
    # each pixel over its paper, its brightness, its ink and its ink weight, in one pass
    n, lum, dark, w = kernels.ink_maps(np.ascontiguousarray(crops), paper)
    N, s = crops.shape[0], crops.shape[1]
    grid = _shrink_all(dark, _TILE_GRID, cv2.INTER_AREA)
    # the central glyph (rank) at a finer grid: it fills the middle ~60% of the crop
    a, b = int(round(s * 0.18)), int(round(s * 0.86))
    g0, g1 = int(round(s * 0.16)), int(round(s * 0.84))
    glyph = _shrink_all(dark[:, a:b, g0:g1], _GLYPH_GRID, cv2.INTER_AREA)
    feats = [grid.reshape(N, -1) * 2.0, glyph.reshape(N, -1) * 2.0]
    for region in (np.s_[:, :, :], np.s_[:, : s // 3, : s // 3]):
        ww = w[region].reshape(N, 1, -1)
        tot = ww.sum((1, 2)) + 1e-3
        # the ink-weighted colour and brightness; the colour less the brightness is the chroma
        inked = np.matmul(ww, n[region].reshape(N, -1, 3))[:, 0]
        ink_lum = np.matmul(ww, lum[region].reshape(N, -1, 1))[:, 0]
        feats.append((inked - ink_lum) / tot[:, None] * 4.0)
        feats.append(ink_lum / tot[:, None])
    feats.append(w.mean((1, 2))[:, None] * 4.0)
    face = _shrink_all(dark, _TILE_HOG_PX, cv2.INTER_LINEAR)
    feats.append(gradient_histograms(face, _TILE_HOG_CELLS, _TILE_HOG_BINS) * 2.0)
    return np.concatenate(feats, 1).astype(np.float32), white



def excess_ink(tile_feats: np.ndarray, prototypes: np.ndarray, tolerance: float) -> np.ndarray:
    """N values: how much darker each face is than the most similar face the model knows.

    Compares the 10 x 10 ink maps (the first features) of each crop with every prototype's
    and keeps, per crop, the smallest mean excess: ink where every known face has paper is
    something lying over the tile (a hand, a sleeve, a shadow). ``tolerance``: ink per map
    cell forgiven first (``assign.covered_ink_tolerance``).
    """
    g = _TILE_GRID * _TILE_GRID
    obs = tile_feats[:, None, :g] / 2.0
    proto = prototypes[None, :, :g] / 2.0
    excess = np.clip(obs - proto - tolerance, 0.0, None).mean(-1)
    return excess.min(1)


#: player-frame pitches from the board's far edge (lattice line) to a coin's expected centre
#: (measured on renders: 0.03 to 0.53, median 0.31; a raised coin seen at a slant and the
#: tile's own thickness move it towards the board)
COIN_ROW = 0.32
#: how far (pitches) a coin's centre may lie from its expected place: the players leave a
#: gap of a coin's radius to about two radii, and the coins are not in a straight line
COIN_SEARCH = 0.28
#: a coin's radius in pitches
COIN_RADIUS = 0.168


def coin_windows(image: np.ndarray, lattice: Lattice, k: int, cfg: VisionConfig, px: int = 128) -> np.ndarray:
    """5 x px x px x 3 windows (``coin_window`` pitches wide, player-upright) around each coin's expected place.

    In the player's frame the coins' centres lie about COIN_ROW pitch above the board, over
    the column centres; the window is 128 px per pitch at the default ``px``; ``k`` turns
    player coordinates back into lattice coordinates.
    """
    half = FEATURES["coin_window"] / 2
    # the lattice-to-image map is smooth: compute it on nodes every 8 px and interpolate
    step = 8
    nodes = np.arange(0, px + step, step, dtype=np.float64)
    n = len(nodes)
    t = (nodes + 0.5) / px * 2 * half - half
    X, Y = np.meshgrid(t, t)
    cols = np.arange(BOARD, dtype=np.float64)[:, None, None]
    pu, pv = np.broadcast_to(cols + 0.5 + X, (BOARD, n, n)), np.broadcast_to(-COIN_ROW + Y, (BOARD, n, n))
    uv = _player_to_lattice(np.stack([pu, pv], -1), k)
    src = lattice.to_image(uv.reshape(-1, 2)).reshape(BOARD, n, n, 2)
    # each window's map, interpolated bilinearly between its nodes: W (rows) . nodes . W^T
    W = _node_weights(px, step, n)
    full = np.matmul(np.matmul(W, src.transpose(0, 3, 1, 2)), W.T).astype(np.float32)
    mx = full[:, 0].reshape(BOARD * px, px)
    my = full[:, 1].reshape(BOARD * px, px)
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(BOARD, px, px, 3)


@functools.lru_cache(maxsize=4)
def _node_weights(px: int, step: int, n: int) -> np.ndarray:
    """px x n: the linear interpolation weights of pixel q between nodes every ``step`` px."""
    pos = np.arange(px, dtype=np.float64) / step
    i0 = np.minimum(np.floor(pos).astype(np.int64), n - 2)
    frac = pos - i0
    W = np.zeros((px, n))
    W[np.arange(px), i0] = 1.0 - frac
    W[np.arange(px), i0 + 1] = frac
    W.setflags(write=False)
    return W


def _player_to_lattice(p: np.ndarray, k: int) -> np.ndarray:
    """Player-frame units (x right, y down from the player's top-left board corner) -> lattice units.

    The player view is ``np.rot90(canvas, k)``: each counter-clockwise quarter turn maps
    canvas (u, v) to view (v, 5 - u).
    """
    x, y = p[..., 0], p[..., 1]
    for _ in range(k):
        # undo one ccw turn: view (x, y) came from canvas (5 - y, x)
        x, y = BOARD - y, x
    return np.stack([x, y], -1)


def coin_ring(r: float) -> np.ndarray:
    """A thin ring of radius ``r`` px (5 px wide, odd square side, summing to 1): what a coin's
    rim looks like among the edges. The coin's apparent radius varies by a few px (gap,
    height, blur), and a thinner ring fits an arc of the rim better than the whole rim,
    pulling the centre to the coin's edge."""
    size = int(2 * r + 9) | 1
    yy, xx = np.mgrid[0:size, 0:size] - (size - 1) / 2
    ring = np.clip(3.0 - np.abs(np.sqrt(xx * xx + yy * yy) - r), 0, 1).astype(np.float32)
    return ring / ring.sum()


def find_coins(windows: np.ndarray) -> np.ndarray:
    """N x 2 coin centres (x, y) in window px: where the coin's round outline is strongest,
    within ``COIN_SEARCH`` pitches of each window's middle.

    The gradient magnitude correlated with a thin ring of the coin's radius peaks at the
    centre of a disc of that size, on a dark table (bright coin) as on a white one (the rim
    and its shadow), and not on the digit inside it.
    """
    N, px = windows.shape[:2]
    ring = coin_ring(px / FEATURES["coin_window"] * COIN_RADIUS)  # the coin's radius in window px
    size = ring.shape[0]
    out = np.empty((N, 2))
    margin = int(round(px / 2 - COIN_SEARCH * px / FEATURES["coin_window"]))
    # the ring's response is only needed for centres in the inner square: correlate there alone
    # (the window's border mirrored where the ring reaches past it, as filtering would)
    half = size // 2
    lo, hi = margin - half, px - margin + half
    pad = max(0, -lo, hi - px)
    for i in range(N):
        g = cv2.cvtColor(windows[i], cv2.COLOR_BGR2GRAY)
        # binary edges, so a strong straight edge nearby (the board, a shadow) does not outvote the rim
        gm = cv2.Canny(cv2.GaussianBlur(g, (5, 5), 0), 20, 50).astype(np.float32)
        if pad:
            gm = cv2.copyMakeBorder(gm, pad, pad, pad, pad, cv2.BORDER_REFLECT_101)
        inner = cv2.matchTemplate(gm[lo + pad : hi + pad, lo + pad : hi + pad], ring, cv2.TM_CCORR)
        y, x = np.unravel_index(int(np.argmax(inner)), inner.shape)
        out[i] = (x + margin, y + margin)
    return out


def gradient_histograms(maps: np.ndarray, cells: int, bins: int) -> np.ndarray:
    """N x s x s float maps -> N x (cells * cells * bins) histograms of gradient direction.

    Per cell of a ``cells`` x ``cells`` grid, the gradient magnitude is added to the two
    nearest of ``bins`` signed directions (0-360 degrees, linear weights); each row has unit
    length. Signed directions tell the two sides of a stroke apart (a 4's open top from an
    A's apex), which an ink map at coin resolution blurs together.

    The maps are stacked into one image, each with its own mirrored 1 px border (what Sobel
    does to a single map), so that one Sobel and one ``cartToPolar`` (angles to 0.01 degree)
    serve them all: four times faster than a Sobel and ``arctan2`` per map.
    """
    from vision import kernels

    N, s = maps.shape[0], maps.shape[1]
    p = np.empty((N, s + 2, s + 2), np.float32)
    p[:, 1:-1, 1:-1] = maps
    p[:, 0, 1:-1], p[:, -1, 1:-1] = p[:, 2, 1:-1], p[:, -3, 1:-1]
    p[:, :, 0], p[:, :, -1] = p[:, :, 2], p[:, :, -3]
    p = p.reshape(-1, s + 2)
    mag, ang = cv2.cartToPolar(cv2.Sobel(p, cv2.CV_32F, 1, 0), cv2.Sobel(p, cv2.CV_32F, 0, 1))
    mag = np.ascontiguousarray(mag.reshape(N, s + 2, s + 2)[:, 1:-1, 1:-1])
    ang = np.ascontiguousarray(ang.reshape(N, s + 2, s + 2)[:, 1:-1, 1:-1])
    h = kernels.direction_histograms(mag, ang, cells, bins)
    return (h / (np.sqrt((h * h).sum(1))[:, None] + 1e-3)).astype(np.float32)


@functools.lru_cache(maxsize=4)
def _coin_disc(s: int) -> np.ndarray:
    """s x s bools: the coin's disc in an s px crop."""
    yy, xx = np.mgrid[0:s, 0:s]
    disc = ((xx - (s - 1) / 2) ** 2 + (yy - (s - 1) / 2) ** 2) <= (s * 0.40) ** 2
    disc.setflags(write=False)
    return disc


#: the most rows of samples one remap fills (OpenCV's remap keeps its map's rows below 32768)
_REMAP_ROWS = 30_000


def _coin_crops(windows: np.ndarray, centres: np.ndarray, size: float, s: int, turn=0.0) -> np.ndarray:
    """N x s x s x 3: a ``size`` px square around each window's centre, resampled to s px and
    turned ``turn`` degrees (counter-clockwise as seen: a coin lying turned that much clockwise
    reads upright in it); ``turn`` a sequence of T turns: T N x s x s x 3, turn after turn.

    One remap over the windows stacked into one tall image; each sample point is clamped to
    its own window, which is what sampling each window alone with a replicated border gives."""
    N, px = windows.shape[:2]
    tall = np.ascontiguousarray(windows).reshape(N * px, px, 3)
    if np.ndim(turn) == 0 and not turn:
        t = np.arange(s, dtype=np.float32) * np.float32(size / s)
        c = np.asarray(centres, np.float32) - np.float32(size / 2)
        mx = np.clip(c[:, 0, None, None] + t[None, None, :], 0, px - 1)
        my = np.clip(c[:, 1, None, None] + t[None, :, None], 0, px - 1) + (np.arange(N, dtype=np.float32) * px)[:, None, None]
        mx = np.ascontiguousarray(np.broadcast_to(mx, (N, s, s)), np.float32).reshape(N * s, s)
        my = np.ascontiguousarray(np.broadcast_to(my, (N, s, s)), np.float32).reshape(N * s, s)
        return cv2.remap(tall, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(N, s, s, 3)
    # the samples turned about the crop's middle (half a step off the centre given, as the
    # unturned samples lie)
    a = np.deg2rad(np.atleast_1d(np.asarray(turn, np.float64)))[:, None, None]
    t = (np.arange(s, dtype=np.float64) - (s - 1) / 2) * (size / s)
    u, v = t[None, None, :], t[None, :, None]
    mid = np.asarray(centres, np.float64) + ((s - 1) / 2 * (size / s) - size / 2)
    mx = np.clip(mid[None, :, 0, None, None] + (np.cos(a) * u - np.sin(a) * v)[:, None], 0, px - 1)
    my = (np.clip(mid[None, :, 1, None, None] + (np.sin(a) * u + np.cos(a) * v)[:, None], 0, px - 1)
          + (np.arange(N) * px)[None, :, None, None])
    mx = mx.astype(np.float32).reshape(-1, s)
    my = my.astype(np.float32).reshape(-1, s)
    step = max(1, _REMAP_ROWS // s)
    out = [cv2.remap(tall, mx[k:k + step * s], my[k:k + step * s], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
           for k in range(0, len(mx), step * s)]
    return np.concatenate(out).reshape(-1, s, s, 3)


def coin_features(windows: np.ndarray, centres: np.ndarray, turn=0.0) -> np.ndarray:
    """N x D features of the coin faces centred at ``centres`` (window px): the digit's ink
    map and its gradient histograms (:func:`gradient_histograms`); ``turn``: read each face
    turned that many degrees (a coin lies on the table at any turn), or a sequence of T turns
    (T N x D, turn after turn, in one pass)."""
    px = windows.shape[1]
    size = px / FEATURES["coin_window"] * FEATURES["coin_crop"]
    s = 32
    crops = _coin_crops(windows, centres, size, s, turn)
    N = len(crops)
    # the face only: outside the coin's disc is table (which may be brighter than the coin)
    disc = _coin_disc(s)
    white = channel_percentile(crops[:, disc], 80)
    # the mean of the three channels over their white levels, as one product per crop
    scale = (np.float32(1.0 / 3.0) / np.maximum(white, 8.0)).astype(np.float32)
    lum = np.matmul(crops.reshape(N, s * s, 3).astype(np.float32), scale[:, :, None]).reshape(N, s, s)
    dark = np.clip(1.0 - lum, 0.0, 1.0) * disc
    # the digit fills the middle half of the crop (the dot above it marks the coin's top)
    a, b = int(round(s * 0.22)), int(round(s * 0.78))
    grid = _shrink_all(dark[:, a:b, a:b], _COIN_GRID, cv2.INTER_AREA).reshape(N, -1)
    # unit length: blur and exposure change how dark a thin digit looks, not its shape
    grid = grid / (np.linalg.norm(grid, axis=1, keepdims=True) + 1e-3)
    digit = _shrink_all(dark[:, a:b, a:b], _HOG_PX, cv2.INTER_LINEAR)
    hog = gradient_histograms(digit, _HOG_CELLS, _HOG_BINS)
    return (np.concatenate([grid, hog], 1) * 4.0).astype(np.float32)


def pawn_features(view: np.ndarray, fg: np.ndarray, paper: np.ndarray, cfg: VisionConfig) -> np.ndarray:
    """4 x D colour features of the pawns left of rows 1-4 of a player view.

    ``fg``: the view's foreground map (vision.orientation); ``paper``: the board's white
    (BGR) used as reference. Features: mean and spread of the colours of the slot's
    foreground pixels, relative to the paper, and their chroma; the table's colour just left
    of the slot and the pawn's colour less it (a blue pawn on a blue cloth hardly stands out:
    that it does not is itself a cue); and a histogram of the foreground's opponent colours
    (blue-red, green-magenta) in ``pawn_hist`` x ``pawn_hist`` bins. Measured 5-fold on 870
    training renders: 30 -> 17 pawns wrong, 27 -> 18 boards with a pawn in doubt.
    """
    from vision import kernels

    cp, m = cfg.rectify.cell_px, cfg.rectify.margin_pitches
    b0 = int(round(m * cp))
    x0, x1 = b0 - int(round(1.1 * cp)), b0 - int(round(0.05 * cp))
    # a strip of table left of the pawn slots
    tx0, tx1 = max(0, b0 - int(round(1.75 * cp))), b0 - int(round(1.2 * cp))
    nb = FEATURES["pawn_hist"]
    ref = np.maximum(paper.astype(np.float32), 8.0)
    # the four slots (rows 0.1 pitch in from each cell's edges), measured by one compiled loop
    inset = int(0.1 * cp)
    raw = np.ascontiguousarray(view[b0 : b0 + 4 * cp, x0:x1].reshape(4, cp, x1 - x0, 3)[:, inset : cp - inset]).reshape(4, -1, 3)
    fgs = np.ascontiguousarray(fg[b0 : b0 + 4 * cp, x0:x1].reshape(4, cp, x1 - x0)[:, inset : cp - inset],
                               np.float32).reshape(4, -1)
    stats = kernels.pawn_statistics(raw, fgs, ref, nb)
    # the table strips' medians (from the 256-bin histograms of the raw pixels: the median
    # of pixels over the paper is the raw median over the paper)
    tables = channel_percentile(view[b0 : b0 + 4 * cp, tx0:tx1].reshape(4, -1, 3), 50) / ref
    top_mean = stats[:, :3]
    return np.concatenate([stats[:, :15], tables, top_mean - tables, stats[:, 15:]], 1).astype(np.float32)


