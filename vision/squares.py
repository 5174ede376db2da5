"""Cut a grid-side board into its squares and measure what stands on each.

The *player frame* counts tiles (u across, v down, the board ``rows`` x ``cols`` tiles) from
the far-left corner; a tile is cut into 2 x 2 squares, square (r, c) lying in tile
(r // 2, c // 2). A lattice (``vision.locate.Lattice``) found either way round maps onto the
player frame by one of two half turns (``frames``): which one the picture alone cannot
always say, so the reader measures both and keeps the one whose coins read upright.

Each square is sampled straight from the frame (no intermediate top view) into an upright
window ``WINDOW`` pitches wide, centred where the square's middle lies: a quarter of a
face in from the tile's centre. ``square_features`` turns the windows into feature vectors:
the face features of ``vision.features`` (ink maps, ink colour, gradient histograms: a
coin's numeral or suit, a pawn's bulk) and the colour of the window's middle against the
board's own background (a pawn's colour, a coin's rim).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import features as F
from vision.locate import Lattice

#: the window's side in lattice pitches (a square is about 0.45, a coin about 0.33)
WINDOW = 0.55
#: window px per side
WINDOW_PX = 32
#: intervals per window side at which the lattice is mapped exactly (linear between)
_MAP_STEPS = 8
#: a coin's window: the face-up reader's (``vision.features``: one pitch wide, 128 px), so
#: that its coin finder and coin features apply as they are
COIN_WINDOW_PX = 128
#: how far (pitches) from a square's middle its coin is looked for: a coin lies up to a tenth
#: of a pitch off its square's middle, and the tiles of a board in play up to a few hundredths
#: off the lattice
COIN_SEARCH = 0.18
#: version of the square features, stored with a model
FEATURES_ID = "squares-v9"
#: a window has changed since a round piece was last looked for in it when the mean grey of
#: one of its 8 x 8 blocks has moved by more than this many levels since (``FrameMemory``)
ROUND_CHANGE = 6.0


class FrameMemory:
    """What cutting one frame of a camera that does not move leaves for the next: the maps
    that cut windows from a lattice (the same lattice cuts the same image points frame after
    frame) and the round pieces found in each batch of windows, which are looked for again
    only in windows that changed since (a shift moves a line of tiles, a pawn two squares;
    the rest of the board lies as it did). The live reader keeps one (``SquaresReader`` with
    ``track``); a still is read without."""

    #: the most window maps kept (a lattice or two, each cut a few ways)
    MOST_MAPS = 12
    #: the frames whose squares' turned features are kept (``turned``), the least recently read
    #: dropped first: the oblong board's two half turns, a lattice or two
    MOST_TURNED = 4
    #: the most batches of round pieces kept, the least recently looked in dropped first (each
    #: board found, and each pile of coins by a corner as it grows, makes a batch of its own:
    #: kept for ever they grew without end over a long game)
    MOST_ROUNDS = 32

    def __init__(self):
        self.maps: dict = {}
        self.rounds: dict = {}
        self.looked = 0
        """Windows looked in for a round piece."""
        self.kept = 0
        """Windows whose round piece was kept from an earlier frame."""
        self.turned: dict = {}
        """Per frame of a lattice (``frame_key``): the coin features of each square's window read
        turned (``turned_coin_features``), with the window's block greys and coin centre when
        they were computed."""


def frame_key(lattice: Lattice, frame) -> tuple:
    """What tells one frame of one lattice from another (the windows it cuts are its own)."""
    x, y = frame(np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0]))
    return id(lattice), np.concatenate([np.broadcast_to(x, 3), np.broadcast_to(y, 3)]).astype(np.float64).tobytes()


def _frame_key(lattice: Lattice, frame, centres: np.ndarray, px: int, side: float, shape) -> tuple:
    return (*frame_key(lattice, frame), np.ascontiguousarray(centres).tobytes(), px, float(side), tuple(shape))


def frames(lattice: Lattice, rows: int, cols: int) -> list:
    """The maps (player tile coords u, v -> lattice x, y) that lay a ``rows`` x ``cols`` board
    on ``lattice``'s window: two half turns apart (proper rotations, no mirror), the second
    the first after a half turn of the board, (u, v) -> (cols - u, rows - v)."""
    if lattice.shape == (rows, cols):
        return [lambda u, v: (u, v), lambda u, v: (cols - u, rows - v)]
    if lattice.shape == (cols, rows):
        return [lambda u, v: (v, cols - u), lambda u, v: (rows - v, u)]
    raise ValueError(f"a lattice window of {lattice.shape} does not hold a board of {rows}x{cols} tiles")


def square_centres(rows: int, cols: int, face: float) -> np.ndarray:
    """(2 rows) x (2 cols) x 2 player-frame centres (tile units) of the squares."""
    off = face / 4
    r = np.arange(2 * rows)
    c = np.arange(2 * cols)
    v = r // 2 + 0.5 + np.where(r % 2, off, -off)
    u = c // 2 + 0.5 + np.where(c % 2, off, -off)
    U, V = np.meshgrid(u, v)
    return np.stack([U, V], -1)


def square_windows(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int, px: int = WINDOW_PX,
                   side: float = WINDOW) -> np.ndarray:
    """N x px x px x 3 windows ``side`` pitches wide (N = 4 rows cols, row-major over squares),
    upright in the player frame."""
    return windows_at(image, lattice, frame, square_centres(rows, cols, lattice.face).reshape(-1, 2), px, side)


#: windows cut in one remap at most (OpenCV maps fewer than 32767 rows at once)
_REMAP_WINDOWS = 200


def windows_at(image: np.ndarray, lattice: Lattice, frame, centres: np.ndarray, px: int = WINDOW_PX,
               side: float = WINDOW, memory: FrameMemory | None = None) -> np.ndarray:
    """N x px x px x 3 windows ``side`` pitches wide centred on N player-frame points (tile
    units, on the board or off it), upright in the player frame. ``memory``: the maps made
    for the same lattice, frame and points in an earlier frame are used again."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    if len(centres) > _REMAP_WINDOWS:
        return np.concatenate([windows_at(image, lattice, frame, centres[k:k + _REMAP_WINDOWS], px, side, memory)
                               for k in range(0, len(centres), _REMAP_WINDOWS)])
    key = None if memory is None else _frame_key(lattice, frame, centres, px, side, image.shape)
    kept = None if key is None else memory.maps.get(key)
    if kept is not None and kept[0] is lattice:
        _, levels, mx, my = kept
    else:
        levels, mx, my = _window_maps(image, lattice, frame, centres, px, side)
        if key is not None:
            if len(memory.maps) >= FrameMemory.MOST_MAPS:
                memory.maps.clear()
            memory.maps[key] = (lattice, levels, mx, my)
    src = image
    for _ in range(levels):
        src = cv2.pyrDown(src)
    out = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(len(centres), px, px, 3)


def _window_maps(image: np.ndarray, lattice: Lattice, frame, centres: np.ndarray, px: int, side: float) -> tuple:
    """(times the image is halved first, x map, y map) that cut ``windows_at``'s windows."""
    N = len(centres)
    # the lattice (a homography and the lens) is mapped exactly on a coarse grid of each
    # window and linearly in between: over a window it bends by a small fraction of a px
    n = min(px, _MAP_STEPS + 1)  # points mapped exactly per side
    t = np.linspace(0.5 / px - 0.5, 0.5 - 0.5 / px, n)
    du, dv = np.meshgrid(t * side, t * side)
    u = centres[:, 0, None, None] + du[None]
    v = centres[:, 1, None, None] + dv[None]
    x, y = frame(u, v)
    pts = lattice.to_image(np.stack([np.broadcast_to(x, u.shape), np.broadcast_to(y, u.shape)], -1).reshape(-1, 2))
    # minify in steps so that the numerals are not aliased: a window px covers this many image px
    ratio = lattice.pitch_px() * side / px
    levels = 0
    while ratio > 2.0:
        levels += 1
        pts = pts * 0.5
        ratio /= 2
    coarse = pts.reshape(N, n, n, 2).astype(np.float32)
    if n < px:
        # corner-aligned linear interpolation of each window's map up to px x px
        f = np.linspace(0.0, n - 1, px)
        i0 = np.minimum(f.astype(np.int64), n - 2)
        w = (f - i0).astype(np.float32)
        rowsi = coarse[:, i0] * (1 - w)[None, :, None, None] + coarse[:, i0 + 1] * w[None, :, None, None]
        coarse = rowsi[:, :, i0] * (1 - w)[None, None, :, None] + rowsi[:, :, i0 + 1] * w[None, None, :, None]
    mx = np.ascontiguousarray(coarse[..., 0].reshape(-1, px))
    my = np.ascontiguousarray(coarse[..., 1].reshape(-1, px))
    return levels, mx, my


def _disc(px: int, radius: float) -> np.ndarray:
    yy, xx = np.mgrid[0:px, 0:px]
    return ((xx - (px - 1) / 2) ** 2 + (yy - (px - 1) / 2) ** 2) <= (radius * px) ** 2


@dataclass
class SquareMeasures:
    """What the reader measured of a board's squares in one frame (N = 4 rows cols squares).

    ``features``: N x D, the square windows' ``square_features``, the face reader's coin
    features (``vision.features.coin_features``) at each square's coin, ``_reach`` and the
    coin's rim strength; ``coin_windows`` and ``coin_centres`` are kept so that a coin in
    doubt can be cut again a few px off (its numeral's features shift with its place), and
    the windows and rims so that the other frame's measures are had by turning these
    (``half_turned``). ``ground``: N, the squares whose windows set the board's background
    (``_background``; None: all of them)."""

    features: np.ndarray
    coin_windows: np.ndarray
    coin_centres: np.ndarray
    coin_columns: tuple[int, int]
    """The columns of ``features`` that are the coin features (first, past the last)."""
    wide_windows: np.ndarray
    rims: np.ndarray
    ground: np.ndarray | None = None

    def grounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(wide windows, coin windows) of the squares that set the board's background."""
        if self.ground is None:
            return self.wide_windows, self.coin_windows
        return self.wide_windows[self.ground], self.coin_windows[self.ground]

    @property
    def coin_features(self) -> np.ndarray:
        """N x K: the coin features alone (the part of ``features`` a rank model reads)."""
        return self.features[:, self.coin_columns[0]:self.coin_columns[1]]


def grid_side(rows: int, cols: int, face_up) -> np.ndarray | None:
    """4 rows cols (bool, the squares in order): the squares of a board of rows x cols tiles
    that lie grid side up, the tiles ``face_up`` ((row, col) tiles) lying face up; the
    ``ground`` that ``measure_squares`` measures such a board against. None when no tile
    lies face up (all squares are)."""
    if not face_up:
        return None
    ground = np.ones((2 * rows, 2 * cols), bool)
    for i, j in face_up:
        ground[2 * i:2 * i + 2, 2 * j:2 * j + 2] = False
    return ground.ravel()


def measure_squares(image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int,
                    memory: FrameMemory | None = None, ground: np.ndarray | None = None) -> SquareMeasures:
    """The squares of a board in one frame, measured (see ``SquareMeasures``; ``memory``: see
    ``FrameMemory``; ``ground``: see ``remeasure``)."""
    return measure_at(image, lattice, frame, square_centres(rows, cols, lattice.face).reshape(-1, 2), memory=memory,
                      ground=ground)


def measure_at(image: np.ndarray, lattice: Lattice, frame, centres: np.ndarray, search: float = COIN_SEARCH,
               among: SquareMeasures | None = None, memory: FrameMemory | None = None,
               ground: np.ndarray | None = None) -> SquareMeasures:
    """What lies at N player-frame points (tile units), measured as squares are: the same
    windows and features, so that the squares model reads them (a coin found within
    ``search`` pitches of each point; ``among`` and ``ground``: see ``remeasure``; ``memory``:
    see ``FrameMemory``)."""
    wide = windows_at(image, lattice, frame, centres, memory=memory)
    coins = windows_at(image, lattice, frame, centres, px=COIN_WINDOW_PX, side=F.FEATURES["coin_window"], memory=memory)
    key = None if memory is None else _frame_key(lattice, frame, centres, COIN_WINDOW_PX, search, image.shape)
    found, rims = find_round_again(coins, search, memory, key)[:2]
    return remeasure(wide, coins, found, rims, among, ground)


def half_turned(m: SquareMeasures) -> SquareMeasures:
    """``m``'s squares measured in the frame a half turn away (``frames`` gives the two).

    Both frames sample the same image points: square (r, c) of one is square (2 rows - 1 - r,
    2 cols - 1 - c) of the other, its window turned half round. So the windows and the coins
    found in them are turned rather than cut and searched again; only the features, which
    read the numerals upright, are computed anew."""
    px = m.coin_windows.shape[1]
    return remeasure(m.wide_windows[::-1, ::-1, ::-1], m.coin_windows[::-1, ::-1, ::-1],
                     (px - 1) - m.coin_centres[::-1], m.rims[::-1], ground=None if m.ground is None else m.ground[::-1])


#: the percentile of the grid-side squares' bright levels taken as the background of a board
#: whose tiles lie both ways up: its coins lie on those squares (Steppin' Stones' twenty on
#: forty-eight, its four pawns darker), and their median fell between an empty square's level
#: and a coin's
GROUND_AMONG = 30.0


def remeasure(wide: np.ndarray, coins: np.ndarray, centres: np.ndarray, rims: np.ndarray,
              among: SquareMeasures | None = None, ground: np.ndarray | None = None) -> SquareMeasures:
    """Measures from windows already cut and coins already found in them (``SquareMeasures``).
    The features' colours are relative to the typical window of a batch: these windows', or,
    with ``among``, a board's squares (so that things off the board are measured as if on it).
    ``ground`` (N, bool): the windows that set it, the others measured against them (None:
    all). A board whose tiles lie both ways up (Steppin' Stones' home tiles face up in its
    corners, their print white on a dark back's board) is measured against its grid-side
    squares: with the face-up squares and the coins, most windows of a setup are light, the
    typical one was a face-up tile's, and every empty dark square then read as dark as a pawn."""
    coin = F.coin_features(coins, centres)
    if among is not None:
        # the background as the batch of the board's squares and these together sets it
        base_wide, base_coins = among.grounds()
        looks = square_features(wide, _background(np.concatenate([base_wide, wide])))
        reach = _reach(coins, _background(_small(np.concatenate([base_coins, coins]))))
    elif ground is not None:
        looks = square_features(wide, _background(wide[ground], GROUND_AMONG))
        reach = _reach(coins, _background(_small(coins[ground]), GROUND_AMONG))
    else:
        looks = square_features(wide)
        # how clearly a coin's rim shows, wherever it lies near the middle (a coin off its
        # square's middle keeps its rim, not its place in the windows)
        reach = _reach(coins)
    feats = np.concatenate([looks, coin, reach, 4.0 * np.asarray(rims, np.float32)[:, None]], 1)
    first = looks.shape[1]
    return SquareMeasures(feats, coins, centres, (first, first + coin.shape[1]), wide, np.asarray(rims),
                          None if ground is None else np.asarray(ground, bool))


def find_round(windows: np.ndarray, search: float, radius: float = F.COIN_RADIUS, with_focus: bool = False) -> tuple:
    """(N x 2 centres in window px, N rim strengths) of the round piece in each of N square
    windows (``F.FEATURES["coin_window"]`` pitches wide), looked for within ``search`` pitches
    of the middle.

    Each edge pixel votes for the points a coin's radius (give or take 2 px) away along its
    gradient, both ways: a coin's rim votes into its centre from all round, while the grid's
    straight lines beside a square spread their votes along lines of their own. (A ring
    template correlated with the edges, as the face-up reader's coin finder does, locks onto
    a line tangent to the ring or a corner of the square as readily as onto the rim.) The
    strength is the share of a ring of that radius around the centre found that lies on
    edges: about 0.5 or more on a coin's rim, little on a bare square.

    The windows are laid side by side in one picture for one edge and one gradient pass; no
    vote crosses into another window.

    ``with_focus``: also return how the votes gather, the peak's over the window's mean
    votes (plus one): about 2 or more where a coin's rim votes into one centre, little more
    than 1 on a patterned surface (felt, wood grain), whose edges are many but vote
    everywhere (their rim share can match a coin's)."""
    N, px = windows.shape[:2]
    if N == 0:
        return (np.zeros((0, 2)), np.zeros(0)) + ((np.zeros(0),) if with_focus else ())
    r = px / F.FEATURES["coin_window"] * radius
    per_row = int(np.ceil(np.sqrt(N)))
    rows = -(-N // per_row)
    mosaic = np.zeros((rows * px, per_row * px), np.uint8)
    for i, w in enumerate(windows):
        y, x = divmod(i, per_row)
        mosaic[y * px:(y + 1) * px, x * px:(x + 1) * px] = cv2.cvtColor(w, cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(mosaic, (5, 5), 0)
    edges = cv2.Canny(g, 20, 50)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    ys, xs = np.nonzero(edges)
    real = (ys // px) * per_row + xs // px < N  # not the blank end of the mosaic
    ys, xs = ys[real], xs[real]
    mag = np.hypot(gx[ys, xs], gy[ys, xs]) + 1e-6
    ux, uy = gx[ys, xs] / mag, gy[ys, xs] / mag
    win = (ys // px) * per_row + xs // px
    ly, lx = ys % px, xs % px
    acc = np.zeros(N * px * px, np.float32)
    for sign in (-1.0, 1.0):
        for rr in (r - 2.0, r, r + 2.0):
            vx = np.rint(lx + sign * rr * ux).astype(np.int64)
            vy = np.rint(ly + sign * rr * uy).astype(np.int64)
            ok = (vx >= 0) & (vx < px) & (vy >= 0) & (vy < px)
            acc += np.bincount((win[ok] * px + vy[ok]) * px + vx[ok], minlength=acc.size).astype(np.float32)
    acc = acc.reshape(N, px, px)
    margin = int(round(px / 2 - search * px / F.FEATURES["coin_window"]))
    inner = np.stack([cv2.GaussianBlur(a, (0, 0), 2.0) for a in acc])[:, margin:px - margin, margin:px - margin]
    flat = inner.reshape(N, -1)
    best = flat.argmax(1)
    cy, cx = np.divmod(best, inner.shape[2])
    cx, cy = cx + margin, cy + margin
    # the rim's strength: the share of a 5 px ring of the radius that lies on edges
    ring = F.coin_ring(r)
    k = ring.shape[0] // 2
    on = (edges > 0).astype(np.float32)
    strength = np.empty(N)
    for i in range(N):
        y0, x0 = divmod(i, per_row)
        ex = cv2.copyMakeBorder(on[y0 * px:(y0 + 1) * px, x0 * px:(x0 + 1) * px], k, k, k, k, cv2.BORDER_REFLECT_101)
        strength[i] = float((ex[cy[i]:cy[i] + 2 * k + 1, cx[i]:cx[i] + 2 * k + 1] * ring).sum())
    found = np.stack([cx, cy], 1).astype(np.float64)
    if with_focus:
        return found, strength, flat.max(1) / (flat.mean(1) + 1.0)
    return found, strength


def _block_greys(windows: np.ndarray) -> np.ndarray:
    """N x 8 x 8: the mean grey of each of the 8 x 8 blocks of N square windows."""
    N, px = windows.shape[:2]
    small = cv2.resize(windows.reshape(N * px, px, 3), (8, N * 8), interpolation=cv2.INTER_AREA)
    return small.reshape(N, 8, 8, 3).astype(np.float32).mean(-1)


def find_round_again(windows: np.ndarray, search: float, memory: FrameMemory | None, key,
                     radius: float = F.COIN_RADIUS) -> tuple:
    """``find_round(windows, search, radius, with_focus=True)``, looked for again only in the
    windows that changed (``ROUND_CHANGE``) since ``memory`` last looked in the batch ``key``
    (the same points of the same lattice); the others keep what was found then. A window is
    compared with the frame it was last looked in, so that a slow drift (the light, the
    camera's exposure) adds up until it counts. Without ``memory``, ``find_round``."""
    if memory is None or len(windows) == 0:
        return find_round(windows, search, radius, with_focus=True)
    greys = _block_greys(windows)
    was = memory.rounds.get(key)
    if was is None or was[0].shape != greys.shape:
        changed = np.ones(len(windows), bool)
        was = (greys.copy(), np.zeros((len(windows), 2)), np.zeros(len(windows)), np.zeros(len(windows)))
    else:
        changed = np.abs(greys - was[0]).max((1, 2)) > ROUND_CHANGE
    ref, centres, strength, focus = (a.copy() for a in was)
    if changed.any():
        found = find_round(windows[changed], search, radius, with_focus=True)
        centres[changed], strength[changed], focus[changed] = found
        ref[changed] = greys[changed]
    memory.rounds.pop(key, None)  # (the last looked in goes last: the oldest is dropped first)
    memory.rounds[key] = (ref, centres, strength, focus)
    while len(memory.rounds) > FrameMemory.MOST_ROUNDS:
        memory.rounds.pop(next(iter(memory.rounds)))
    memory.looked += int(changed.sum())
    memory.kept += int((~changed).sum())
    return centres, strength, focus


def turned_coin_features(windows: np.ndarray, centres: np.ndarray, idx: np.ndarray, turns: np.ndarray,
                         memory: FrameMemory | None = None, key=None) -> np.ndarray:
    """T x len(idx) x K: the coin features (``vision.features.coin_features``) of the windows
    ``idx`` of a board's N square windows, their faces read at each of the T ``turns``. With
    ``memory``, a window of the same frame (``key``: ``frame_key``) that has not changed
    (``ROUND_CHANGE``, against the greys it had when its features were computed) and whose coin
    was found at the same place keeps the features computed then: a still board's squares are
    read turned once, not on every frame. (Kept by the square's place alone, the oblong board
    read the other way round on one frame would give a square the features of the square that
    lay in its place.)"""
    idx = np.asarray(idx, int)
    T = len(turns)
    if memory is None or not idx.size:
        return F.coin_features(windows[idx], centres[idx], turns).reshape(T, len(idx), -1)
    N = len(windows)
    greys = _block_greys(windows[idx])
    kept = memory.turned.pop(key, None)
    if kept is None or len(kept["valid"]) != N or not np.array_equal(kept["turns"], turns):
        kept = {"turns": np.array(turns, float), "valid": np.zeros(N, bool), "greys": np.zeros((N, 8, 8), np.float32),
                "centres": np.zeros((N, 2)), "feats": None}
    memory.turned[key] = kept  # (the last read goes last: the oldest is dropped first)
    while len(memory.turned) > FrameMemory.MOST_TURNED:
        memory.turned.pop(next(iter(memory.turned)))
    same = (kept["valid"][idx] & (np.abs(greys - kept["greys"][idx]).max((1, 2)) <= ROUND_CHANGE)
            & (kept["centres"][idx] == centres[idx]).all(1))
    new = idx[~same]
    if new.size:
        feats = F.coin_features(windows[new], centres[new], turns).reshape(T, len(new), -1)
        if kept["feats"] is None:
            kept["feats"] = np.zeros((T, N, feats.shape[2]), np.float32)
        kept["feats"][:, new] = feats
        kept["greys"][new] = greys[~same]
        kept["centres"][new] = centres[new]
        kept["valid"][new] = True
    return kept["feats"][:, idx]


def look_again(memory: FrameMemory, lattice: Lattice, frame, rows: int, cols: int, shape, squares) -> None:
    """Have ``memory`` look for the round piece again in the windows of ``squares`` (indices in
    ``measure_squares``' order for ``frame``) on the next frame, changed or not: a square read in
    doubt keeps its doubt for as long as its window does not change, and a coin a glare washed
    out on one frame, read empty, stayed empty for the whole of a still table."""
    key = _frame_key(lattice, frame, square_centres(rows, cols, lattice.face).reshape(-1, 2), COIN_WINDOW_PX,
                     COIN_SEARCH, shape)
    was = memory.rounds.get(key)
    if was is not None and len(squares):
        was[0][np.asarray(squares, int)] = np.inf


def _background(windows: np.ndarray, among: float = 50.0) -> np.ndarray:
    """The board's background colour (3,) as a batch of N windows shows it: the bright level
    of each, the ``among`` percentile of those (the median: most squares are empty), at
    least 8."""
    N = len(windows)
    pixels = windows.reshape(N, -1, 3)
    # (uint8 windows: the same percentiles as np.percentile's, from counts)
    level = F.channel_percentile(pixels, 75) if pixels.dtype == np.uint8 else np.percentile(pixels, 75, axis=1)
    return np.maximum(np.percentile(level, among, axis=0), 8.0).astype(np.float32)


def _small(windows: np.ndarray) -> np.ndarray:
    """N x 32 x 32 x 3 float32: N windows shrunk (area averages) to 32 px."""
    N, px = windows.shape[:2]
    if px % 32 == 0:  # whole blocks: one call for the batch stacked, the same as one a window
        small = cv2.resize(windows.reshape(N * px, px, 3), (32, N * 32), interpolation=cv2.INTER_AREA)
        return small.reshape(N, 32, 32, 3).astype(np.float32)
    return np.stack([cv2.resize(w, (32, 32), interpolation=cv2.INTER_AREA) for w in windows]).astype(np.float32)


def _reach(windows: np.ndarray, ref: np.ndarray | None = None) -> np.ndarray:
    """N x 16: how far a square's colour reaches beyond a coin's rim, each way: a pawn stands
    up and its body leans over the next square (away from the camera), a coin lies flat inside
    its rim. Per quarter of the ring from 0.2 to 0.45 pitches around the middle (up, right,
    down, left): the share of pixels much darker than the board, their mean chroma, and the
    same two inside the coin's disc (0.15 pitch). ``ref``: the board's background in the
    shrunk windows (``_background``; None: these windows')."""
    small = _small(windows)
    ref = _background(small) if ref is None else ref
    rel = small / ref
    lum = rel.mean(-1)
    chroma = np.abs(rel - lum[..., None]).sum(-1)
    yy, xx = np.mgrid[0:32, 0:32] - 15.5
    rad = np.hypot(xx, yy) / 32
    ang = np.arctan2(yy, xx)
    ring = (rad >= 0.2) & (rad <= 0.45)
    parts = [ring & (np.abs(ang - a) <= np.pi / 4) for a in (-np.pi / 2, 0.0, np.pi / 2)]
    parts.append(ring & (np.abs(ang) >= 3 * np.pi / 4))
    parts.append(rad <= 0.15)
    out = []
    for m in parts:
        out.append((lum[:, m] < 0.6).mean(1))
        out.append(chroma[:, m].mean(1))
    out.append(lum[:, rad <= 0.15].mean(1))
    out.append(lum[:, ring].mean(1))
    out.append(np.percentile(chroma[:, ring], 90, axis=1))
    out.append((chroma[:, ring] > 0.3).mean(1))
    out.append((lum[:, ring] < 0.4).mean(1))
    out.append(((lum[:, rad <= 0.15] < 0.4)).mean(1))
    return np.stack(out, 1).astype(np.float32) * 4.0


def square_features(windows: np.ndarray, ref: np.ndarray | None = None) -> np.ndarray:
    """N x D features of N square windows (see the module's docstring). ``ref``: the board's
    background (``_background``; None: the typical bright level of these windows, most of a
    board's squares being empty)."""
    N, px = windows.shape[:2]
    faces, _ = F.tile_features(windows)
    ref = _background(windows) if ref is None else ref
    rel = windows.astype(np.float32) / ref
    lum = rel.mean(-1)
    chroma = rel - lum[..., None]
    out = [faces]
    for radius in (0.22, 0.36):
        disc = _disc(px, radius)
        out.append(rel[:, disc].mean(1))
        out.append(np.abs(chroma[:, disc]).mean(1) * 4.0)
        out.append(chroma[:, disc].mean(1) * 4.0)
        out.append(rel[:, disc].std(1))
        out.append(np.stack([(lum[:, disc] < t).mean(1) for t in (0.35, 0.6, 0.85)], 1))
    half = px // 2
    # a standing pawn leans away from the camera: its colour runs into one half of the window
    for part in (np.s_[:, :half, :], np.s_[:, half:, :], np.s_[:, :, :half], np.s_[:, :, half:]):
        out.append(chroma[part].reshape(N, -1, 3).mean(1) * 4.0)
        out.append(lum[part].reshape(N, -1).mean(1, keepdims=True))
    return np.concatenate(out, 1).astype(np.float32)
