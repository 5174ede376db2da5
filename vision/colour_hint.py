"""What a calibrated profile tells the board finder about its set: the colours of its tile faces
and of the table they were photographed on.

The board finder (``vision.locate``) looks for faces lighter than their surroundings with a
little dark ink, and tries the frame's negative and contrast-equalised copies when that finds
few. A set that fits none of those (dark brown faces on a green cloth in dim light, birch
faces without printed frames on a birch table) is lost. ``caller calibrate`` knows where the
board of its photo lies (found, or from the corners the person gave), so it measures the
faces' colour and the table's there (:func:`learn_colours`) and stores them in the profile
(``meta["board_colours"]``). :meth:`ColourHint.rendering` then turns any frame into a grey
picture in which pixels of the faces' colour are light and the table's dark, whatever their
shades: the finder's own searches run on it as on one more rendering of the frame, only when
its usual ones found few tiles and only for a profile that has the colours.

Colours are CIE Lab (OpenCV's 8-bit scaling). A pixel's distance to the faces and to the
table is per channel over each one's spread (with floors, so a second photo in other light
still fits); the rendering is ``255 * d_table / (d_face + d_table)``: faces near 255, the
table near 0, inks and gaps, like neither, in between (darker than the face, as the finder
expects of ink).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import ProfileError

#: the profile's meta key holding the colours
META_KEY = "board_colours"
#: the finder tries the rendering when its usual searches put fewer tiles than this on a lattice
HINT_BELOW_TILES = 16
#: least spread per Lab channel (8-bit units): lightness varies with the light from photo to
#: photo far more than the hue does
MIN_SPREAD = np.array([14.0, 5.0, 5.0])


@dataclass(frozen=True, eq=False)
class ColourHint:
    """Lab colour (3,) and spread (3,) of the tile faces and of the table around the board."""

    face: np.ndarray
    face_spread: np.ndarray
    table: np.ndarray
    table_spread: np.ndarray
    below_tiles: int = HINT_BELOW_TILES

    def to_json(self) -> dict:
        def r(v):
            return [round(float(x), 2) for x in v]

        return {"face_lab": r(self.face), "face_spread": r(self.face_spread),
                "table_lab": r(self.table), "table_spread": r(self.table_spread)}

    @classmethod
    def from_json(cls, data) -> "ColourHint":
        try:
            vals = [np.asarray(data[k], np.float64).reshape(3) for k in ("face_lab", "face_spread", "table_lab", "table_spread")]
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileError(f"the profile's {META_KEY!r} entry is not four Lab triples ({exc.__class__.__name__}: {exc})") from None
        if not all(np.isfinite(v).all() for v in vals) or (vals[1] <= 0).any() or (vals[3] <= 0).any():
            raise ProfileError(f"the profile's {META_KEY!r} entry holds numbers that are not colours and positive spreads")
        return cls(*vals)

    @classmethod
    def of_profile(cls, profile) -> "ColourHint | None":
        """The profile's colours (None for a profile without them, such as the bundled default)."""
        data = getattr(profile, "meta", {}).get(META_KEY)
        if data is None:
            return None
        try:
            return cls.from_json(data)
        except ProfileError as exc:
            raise ProfileError(f"profile {profile.name!r}: {exc}") from None

    def distances(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(distance to the faces' colour, distance to the table's), H x W float32 each."""
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)

        def dist(centre, spread):
            s = np.maximum(np.asarray(spread, np.float64), MIN_SPREAD)
            d = (lab - np.asarray(centre, np.float32)) / s.astype(np.float32)
            return np.sqrt((d * d).sum(2))

        return dist(self.face, self.face_spread), dist(self.table, self.table_spread)

    def rendering(self, image: np.ndarray) -> np.ndarray:
        """H x W uint8: light where a pixel has the faces' colour, dark where the table's."""
        d_face, d_table = self.distances(image)
        g = 255.0 * d_table / np.maximum(d_face + d_table, 1e-6)
        return cv2.GaussianBlur(np.clip(g + 0.5, 0, 255).astype(np.uint8), (3, 3), 0)

    def mask(self, image: np.ndarray) -> np.ndarray:
        """H x W uint8 (0 / 255): pixels nearer the faces' colour than the table's."""
        d_face, d_table = self.distances(image)
        return (d_face < d_table).astype(np.uint8) * 255


def _robust(px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Median and spread (1.4826 x median absolute deviation) per channel of N x 3 values."""
    med = np.median(px, 0)
    return med, 1.4826 * np.median(np.abs(px - med), 0) + 1.0


def learn_colours(view: np.ndarray, cell_px: int, margin: float, tiles: list[tuple[int, int]],
                  holes: list[tuple[int, int]] = ()) -> ColourHint:
    """The colours of a board seen in its player view (``vision.rectify``: ``cell_px`` per
    pitch, ``margin`` pitches around the board).

    Faces: the middle half of each cell in ``tiles`` (row, col), less its ink (the pixels
    farthest from the cell's median). Table: the ``holes`` cells and the strip half a pitch
    wide beyond the board's right and near edges (the coins lie beyond the far edge and the
    pawns beyond the left one)."""
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2Lab).reshape(view.shape[0], view.shape[1], 3).astype(np.float64)
    m = int(round(margin * cell_px))
    q = cell_px // 4
    faces = []
    for r, c in tiles:
        y, x = m + r * cell_px, m + c * cell_px
        px = lab[y + q : y + cell_px - q, x + q : x + cell_px - q].reshape(-1, 3)
        d = np.linalg.norm(px - np.median(px, 0), axis=1)
        faces.append(px[d <= np.percentile(d, 60)])
    if not faces:
        raise ValueError("no tile cells to learn the faces' colour from")
    face, face_spread = _robust(np.concatenate(faces))
    side = m + 5 * cell_px
    strip = [lab[m : side, side + q : side + cell_px // 2 + q].reshape(-1, 3),
             lab[side + q : side + cell_px // 2 + q, m : side].reshape(-1, 3)]
    for r, c in holes:
        y, x = m + r * cell_px, m + c * cell_px
        strip.append(lab[y + q : y + cell_px - q, x + q : x + cell_px - q].reshape(-1, 3))
    table, table_spread = _robust(np.concatenate(strip))
    return ColourHint(face, face_spread, table, table_spread)
