"""Two tiles pushed at once: told from two quick slides by the motion between still frames.

A player who pushes the tile two cells from the hole, so that it shoves the tile between
into the hole, leaves the same still board as two legal slides along that line (the near
tile into the hole, then the far tile after it). Easy Slider allows only one tile to move
at a time, and several slides between two still frames are normal for fast players, so the
still frames cannot tell the two apart: the frames in between can. In a push the two tiles
travel together, each the same part of a cell from home at the same moment; in two slides
the near tile travels while the far one waits at home, and then the far one follows.

``MotionTrack`` keeps, from the last accepted position on, a small grey picture of the board
(player's frame, ``PX`` pixels a cell) of every frame, warped with that position's board
corners. ``pushed_together(hole, near, far)`` then follows both tiles through those pictures
by matching each tile's face, cut from the accepted frame, along its line of travel (the
whole face and each half of it, since a hand often hides one half), and takes the likeliest
pair of places where the far tile has not run into the near one. A frame shows the tiles
moving together when both faces are found clearly (normalised correlation CLEAR), both part
of the way (between MOVING_LO and MOVING_HI of a cell) and at most SAME_SHARE apart (the far
face may be found only faintly, under the pushing finger, when it is right behind), or when
the far tile is found clearly on its way while the near one is hidden (the pushing hand
reaches over it). A frame shows them apart when both are found clearly and one is at least
APART_SHARE of a cell further than the other: two slides show that from the first tile's
arrival until the second one has nearly caught up, even when the hand never leaves the
board between them. The tiles were pushed together when at least TOGETHER_FRAMES frames
show them together and at most APART_FRAMES apart. Too few frames, faces hidden throughout,
or a blank face leave the answer at no, and the Caller then takes the change as slides: it
never warns about a push it has not seen.

Limits: the track assumes the board did not move between the accepted frame and the push
(SLACK pixels of play); measured in ``benchmarks/bench_pushes.py``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

Cell = tuple[int, int]

PX = 32  # pixels a cell in the track's pictures
MARGIN = 4  # pixels of a cell's border left out of its face (gaps, neighbours' edges)
SLACK = 3  # pixels searched across the line of travel (a board nudged, corners a little off)
CLEAR = 0.6  # normalised correlation for a face to count as found clearly
FAINT = 0.45  # ... and faintly: the far face under the pushing finger, where the near one is
CLOSE_SHARE = 0.1  # how close (part of a cell) a faint far face must be to the clear near one
MOVING_LO, MOVING_HI = 0.15, 0.85  # part of a cell from home that counts as on the way
SAME_SHARE = 0.2  # at most this far apart (part of a cell): moving together
APART_SHARE = 0.45  # at least this far apart: one moved without the other
TOGETHER_FRAMES = 3
APART_FRAMES = 1
SETTLED_FRAMES = 8  # frames in a row with both tiles clearly in their new cells: the motion is over
MAX_FRAMES = 900  # pictures kept (30 s at 30 fps); the oldest go first


@dataclass(frozen=True)
class TileTravel:
    """One tile followed through one frame: ``share`` of a cell from home along its line, and
    how clearly its face was found there (normalised correlation, -1 to 1)."""

    share: float
    score: float


class MotionTrack:
    """Small warped pictures of the board since the last accepted position.

    ``reset(image, corners)`` at each accepted position (``corners``: the board's outer
    corners in the image, player's-frame order TL, TR, BR, BL, as ``Observation.board_corners``);
    ``add(image)`` for every frame after it, moving or still.
    """

    def __init__(self, max_frames: int = MAX_FRAMES):
        self._frames: deque[np.ndarray] = deque(maxlen=max_frames)
        self._reference: np.ndarray | None = None
        self._warp: np.ndarray | None = None

    @property
    def frames(self) -> int:
        return len(self._frames)

    def reset(self, image: np.ndarray, corners) -> None:
        src = np.asarray(corners, np.float32).reshape(4, 2)
        side = 5 * PX
        dst = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        self._warp = cv2.getPerspectiveTransform(src, dst)
        self._frames.clear()
        self._reference = self._picture(image)

    def add(self, image: np.ndarray) -> None:
        if self._warp is not None:
            self._frames.append(self._picture(image))

    def _picture(self, image: np.ndarray) -> np.ndarray:
        side = 5 * PX
        warped = cv2.warpPerspective(image, self._warp, (side, side), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY) if warped.ndim == 3 else warped
        return cv2.GaussianBlur(grey, (3, 3), 0)

    def travel(self, hole: Cell, near: Cell, far: Cell) -> list[tuple[TileTravel, TileTravel]]:
        """The tiles at ``near`` and ``far`` in the accepted picture, followed towards ``hole``
        in every picture since: (near tile, far tile) a frame, the likeliest places where the
        far tile does not run into the near one."""
        if self._reference is None:
            return []
        ref = _strip(self._reference, hole, near, far)
        parts = [[ref[:, x0:x1] for x0, x1 in _parts(home)] for home in (PX, 2 * PX)]
        if any(float(p.std()) < 2.0 for tile in parts for p in tile):
            return []  # a blank face cannot be followed
        return [_decode(_strip(pic, hole, near, far), parts) for pic in self._frames]

    def pushed_together(self, hole: Cell, near: Cell, far: Cell) -> bool:
        """Whether the frames since the accepted position show the tile at ``near`` (next to
        ``hole``) and the one at ``far`` (next to ``near``, on the same line) moving together."""
        together, apart = _count(self.travel(hole, near, far))
        return bool(together >= TOGETHER_FRAMES and apart <= APART_FRAMES)


def _count(frames: list[tuple[TileTravel, TileTravel]]) -> tuple[int, int]:
    """(frames showing the two tiles moving together, frames showing them apart).

    Moving together: both faces found clearly, both on the way and close; or the near face
    found clearly on its way and the far one faintly (FAINT) right behind it (CLOSE_SHARE: the
    finger pushing the far tile hides most of its face); or the far tile found clearly on its
    way while the near tile is hidden (the hand that pushes the far tile covers the near one
    when it reaches over it). Apart: both found clearly and one
    much further than the other (two slides show this for as long as the hand moves from
    the first tile to the second, or the table rests between them). Counting ends once both
    tiles have been seen clearly in their new cells for SETTLED_FRAMES frames in a row: what
    follows is the hand leaving, and a face half under it can be matched a part of a cell
    off (two slides are over by then too: until the second tile arrives, the first is a
    cell ahead of it).
    """
    together = apart = settled = 0
    for a, b in frames:
        arrived = min(a.score, b.score) >= CLEAR and min(a.share, b.share) >= MOVING_HI
        settled = settled + 1 if arrived else 0
        if settled >= SETTLED_FRAMES:
            break
        far_moving = b.score >= CLEAR and MOVING_LO <= b.share <= MOVING_HI
        if a.score < CLEAR:
            together += far_moving
            continue
        gap = abs(a.share - b.share)
        if b.score < CLEAR:
            together += (b.score >= FAINT and gap <= CLOSE_SHARE
                         and all(MOVING_LO <= s <= MOVING_HI for s in (a.share, b.share)))
            continue
        if gap >= APART_SHARE:
            apart += 1
        elif gap <= SAME_SHARE and far_moving and MOVING_LO <= a.share <= MOVING_HI:
            together += 1
    return together, apart


def _strip(picture: np.ndarray, hole: Cell, near: Cell, far: Cell) -> np.ndarray:
    """The three cells hole, near, far of a picture as one strip, the hole at the left, SLACK
    rows of the neighbouring cells above and below."""
    padded = cv2.copyMakeBorder(picture, SLACK, SLACK, SLACK, SLACK, cv2.BORDER_REPLICATE)
    (rh, ch), (rf, cf) = hole, far
    if rh == rf:
        lo = min(ch, cf) * PX + SLACK
        strip = padded[rh * PX:(rh + 1) * PX + 2 * SLACK, lo:lo + 3 * PX]
        return strip if ch < cf else strip[:, ::-1]
    lo = min(rh, rf) * PX + SLACK
    strip = padded[lo:lo + 3 * PX, ch * PX:(ch + 1) * PX + 2 * SLACK].T
    return strip if rh < rf else strip[:, ::-1]


def _parts(home: int) -> list[tuple[int, int]]:
    """Column ranges of a face whose cell starts at ``home`` in a strip: the whole face, its
    leading half (towards the hole) and its trailing half; a hand often hides one half."""
    x0, x1, mid = home + MARGIN, home + PX - MARGIN, home + PX // 2
    return [(x0, x1), (x0, mid), (mid, x1)]


def _curve(strip: np.ndarray, part: np.ndarray, x0: int) -> np.ndarray:
    """How well ``part`` (at home columns from ``x0``) matches the strip after moving 0..PX
    pixels towards the hole: one score per pixel moved, the best across the line."""
    window = np.ascontiguousarray(strip[:, x0 - PX:x0 + part.shape[1]])
    scores = cv2.matchTemplate(window, np.ascontiguousarray(part), cv2.TM_CCOEFF_NORMED)
    return scores.max(axis=0)[::-1]


def _decode(strip: np.ndarray, parts: list[list[np.ndarray]]) -> tuple[TileTravel, TileTravel]:
    """Where the near and the far tile are in one picture's strip: each tile's score is its
    best part's at each place, and the pair of places with the best sum is taken among those
    where the far tile has not overtaken the near one (by more than SLACK pixels)."""
    curves = []
    for home, tile in zip((PX, 2 * PX), parts):
        curves.append(np.max([_curve(strip, p, x0) for p, (x0, _) in zip(tile, _parts(home))], axis=0))
    near, far = curves
    # the far tile cannot be ahead of the near one: it moves at most as far (and a little slack)
    total = near[:, None] + far[None, :]
    a_idx, b_idx = np.indices(total.shape)
    total = np.where(b_idx <= a_idx + SLACK, total, -np.inf)
    a, b = np.unravel_index(int(np.argmax(total)), total.shape)
    return TileTravel(a / PX, float(near[a])), TileTravel(b / PX, float(far[b]))
