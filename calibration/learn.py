"""Learning a user's piece set from photos of known layouts: ``caller calibrate``.

For each photo the reader's own pipeline (``vision.reader.analyse``: board localisation,
rectification, orientation, feature extraction) cuts the 25 cells, 5 coins and 4 pawns,
and the truth labels them. The photo is then augmented (``calibration.augment``: other
cameras, lights, focus and sensors) and the reader's features recomputed on every copy, so
that each tile face, coin value and pawn colour has a cloud of examples from ONE photo. A
linear discriminant model per kind (``vision.profile.fit_class_model``) is fitted to the
clouds; its temperature and covered-cell threshold are set on a second, independent set of
augmentations. The result is an ordinary vision profile (same format as the default model).

Features are normalised by the tile paper inside vision (each face by its own paper, pawns
by the board's), so the profile's numbers are colours relative to the paper and a profile
learnt under a warm lamp reads the set under a cold window.

A truth that does not match its photo is refused, never learnt (:class:`TruthMismatch`):

* tiles: a set's faces are suit x rank, so a face's features are close to ``suit term +
  rank term``. Each cell's features are predicted from the *other* cells of its suit and
  rank (least squares, leave-one-out) and scaled by the spread the augmentations show; a
  cell labelled with the wrong tile (a swapped or misplaced tile, a wrong layout file)
  is predicted badly and stands out from the rest. The default model, which has seen many
  sets, has the last word where it is sure: a cell it reads otherwise is refused when the
  misfit agrees or when the truth costs it ``tile_gap`` nats more than its own reading, and a
  far misfit it reads as the truth says (every set's aces are emblems, not suit + rank)
  passes (``prior_sure``);
* tiles of a set the default model does not read (fewer than ``familiar_cells`` of the cells
  as the truth says: dark faces, light inks, emblems of its own) are judged by the set's own
  structure instead (``calibration.structure``): two cells that each fit the other's label
  better are named as swapped, a photo whose faces mostly fit no suit and rank is refused;
* the hole: the truth's hole must be the cell least like paper;
* pawns: each pawn's colour must be nearest the ink colour of its own suit's tiles.

* coins: the default model (which has seen many sets' coins) reads the coin row jointly;
  when the truth's coins cost it ``CalibrationConfig.coin_gap`` nats more than its own reading, the coins it reads
  otherwise are named. (Measured on 40 calibration photos of all five looks: the truth's
  coins cost at most 0.04 nats more than the reading; with two coins swapped, 3.2 to 36,
  39 of 40 above 5 nats.) Without the default model the coins are learnt as given.

A photo whose orientation the reader gets wrong (an unfamiliar set can fool its coin row
finder) is still usable: the quarter turn that fits the truth best is taken.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

import cv2

from calibration.augment import DEFAULT_NUISANCE, N_AUGMENT, Nuisance, augment_image, warp_points
from calibration.camera import CameraProfile, undistort, undistort_points
from calibration.config import CalibrationConfig
from calibration.corners import check_corners, estimate_face, lattice_from_corners, lattice_through
from calibration.errors import BoardNotSeen, CalibrationError
from calibration.structure import structure_fit
from calibration.truth import GAME, Truth
from vision import features as F
from vision.colour_hint import META_KEY as COLOUR_KEY, ColourHint, learn_colours
from vision.config import VisionConfig
from vision.errors import BoardNotFound, VisionError
from vision.assign import assign
from vision.locate import tile_candidates
from vision.profile import PROFILE_VERSION, ClassModel, Profile, fit_class_model, load_profile
from vision.reader import (COIN_INK_KEY, DARK_FACES, FACES_KEY, HOLE, LIGHT_COIN_INK, Analysis, analyse, coin_costs,
                           measure_pieces)
from vision.rectify import cell_crops, ring_cells

BOARD = 5
SUITS = ("S", "M", "C", "A")
RANKS = ("n", "a", "2", "3", "4", "5")
TILE_CLASSES = tuple(s + r for s in SUITS for r in RANKS) + (HOLE,)
COIN_CLASSES = ("a", "2", "3", "4", "5")
PAWN_CLASSES = SUITS

# (every number of learning is in ``calibration.config.CalibrationConfig``)
# coins and pawns look alike across editions (dark digits on pale discs, four plain colours):
# there the default model's metric, learnt on many real cameras, beats one photo's copies
# (held-out look, 26 photos: coin errors 13 default, 18 default metric + own prototypes, 46 own
# model), so the set's prototypes are added to the default's rather than a new metric learnt
PRIOR_METRIC_ONLY = ("coins", "pawns")
#: an unfamiliar set's layout with more pairs of tiles swapped than this is refused as another
#: layout (its cells are named only where the mistake is a swap or two)
MAX_SWAPS = 2
#: the table round the board looks like the paper when more than this share of the median ring
#: cell is within the paper's tolerance (the calibration photos of tuning editions 400-567: 0.47
#: or less on 158 of 165, 0.68-1.0 on the other 7, white or pastel faces on a white laminate,
#: paper or cloth)
TABLE_LIKE_PAPER = 0.5


#: the least distance between two suits' scaled ink chromas for the pawn check to judge the pawns
#: by them. Calibration photos of tuning editions 544-615: on the 16 sets with two suits' inks
#: closer than this (one black or white ink for every suit, or two suits alike) the honest
#: pawns were refused on three and a swap of two pawns caught on four, three of them the
#: refused ones (noise); on the 56 others a swap was caught on 51 and honest pawns refused on one
DISTINCT_INKS = 0.1

HELD_NUISANCE = Nuisance(scale=(0.8, 1.25), rotate_deg=40.0, perspective=0.08, blur_sigma=(0.5, 2.6),
                         downscale=(1.2, 2.8), wb_log_sigma=0.25, noise_sigma=10.0, jpeg=(25, 85), jpeg_chance=0.8)


class TruthMismatch(CalibrationError):
    """The given layout does not match the photo; the message names the cells, pawns or coins."""


@dataclass(frozen=True)
class PhotoFit:
    """How one photo fitted its truth: ``misfit`` (25, leave-one-out tile misfit over the median,
    NaN for the hole and covered cells), ``k`` (quarter turn used), ``problems`` (sentences)."""

    source: str
    k: int
    misfit: np.ndarray
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class LearnResult:
    profile: Profile
    fits: tuple[PhotoFit, ...]
    seconds: float
    validation: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# fit checks


def _cell_name(i: int) -> str:
    return f"[{i // BOARD}, {i % BOARD}]"


def _loo_residuals(X: np.ndarray, codes: Sequence[str]) -> np.ndarray:
    """Leave-one-out residuals of the rows of ``X`` (faces x features) under the suit + rank
    model (each face's features the sum of a suit term and a rank term, least squares),
    without refitting: r_i / (1 - h_ii)."""
    A = np.zeros((len(codes), len(SUITS) + len(RANKS)))
    for row, code in enumerate(codes):
        A[row, SUITS.index(code[0])] = 1.0
        A[row, len(SUITS) + RANKS.index(code[1])] = 1.0
    coef, *_ = np.linalg.lstsq(A, X, rcond=None)
    lev = np.clip(np.diag(A @ np.linalg.pinv(A)), 0.0, 0.95)
    return (X - A @ coef) / (1.0 - lev)[:, None]


def tile_misfit(feats: np.ndarray, labels: Sequence[str | None], spread: np.ndarray, skip: Sequence[bool]) -> np.ndarray:
    """Leave-one-out misfit of each cell under the suit + rank model, over the median (25,; NaN where skipped).

    ``feats`` 25 x D tile features; ``labels`` 25 codes (None = hole); ``spread`` D per-feature
    standard deviations (from augmentations) that scale the residuals.
    """
    idx = [i for i in range(len(labels)) if labels[i] is not None and not skip[i]]
    out = np.full(len(labels), np.nan)
    if len(idx) < 12:
        return out
    X = feats[idx].astype(np.float64) / np.maximum(spread, 1e-3)[None, :]
    loo = _loo_residuals(X, [labels[i] for i in idx])
    score = (loo * loo).mean(1)
    out[idx] = score / max(float(np.median(score)), 1e-9)
    return out


def _prior() -> Profile | None:
    """The bundled default model (None if it does not load or was learnt on other features than the reader's)."""
    try:
        prior = load_profile(None, game=GAME)
    except VisionError:
        return None
    return prior if prior.features.get("id") == F.FEATURES.get("id") else None


def _suspect_cells(a: Analysis, truth: Truth, misfit: np.ndarray, prior: ClassModel | None,
                   cc: CalibrationConfig = CalibrationConfig()) -> list[int]:
    """Cells whose tile does not fit the truth.

    With the default model (which has seen other sets): a cell it reads otherwise than the
    truth when the cell's misfit is above ``cc.misfit_limit`` too, or when the truth's tiles
    cost it ``cc.tile_gap`` nats more than its reading (a familiar-looking set); and a cell
    whose misfit is above ``cc.misfit_alone`` unless the default model reads the truth's tile
    there surely (``cc.prior_sure``). Without it: a misfit above ``cc.misfit_limit``.

    The suit + rank model alone also flags honest cells that a glare spot or a hand's shadow
    spoils, and every set's aces; the default model's joint reading keeps those (it reads
    them as the truth says)."""
    cells = [i for i in range(BOARD * BOARD)
             if truth.board[i // BOARD][i % BOARD] is not None and (i // BOARD, i % BOARD) not in truth.covered]
    if prior is None:
        return [i for i in cells if np.isfinite(misfit[i]) and misfit[i] > cc.misfit_limit]
    cost = prior.costs(a.tile_feats)
    cls = list(prior.classes)
    picks = assign(cost)
    labels = {i: truth.board[i // BOARD][i % BOARD] for i in cells}
    known = all(code in cls for code in labels.values())
    gap = sum(cost[i, cls.index(labels[i])] - cost[i, picks[i]] for i in cells) if known else 0.0
    out = []
    for i in cells:
        code, m = labels[i], misfit[i]
        far = np.isfinite(m) and m > cc.misfit_limit
        if cls[picks[i]] != code:
            if far or gap >= cc.tile_gap:
                out.append(i)
        elif far and m > cc.misfit_alone:
            j = cls.index(code)
            margin = min(float(cost[i, k]) for k in range(len(cls)) if cls[k] != code) - float(cost[i, j])
            if margin < cc.prior_sure:
                out.append(i)
    return out


def _read_as(feats: np.ndarray, codes: Sequence[str], model: ClassModel) -> list[int]:
    """The items (features ``feats``) that the default model's joint reading labels as ``codes`` do."""
    picks = assign(model.costs(feats))
    return [i for i, (k, code) in enumerate(zip(picks, codes)) if model.classes[k] == code]


def _agreement(feats: np.ndarray, codes: Sequence[str], model: ClassModel) -> int:
    """How many of the items (features ``feats``, labels ``codes``) the default model's joint reading labels as given."""
    if any(code not in model.classes for code in codes):
        return 0
    return len(_read_as(feats, codes, model))


def _tile_problems(a: Analysis, truth: Truth, copies: list[Samples], prior: ClassModel | None,
                   cc: CalibrationConfig = CalibrationConfig()) -> tuple[np.ndarray, list[str]]:
    """The photo's tile misfits (``tile_misfit``) and what is wrong with the truth's tiles, in sentences.

    A set the default model reads (``cc.familiar_cells``) is judged by it and the suit + rank
    misfit (``_suspect_cells``), and a cell it doubts is refused only when the set's own
    structure doubts it too (``_structure_doubts``): the default model misreads emblems it has
    never seen (aces drawn as the suit's symbol or as an "A", a blank null on wood taken for
    the table), the set's own suits and ranks do not. Two cells the structure sees exchanged
    and the default model reads otherwise both are refused too. Any other set is judged by its own
    structure alone (``calibration.structure``): up to ``MAX_SWAPS`` pairs of cells that fit
    each other's labels better than their own are named as swapped; more pairs than that, or
    (with none) more than ``cc.structure_misread`` cells that fit another suit or rank, refuse
    the layout whole."""
    labels, skip = _tile_labels(truth), _skip(truth)
    mis = tile_misfit(a.tile_feats, labels, _spread(copies), skip)
    seen = [i for i in range(BOARD * BOARD) if not skip[i]]
    if prior is not None and _agreement(a.tile_feats[seen], [labels[i] or HOLE for i in seen], prior) >= cc.familiar_cells:
        bad = _suspect_cells(a, truth, mis, prior, cc)
        agreed = _read_as_given(a, labels, prior)
        if bad or any(i not in agreed for i in seen):
            wrong, pairs = _structure_reading(a, copies, labels, skip, cc)
            doubted = _structure_doubts(wrong, pairs, agreed, cc)
            # an exchange the structure sees where the default model reads both cells otherwise
            # too is two opinions, whatever the default model's gap (a white set's Moons 4 and
            # Crowns 4 differ in a little ink: tuning edition 576)
            both = {c for p in pairs if not set(p) & agreed for c in p}
            bad = sorted({i for i in bad if i in doubted} | both)
        if not bad:
            return mis, []
        cells = ", ".join(f"{_cell_name(i)} ({labels[i]})" for i in bad)
        return mis, [f"cells {cells} do not look like the tiles the truth puts there"]
    wrong, pairs = _structure_reading(a, copies, labels, skip, cc)
    n = sum(code is not None for code in labels)
    if len(pairs) > MAX_SWAPS or (not pairs and len(wrong) > cc.structure_misread):
        return mis, [f"{len(wrong)} of the {n} tiles do not look like the other tiles of their suit and rank: the layout "
                     f"given is not the one in the photo, or the photo does not show this set's faces clearly "
                     f"enough to check it (closer, sharper, more even light)"]
    return mis, [f"cells {_cell_name(i)} ({labels[i]}) and {_cell_name(j)} ({labels[j]}) look swapped: each looks "
                 f"like the tile the truth puts on the other" for i, j in pairs]


def _structure_reading(a: Analysis, copies: list[Samples], labels: Sequence[str | None], skip: Sequence[bool],
                       cc: CalibrationConfig) -> tuple[list[int], list[tuple[int, int]]]:
    """What the set's own suit x rank structure (the photo and its copies) says of the layout:
    (the cells it reads with another suit or rank, the pairs of cells that look swapped)."""
    fit = structure_fit(np.stack([a.tile_feats] + [c.tiles for c in copies]), labels, skip, cc.ridge)
    return fit.misread(labels), _swapped_pairs(fit, labels, cc)


def _swapped_pairs(fit, labels: Sequence[str | None], cc: CalibrationConfig) -> list[tuple[int, int]]:
    """Up to ``MAX_SWAPS`` + 1 disjoint pairs of cells whose labels look exchanged, best first.

    Each cell of a pair must fit the other's label better than its own, and the exchange must
    either fit the set's structure better by more than ``cc.swap_gap`` calibrated nats, or
    turn two faces that fit their labels as badly as ``cc.swap_ordinary`` times the photo's
    median face, or worse, into faces that fit no worse than that.

    A face unlike every other of its rank (an ace drawn as its suit's emblem, which shares
    nothing with the other aces) fits every label badly, by tens of nats more or less from
    label to label: an exchange could gain more than the gap from that one face while the other
    face fitted its new label worse than its own, and honest layouts were refused as swapped.
    Such faces also drag the temperature that calibrates the nats down (the labels given are
    likeliest when every cost counts little), so that a real exchange of two other faces gained
    less than the gap: the second test, in multiples of the median face, does not depend on it.
    Tuning editions 400-615 (the structure's check alone, 213 calibration photos): honest
    layouts refused 48 -> 23 (with ``structure_misread`` 10), one random swap of two tiles
    named or refused 205 -> 202, a swap of two aces 192 -> 185."""
    t = fit.temperature(labels)
    median = float(np.median([fit.cost(i, code) for i, code in enumerate(labels)
                              if code is not None and np.isfinite(fit.suit[i, 0])]))
    ordinary = cc.swap_ordinary * median
    pairs: list[tuple[int, int]] = []
    for gain, i, j in fit.swaps(labels):
        if gain <= 0 or len(pairs) > MAX_SWAPS:
            break
        own_i, own_j = fit.cost(i, labels[i]), fit.cost(j, labels[j])
        new_i, new_j = fit.cost(i, labels[j]), fit.cost(j, labels[i])
        if not (new_i < own_i and new_j < own_j) or {i, j} & {c for p in pairs for c in p}:
            continue
        if gain * t > cc.swap_gap or min(own_i, own_j) >= ordinary >= max(new_i, new_j):
            pairs.append((i, j))
    return pairs


def _structure_doubts(wrong: list[int], pairs: list[tuple[int, int]], agreed: set[int],
                      cc: CalibrationConfig) -> set[int]:
    """The cells the set's own suit x rank structure doubts, from its reading (``_structure_reading``:
    the cells it ``wrong``ly reads, the ``pairs`` that look exchanged): those of the pairs, and,
    of the cells not in ``agreed``, every one when it refuses the layout whole (more pairs than
    ``MAX_SWAPS``, or more than ``cc.structure_misread`` cells misread), else those it misreads.

    ``agreed``: the cells the default model's joint reading labels as the layout does. For
    those the structure's own misreading is no second opinion: it is the same suit + rank
    evidence as the misfit that made them suspect, and it fails for every face unlike the
    others of its rank (aces drawn as their suit's emblem: tuning editions 576 and 610, honest
    layouts refused on an ace the default model read as given). Only an exchange, which
    explains two cells at once, doubts them."""
    paired = {c for p in pairs for c in p}
    if len(pairs) > MAX_SWAPS or len(wrong) > cc.structure_misread:
        return paired | (set(range(BOARD * BOARD)) - agreed)
    return paired | (set(wrong) - agreed)


def _read_as_given(a: Analysis, labels: Sequence[str | None], model: ClassModel) -> set[int]:
    """The cells the default model's joint reading of the photo labels as ``labels`` do (None: the hole)."""
    return set(_read_as(a.tile_feats, [code or HOLE for code in labels], model))


def _hole_problem(a: Analysis, truth: Truth, cfg: VisionConfig) -> str | None:
    """The truth's hole must be the cell with the least paper (the table shows through).

    Unless the table itself looks like the paper (``_table_paperness`` over
    ``TABLE_LIKE_PAPER``: white tiles on a white table, cream paper on a cream cloth): then no
    cell shows less paper than a blank face, and the check says nothing (tuning editions 537
    and 543: honest layouts refused, read without a cell wrong once learnt). The faces' own
    structure still checks the tiles."""
    paper = _paper(a.cell_images)
    if _table_paperness(a, cfg, paper) > TABLE_LIKE_PAPER:
        return None
    paperness = _paperness(a.cell_images, paper)
    hr, hc = next((r, c) for r in range(BOARD) for c in range(BOARD) if truth.board[r][c] is None)
    i_truth = hr * BOARD + hc
    order = np.argsort(paperness)
    i_seen = int(order[0])
    if i_seen != i_truth and (hr, hc) not in truth.covered and (i_seen // BOARD, i_seen % BOARD) not in truth.covered:
        # the truth's hole looks like a tile and another cell does not
        if paperness[i_truth] > paperness[i_seen] + 0.25:
            return (f"the truth puts the hole at [{hr}, {hc}] but that cell shows a tile face; the hole is at "
                    f"{_cell_name(i_seen)}")
    return None


def _paper(cells: np.ndarray) -> np.ndarray:
    """The board's paper colour (3,): the median over its cell crops of their brightest tenth."""
    return np.median(np.percentile(cells.reshape(cells.shape[0], -1, 3).astype(np.float32), 90, axis=1), axis=0)


def _paperness(crops: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Fraction of each crop whose colour is close to the board's ``paper``."""
    px = crops.reshape(crops.shape[0], -1, 3).astype(np.float32)
    d = np.abs(px - paper[None, None, :]).max(2)
    return (d < 0.18 * float(paper.max())).mean(1)


def _table_paperness(a: Analysis, cfg: VisionConfig, paper: np.ndarray) -> float:
    """How much the table looks like the paper: the median paperness of the cells just outside
    the board (the table, the coins and the pawns)."""
    return float(np.median(_paperness(cell_crops(a.view, cfg, F.FEATURES["tile_crop"], cells=ring_cells()), paper)))


def _ink_colours(a: Analysis, truth: Truth) -> dict[str, np.ndarray]:
    """Mean ink chroma (3,) of each suit's tiles, relative to each face's paper (BGR minus luminance)."""
    out: dict[str, list[np.ndarray]] = {s: [] for s in SUITS}
    for i in range(BOARD * BOARD):
        code = truth.board[i // BOARD][i % BOARD]
        if code is None or (i // BOARD, i % BOARD) in truth.covered:
            continue
        crop = a.cell_images[i].reshape(-1, 3).astype(np.float32)
        # the ink is what differs most from the face, darker on a light face, lighter on a dark one
        face = np.median(crop, axis=0)
        n = crop / np.maximum(face / max(float(face.mean()), 8.0), 0.05) / 255.0  # the face's tint taken out
        d = np.abs(crop - face).sum(1)
        ink = d > max(float(np.percentile(d, 90)), 60.0)
        if ink.sum() < 5:
            continue
        out[code[0]].append((n[ink] - n[ink].mean(1, keepdims=True)).mean(0))
    return {s: np.mean(v, axis=0) for s, v in out.items() if v}


def _pawn_problems(a: Analysis, truth: Truth, cc: CalibrationConfig = CalibrationConfig()) -> list[str]:
    """Pawns whose colour is nearer another suit's ink than their own (joint assignment by chroma)."""
    from scipy.optimize import linear_sum_assignment

    inks = _ink_colours(a, truth)
    if len(inks) < 4:
        return []
    # the pawn features start with the mean colour of the pawn's lit half relative to the paper
    col = a.pawn_feats[:, :3].astype(np.float64)
    chroma = col - col.mean(1, keepdims=True)
    # chroma scaled by the most colourful of its kind: direction tells red, green and blue apart,
    # smallness tells black (a unit vector would turn black's faint tint into a colour)
    ink = np.array([inks[s] for s in SUITS], np.float64)
    ink = ink / max(float(np.linalg.norm(ink, axis=1).max()), 1e-6)
    if min(float(np.linalg.norm(ink[i] - ink[j])) for i in range(4) for j in range(i + 1, 4)) < DISTINCT_INKS:
        return []  # two suits printed in one ink: the tiles say nothing of which pawn is which
    paw = chroma / max(float(np.linalg.norm(chroma, axis=1).max()), 1e-6)
    cost = np.linalg.norm(paw[:, None, :] - ink[None, :, :], axis=2)
    rows, cols = linear_sum_assignment(cost)
    seen = {int(r): SUITS[int(c)] for r, c in zip(rows, cols)}
    best = float(cost[rows, cols].sum())
    given = float(sum(cost[p, SUITS.index(truth.pawns[p])] for p in range(4)))
    if given - best < cc.pawn_gap:
        return []  # the truth's colours fit about as well as the best matching: not a mismatch
    probs = []
    for p in range(4):
        want = truth.pawns[p]
        if seen[p] != want:
            probs.append(f"pawn {p + 1} (left of row {p + 1}) looks {_SUIT_WORD[seen[p]]}, the truth says {_SUIT_WORD[want]}")
    return probs


def _coin_problems(a: Analysis, truth: Truth, prior: ClassModel | None,
                   cc: CalibrationConfig = CalibrationConfig(), cfg: VisionConfig | None = None) -> list[str]:
    """Coins the default model reads otherwise than the truth, when the truth's fit clearly worse (``cc.coin_gap``);
    none when it reads fewer than ``cc.familiar_coins`` of them as the truth says (an unfamiliar set's coins)."""
    if prior is None:
        return []
    cost = coin_costs(a, prior, cfg)  # as the reader does
    cls = list(prior.classes)
    if any(c not in cls for c in truth.coins):
        return []
    seen = [cls[j] for j in assign(cost)]
    if sum(s == c for s, c in zip(seen, truth.coins)) < cc.familiar_coins:
        return []  # coins unlike any the default model knows: its reading says nothing about the truth
    best = float(sum(cost[i, cls.index(c)] for i, c in enumerate(seen)))
    given = float(sum(cost[i, cls.index(c)] for i, c in enumerate(truth.coins)))
    if given - best < cc.coin_gap:
        return []
    return [f"coin {i + 1} (above column {i + 1}) looks {_COIN_WORD.get(seen[i], seen[i])}, the truth says "
            f"{_COIN_WORD.get(c, c)}" for i, c in enumerate(truth.coins) if seen[i] != c]


def _light_coin_ink(a: Analysis, truth: Truth, prior: ClassModel | None) -> bool:
    """Whether the set's coin numerals are lighter than its coins: the default model (which knows
    dark numerals on light coins) reads more of the photo's coins as the layout says when they
    are inverted than as they are. Tuning edition 460 (numerals lighter than its wood coins):
    5 of 5 inverted against 1 of 5; sets whose coins it reads: 5 of 5 as they are, 0-3 inverted."""
    if prior is None or any(c not in prior.classes for c in truth.coins):
        return False

    def agree(feats: np.ndarray) -> int:
        return sum(prior.classes[j] == c for j, c in zip(assign(prior.costs(feats)), truth.coins))

    other = F.coin_features(255 - a.coin_windows, a.coin_centres)  # the coins the other way round
    plain, inverted = (other, a.coin_feats) if a.coins_negative else (a.coin_feats, other)
    return agree(inverted) > agree(plain)


_COIN_WORD = {"a": "an ace", "2": "a 2", "3": "a 3", "4": "a 4", "5": "a 5"}
_SUIT_WORD = {"S": "red (Suns)", "M": "black (Moons)", "C": "green (Crowns)", "A": "blue (Arms)"}



# ---------------------------------------------------------------------------------------------
# learning


def _tile_labels(truth: Truth) -> list[str | None]:
    return [truth.board[i // BOARD][i % BOARD] for i in range(BOARD * BOARD)]


def _skip(truth: Truth) -> list[bool]:
    return [(i // BOARD, i % BOARD) in truth.covered for i in range(BOARD * BOARD)]


@dataclass(frozen=True)
class Samples:
    """The reader's features of one frame: tiles (25 x Dt, player-frame row-major), coins (5 x Dc), pawns (4 x Dp)."""

    tiles: np.ndarray
    coins: np.ndarray
    pawns: np.ndarray

    @classmethod
    def of(cls, a: Analysis) -> "Samples":
        return cls(a.tile_feats, a.coin_feats, a.pawn_feats)


_CORNERS = np.array([[0, 0], [BOARD, 0], [BOARD, BOARD], [0, BOARD]], np.float64)


def _player_corner(a: Analysis) -> np.ndarray:
    """The player's top-left board corner (1 x 2 image px): canvas corner k of (TL, TR, BR, BL), the player
    view being ``np.rot90(canvas, k)``."""
    return a.lattice.to_image(_CORNERS[a.k : a.k + 1])


def _analyse_as(image: np.ndarray, cfg: VisionConfig, corner_px: np.ndarray, min_tiles: int = 0,
                negative: bool = False, coins_negative: bool = False) -> Analysis | None:
    """The reader's analysis of ``image`` turned so that the player's top-left corner is at ``corner_px``
    (None when no board is found, the found lattice does not put a corner there, or it holds
    fewer than ``min_tiles`` tiles); ``negative``, ``coins_negative``: the faces and the coins are
    measured the photo's way round."""
    try:
        a = analyse(image, cfg, negative=negative, coins_negative=coins_negative)
    except VisionError:
        return None
    if len(a.lattice.tiles) < min_tiles:
        return None
    uv = a.lattice.to_lattice(np.asarray(corner_px, np.float64).reshape(1, 2))[0]
    d = np.linalg.norm(_CORNERS - uv, axis=1)
    k = int(np.argmin(d))
    if d[k] > 0.5:
        return None  # the lattice sits a tile off: this copy would teach the wrong labels
    if k != a.k:
        a = analyse(image, cfg, k=k, negative=negative, coins_negative=coins_negative)
    return a


def _carried(img: np.ndarray, cfg: VisionConfig, a: Analysis, H: np.ndarray, offset) -> Analysis | None:
    """The analysis of an augmented copy ``img`` whose board is the photo's (``a``, given by its
    corners, in the player's frame) carried through the copy's homography ``H`` (photo px less
    ``offset`` -> copy px): the board finder is not asked, it did not find this set's tiles.
    None when the copy's warp takes part of the board out of its frame."""
    # the board's corners in the player's order (canvas corner k is the player's top left), so
    # that the copy is read in the player's frame with quarter turn 0
    px = warp_points(H, a.lattice.to_image(np.roll(_CORNERS, -a.k, axis=0)) - offset)
    h, w = img.shape[:2]
    if not ((px >= 0).all() and (px[:, 0] <= w - 1).all() and (px[:, 1] <= h - 1).all()):
        return None
    return analyse(img, cfg, k=0, lattices=[lattice_through(px, _CORNERS, img.shape, a.lattice.face)], negative=a.negative,
                   coins_negative=a.coins_negative)


def _augmented(image: np.ndarray, a: Analysis, cfg: VisionConfig, n: int, rng: np.random.Generator,
               nuisance: Nuisance, cc: CalibrationConfig = CalibrationConfig(),
               given: bool = False) -> tuple[list[Samples], list[Samples]]:
    """Features of up to ``n`` augmented copies of the photo (copies where the reader finds no board
    are dropped): (as the reader cuts them, the same with the faces cut ``cc.crop_jitter_px`` off).
    ``given``: each copy's board is the photo's, carried along (the board was given by its corners,
    or the finder misses it in most copies)."""
    # only the board and its surroundings (pawns, coins, some table) are varied and read again:
    # the rest of the frame costs time and teaches nothing
    x0, y0, x1, y1 = _board_box(a, image.shape)
    crop = np.ascontiguousarray(image[y0:y1, x0:x1])
    corner = _player_corner(a) - [x0, y0]
    out, shifted = [], []
    for _ in range(n):
        img, H = augment_image(crop, rng, nuisance)
        if given:
            try:
                b = _carried(img, cfg, a, H, [x0, y0])
            except VisionError:
                b = None
        else:
            b = _analyse_as(img, cfg, warp_points(H, corner), cc.copy_min_tiles, a.negative, a.coins_negative)
        if b is not None:
            out.append(Samples.of(b))
            if cc.crop_jitter_px > 0:
                off = rng.uniform(-cc.crop_jitter_px, cc.crop_jitter_px, (BOARD * BOARD, 2))
                feats = F.tile_features(cell_crops(b.view, cfg, F.FEATURES["tile_crop"], off), b.negative)[0]
                shifted.append(Samples(feats, b.coin_feats, b.pawn_feats))
    return out, shifted


def _board_box(a: Analysis, shape: tuple[int, ...], margin: float = 2.2) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) image px of the board grown by ``margin`` pitches on every side, inside the frame."""
    t = np.linspace(-margin, BOARD + margin, 9)
    ring = np.concatenate([np.stack([t, np.full_like(t, v)], 1) for v in (-margin, BOARD + margin)]
                          + [np.stack([np.full_like(t, u), t], 1) for u in (-margin, BOARD + margin)])
    px = a.lattice.to_image(ring)
    h, w = shape[:2]
    x0, y0 = (int(max(0, np.floor(v))) for v in px.min(0))
    x1, y1 = int(min(w, np.ceil(px[:, 0].max()))), int(min(h, np.ceil(px[:, 1].max())))
    return x0, y0, x1, y1


def _spread(samples: list[Samples]) -> np.ndarray:
    """Per-feature standard deviation (D,) of the tile features across copies, pooled over cells."""
    T = np.stack([s.tiles for s in samples])  # n x 25 x D
    return np.sqrt(T.var(0).mean(0)) + 1e-3


def _choose_turn(image: np.ndarray, truth: Truth, cfg: VisionConfig, prior: ClassModel | None = None,
                 cc: CalibrationConfig = CalibrationConfig(), negative: bool | None = None) -> Analysis:
    """The analysis of the photo with the window and quarter turn that fit the truth best.

    The reader's own window and turn are usually right, but an unfamiliar set can fool its
    coin-row finder, and the board finder's 5 x 5 window can lie a row or column off (a
    column of table and pawns read as tiles). With the truth known, the windows one pitch off
    each way and the four turns are compared (36 analyses of the found board): a candidate
    whose faces the default model ``prior`` reads as the truth says (at least
    ``cc.familiar_cells``) is right; otherwise the reader's own stands unless another fits
    the suit + rank structure better by ``cc.window_share_gain`` of the faces' variance
    (:func:`_unexplained`). Measured on the calibration photos of tuning editions 400-519:
    the reader's own window and turn were right on 111 of 116 photos whose right window is
    among the candidates, this choice on 114."""
    first = analyse(image, cfg, pieces=False, negative=negative)
    labels, skip = _tile_labels(truth), _skip(truth)
    seen = [i for i in range(BOARD * BOARD) if not skip[i]]
    candidates = []
    for dx, dy in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)):
        lattice = first.lattice.shifted(dx, dy)
        for k in range(4):
            candidates.append(first if (dx, dy, k) == (0, 0, first.k)
                              else analyse(image, cfg, k=k, lattices=[lattice], pieces=False, negative=first.negative))
    best = None
    if prior is not None:
        agree = [_agreement(a.tile_feats[seen], [labels[i] or HOLE for i in seen], prior) for a in candidates]
        if max(agree) >= cc.familiar_cells:
            best = candidates[int(np.argmax(agree))]
    if best is None:
        share = [_unexplained(a.tile_feats, labels, skip) for a in candidates]
        i = int(np.argmin(share))
        own = share[candidates.index(first)]
        best = candidates[i] if share[i] < own - cc.window_share_gain else first
    return measure_pieces(image, best, cfg)


def _unexplained(feats: np.ndarray, labels: Sequence[str | None], skip: Sequence[bool]) -> float:
    """The share of the faces' variance that a suit + rank model leaves unexplained, each face
    predicted from the others (least squares, leave-one-out), every feature on its own scale:
    near 1 or above when the faces do not follow the labels (a wrong turn or window), lower
    the better they do. Scale-free, so that candidates measured on different crops compare."""
    idx = [i for i in range(len(labels)) if labels[i] is not None and not skip[i]]
    X = feats[idx].astype(np.float64)
    X = X - X.mean(0)
    sd = X.std(0)
    X = X / (sd + 1e-3 * sd.mean() + 1e-9)
    loo = _loo_residuals(X, [labels[i] for i in idx])
    return float((loo * loo).sum() / max(float((X * X).sum()), 1e-9))


def learn_profile(
    images: Sequence[tuple[str, np.ndarray]],
    truths: Sequence[Truth],
    *,
    name: str = "calibrated",
    config: VisionConfig | None = None,
    camera: CameraProfile | None = None,
    n_augment: int = N_AUGMENT,
    seed: int = 0,
    nuisance: Nuisance = DEFAULT_NUISANCE,
    progress: Callable[[str], None] | None = None,
    calibration: CalibrationConfig | None = None,
    corners: Sequence[np.ndarray | None] | None = None,
    ask_corners: Callable[[str, np.ndarray, str], np.ndarray] | None = None,
    seen: Callable[[str, np.ndarray, Analysis | None, str | None], None] | None = None,
) -> LearnResult:
    """Learn a profile from ``(name, BGR image)`` photos and their truths (same length);
    ``config`` and ``calibration``: the reader's and learning's settings (default: the defaults).

    ``corners``: per photo, None or the board's outer corners (4 x 2 px of the photo as given,
    far-left first, clockwise: ``calibration.corners``): the board is built from them instead
    of searched for, in the player's frame. ``ask_corners(source, image, why)``: called for a
    photo whose board the finder misses, returns its corners in ``image`` (the photo as read,
    undistorted) or raises; without it such a photo is a :class:`BoardNotSeen`. ``seen(source,
    image, analysis or None, error or None)``: told what each photo's board was (for ``--debug``).

    Raises TruthMismatch (listing every photo's problems) when a truth does not fit its
    photo, CalibrationError when a photo shows no board.
    """
    t0 = time.perf_counter()
    cfg = config or VisionConfig()
    cc = calibration or CalibrationConfig()
    if len(images) != len(truths) or not images:
        raise CalibrationError(f"{len(images)} photos and {len(truths)} truths: expected one truth per photo")
    say = progress or (lambda msg: None)
    prior = _prior()
    fits: list[PhotoFit] = []
    negative: bool | None = None  # the faces darker than their inks: judged on the first photo
    coins_negative: bool | None = None  # the coins' numerals lighter than the coins: the same
    learn: list[tuple[list[Samples], Truth]] = []
    held: list[tuple[list[Samples], Truth]] = []
    problems: list[str] = []
    colours: list[ColourHint] = []
    for n, ((src, image), truth) in enumerate(zip(images, truths)):
        given = None if corners is None else corners[n]
        if camera is not None:
            if given is not None:
                given = undistort_points(given, camera, (image.shape[1], image.shape[0]))
            image = undistort(image, camera)
        if given is None:
            say(f"{src}: finding the board")
            try:
                a = _choose_turn(image, truth, cfg, prior.model("tiles") if prior is not None else None, cc, negative)
            except BoardNotFound as exc:
                if seen is not None:
                    seen(src, image, None, str(exc))
                if ask_corners is None:
                    raise BoardNotSeen(f"{src}: {exc}") from None
                given = ask_corners(src, image, str(exc))
            except VisionError as exc:
                raise CalibrationError(f"{src}: {exc}") from None
        if given is not None:
            say(f"{src}: the board from its corners")
            a = _from_corners(image, given, cfg, negative)
        if negative is None:
            negative = a.negative  # a set is printed one way round: the first photo tells
        if coins_negative is None:
            coins_negative = _light_coin_ink(a, truth, prior.model("coins") if prior is not None else None)
        if coins_negative and not a.coins_negative:
            a.coin_feats = None
            a = measure_pieces(image, a, cfg, True)
        if seen is not None:
            seen(src, image, a, None)
        say(f"{src}: learning from {n_augment} variations")
        rng = np.random.default_rng([seed, n])
        carry = given is not None
        copies, shifted = _augmented(image, a, cfg, n_augment, rng, nuisance, cc, carry)
        found = copies
        if len(copies) < max(3, n_augment // 3) and not carry:
            # the finder found the board in the photo but misses it in most blurred, darkened
            # copies (an unfamiliar set on a table of its own colour): the photo's board is
            # carried into every copy instead, as when its corners are given
            say(f"{src}: the board is hard to find in its variations: learning from the photo's board")
            carry = True
            copies, shifted = _augmented(image, a, cfg, n_augment, np.random.default_rng([seed, n]), nuisance, cc, carry)
        if len(copies) < max(3, n_augment // 3):
            raise CalibrationError(
                f"{src}: the board was found in only {len(copies)} of {n_augment} variations of the photo: "
                f"take it closer, sharper or more evenly lit"
            )
        # held-out copies vary more than the learnt ones: real photos differ from the calibration
        # photo in more ways than the augmentations model, so confidences should err towards doubt
        centred, off = _augmented(image, a, cfg, cc.held_copies, np.random.default_rng([seed, n, 1]), HELD_NUISANCE, cc,
                                  carry)
        tests = centred + off
        # the layout is checked on copies whose boards the finder found where it can: each cuts
        # its faces a little otherwise, as the reader's later photos will; a board carried into
        # every copy cuts them all alike, and the faces then fit their own copies too tightly to
        # be compared with each other, so carried copies are checked with their faces cut off
        # their places too (tuning editions 26 and 36: 10 and 14 honest cells misread on
        # carried copies, 4 and 7 with the cut-off ones, 4 and 4 on the finder's)
        check = found if len(found) >= 3 else copies + shifted
        mis, probs = _tile_problems(a, truth, check, prior.model("tiles") if prior is not None else None, cc)
        hole = _hole_problem(a, truth, cfg)
        if hole:
            probs.append(hole)
        probs += _pawn_problems(a, truth, cc)
        probs += _coin_problems(a, truth, prior.model("coins") if prior is not None else None, cc, cfg)
        fits.append(PhotoFit(src, a.k, mis, tuple(probs)))
        if probs:
            problems.append(f"{src} vs {truth.source}: " + "; ".join(probs))
            continue
        # (the spread that judges the truth's fit above is the centred copies' alone)
        learn.append(([Samples.of(a)] + copies + shifted, truth))
        held.append((tests or copies[:1], truth))
        colours.append(_colours(a, truth, cfg))
    if problems:
        raise TruthMismatch("the layout given does not match the photo, nothing learnt: " + " | ".join(problems))
    models, validation = _fit_models(learn, held, prior, cc)
    profile = Profile(
        game=GAME,
        name=name,
        features=dict(F.FEATURES),
        models=models,
        meta={
            "made_by": "caller calibrate",
            "profile_version": PROFILE_VERSION,
            "photos": [src for src, _ in images],
            "augmentations_per_photo": n_augment,
            "seed": seed,
            "camera": camera.to_json() if camera is not None else None,
            "validation": validation,
            "prior": None if prior is None else {"name": prior.name, "weights": _prior_weights(cc)},
            COLOUR_KEY: _pooled(colours).to_json(),
            FACES_KEY: DARK_FACES if negative else "light",
            COIN_INK_KEY: LIGHT_COIN_INK if coins_negative else "dark",
        },
    )
    return LearnResult(profile, tuple(fits), time.perf_counter() - t0, validation)


def _from_corners(image: np.ndarray, corners: np.ndarray, cfg: VisionConfig, negative: bool | None = None) -> Analysis:
    """The analysis of a photo whose board is given by its outer corners (far-left first,
    clockwise, so in the player's frame: quarter turn 0), the face size measured from the gaps;
    ``negative``: which way round the faces are measured (None: judged from the photo)."""
    c = check_corners(corners, image.shape)
    lattice = lattice_from_corners(c, image.shape, estimate_face(image, c), candidates=_candidates(image, cfg))
    return analyse(image, cfg, k=0, lattices=[lattice], negative=negative)


def _candidates(image: np.ndarray, cfg: VisionConfig) -> np.ndarray:
    """The tile-like quads the board finder's first searches see (image px), for the debug picture."""
    h, w = image.shape[:2]
    scale = min(1.0, cfg.locate.detect_fine_long_side / max(h, w))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else grey
    return tile_candidates(small, cfg, thorough=True)[0] / scale


def _colours(a: Analysis, truth: Truth, cfg: VisionConfig) -> ColourHint:
    """The colours of the photo's tile faces and table (``vision.colour_hint``), where the truth puts them."""
    cells = [(r, c) for r in range(BOARD) for c in range(BOARD) if (r, c) not in truth.covered]
    return learn_colours(a.view, cfg.rectify.cell_px, cfg.rectify.margin_pitches,
                         [(r, c) for r, c in cells if truth.board[r][c] is not None],
                         [(r, c) for r, c in cells if truth.board[r][c] is None])


def _pooled(colours: list[ColourHint]) -> ColourHint:
    """The photos' colours as one: the middle colour, and the spread widened by how far the photos differ."""
    def pool(centres, spreads):
        c = np.median(centres, 0)
        return c, np.sqrt(np.median(np.asarray(spreads) ** 2, 0) + np.asarray(centres).var(0))

    face, face_spread = pool([h.face for h in colours], [h.face_spread for h in colours])
    table, table_spread = pool([h.table for h in colours], [h.table_spread for h in colours])
    return ColourHint(face, face_spread, table, table_spread)


def _prior_weights(cc: CalibrationConfig) -> dict[str, float]:
    """Weight of the default model's metric against the learnt one, by kind (the kinds in
    PRIOR_METRIC_ONLY take the default's metric whole)."""
    return {"tiles": cc.prior_tile_weight}


def _stack(groups, kind: str):
    X, y = [], []
    for samples, truth in groups:
        if kind == "tiles":
            labels = [TILE_CLASSES.index(code or HOLE) for code in _tile_labels(truth)]
            keep = [not s for s in _skip(truth)]
        elif kind == "coins":
            labels, keep = [COIN_CLASSES.index(c) for c in truth.coins], [True] * 5
        else:
            labels, keep = [PAWN_CLASSES.index(p) for p in truth.pawns], [True] * 4
        for s in samples:
            f = getattr(s, kind)
            for i, lab in enumerate(labels):
                if keep[i]:
                    X.append(f[i])
                    y.append(lab)
    return np.asarray(X, np.float64), np.asarray(y, np.int64)


def _fit_models(learn, held, prior: Profile | None, cc: CalibrationConfig = CalibrationConfig()) -> tuple[dict[str, ClassModel], dict]:
    """One class model per kind: the prototypes are the photo's (means over its copies); the metric is
    the sum of the one learnt from the copies (the set's own look) and, when available, the default
    model's (learnt from many real-looking cameras and lights across other sets, which the copies of
    one photo only approximate). Concatenating the two projections sums the squared distances."""
    models, info = {}, {}
    for kind, classes in (("tiles", TILE_CLASSES), ("coins", COIN_CLASSES), ("pawns", PAWN_CLASSES)):
        X, y = _stack(learn, kind)
        missing = sorted(set(range(len(classes))) - set(y.tolist()))
        if missing:
            raise CalibrationError(
                f"no view of {', '.join(classes[i] for i in missing)} in the photos (covered?): add a photo that shows them"
            )
        model = fit_class_model(X, y, classes, ridge=cc.ridge)
        if kind == "tiles":
            model = _factorised_tiles(model, X, y, cc.ridge)
        if prior is not None and kind in prior.models and prior.model(kind).dim == model.dim:
            p = prior.model(kind)
            if kind in PRIOR_METRIC_ONLY:
                # the set's own prototypes join the default's, in the default's metric
                model = ClassModel(tuple(p.labels) + tuple(classes), np.concatenate([p.means, model.means]), p.projection, 1.0)
            else:
                w = _prior_weights(cc)[kind]
                model = ClassModel(model.labels, model.means, np.concatenate([p.projection, model.projection / np.sqrt(w)], 1), 1.0)
            if kind == "tiles" and HOLE in p.labels:
                # the hole shows the table, not the set: the photo shows one table, the default
                # model's hole prototypes many (felt, wood, cloth, laminate), and the set is read
                # on any of them
                holes = [i for i, label in enumerate(p.labels) if label == HOLE]
                model = ClassModel(tuple(model.labels) + (HOLE,) * len(holes), np.concatenate([model.means, p.means[holes]]),
                                   model.projection, 1.0)
        Xh, yh = _stack(held, kind)
        order = list(model.classes)
        yh = np.array([order.index(classes[i]) for i in yh])
        models[kind], info[kind] = _calibrate(model, Xh, yh, cc)
    return models, info


def _factorised_tiles(model: ClassModel, X: np.ndarray, y: np.ndarray, ridge: float) -> ClassModel:
    """The tile model's metric rebuilt from two discriminants: one between suits (learnt on all six
    tiles of each suit, so it keys on ink colour and suit symbol whatever the digit) and one between
    ranks (all four suits of each rank: the digit whatever its colour). Each has many more examples
    per class than a 25-way model learnt from one photo, and generalises better to other cameras
    (held-out look, 26 photos: 60 cell errors against 73 for the 25-way metric). The prototypes stay
    the 25 classes' own means; the squared distance is the sum over both spaces."""
    codes = [TILE_CLASSES[i] for i in y]
    suit = np.array([len(SUITS) if c == HOLE else SUITS.index(c[0]) for c in codes])
    rank = np.array([len(RANKS) if c == HOLE else RANKS.index(c[1]) for c in codes])
    ms = fit_class_model(X, suit, SUITS + (HOLE,), ridge=ridge)
    mr = fit_class_model(X, rank, RANKS + (HOLE,), ridge=ridge)
    return ClassModel(model.labels, model.means, np.concatenate([ms.projection, mr.projection], 1), 1.0)


def _calibrate(model: ClassModel, X: np.ndarray, y: np.ndarray, cc: CalibrationConfig = CalibrationConfig()) -> tuple[ClassModel, dict]:
    """Temperature minimising the held-out log-loss; outlier (covered) threshold well above true-class costs."""
    cost = model.costs(X)
    best_t, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.01), np.log(3.0), 40)):
        z = -cost * t
        z = z - z.max(1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(1, keepdims=True))
        nll = float(-logp[np.arange(len(y)), y].mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    true_cost = cost[np.arange(len(y)), y] * best_t
    # photos of other cameras sit much farther from the prototypes than any copy of the one
    # photo does (tens of times, measured on renders): a tight threshold would call half the
    # board covered, so only what is far beyond every copy counts as covered
    outlier = float(np.quantile(true_cost, cc.outlier_quantile) * cc.outlier_factor + cc.outlier_offset)
    info = {"temperature": round(best_t, 5), "held_out_nll": round(best_nll, 5),
            "held_out_error": round(float((cost.argmin(1) != y).mean()), 5)}
    return model.with_calibration(best_t, outlier), info
