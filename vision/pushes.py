"""Two tiles pushed at once: told from two quick slides by the motion between still frames.

A player who pushes the tile two cells from the hole, so that it shoves the tile between
into the hole, leaves the same still board as two legal slides along that line (the near
tile into the hole, then the far tile after it). Easy Slider allows only one tile to move
at a time, and several slides between two still frames are normal for fast players, so the
still frames cannot tell the two apart: the frames in between can. In a push the two tiles
travel together, each the same part of a cell from home at the same moment; in two slides
the near tile travels while the far one waits at home, and then the far one follows.

``MotionTrack`` keeps, from the last accepted position on, a small grey picture of the board
(player's frame, ``PushesConfig.cell_px`` pixels a cell) of every frame, warped with that position's board
corners. ``pushed_together(hole, near, far)`` then follows both tiles through those pictures
by matching each tile's face, cut from the accepted frame, along its line of travel (the
whole face and each half of it, since a hand often hides one half), and takes the likeliest
pair of places where the far tile has not run into the near one. The numbers named below are
``PushesConfig``'s (``[vision.pushes]``). A frame shows the tiles moving together when both
faces are found clearly (normalised correlation ``clear``), both part of the way (between
``moving_lo`` and ``moving_hi`` of a cell) and at most ``same_share`` apart (the far face may be
found only faintly, under the pushing finger, when it is right behind), or when the far tile
is found clearly on its way while the near one is hidden (the pushing hand reaches over it).
A frame shows them apart when both are found clearly and one is at least ``apart_share`` of a
cell further than the other: two slides show that from the first tile's arrival until the
second one has nearly caught up, even when the hand never leaves the board between them. The
tiles were pushed together when at least ``together_frames`` frames show them together and at
most ``apart_frames`` apart. Too few frames, faces hidden throughout,
or a blank face leave the answer at no, and the Caller then takes the change as slides: it
never warns about a push it has not seen.

Limits: the track assumes the board did not move between the accepted frame and the push
(``slack_px`` pixels of play); measured in ``benchmarks/bench_pushes.py``.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import PushesConfig

Cell = tuple[int, int]

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

    def __init__(self, config: PushesConfig | None = None):
        self.config = config or PushesConfig()
        self._frames: deque[np.ndarray] = deque(maxlen=self.config.max_frames)
        self._reference: np.ndarray | None = None
        self._warp: np.ndarray | None = None

    @property
    def frames(self) -> int:
        return len(self._frames)

    def reset(self, image: np.ndarray, corners) -> None:
        src = np.asarray(corners, np.float32).reshape(4, 2)
        side = 5 * self.config.cell_px
        dst = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        self._warp = cv2.getPerspectiveTransform(src, dst)
        self._frames.clear()
        self._reference = self._picture(image)

    def add(self, image: np.ndarray) -> None:
        if self._warp is not None:
            self._frames.append(self._picture(image))

    def _picture(self, image: np.ndarray) -> np.ndarray:
        side = 5 * self.config.cell_px
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
        cfg = self.config
        ref = _strip(self._reference, hole, near, far, cfg)
        parts = [[ref[:, x0:x1] for x0, x1 in _parts(home, cfg)] for home in (cfg.cell_px, 2 * cfg.cell_px)]
        if any(float(p.std()) < cfg.blank_std for tile in parts for p in tile):
            return []  # a blank face cannot be followed
        return [_decode(_strip(pic, hole, near, far, cfg), parts, cfg) for pic in self._frames]

    def pushed_together(self, hole: Cell, near: Cell, far: Cell) -> bool:
        """Whether the frames since the accepted position show the tile at ``near`` (next to
        ``hole``) and the one at ``far`` (next to ``near``, on the same line) moving together."""
        together, apart = _count(self.travel(hole, near, far), self.config)
        return bool(together >= self.config.together_frames and apart <= self.config.apart_frames)


def _count(frames: list[tuple[TileTravel, TileTravel]], cfg: PushesConfig | None = None) -> tuple[int, int]:
    """(frames showing the two tiles moving together, frames showing them apart).

    Moving together: both faces found clearly, both on the way and close; or the near face
    found clearly on its way and the far one faintly (``faint``) right behind it (``close_share``: the
    finger pushing the far tile hides most of its face); or the far tile found clearly on its
    way while the near tile is hidden (the hand that pushes the far tile covers the near one
    when it reaches over it). Apart: both found clearly and one
    much further than the other (two slides show this for as long as the hand moves from
    the first tile to the second, or the table rests between them). Counting ends once both
    tiles have been seen clearly in their new cells for ``settled_frames`` frames in a row: what
    follows is the hand leaving, and a face half under it can be matched a part of a cell
    off (two slides are over by then too: until the second tile arrives, the first is a
    cell ahead of it).
    """
    c = cfg or PushesConfig()
    together = apart = settled = 0
    for a, b in frames:
        arrived = min(a.score, b.score) >= c.clear and min(a.share, b.share) >= c.moving_hi
        settled = settled + 1 if arrived else 0
        if settled >= c.settled_frames:
            break
        far_moving = b.score >= c.clear and c.moving_lo <= b.share <= c.moving_hi
        if a.score < c.clear:
            together += far_moving
            continue
        gap = abs(a.share - b.share)
        if b.score < c.clear:
            together += (b.score >= c.faint and gap <= c.close_share
                         and all(c.moving_lo <= s <= c.moving_hi for s in (a.share, b.share)))
            continue
        if gap >= c.apart_share:
            apart += 1
        elif gap <= c.same_share and far_moving and c.moving_lo <= a.share <= c.moving_hi:
            together += 1
    return together, apart


def _strip(picture: np.ndarray, hole: Cell, near: Cell, far: Cell, cfg: PushesConfig) -> np.ndarray:
    """The three cells hole, near, far of a picture as one strip, the hole at the left, ``slack_px``
    rows of the neighbouring cells above and below."""
    px, slack = cfg.cell_px, cfg.slack_px
    padded = cv2.copyMakeBorder(picture, slack, slack, slack, slack, cv2.BORDER_REPLICATE)
    (rh, ch), (rf, cf) = hole, far
    if rh == rf:
        lo = min(ch, cf) * px + slack
        strip = padded[rh * px:(rh + 1) * px + 2 * slack, lo:lo + 3 * px]
        return strip if ch < cf else strip[:, ::-1]
    lo = min(rh, rf) * px + slack
    strip = padded[lo:lo + 3 * px, ch * px:(ch + 1) * px + 2 * slack].T
    return strip if rh < rf else strip[:, ::-1]


def _parts(home: int, cfg: PushesConfig) -> list[tuple[int, int]]:
    """Column ranges of a face whose cell starts at ``home`` in a strip: the whole face, its
    leading half (towards the hole) and its trailing half; a hand often hides one half."""
    px, margin = cfg.cell_px, cfg.margin_px
    x0, x1, mid = home + margin, home + px - margin, home + px // 2
    return [(x0, x1), (x0, mid), (mid, x1)]


def _curve(strip: np.ndarray, part: np.ndarray, x0: int, px: int) -> np.ndarray:
    """How well ``part`` (at home columns from ``x0``) matches the strip after moving 0..``px``
    (a cell) pixels towards the hole: one score per pixel moved, the best across the line."""
    window = np.ascontiguousarray(strip[:, x0 - px:x0 + part.shape[1]])
    scores = cv2.matchTemplate(window, np.ascontiguousarray(part), cv2.TM_CCOEFF_NORMED)
    return scores.max(axis=0)[::-1]


def _decode(strip: np.ndarray, parts: list[list[np.ndarray]], cfg: PushesConfig) -> tuple[TileTravel, TileTravel]:
    """Where the near and the far tile are in one picture's strip: each tile's score is its
    best part's at each place, and the pair of places with the best sum is taken among those
    where the far tile has not overtaken the near one (by more than ``slack_px`` pixels)."""
    px, slack = cfg.cell_px, cfg.slack_px
    curves = []
    for home, tile in zip((px, 2 * px), parts):
        curves.append(np.max([_curve(strip, p, x0, px) for p, (x0, _) in zip(tile, _parts(home, cfg))], axis=0))
    near, far = curves
    # the far tile cannot be ahead of the near one: it moves at most as far (and a little slack)
    total = near[:, None] + far[None, :]
    a_idx, b_idx = np.indices(total.shape)
    total = np.where(b_idx <= a_idx + slack, total, -np.inf)
    a, b = np.unravel_index(int(np.argmax(total)), total.shape)
    return TileTravel(a / px, float(near[a])), TileTravel(b / px, float(far[b]))
