"""What reaches over a kept board from outside it: a hand, an arm, a sleeve.

A hand that moves a piece comes from the edge of the table. Whatever it looks like (any skin,
any sleeve) and however little of a tile's cross it hides (two fingertips over a coin hide
almost none of it), it crosses the strip of table round the board on its way in. ``Reach``
keeps a small picture of the board and that strip, in lattice units so that it does not
depend on how the board is turned, as it looked on the last read with nothing crossing the
strip, and tells which squares the changes that come in from its outer edge now lie over.
Those squares are covered: what is read there is the hand, or under it, and is not to be
acted on. A piece moved and let go changes only squares inside the board, which no change
joins to the strip's edge: it is no reach, and the picture takes it in.

The picture compares colour (CIE Lab, blurred, at a dozen pixels a tile), less the
strip's median change (a cloud, the camera's exposure), so that a 1 px shake of the camera or
its noise is not a change. A change that stays the same for ``settle_reads`` reads in a row
is taken into the picture: something laid down beside the board and left there (a cup, the
game's own dice), or a board first found while a hand lay over it, keeps no square covered
for long. That holds pixel by pixel: dice rolled against the board's edge lie still while
the player's hand goes on moving pieces, and, taken in only once the whole picture held
still, they kept the square beside them covered for a whole turn. A die is told from a hand
by its size: a change no larger than a tile, lying mostly in the strip, is never a reach (a
hand comes with its arm), and it is taken in after ``settle_small_reads`` still reads, before
an arm that comes in beside it can join it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate import Lattice, same_board

Cell = tuple[int, int]

#: a board found again within this share of a pitch of where the picture's lay is the same board,
#: and keeps the picture: a small board's grid is fitted a third of a pitch apart from one search
#: to the next (and searched for again while a hand hides it), while the camera has not moved;
#: a picture started anew under a hand takes the hand in (see ``Reach.covered``)
SAME = 0.5


@dataclass(frozen=True)
class ReachConfig:
    #: the strip of table round the board that is watched, in tiles
    margin: float = 1.0
    #: the picture's pixels a tile
    px: int = 12
    #: the Lab distance (0-255 units) a pixel must change by to count
    change: float = 16.0
    #: a change that comes in from the edge counts when it is at least this share of a tile
    min_share: float = 0.15
    #: a square is covered when at least this share of it lies under such a change
    square_share: float = 0.1
    #: a change over more than this share of the strip is no hand: the camera or the board moved
    moved_share: float = 0.5
    #: a picture that stays the same (``_moved``) for this many reads in a row is taken in,
    #: whatever crosses the strip
    settle_reads: int = 25
    #: a change no larger than this share of a tile, lying mostly in the strip, is a die rolled
    #: against the board's edge, never a hand (a hand and the arm behind it, crossing the
    #: strip, are larger than a tile) ...
    small_share: float = 1.0
    #: ... counted with what changed by half as much round it (its blurred rim and shadow),
    #: no larger than this share of a tile: an arm's patches over the threshold lie in a larger
    #: change ...
    loose_share: float = 2.0
    #: ... and is taken in once it has lain still for this many reads: left out, it would join
    #: the change of an arm that comes in beside it
    settle_small_reads: int = 4
    #: a new board's first picture: from a read whose squares are all sure once the picture
    #: has held for one read, else once it has held for this many
    first_reads: int = 3


class Reach:
    """The squares a hand reaching in from outside a kept board covers, read by read (see the
    module's docstring). One per camera: it remembers the last picture with nothing crossing."""

    def __init__(self, config: ReachConfig | None = None):
        self.config = config or ReachConfig()
        self._lattice: Lattice | None = None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._edge: np.ndarray | None = None  # the picture's outer border (bool)
        self._ring: np.ndarray | None = None  # the strip outside the board (bool)
        self._reference: np.ndarray | None = None
        self._last: np.ndarray | None = None  # the last read's picture
        self._steady = 0  # reads in a row whose picture was the one before's
        self._still_for: np.ndarray | None = None  # reads in a row each pixel was the one before's
        self._looked: tuple | None = None  # (image, lattice, what ``_look`` saw there)

    @property
    def has_picture(self) -> bool:
        """Whether a picture of the board and the strip round it is kept (a new board's first
        is taken once its reads have held still: see ``ReachConfig.first_reads``)."""
        return self._reference is not None

    def reaching(self, image: np.ndarray, lattice: Lattice) -> bool:
        """Whether something comes in over the board ``lattice`` from the strip round it in
        ``image`` (against the picture kept of that board; False while there is none)."""
        return self._look(image, lattice)[1] is not None

    def clear(self, image: np.ndarray, lattice: Lattice) -> bool:
        """Whether the strip round the board ``lattice`` shows no hand in ``image``: a picture
        is kept, nothing a hand's size comes in from the strip's outer edge and that edge is
        quiet (a hand over the board comes with its arm across the strip). Call it after
        ``covered`` for the same image."""
        _, mask, quiet = self._look(image, lattice)
        return self._reference is not None and mask is None and quiet

    def covered(self, image: np.ndarray, lattice: Lattice, frame, rows: int, cols: int, sure: bool) -> list[Cell]:
        """The squares (player frame: ``frame`` maps player tile coordinates (u, v) to the
        lattice's (x, y); ``rows`` x ``cols`` tiles, two squares a side each) over which a change
        that came in from the strip's outer edge now lies, read by read (call it once a read).
        ``sure``: every square of this read is read sure otherwise (a new board's first picture
        is taken from such a read)."""
        c = self.config
        now, mask, quiet = self._look(image, lattice)
        if self._last is None or self._still_for is None or self._last.shape != now.shape:
            steady = False
            self._still_for = np.zeros(now.shape[:2], np.int32)
        else:
            moved = self._moved(now, self._last)
            steady = int(moved.sum()) < c.min_share * c.px * c.px  # nothing the size of a hand's least part
            self._still_for = np.where(moved, 0, self._still_for + 1).astype(np.int32)
        self._steady = self._steady + 1 if steady else 0
        self._last = now
        if self._reference is None:
            if self._steady >= (1 if sure else c.first_reads):
                self._reference = now
            return []
        if (mask is None and quiet) or self._steady >= c.settle_reads:
            if steady:  # a hand on its way out is never taken into the picture
                self._reference = now
            return []
        if mask is None:
            return []
        settled = self._settled(now)
        if settled.any():
            # what has lain still that long is taken in where it lies, whatever moves elsewhere
            self._reference = np.where(settled[..., None], now, self._reference)
            mask, quiet = self._reaching(now, self._reference)
            self._looked = (image, lattice, (now, mask, quiet))
            if mask is None:
                return []
        return self._squares(mask, lattice, frame, rows, cols)

    def _look(self, image: np.ndarray, lattice: Lattice) -> tuple[np.ndarray, np.ndarray | None, bool]:
        """(the picture of ``image``, the pixels of what reaches in or None, whether the
        picture's outer edge is quiet: see ``_reaching``), computed once an image; a board that
        is not the picture's (``same_board``) starts a new picture."""
        if self._looked is not None and self._looked[0] is image and self._looked[1] is lattice:
            return self._looked[2]
        if self._lattice is None or (lattice is not self._lattice and not same_board(lattice, self._lattice, SAME)):
            self._start(lattice)
        now = self._picture(image)
        mask, quiet = (None, False) if self._reference is None else self._reaching(now, self._reference)
        self._looked = (image, lattice, (now, mask, quiet))
        return now, mask, quiet

    # -- the picture ---------------------------------------------------------------------------
    def _start(self, lattice: Lattice) -> None:
        c = self.config
        H, W = lattice.shape
        m, px = c.margin, c.px
        w, h = int(round((W + 2 * m) * px)), int(round((H + 2 * m) * px))
        xs = (np.arange(w) + 0.5) / px - m
        ys = (np.arange(h) + 0.5) / px - m
        gx, gy = np.meshgrid(xs, ys)
        pts = lattice.to_image(np.stack([gx, gy], -1).reshape(-1, 2)).reshape(h, w, 2).astype(np.float32)
        self._maps = (np.ascontiguousarray(pts[..., 0]), np.ascontiguousarray(pts[..., 1]))
        edge = np.zeros((h, w), bool)
        edge[:2], edge[-2:], edge[:, :2], edge[:, -2:] = True, True, True, True
        self._edge = edge
        inside = (gx >= 0) & (gx <= W) & (gy >= 0) & (gy <= H)
        self._ring = ~inside
        self._lattice, self._reference, self._last, self._steady = lattice, None, None, 0
        self._still_for = None

    def _picture(self, image: np.ndarray) -> np.ndarray:
        warped = cv2.remap(image, self._maps[0], self._maps[1], cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        warped = cv2.GaussianBlur(warped, (5, 5), 0)
        return cv2.cvtColor(warped, cv2.COLOR_BGR2LAB).astype(np.float32)

    def _moved(self, now: np.ndarray, last: np.ndarray) -> np.ndarray:
        """The pixels (bool) that changed between two pictures."""
        return np.linalg.norm(now - last, axis=2) > self.config.change

    def _distance(self, now: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """Each pixel's change (Lab distance) since ``reference``, less the strip's median
        change (the light or the exposure changed everywhere)."""
        delta = now - reference
        delta -= np.median(delta[self._ring], axis=0)
        return np.linalg.norm(delta, axis=2)

    def _settled(self, now: np.ndarray) -> np.ndarray:
        """The pixels (bool) of the changes since the picture that have lain still, every pixel
        of them, for ``settle_reads`` reads, or ``settle_small_reads`` for a die (``_dice``):
        something set down and left (an arm lying still while its fingers move is one change,
        not all of it still)."""
        c = self.config
        dist = self._distance(now, self._reference)
        changed = dist > c.change
        _, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        need = np.where(self._dice(dist, changed, labels), c.settle_small_reads, c.settle_reads)
        restless = np.unique(labels[changed & (self._still_for < need[labels])])
        return changed & ~np.isin(labels, restless)

    def _dice(self, dist: np.ndarray, changed: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Per change (``changed``'s components ``labels``; ``dist`` each pixel's change), whether
        it is a die: no larger than ``small_share`` of a tile, lying mostly in the strip, and
        what changed by half as much round it (the change it lies in) no larger than
        ``loose_share`` of a tile. An arm whose colour is close to the table's changes it by
        about ``change``, and its pixels over the threshold make small patches in the strip:
        each alone was a die, taken into the picture after ``settle_small_reads`` reads, and once
        the arm had gone the patches it left in the picture were a hand reaching in over the
        board's corner for ``settle_reads`` reads."""
        c = self.config
        tile = c.px ** 2
        n = int(labels.max()) + 1
        area = np.bincount(labels[changed], minlength=n)
        in_ring = np.bincount(labels[changed & self._ring], minlength=n)
        small = (area <= c.small_share * tile) & (2 * in_ring >= area)
        loose = dist > c.change / 2
        _, around, stats, _ = cv2.connectedComponentsWithStats(loose.astype(np.uint8), connectivity=8)
        within = np.zeros(n, np.int64)  # each change's loose component (it lies in one)
        within[labels[changed]] = around[changed]
        return small & (stats[within, cv2.CC_STAT_AREA] <= c.loose_share * tile)

    def _reaching(self, now: np.ndarray, reference: np.ndarray) -> tuple[np.ndarray | None, bool]:
        """(the pixels of the changes since ``reference`` that touch the picture's outer edge, are
        large enough to be a hand and are no die (bool), or None when there are none; whether
        the edge is quiet: changed by less than half as much, so that an arm whose colour is
        close to the table's, counted at one read and not at the next, is never taken into the
        picture)."""
        c = self.config
        dist = self._distance(now, reference)
        quiet = int((dist[self._edge] > c.change / 2).sum()) < c.px / 4
        changed = dist > c.change
        moved = changed[self._ring].mean() > c.moved_share  # the camera or the board moved
        if moved or not changed[self._edge].any():
            return None, quiet or moved
        _, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        hand = (stats[:, cv2.CC_STAT_AREA] >= c.min_share * c.px * c.px) & ~self._dice(dist, changed, labels)
        big = [k for k in np.unique(labels[self._edge & changed]) if k > 0 and hand[k]]
        if not big:
            return None, quiet
        return np.isin(labels, big), False

    def _squares(self, mask: np.ndarray, lattice: Lattice, frame, rows: int, cols: int) -> list[Cell]:
        """The squares over which ``mask`` lies: each square's centre through the image into the
        picture's own lattice (the board found again, its nodes perhaps numbered otherwise)."""
        c = self.config
        half = c.px / 4  # half a square, in picture pixels
        centres = np.array([frame(q / 2 + 0.25, r / 2 + 0.25) for r in range(2 * rows) for q in range(2 * cols)], float)
        xy = (self._lattice.to_lattice(lattice.to_image(centres)) + c.margin) * c.px
        out = []
        for k, (cx, cy) in enumerate(xy):
            y0, y1 = int(round(cy - half)), int(round(cy + half))
            x0, x1 = int(round(cx - half)), int(round(cx + half))
            window = mask[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]
            if window.size and float(window.mean()) >= c.square_share:
                out.append(divmod(k, 2 * cols))
        return out
