"""Every tunable number of the reader, the motion gate, the push detector and the position
tracker, in one typed, frozen config nested by stage.

Defaults are what the benchmarks were run with. Each field says its unit and why it has its
value; ``low``/``high`` in its metadata is the range a settings file may set it to (checked
when the file is loaded, so a bad value fails before any frame is read). The settings file
(see ``caller.config``) overrides any of them in a ``[vision.SECTION]`` table::

    [vision.assign]
    confidence_threshold = 0.95

    [vision.locate]
    detect_long_side = 800

An unknown key or section, a value of the wrong type, a NaN or infinity, or a value outside
its range is a :class:`vision.errors.ConfigError` naming the key. ``from_table`` does the same
for any config dataclass built with ``setting`` (``calibration.config`` uses it).
"""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from vision.errors import ConfigError


def setting(default: Any, low: float | None = None, high: float | None = None, *, above: bool = False) -> Any:
    """A config field with its default and allowed range ``low``..``high`` (``above``: strictly
    greater than ``low``); ``None`` leaves that end open."""
    return field(default=default, metadata={"low": low, "high": high, "above": above})


def section(cls: type) -> Any:
    """A nested config section that defaults to ``cls()``."""
    return field(default_factory=cls)


# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LocateConfig:
    """Finding the board: tile quads in a downscaled copy of the frame, fitted to a lattice."""

    detect_long_side: int = setting(640, 64, 8192)
    """Long side (px) of the low-resolution copy searched last, only when the fine copy shows no
    board (faces so large that the fine masks break them up). At 720p and 1080p the gaps between
    tiles are under a pixel there and the tiles run together, so it is not searched first."""
    detect_fine_long_side: int = setting(1280, 64, 8192)
    """Long side (px) of the copy the board is searched in (small or touching tiles need it)."""
    gap_line_contrast: int = setting(6, 0, 255)
    """Thin lines (gaps between touching tiles) at least this many grey levels darker or lighter
    than their surroundings split the face masks of the fine search; 0 turns that off."""
    gap_line_px: int = setting(3, 1, 31)
    """Widest such line (px in the fine copy, odd): the kernel of the black-hat cut from the bright
    mask; the dark mask's black-hat / top-hat takes 2 px more (a tile's shadow line is wider)."""
    outline_line_contrast: int = setting(3, 0, 255)
    """When the three searches find few tiles, a last one takes faces as the regions between thin
    dark lines (outlines, gaps) at least this many grey levels darker than their surroundings
    (and twice that, and one more with a line 2 px wider than ``gap_line_px``); 0 turns it off.
    Its lattice replaces theirs only with more tiles."""
    outline_search_tiles: int = setting(18, 0, 24)
    """That last search runs when the three found fewer than this many tiles on a lattice
    (``min_tiles`` runs it only when they found no board: faster on hard frames, fewer boards fixed)."""
    outline_min_face: float = setting(0.7, 0.0, 1.0)
    """That last search's lattice is taken only when a tile's side is at least this fraction of a
    pitch (tiles nearly touch: about 0.85; a lattice of glyph-sized fragments has less)."""
    min_tile_px: float = setting(16.0, 4.0, 1000.0)
    """Smallest tile side (px, in the detection copy) taken as a tile candidate."""
    max_tile_frac: float = setting(0.25, 0.0, 1.0, above=True)
    """Largest tile side as a fraction of the detection copy's short side."""
    quad_fill: float = setting(0.80, 0.0, 1.0)
    """A candidate blob must fill at least this fraction of its fitted quadrilateral (times 0.8:
    a glyph's hole is taken out of the blob's area only approximately)."""
    quad_hull_fill: float = setting(0.85, 0.0, 1.0)
    """... and its convex hull at least this fraction (a tile is convex; an L of two merged
    faces or a face with a shadow bite is not)."""
    quad_max_aspect: float = setting(2.2, 1.0, None)
    """Longest side of a candidate quad at most this many times its shortest (a tile seen at
    40 degrees of tilt is under 1.4; two faces merged side by side are 2)."""
    quad_approx: float = setting(0.06, 0.0, 0.5, above=True)
    """Tolerance of the polygon fitted to a blob's hull, as a share of the hull's perimeter:
    loose enough that rounded tile corners and a pixel-stepped edge give four corners."""
    blob_small_slack: float = setting(0.8, 0.0, 1.0, above=True)
    """A blob is measured only when its bounding box is at least this share of ``min_tile_px``
    each way (the box of a tilted quad is larger than its sides: this is a cheap first cut) ..."""
    blob_big_slack: float = setting(1.5, 1.0, None)
    """... and at most this many times the largest tile side (``max_tile_frac``) each way ..."""
    blob_max_aspect: int = setting(3, 1, 100)
    """... and its box's long side at most this many times its short side."""
    blob_min_ink: float = setting(0.02, 0.0, 1.0)
    """Share of the inner 70 % of a blob's box that must be ink (a glyph or the suit symbol):
    blank look-alikes (the checks of a tablecloth) have none."""
    blob_min_area: float = setting(0.5, 0.0, None)
    """A blob's area (px, the glyph's hole taken out) must be at least this many squares of
    ``min_tile_px`` ..."""
    blob_min_box_fill: float = setting(0.3, 0.0, 1.0)
    """... and at least this share of its bounding box (a thin diagonal line's box is large)."""
    lattice_tol: float = setting(0.22, 0.0, 0.5, above=True)
    """A candidate is on the lattice when its centre lies within this many pitches of a node."""
    seed_enough_tiles: int = setting(20, 1, 24)
    """The lattice grown from one seed quad that explains this many candidates (or
    ``seed_enough_share`` of them, when fewer) ends the search over seeds ..."""
    seed_enough_share: float = setting(0.9, 0.0, 1.0)
    """... see ``seed_enough_tiles``."""
    refit_side_min: float = setting(0.6, 0.0, 1.0)
    """Once the lens is modelled, a candidate joins the lattice when its mean side is more than
    this many times the face size ..."""
    refit_side_max: float = setting(1.5, 1.0, None)
    """... and less than this many times (a merged pair or a glyph fragment is not a face)."""
    window_score_tie: float = setting(1.0, 0.0, None)
    """When tiles are missing along an edge, the 5x5 windows whose score (their cells' summed
    tileness, plus ``window_like_weight`` per cell of the tiles' colour) is within this of the
    best are all kept, and the orientation step picks among them."""
    window_like_weight: float = setting(2.0, 0.0, None)
    """... and each cell of a window whose middle has the colour of the tiles found adds this to
    its score (tileness alone favours a row of coins over a row of faint dark faces) ..."""
    window_like_spread: float = setting(2.0, 0.0, None)
    """... a colour within this many times the 90th percentile of the found tiles' distances
    (grey levels, BGR) from their median colour ..."""
    window_like_min: float = setting(12.0, 0.0, None)
    """... or within this many levels, whichever is more."""
    window_edge_share: float = setting(0.5, 0.0, None)
    """... and so does each cell bounded by edges where a tile's sides would be, whose gradient
    across its sides (the mean of the middle two sides' medians) is at least this share of the
    found tiles' median (light faces on a table of their colour)."""
    outline_tol: float = setting(0.2, 0.0, 0.5, above=True)
    """A lattice tile's corners feed the lens fit only when each lies within this many pitches of
    its node's face corner (else only its centre does: a face half under a hand, or merged with a shadow)."""
    lens_min: float = setting(-0.3, -1.0, 0.0)
    """The lens fit tries radial distortions (``lam`` of ``vision.locate.undistort``, radii in
    image half-diagonals) from this ..."""
    lens_max: float = setting(0.05, 0.0, 1.0)
    """... to this (the plausible range of webcam lenses) ..."""
    lens_steps: int = setting(8, 3, 100)
    """... in this many steps, refined by a parabola through the best three."""
    first_fit_outline_slack: float = setting(1.5, 1.0, None)
    """The first lens fit, before the lens is modelled, takes corners within this many times
    ``outline_tol`` (an uncorrected lens bends the outer tiles' corners off their places)."""
    min_tiles: int = setting(7, 3, 24)
    """Fewest lattice tiles accepted as a board (24 are on a full board; hands hide some, and a
    check tablecloth of the tiles' size with blur can hide most: 7 found on 40 px tiles touching
    on light checks, and every cell then read right). Seven inked, tile-sized quads on one
    lattice are no accident of a table."""
    single_erosion_tiles: int = setting(20, 0, 24)
    """The fine copy's bright mask is searched eroded once; only when that finds fewer than this
    many tiles on a lattice are the quads of the mask eroded twice (touching tiles part after
    two px) added. A third less search time at 720p for about one board in 450 read worse."""
    min_quick_tiles: int = setting(18, 0, 24)
    """The fine copy's bright-mask search that finds this many tiles on a lattice ends the
    search, else the thorough masks are added."""
    dark_face_tiles: int = setting(7, 0, 24)
    """When the searches find fewer than this many tiles on a lattice, they are run again on the
    frame's negative (dark faces with light inks are light faces with dark inks there), whose
    lattice is taken only with more tiles; 0 turns that off."""
    contrast_clip: float = setting(3.0, 0.0, None)
    """Then the searches run on the frame and its negative with their local contrast equalised
    (OpenCV's CLAHE with this clip limit, a multiple of the mean count per histogram bin);
    0 leaves those two out ..."""
    contrast_grid: int = setting(8, 1, 64)
    """... over this many by this many regions of the frame."""
    second_board_tiles: int = setting(14, 3, 24)
    """A second lattice with at least this many tiles means two boards are in view."""


@dataclass(frozen=True)
class GridConfig:
    """Finding a board of tiles grid side up (``vision.grid_locate``) and reading its squares."""

    table_colours: int = setting(3, 1, 8)
    """Colours of the table clustered from the frame's border (a checked cloth has two or three)."""
    table_distance: float = setting(12.0, 1.0, 200.0)
    """Lab distance from the table's colours at which pixels count as pieces: searched at 1, 5/3
    and 5/2 times this (tiles of the table's own shade stand out little, others much)."""
    line_contrast: int = setting(8, 1, 80)
    """Grey levels by which a thin line (black-hat or top-hat) stands out: searched at 1, 2 and
    3.5 times this (faint lines of a blurred frame, strong ones of a sharp frame)."""
    search_again_below: int = setting(10, 0, 48)
    """When the search finds fewer tiles than this (on one lattice), it looks again: for fainter
    lines (``faint_contrast``), then for the board's outline cut into tiles (0: never)."""
    faint_contrast: int = setting(3, 1, 80)
    """Looking again, the lines are looked for at every contrast from this up to
    ``line_contrast`` (light grey lines on white tiles, blurred and noisy, stand out by 3-6
    levels)."""
    min_gridness: float = setting(0.5, None, None)
    """A candidate quad is kept when its cross of lines stands out by this much (``gridness``)."""
    cell_score_cap: float = setting(3.0, 0.0, None, above=True)
    """A lattice cell's gridness counts at most this much when the board's window is placed."""
    window_table_weight: float = setting(1.0, 0.0, None)
    """... and the share of its middle whose colour is not the table's (further than 5/3
    ``table_distance`` from every colour of the frame's border) counts this much: a column of
    tiles the lattice fits loosely shows its cross faintly or not at all, but not the table's
    colour (0: gridness alone)."""
    seeds: int = setting(16, 1, 64)
    """Candidates tried as the lattice's seed."""
    min_tiles: int = setting(5, 3, 48)
    """Fewest tiles on one lattice that make a board."""
    tight_centre: float = setting(0.15, 0.0, 0.5, above=True)
    """Pitches: a tile found sits *tightly* on the fitted lattice when its centre lies this close
    to its node's middle (and its corners within ``locate.outline_tol`` of its face's). The
    lattice is also refitted to those tiles alone and kept when its board's window shows the grid
    better: a lattice that squeezed two rows of tiles onto one row of nodes fits the tiles near
    its seed tightly, the squeezed ones only loosely."""
    tight_rounds: int = setting(4, 1, 20)
    """Rounds at most of that refit (every tile snapped to its nearest node again, the tight ones
    refitted)."""
    sure_tiles: int = setting(10, 0, 48)
    """A board with fewer of its tiles found by the search than this is read with every square
    uncertain: a lattice fitted to few tiles may put the board a tile off."""
    sure_fit: float = setting(0.09, 0.0, None, above=True)
    """... as is a board whose tiles found lie further than this (pitches, median) from the
    middles of their places on the lattice."""
    pawn_fit: float = setting(0.0, 0.0, None)
    """A pawn is placed only on a square where it beats the square's best other reading by this many nats."""
    pawn_room: float = setting(0.5, 0.0, None, above=True)
    """A square whose best reading other than a pawn costs more than this many times the squares
    model's outlier threshold may hold a pawn that fits it no better (read, with a confidence of
    one half or less: a pawn on a corner square, the board's edge behind it, fits loosely)."""
    pawn_reach: float = setting(1.5, 0.0, None, above=True)
    """A pawn whose cost (nats) on every square it may stand on is above this many times the
    squares model's outlier threshold is off the board (a standing pawn fits its model more
    loosely than a flat coin fits its own)."""
    empty_loose: float = setting(5.0, 0.0, None)
    """A square read empty whose cost as empty is above this many nats is read in doubt (0:
    never): a coin under a glare or a null coin with a faint rim shows little but a numeral or
    a rim, fits an empty square loosely rather than a coin at all, and was read empty with a
    confidence of one. (On the live recordings looked at, one empty square in a hundred read
    right fits this loosely; every coin read empty did.)"""
    empty_loose_ratio: float = setting(4.0, 0.0, None)
    """... and above this many times the median cost of the board's squares read empty (a
    board needs four of them): the squares models differ in scale (one fits its empty squares
    at 2-7 nats, another at about one). Boards whose turn their faces or the camera's side
    tell are read without either."""
    rim_among: int = setting(4, 0, None)
    """A square read empty whose coin rim shows as strongly as the rims of the board's coins
    read sure is read as a coin, and a blank face (a null) read where the rim shows as faintly
    as the empty squares' is read empty: a null's face carries no ink, and turned away from
    upright its one mark (the dot at its top) no longer tells it from an empty square, but its
    rim does, on the board's own scale: the rims of at least this many squares read sure
    empty, and as many read sure holding a coin (0: never; the models alone)."""
    rim_gap: float = setting(0.02, 0.0, None)
    """... and only on a board where the rims of the coins read sure (their tenth percentile)
    stand this far above the rims of the empty squares read sure (their ninetieth): a blurred
    frame or an unfamiliar set may show no gap at all."""
    coin_turns: int = setting(12, 1, 72)
    """A coin lies on its square at any turn, and the squares models learnt coins turned up to
    20 degrees either way: a square that may hold a coin value side up is also read with the
    coin's face turned by each of this many steps round (30 degrees apart: each step's
    neighbours are read by the model's 20), and each value keeps its best fit (1: read as it
    lies only). A suit side is read as it lies (turned, the suits' symbols drew an unfamiliar
    set's numerals)."""


@dataclass(frozen=True)
class RectifyConfig:
    """The canonical top view the board is cut from."""

    cell_px: int = setting(48, 8, 512)
    """Pixels per lattice pitch (tile plus gap) in the rectified top view."""
    margin_pitches: float = setting(1.75, 1.0, 4.0)
    """Rectified margin around the board (pitches) that holds the pawn column and coin row."""


@dataclass(frozen=True)
class FeaturesConfig:
    """Crops of doubtful pieces cut again a few px off the found place (the lattice and the coin
    ring search put a face or coin within a few px of its place, and a glyph 3 px off looks
    like another rank)."""

    tile_nudge_px: float = setting(3.0, 0.0, 24.0)
    """Rectified px (48 a pitch) by which a doubtful tile crop is nudged each way (the 8 places
    around the found one)."""
    tile_nudge_gap: float = setting(2.0, 0.0, None)
    """Nats: a cell is doubtful (worth nudging) when its best two labels are this close ..."""
    tile_nudge_cost: float = setting(5.0, 0.0, None)
    """... or when even its best label costs this much (nats)."""
    coin_nudge_px: int = setting(3, 0, 32)
    """Coin-window px (128 a pitch) by which a doubtful coin crop is nudged each way."""
    coin_nudge_gap: float = setting(6.0, 0.0, None)
    """Nats: a coin whose best two values are closer than this, or than ``coin_nudge_ratio``
    times its best value's cost, is also read at the nudges (the same values and sure/unsure
    split as nudging every coin, measured on 800 coins, about 9 ms a frame less)."""
    coin_nudge_ratio: float = setting(2.0, 0.0, None)
    """See ``coin_nudge_gap`` (a calibrated profile's costs on another camera run far higher)."""
    coin_wide_share: float = setting(1.0 / 3.0, 0.0, None)
    """A coin whose best value costs more than this share of the coin model's outlier cost fits
    no value: the ring search put its centre off the digit (blur, a thick coin's side or shadow
    pull the outline 5-19 px), and it is cut over a wider grid, kept where some place fits a
    value this well (read benchmark: 17 coins wrong on 10 boards -> 8)."""
    coin_wide_step_px: int = setting(3, 1, 32)
    """Coin-window px between the places of that wider grid ..."""
    coin_wide_reach_px: int = setting(9, 0, 64)
    """... and how far (px, each way) it reaches from the found centre."""


@dataclass(frozen=True)
class OrientationConfig:
    """Which side of the board is the player's: the coin row and pawn column, then the faces."""

    margin: float = setting(1.5, 0.0, None)
    """An orientation whose score beats the runner-up by less than this is not trusted (the
    pawns' and coins' confidences are lowered by the shortfall)."""
    sure_margin: float = setting(6.0, 0.0, None)
    """An orientation margin this large leaves no doubt of the side (2 x ``margin`` + 3): the
    faces are not consulted."""
    band_near: float = setting(0.12, 0.0, 1.0)
    """Pitches outside the board where the band of a side's slots (coins, pawns) begins (the
    gap and a tile edge's shadow left out) ..."""
    band_far: float = setting(1.0, 0.0, 1.75, above=True)
    """... and where it ends (the coins and pawns stand within a pitch of the board)."""
    band_pad: float = setting(0.15, 0.0, 0.45)
    """Pitches left out at each end of a slot (a coin's neighbour, the corner)."""
    piece_full: float = setting(0.12, 0.0, 1.0, above=True)
    """Foreground share of a slot at which a coin or pawn counts as fully there."""
    solid_from: float = setting(0.55, 0.0, 1.0)
    """A slot filled beyond this share looks like a tile (coins and pawns cover well under
    half of one) ..."""
    solid_span: float = setting(0.2, 0.0, 1.0, above=True)
    """... fully so this much further on."""
    pawn_weight: float = setting(2.0, 0.0, None)
    """Weight of the pawn column in a side's score against the coin row's 1: pawns (tall,
    coloured) show far more reliably than cream coins on a light table."""
    other_weight: float = setting(0.5, 0.0, None)
    """Weight of pieces seen beside the other two sides (subtracted)."""
    solid_weight: float = setting(2.0, 0.0, None)
    """Weight of tile-like slots in the coin row and pawn column (subtracted: the window would
    then be one row off)."""
    face_turn_ratio: float = setting(3.0, 1.0, None)
    """The tile faces settle an orientation that the coin row and pawn column leave in doubt
    when the best quarter turn fits the faces this many times better (median best cost) than
    any other: upright faces fit their labels, turned ones fit none (measured: 0.5-1.8 nats
    upright against 27-44 turned)."""


@dataclass(frozen=True)
class RecheckConfig:
    """Whether the 5x5 window found may be one pitch off, and when a moved window wins."""

    edge_cost: float = setting(6.0, 0.0, None)
    """Nats: an edge row or column whose cells' best costs average more than this (and
    ``edge_median_ratio`` times the board's median) makes the reader try the window one pitch off."""
    edge_median_ratio: float = setting(3.0, 0.0, None)
    """See ``edge_cost``."""
    suspect_odd_cells: int = setting(3, 1, 25)
    """This many cells that look like no tile also make the window suspect."""
    cell_cap: float = setting(30.0, 0.0, None)
    """Nats: a cell's best cost counts at most this much when windows are compared (a hand costs
    a lot anywhere) ..."""
    cap_ratio: float = setting(6.0, 0.0, None)
    """... or this many times the found window's median best cost, when that is more (a
    calibrated profile's costs on another camera run several times the default model's)."""
    odd_ratio: float = setting(16.0, 0.0, None)
    """A cell whose best cost is this many times the found window's median looks like no tile
    when windows are compared, as one beyond the profile's outlier threshold does (the default
    model's threshold is about 16 times a typical board's median; a calibrated profile's is
    hundreds of times, far too lenient to tell a coin row from faces)."""
    gain: float = setting(15.0, 0.0, None)
    """Nats over the board by which a shifted window must fit better to replace the found one
    (when it has no fewer cells that look like no tile)."""
    fewer_odd_cells: int = setting(2, 1, 25)
    """A shifted window with this many fewer cells that look like no tile (and a lower sum)
    replaces the found one."""
    window_moves: int = setting(2, 0, 5)
    """How many times in a row a suspect window may move, each move checked again (a window a
    row and a column off needs two)."""
    side_gain: float = setting(3.0, 0.0, None)
    """How much better (``orientation_scores``) the coin row and pawn column must fit a window
    moved away from an edge where no face was seen."""
    unseen_edge_side: float = setting(6.0, 0.0, None)
    """In a window whose coin row and pawn column fit worse than this (side score), an edge row
    or column where the board search saw at most ``unseen_edge_faces`` faces, on cells whose
    best costs average ``unseen_edge_cost_ratio`` times the board's median or more, counts as
    unseen too: two coins of the coin row can pass for faces, badly. Right windows score 7.6
    or more on 210 development photos but one (3.8)."""
    unseen_edge_faces: int = setting(2, 0, 5)
    """See ``unseen_edge_side``."""
    unseen_edge_cost_ratio: float = setting(2.0, 0.0, None)
    """See ``unseen_edge_side``."""
    unseen_edge_moves: int = setting(2, 0, 5)
    """How many times in a row the window may move away from an unseen edge."""


@dataclass(frozen=True)
class AssignConfig:
    """Classification: the joint assignment's costs and what counts as uncertain or covered."""

    confidence_threshold: float = setting(0.90, 0.0, 1.0)
    """Cells, pawns and coins whose confidence is below this are listed as uncertain (the live
    Caller never acts on them)."""
    covered_excess_ink: float = setting(0.03, 0.0, None)
    """A cell is covered (uncertain whatever it looks like) when its face is darker than every
    known face by this much on average ..."""
    covered_ink_tolerance: float = setting(0.08, 0.0, 1.0)
    """... counting in each cell of the 10 x 10 ink map only the ink beyond this (a face's print
    and the crop's place vary a little from the prototype's)."""
    clear_fit_cost: float = setting(1.5, 0.0, None)
    """Nats: a face that fits its best label this well ..."""
    clear_fit_gap: float = setting(6.0, 0.0, None)
    """... and beats the runner-up by this much is read, not covered, whatever its excess ink: an
    uneven light (a shadow across a row) darkens faces without hiding them (on 90 development
    renders, 305 cells under hands: none fits better than 1.8)."""
    covered_cap: float = setting(8.0, 0.0, None)
    """Nats: the most any label may cost a covered cell above its best label (a covered cell
    free to take any label lets every unsure cell of its suit hand its label on)."""
    covered_median_ratio: float = setting(6.0, 0.0, None)
    """A cell whose best label costs more than this many times the board's median best cost (and
    more than ``covered_min_cost``) is covered, whatever the model's outlier threshold: a
    calibrated profile's threshold lies at thousands of nats, and cells under a hand fitted at
    4-20 times the median while keeping a clear margin (on 32 tuning photos with a hand, read
    with profiles calibrated for their sets: 11 -> 3 cells read wrong with confidence; the
    default model's clean faces stay under it)."""
    covered_min_cost: float = setting(10.0, 0.0, None)
    """Nats: ... and costs more than this: on a clean board of a set the model knows the median
    is well under a nat, and six times it is a face that fits a little worse, not a hand (40
    development renders without hands: no cell beyond 10 nats and 6 times its median; without
    this floor 23 more of their 1,000 cells were uncertain)."""
    loose_fit_cost: float = setting(3.0, 0.0, None)
    """Nats: a cell whose best label costs more than this (or than ``loose_fit_ratio`` times the
    board's median best cost, whichever is larger) fits loosely: next to a covered cell (sharing
    a side) it is uncertain, and elsewhere it needs ``loose_fit_confidence``. A hand covers
    contiguous cells and those at its edge, partly hidden, can pass the covered test and be read
    wrong (on 112 tuning photos with a hand, every such cell read wrong fitted worse than
    3.0 nats; half of those read right fit under 1.4)."""
    loose_fit_ratio: float = setting(0.5, 0.0, None)
    """... (a calibrated profile's costs on another camera run several times the default
    model's, so the bar rises with the board's median best cost)."""
    loose_fit_confidence: float = setting(0.95, 0.0, 1.0)
    """The confidence a loosely fitting cell needs to be read (above ``confidence_threshold``;
    on the same photos the cells under a hand that were read wrong with confidence had
    0.90-0.94)."""
    weak_confidence: float = setting(0.5, 0.0, 1.0)
    """The confidence given at most to a loosely fitting cell that is not read and to a coin
    that fits no value (below ``confidence_threshold``: uncertain, not covered; the label is
    still the assignment's best)."""
    coin_unfit_share: float = setting(0.5, 0.0, None)
    """A coin whose best value costs more than this share of the coin model's outlier cost is uncertain (at most ``weak_confidence``): a hand or sleeve over it, or a coin unlike any the model knows (on 112 tuning photos with a hand, 52 of them of unfamiliar sets: coins read wrong with confidence 45 -> 4, coins read right but flagged 39 -> 60 of 560)."""
    pawn_relative_margin: float = setting(0.75, 0.0, None)
    """A pawn whose reading beats the next best assignment of the pawns by less than this share
    of its own cost is uncertain (at most ``weak_confidence``). A profile calibrated on one photo
    sets its temperature on copies of that photo, which its pawns fit far better than any other
    photo's (the pawn model's temperature often reaches the top of the search, 3.0): its margins
    on another photo run to hundreds of nats for a permutation of the pawns. Tuning editions
    520-567 after calibration, 3 photos each with no hand and 3 with one: pawns read wrong
    with confidence 28 -> 8, pawns read right with confidence 774 -> 734 of 799."""
    seen_face_hole_cost: float = setting(8.0, 0.0, None)
    """Nats added to the hole's cost in a cell where the board search saw a tile face: the hole
    shows table, and on 200 development renders no hole was ever seen as a face, while 3,776 of
    4,800 tiles were. Evidence, not a veto: on a gingham, striped or dotted cloth the search can
    take the table in the hole for a face, and a blank null it missed then took the hole
    (tuning editions 520-567: boards with the hole misplaced after calibration 3 -> 1 of 111
    photos with 1000 -> 8; default model 13 -> 11 of 144)."""


@dataclass(frozen=True)
class MotionConfig:
    """The motion gate: is the scene moving (a hand, a sliding tile) or has it settled?"""

    thumb_width: int = setting(160, 16, 4096)
    """Px; the difference is taken at this width (cheap enough for every frame)."""
    pixel_threshold: int = setting(18, 0, 255)
    """Grey levels (0-255) for a thumbnail pixel to count as changed (above sensor noise)."""
    moving_fraction: float = setting(0.004, 0.0, 1.0)
    """Fraction of changed pixels above which the frame is "moving"."""
    settle_s: float = setting(0.2, 0.0, 60.0)
    """Seconds without motion before the scene counts as still."""


@dataclass(frozen=True)
class PushesConfig:
    """Two tiles pushed at once, told from two slides by following both faces (``vision.pushes``)."""

    cell_px: int = setting(32, 8, 256)
    """Pixels a cell in the track's small warped pictures of the board."""
    margin_px: int = setting(4, 0, 15)
    """Pixels of a cell's border left out of its face (gaps, neighbours' edges)."""
    slack_px: int = setting(3, 0, 15)
    """Pixels searched across the line of travel (a board nudged, corners a little off)."""
    blank_std: float = setting(2.0, 0.0, None)
    """Grey-level spread below which a face part is blank and cannot be followed."""
    clear: float = setting(0.6, -1.0, 1.0)
    """Normalised correlation for a face to count as found clearly."""
    faint: float = setting(0.45, -1.0, 1.0)
    """... and faintly: the far face under the pushing finger, where the near one is."""
    close_share: float = setting(0.1, 0.0, 1.0)
    """How close (part of a cell) a faint far face must be to the clear near one."""
    moving_lo: float = setting(0.15, 0.0, 1.0)
    """Part of a cell from home from which a tile counts as on the way ..."""
    moving_hi: float = setting(0.85, 0.0, 1.0)
    """... and up to which (beyond it, with a clear face, it has arrived)."""
    same_share: float = setting(0.2, 0.0, 1.0)
    """At most this far apart (part of a cell): moving together."""
    apart_share: float = setting(0.45, 0.0, 1.0)
    """At least this far apart: one moved without the other."""
    together_frames: int = setting(3, 1, 1000)
    """Frames showing the tiles together needed to call it a push ..."""
    apart_frames: int = setting(1, 0, 1000)
    """... with at most this many showing them apart."""
    settled_frames: int = setting(8, 1, 1000)
    """Frames in a row with both tiles clearly in their new cells: the motion is over."""
    max_frames: int = setting(900, 1, 100000)
    """Pictures kept (30 s at 30 fps); the oldest go first."""


@dataclass(frozen=True)
class TrackerConfig:
    """From a stream of readings to accepted positions (``caller.tracker``)."""

    accept_s: float = setting(0.3, 0.0, 60.0)
    """Seconds the same confident reading must hold to be accepted (bar: <= 0.5 s) ..."""
    expected_s: float = setting(0.1, 0.0, 60.0)
    """... or this many, when the reading is the change the game expects next (Easy Slider:
    one legal slide from the accepted position, what a player does nearly every time). It
    still needs ``min_reads`` confident reads that agree; anything else (a push of two tiles,
    a swap, several slides at once, a misread) waits the full ``accept_s``."""
    min_reads: int = setting(2, 1, 100)
    """... and the reads it must be seen in."""
    reread_s: float = setting(0.1, 0.0, 60.0)
    """Seconds between reads of still frames while a candidate is pending."""
    retry_s: float = setting(0.25, 0.0, 60.0)
    """Seconds between reads of a still frame whose read was not confident (a hand, glare)."""
    steady_s: float = setting(1.0, 0.0, 60.0)
    """Before the start: seconds of source time over which a doubtful pawn or coin must be read
    the same way to be taken as the reader's choice (a small or blurred coin is often never
    read sure, and without the coins the game cannot start) ..."""
    steady_reads: int = setting(4, 1, 100)
    """... on at least this many reads ..."""
    steady_spread: float = setting(0.75, 0.0, 1.0)
    """... spread over at least this share of ``steady_s`` (not one burst)."""
    sure_vote: float = setting(3.0, 0.0, None)
    """A pawn or coin whose reads keep changing is taken provisionally as the most frequent
    choice once the tiles have held; a sure read counts this many times an unsure one."""
    tile_steady_s: float = setting(0.5, 0.0, 60.0)
    """A read with one doubtful cell (or two that are not the hole) read the same way over
    this many seconds ..."""
    tile_steady_reads: int = setting(3, 1, 100)
    """... and this many reads is taken as sure when the Caller would follow the position it
    makes (one doubtful cell can only hold the label the other 24 leave; two swapped tiles
    are no slides). See ``caller.watch``."""


@dataclass(frozen=True)
class VisionConfig:
    """The whole of vision's settings, one section a stage (``[vision.SECTION]`` in the file)."""

    locate: LocateConfig = section(LocateConfig)
    grid: GridConfig = section(GridConfig)
    rectify: RectifyConfig = section(RectifyConfig)
    features: FeaturesConfig = section(FeaturesConfig)
    orientation: OrientationConfig = section(OrientationConfig)
    recheck: RecheckConfig = section(RecheckConfig)
    assign: AssignConfig = section(AssignConfig)
    motion: MotionConfig = section(MotionConfig)
    pushes: PushesConfig = section(PushesConfig)
    tracker: TrackerConfig = section(TrackerConfig)

    def replace(self, **changes: Any) -> "VisionConfig":
        """A copy with whole sections (``assign=AssignConfig(...)``) or single settings replaced;
        a setting is named alone when one section has it (``outline_line_contrast=0``), else
        as ``section__name`` (``pushes__cell_px=24``)."""
        names = [f.name for f in fields(self)]
        whole = {k: v for k, v in changes.items() if k in names}
        per: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            if key in whole:
                continue
            if "__" in key:
                home, name = key.split("__", 1)
                homes = [home] if home in names and name in _hints(type(getattr(self, home))) else []
            else:
                name = key
                homes = [n for n in names if key in _hints(type(getattr(self, n)))]
            if len(homes) != 1:
                raise TypeError(f"VisionConfig.replace: {key!r} names {'no' if not homes else 'more than one'} setting")
            per.setdefault(homes[0], {})[name] = value
        for home, values in per.items():
            whole[home] = dataclasses.replace(whole.get(home, getattr(self, home)), **values)
        return dataclasses.replace(self, **whole)


def nudges(step: float, reach: float) -> tuple[tuple[float, float], ...]:
    """The (dx, dy) offsets of a grid ``step`` apart out to ``reach`` each way, (0, 0) left out,
    dx the outer loop (the order the reader tries them in)."""
    n = int(reach // step) if step > 0 else 0
    axis = [type(step)(i * step) for i in range(-n, n + 1)]
    return tuple((dx, dy) for dx in axis for dy in axis if dx or dy)


# ------------------------------------------------------------------------------------------
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _is_section(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp) and isinstance(tp, type)


def _where_else(cls: type, key: str, prefix: str) -> str | None:
    """The nested section of ``cls`` that has a setting named ``key`` (for a helpful error)."""
    for name, tp in _hints(cls).items():
        if _is_section(tp):
            if key in _hints(tp):
                return f"{prefix}.{name}"
            deeper = _where_else(tp, key, f"{prefix}.{name}")
            if deeper:
                return deeper
    return None


def _value(f: dataclasses.Field, want: Any, value: Any, where: str) -> Any:
    """``value`` checked against the field's type and range; raises ConfigError naming it."""
    key = f"{where} {f.name}"
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if want in (int, float):
        if isinstance(value, bool) or not isinstance(value, want):
            raise ConfigError(f"{key} = {value!r:.60}: expected {'an integer' if want is int else 'a number'}")
        if want is float and not math.isfinite(value):
            raise ConfigError(f"{key} = {value!r}: expected a finite number")
        low, high, above = f.metadata.get("low"), f.metadata.get("high"), f.metadata.get("above")
        if (low is not None and (value <= low if above else value < low)) or (high is not None and value > high):
            lo = "" if low is None else (f"above {low}" if above else f"at least {low}")
            hi = "" if high is None else f"at most {high}"
            raise ConfigError(f"{key} = {value!r}: expected a value {' and '.join(x for x in (lo, hi) if x)}")
        return value
    if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
        raise ConfigError(f"{key} = {value!r:.60}: expected a {getattr(want, '__name__', want)}")
    return value


def from_table(cls: type, table: Mapping[str, Any], where: str) -> Any:
    """``cls()`` with the settings of a parsed TOML table (nested tables for nested sections).

    ``where`` names the table in errors (``"[vision]"``). Raises ConfigError for an unknown key
    or section, a wrong type, a NaN or infinity, or a value out of its range."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where} must be a table of settings, got {table!r:.60}")
    hints = _hints(cls)
    by_name = {f.name: f for f in fields(cls)}
    changes: dict[str, Any] = {}
    for key, value in table.items():
        if key not in by_name:
            inner = where[:-1] if where.endswith("]") else where
            home = _where_else(cls, key, inner)
            hint = f": it belongs in {home}]" if home else f": expected one of {', '.join(by_name)}"
            raise ConfigError(f"unknown key {key!r} in {where}{hint}")
        tp = hints[key]
        if _is_section(tp):
            sub = f"{where[:-1]}.{key}]" if where.endswith("]") else f"{where}.{key}"
            if not isinstance(value, Mapping):
                raise ConfigError(f"{sub} must be a table of settings, got {value!r:.60}")
            changes[key] = from_table(tp, value, sub)
        else:
            changes[key] = _value(by_name[key], tp, value, where)
    return cls(**changes)


def config_from_dict(table: Mapping[str, Any], source: str = "[vision]") -> VisionConfig:
    """A VisionConfig from a parsed ``[vision]`` table (its sub-tables are the sections)."""
    return from_table(VisionConfig, table, source)
