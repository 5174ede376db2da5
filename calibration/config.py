"""Every tunable number of ``caller calibrate`` (``calibration.learn``), in one typed, frozen
config: the ``[calibration]`` section of the settings file (see ``caller.config``). Checked as
``vision.config`` checks its sections: an unknown key, a wrong type, a NaN or a value out of
its range is a ConfigError naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from vision.config import from_table, setting


@dataclass(frozen=True)
class CalibrationConfig:
    """How a profile is learnt from photos of known layouts, and when a layout is refused."""

    crop_jitter_px: float = setting(4.0, 0.0, 24.0)
    """Rectified px (48 a pitch) by which each cell's crop of every augmented copy is also cut
    off its place (uniformly, each way) and learnt again: on other cameras the lattice puts a
    face a few px off its place, and a model taught only centred faces fits such a face to no
    label (calibration benchmark, 440 photos: cell error 0.10 -> 0.05 %; 6 px: 0.10 %)."""
    copy_min_tiles: int = setting(10, 3, 24)
    """An augmented copy (learnt or held out) is used only when the reader's lattice in it holds
    at least this many tiles: a lattice fitted to a handful of faces in a blurred, darkened copy
    cuts its faces px off their places, and one such copy in 16 taught a profile to misread a
    face cut 3 px off (7 tiles is the least the reader accepts as a board)."""
    held_copies: int = setting(6, 1, 1000)
    """Further copies of each photo, more strongly varied, kept aside to set temperatures and
    the covered-cell thresholds."""
    misfit_limit: float = setting(4.0, 0.0, None)
    """Leave-one-out misfit (over the median) above which a cell is suspect; it is refused when
    the default model also reads another tile there ..."""
    misfit_alone: float = setting(8.0, 0.0, None)
    """... and above which it is refused even when the default model agrees with the truth."""
    tile_gap: float = setting(5.0, 0.0, None)
    """Nats by which the truth's tiles, read jointly, must cost the default model more than its
    own reading for the cells it reads otherwise to be refused without a misfit (as ``coin_gap``
    for the coins). On 28 photos of all five looks (bundled stills and fresh renders) an honest
    truth costs 0.00 more; every one of the 7,728 swaps of two tiles at least 1.6 and 99.9 %
    above 5."""
    prior_sure: float = setting(10.0, 0.0, None)
    """Nats by which the default model must prefer the truth's tile over every other at a cell
    for that cell to pass with a misfit above ``misfit_alone``. The suit + rank model does not
    hold for the aces (each suit's ace is its own emblem): an honest Moons or Crowns ace
    misfits 7 to 18 where the default model reads it by 20 to 47 nats."""
    familiar_cells: int = setting(22, 0, 25)
    """The default model judges the layout's tiles only where it reads at least this many of the
    25 cells as the layout says (a set like the ones it was built from: a swap leaves it 23).
    Otherwise its reading says nothing about the set, and the set's own suit x rank structure
    judges the layout (``calibration.structure``). Tuning editions 20-39: the default model
    reads 0-3 cells of dark sets as the layout says, 11-19 of unfamiliar light ones."""
    window_share_gain: float = setting(0.15, 0.0, 2.0)
    """The calibration photo's board is read in another window (one pitch off) or turn than the
    reader's own only when the set's faces follow the layout's suits and ranks better there by
    this share of their variance (``calibration.learn._unexplained``; used when the default
    model reads no candidate as the layout says). Calibration photos of tuning editions
    400-519: right candidates leave 0.99-1.55 unexplained, the reader's own wrong ones 1.63-1.69,
    and the wrong candidates that beat a right own window did so by 0.09 to 0.21."""
    structure_misread: int = setting(10, 0, 24)
    """An unfamiliar set's layout is refused when more than this many cells read, leave-one-out,
    as another suit or rank than the layout gives: either another layout, or faces that this
    photo does not tell apart, so that no swap could be seen. Calibration photos of tuning
    editions 400-615: honest layouts 0-6 cells on 180 of 213, 7-10 on 19 (one ink for every
    suit, aces drawn as emblems), more on 14; every layout of another deal 22-24; a board found
    a row off 24."""
    swap_gap: float = setting(5.0, 0.0, None)
    """Calibrated nats by which two cells of an unfamiliar set must fit each other's labels better
    than their own to be refused as swapped. Tuning editions 20-39 with at most
    ``structure_misread`` misread cells: honest layouts' best exchange 1.6-4.4, 23 of 24 random
    swaps 5.6-15.3 (one 4.6)."""
    swap_ordinary: float = setting(2.0, 0.0, None)
    """Two cells are also named as swapped when each fits its label at least this many times as
    badly as the photo's median face and the other's label no worse than that, whatever the
    calibrated gain (faces unlike any other of their rank, such as aces drawn as emblems, drag
    the calibration of the nats down). Tuning editions 400-615: no honest layout refused by it,
    random swaps of two tiles named 8 more of 213."""
    pawn_gap: float = setting(0.25, 0.0, None)
    """Scaled chroma: the truth's pawn colours must fit this much worse than the best matching of
    pawns to suit inks for the layout to be refused."""
    coin_gap: float = setting(5.0, 0.0, None)
    """Nats by which the truth's coins must fit the default model worse than its own reading for
    the layout to be refused (40 photos: honest truths at most 0.04 worse, two coins swapped
    3.2 to 36, 39 of 40 above 5)."""
    familiar_coins: int = setting(3, 0, 5)
    """The default model judges the coins only where it reads at least this many of the five as
    the layout says (two swapped coins leave it three); an unfamiliar set's coins are learnt as
    given."""
    ridge: float = setting(0.05, 0.0, None, above=True)
    """Ridge added to the within-class scatter of each learnt discriminant (one photo's copies
    are too few for an unregularised metric)."""
    prior_tile_weight: float = setting(1.0 / 3.0, 0.0, None, above=True)
    """Weight of the default model's tile metric against the learnt one: the learnt squared
    distances count 1 / this as much (measured on held-out renders of the held-out look: tiles
    lean on the learnt metric)."""
    outlier_quantile: float = setting(0.999, 0.0, 1.0)
    """The covered-cell threshold starts from this quantile of the held-out true-class costs ..."""
    outlier_factor: float = setting(100.0, 1.0, None)
    """... times this (photos of other cameras sit tens of times farther from the prototypes than
    any copy of the one photo: a tight threshold would call half the board covered) ..."""
    outlier_offset: float = setting(10.0, 0.0, None)
    """... plus this many nats."""
    preview: bool = setting(True)
    """When the board finder misses the board in a photo and a display exists, open a window on
    the photo to click the board's corners; false: never open one (pass ``--corners``)."""


def calibration_config(table: Mapping[str, Any], where: str = "[calibration]") -> CalibrationConfig:
    """A CalibrationConfig from a parsed ``[calibration]`` table; raises ConfigError."""
    return from_table(CalibrationConfig, table, where)
