"""Unit checks of the board finder's pieces (vision.locate) on synthetic tile quads and images."""

import cv2
import numpy as np
import pytest

from vision import locate as L
from vision.config import VisionConfig
from vision.errors import BoardNotFound

CFG = VisionConfig()


def _board_quads(angle_deg: float, face: float = 0.9, pitch_px: float = 40.0, tilt: float = 0.0006):
    """24 tile quads (image px, clockwise from the top-left-most corner, as tile_candidates gives
    them) of a 5x5 board turned by ``angle_deg`` under a mild perspective, and their nodes."""
    a = np.deg2rad(angle_deg)
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * pitch_px
    H = np.eye(3)
    H[:2, :2] = R
    H[:2, 2] = (640, 360)
    H[2, :2] = (tilt, 0.5 * tilt)
    f = face / 2
    quads, nodes = [], []
    for r in range(5):
        for c in range(5):
            if (r, c) == (2, 2):
                continue  # the hole
            corners = np.array([[c + 0.5 - f, r + 0.5 - f], [c + 0.5 + f, r + 0.5 - f], [c + 0.5 + f, r + 0.5 + f],
                                [c + 0.5 - f, r + 0.5 + f]]) - 2.5
            quads.append(L.warp(H, corners))
            nodes.append((c, r))
    return L.order_clockwise(np.array(quads, np.float32)), np.array(nodes), H


def test_a_board_fits_exactly_whichever_corner_each_tile_starts_from():
    # near 45 degrees the corner nearest the image's top-left differs between tiles of one board
    rng = np.random.default_rng(3)
    for angle in (0.0, 30.0, 45.0):
        quads, _, _ = _board_quads(angle)
        quads = np.array([np.roll(q, int(k), axis=0) for q, k in zip(quads, rng.integers(0, 2, len(quads)))])
        n, H, face, nodes, inl = L.best_lattice(quads, CFG)
        assert n == 24
        warped = L.warp(H, quads)
        # every corner lands on a corner of its own node's face
        dev = L.corner_dev(warped, nodes, face)
        assert dev.max() < 0.02, (angle, dev.max())
        centre = np.array([640.0, 360.0])
        sg = np.where(warped >= nodes[:, None, :] + 0.5, 1.0, -1.0)
        lam, Hn, rms = L.fit_distortion(quads, nodes, face, centre, 734.0, signs=sg)
        assert rms < 0.01, (angle, rms)


def test_dlt_agrees_with_opencv_on_a_lattice():
    from vision import kernels

    quads, nodes, H = _board_quads(20.0)
    src = quads.reshape(-1, 2).astype(np.float64)
    dst = L.warp(np.linalg.inv(H), src)
    a = kernels.homography_dlt(src, dst)
    b = L._fit(src, dst)
    assert np.abs(L.warp(a, src) - L.warp(b, src)).max() < 1e-6


def test_lens_costs_find_the_distortion_of_the_points():
    # the lattice's corners seen through a barrel lens (lam -0.1): the lens search's cost is
    # nil at that distortion (the undistorted points are exactly projective) and not at others
    from vision import kernels

    quads, nodes, H = _board_quads(20.0)
    src = quads.reshape(-1, 2).astype(np.float64)
    dst = L.warp(np.linalg.inv(H), src)
    seen = L.distort((src - 640.0) / 734.0, -0.1)
    costs = kernels.lens_costs(seen, dst, seen, dst, np.array([-0.3, -0.1, 0.0, 0.05]))
    assert costs[1] < 1e-6 and costs.min() == costs[1] and (np.delete(costs, 1) > 1e-3).all()
    # each cost is the one of that distortion alone
    for lam, c in zip((-0.3, -0.1, 0.0, 0.05), costs):
        assert kernels.lens_costs(seen, dst, seen, dst, np.array([lam]))[0] == pytest.approx(c, abs=1e-12)


def test_median_from_the_histogram_is_numpy_median():
    rng = np.random.default_rng(1)
    for shape in ((7, 9), (8, 9), (1, 1), (2, 1)):
        img = rng.integers(0, 256, shape).astype(np.uint8)
        assert L._median_u8(img) == np.median(img)


def test_window_prefers_the_most_tiles_and_keeps_ties_in_scan_order():
    nodes = np.array([(c, r) for r in range(5) for c in range(5) if (r, c) != (2, 2)] + [(5, 0)])
    assert L._window(nodes)[0] == (0, 0)
    # a full column missing: the board may sit one column either way
    edge = np.array([(c, r) for r in range(5) for c in range(4)])
    assert L._window(edge) == [(-1, 0), (0, 0)]


def test_touching_tiles_part_in_the_fine_search():
    # 5x5 light faces on a mid-grey table, 1 px dark gaps: the plain bright mask merges them
    img = np.full((720, 1280), 110, np.uint8)
    x0, y0, side, gap = 500, 220, 54, 1
    for r in range(5):
        for c in range(5):
            x, y = x0 + c * (side + gap), y0 + r * (side + gap)
            img[y : y + side, x : x + side] = 225
            cv2.putText(img, str((r + c) % 5 + 1), (x + 14, y + 42), cv2.FONT_HERSHEY_SIMPLEX, 1.3, 40, 3)
            cv2.circle(img, (x + side - 9, y + 9), 4, 60, -1)
            img[y + side : y + side + gap, x - 1 : x + side + 1] = 170
            img[y - 1 : y + side + 1, x + side : x + side + gap] = 170
    img = cv2.GaussianBlur(img, (3, 3), 0.8)
    lat = L.locate(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), CFG)[0]
    assert len(lat.tiles) >= 20
    assert abs(lat.pitch_px() - (side + gap)) < 1.0


def test_white_tiles_on_a_white_table_are_found_by_their_outlines():
    # small white faces as light as the (grainy) table, told apart only by 2 px grey outlines
    # (a far camera over a light table): no mask of brightness sees them, the outline search does
    img = np.full((720, 1280), 232, np.uint8)
    x0, y0, side, gap = 560, 250, 36, 3
    for r in range(5):
        for c in range(5):
            if (r, c) == (2, 2):
                continue
            x, y = x0 + c * (side + gap), y0 + r * (side + gap)
            cv2.rectangle(img, (x, y), (x + side - 1, y + side - 1), 205, 2)
            cv2.putText(img, str((r + c) % 5 + 1), (x + 11, y + 28), cv2.FONT_HERSHEY_SIMPLEX, 0.75, 60, 2)
            cv2.circle(img, (x + 7, y + 7), 2, 70, -1)
    img = np.clip(img + np.random.default_rng(0).normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    img = cv2.cvtColor(cv2.GaussianBlur(img, (3, 3), 0.8), cv2.COLOR_GRAY2BGR)
    with pytest.raises(BoardNotFound):
        L.locate(img, CFG.replace(outline_line_contrast=0))
    lat = L.locate(img, CFG)[0]
    assert len(lat.tiles) >= 16
    assert abs(lat.pitch_px() - (side + gap)) < 1.0


def _edition_photo(ed: int, j: int):
    """Photo ``j`` of tuning edition ``ed`` as benchmarks/bench_editions.py renders it: (BGR image, truth)."""
    from simulator.layouts import easy_slider_layout
    from simulator.render import render_table

    s = 20_000_000 + 8 * ed + j
    r = render_table(easy_slider_layout(s, kind=("setup", "midgame", "solved")[j % 3]), seed=s, edition=ed)
    return r.image, r.truth


def _corner_error(lattice, truth) -> float:
    """Largest distance (px, per axis) of the lattice's board corners from the truth's, at the best quarter turn."""
    c = lattice.to_image(np.array([[0, 0], [5, 0], [5, 5], [0, 5]], float))
    t = np.array(truth["board_corners"], float)
    return float(min(np.abs(np.roll(c, -k, 0) - t).max() for k in range(4)))


def _locate_config(**kw) -> VisionConfig:
    import dataclasses

    return dataclasses.replace(CFG, locate=dataclasses.replace(CFG.locate, **kw))


@pytest.mark.parametrize("ed, j, tiles, px", [
    (2, 0, 16, 5.0),    # black plastic, light inks, unframed, on blue felt in dim light
    (12, 1, 15, 7.0),   # black acrylic with frames on dark wood under a lamp's pool
    (10, 0, 13, 8.0),   # oak-coloured wood tiles with frames on a light wooden table
])
def test_dark_and_wooden_sets_are_found_where_the_brightness_search_finds_none(ed, j, tiles, px):
    image, truth = _edition_photo(ed, j)
    # the brightness search alone (the negative and contrast-equalised passes off) finds no board
    with pytest.raises(BoardNotFound):
        L.locate(image, _locate_config(dark_face_tiles=0))
    found = L.locate(image, CFG)
    assert len(found) == 1 and len(found[0].tiles) == tiles
    assert _corner_error(found[0], truth) < px


def test_the_window_is_the_one_whose_cells_have_tile_edges():
    # light wood tiles on gingham, a column of tiles missed: the column of coins beside the
    # board looks as much like faces to the tileness test; the tiles' edges settle it
    image, truth = _edition_photo(59, 1)
    found = L.locate(image, CFG)
    assert len(found) == 1 and len(found[0].tiles) == 16
    assert _corner_error(found[0], truth) < 10.0
    off = L.locate(image, _locate_config(window_like_weight=0.0))[0]
    assert _corner_error(off, truth) > 80.0


def test_a_board_of_dark_faces_read_with_the_default_model_is_all_uncertain():
    # the bundled model knows only light faces with dark inks: on a board found in the frame's
    # negative its labels are a guess, and the Caller must not act on any of them
    from vision.reader import Reader

    image, _ = _edition_photo(2, 0)
    obs = Reader(None).read(image)
    assert len(obs.uncertain) == 25 and not obs.confident
    assert obs.uncertain_pawns == (0, 1, 2, 3) and obs.uncertain_coins == (0, 1, 2, 3, 4)


def test_a_lattice_that_squeezed_two_columns_onto_one_is_refitted_on_its_tight_tiles():
    # a 4x6 board of tiles under a mild perspective; its last two columns snapped onto one column
    # of nodes, as a lattice grown from a seed at the far end can leave them, and the homography
    # fitted to that: the tiles near the first columns still sit tightly on it, the last two
    # columns a third of a pitch off. Refitted on the tight tiles, every tile takes its own node.
    face = 0.8
    H = np.array([[38.0, 6.0, 500.0], [-5.0, 36.0, 260.0], [0.0004, 0.0002, 1.0]])
    f = face / 2
    quads, nodes = [], []
    for r in range(4):
        for c in range(6):
            corners = np.array([[c + 0.5 - f, r + 0.5 - f], [c + 0.5 + f, r + 0.5 - f], [c + 0.5 + f, r + 0.5 + f],
                                [c + 0.5 - f, r + 0.5 + f]])
            quads.append(L.warp(H, corners))
            nodes.append((c, r))
    quads, nodes = L.order_clockwise(np.array(quads, np.float32)), np.array(nodes)
    centre, radius = np.array([639.5, 359.5]), float(np.hypot(1280, 720) / 2)
    squeezed = nodes.copy()
    squeezed[:, 0] = np.minimum(squeezed[:, 0], 4)
    Hw, _ = cv2.findHomography((quads.mean(1) - centre) / radius, squeezed + 0.5, 0)
    every = np.ones(len(quads), bool)
    Hn, got, inl = L.refit_on_tight(quads, squeezed, every, face, 0.0, Hw, centre, radius, CFG, 0.15, 4)
    assert Hn is not None and inl.all()
    assert got.tolist() == nodes.tolist()
    warped = L.warp(Hn, (quads.reshape(-1, 2).astype(np.float64) - centre) / radius).reshape(-1, 4, 2)
    assert np.abs(warped.mean(1) - (nodes + 0.5)).max() < 1e-6
    # fewer than four tiles tight: no refit
    assert L.refit_on_tight(quads, squeezed, every, face, 0.0, Hw, centre, radius, CFG, 0.001, 4)[0] is None


def test_the_tight_refit_replaces_the_first_fit_only_where_the_tiles_sit_on_it_as_closely():
    from vision.grid_locate import _fits

    # twelve tiles of a 4 x 3 board, faces 0.8 of a pitch, their quads exactly on the lattice
    # (lattice units = px)
    f = 0.4
    nodes = np.array([(c, r) for r in range(3) for c in range(4)])
    quads = np.array([[[c + 0.5 - f, r + 0.5 - f], [c + 0.5 + f, r + 0.5 - f], [c + 0.5 + f, r + 0.5 + f],
                       [c + 0.5 - f, r + 0.5 + f]] for c, r in nodes])
    every = np.ones(len(nodes), bool)
    true = np.eye(3)
    bent = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.08, 1.0]])  # the far rows pulled in
    first, tight = (bent, nodes, every), (true, nodes, every)
    # the refit keeps every tile on its node and the tiles sit on it closer: it is the lattice
    got = _fits(quads, first, tight, 0.0, (0.0, 0.0), 1.0, 5, cut=False)
    assert len(got) == 1 and got[0][0] is true and got[0][2] is every
    # ... the other way round, the first fit stays
    got = _fits(quads, tight, first, 0.0, (0.0, 0.0), 1.0, 5, cut=False)
    assert len(got) == 1 and got[0][0] is true
    # not where tiles were cut from the board's outline
    assert _fits(quads, first, tight, 0.0, (0.0, 0.0), 1.0, 5, cut=True) == [first]
    # a refit that moves tiles to other nodes is a lattice of its own, compared with the first
    moved = (true, nodes + [1, 0], every)
    assert _fits(quads, first, moved, 0.0, (0.0, 0.0), 1.0, 5, cut=False) == [first, moved]
    # too few tiles tight: no refit
    assert _fits(quads, first, (None, nodes, every), 0.0, (0.0, 0.0), 1.0, 5, cut=False) == [first]
