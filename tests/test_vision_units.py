"""Unit tests of the reader's parts that need no rendered image: assignment, profiles, config."""

import itertools

import numpy as np
import pytest

from vision.assign import assign, confidence_from_margin, margins
from vision.config import VisionConfig, config_from_dict
from vision.errors import ConfigError, ProfileError
from vision.profile import ClassModel, Profile, fit_class_model, load_profile, save_profile


def brute_force(cost):
    best, best_perm = None, None
    for perm in itertools.permutations(range(cost.shape[1]), cost.shape[0]):
        total = cost[np.arange(cost.shape[0]), list(perm)].sum()
        if best is None or total < best:
            best, best_perm = total, perm
    return best, np.array(best_perm)


def test_assignment_is_jointly_optimal_not_greedy():
    # greedy row-by-row would give row 0 label 0 (cost 1) and row 1 label 1 (cost 10): total 11
    cost = np.array([[1.0, 2.0], [1.5, 10.0]])
    assert assign(cost).tolist() == [1, 0]


def test_assignment_matches_brute_force_on_random_matrices():
    rng = np.random.default_rng(3)
    for _ in range(20):
        cost = rng.random((4, 5)) * 10
        best, perm = brute_force(cost)
        got = assign(cost)
        assert cost[np.arange(4), got].sum() == pytest.approx(best)


def test_margins_are_the_cost_of_the_best_alternative():
    cost = np.array([[0.0, 3.0, 9.0], [2.0, 0.0, 9.0], [9.0, 9.0, 0.0]])
    labels = assign(cost)
    assert labels.tolist() == [0, 1, 2]
    m = margins(cost, labels)
    # row 0 without label 0: the best alternative swaps rows 0 and 1 (3 + 2), 5 more; same for row 1
    assert m[0] == pytest.approx(5.0)
    assert m[1] == pytest.approx(5.0)
    # row 2 without label 2: row 2 -> 0 (9), row 0 -> 2 (9), row 1 keeps 1 (0) = 18
    assert m[2] == pytest.approx(18.0)
    assert confidence_from_margin(0.0) == pytest.approx(0.5)


def _margins_by_solving_again(cost, labels):
    from scipy.optimize import linear_sum_assignment

    base = cost[np.arange(len(labels)), labels].sum()
    out = []
    for i, j in enumerate(labels):
        work = cost.copy()
        work[i, j] = 1e6
        r, c = linear_sum_assignment(work)
        out.append(work[r, c].sum() - base)
    return np.array(out)


def test_margins_with_labels_left_over_let_other_rows_move_up():
    # two rows, three labels: row 0 must leave label 0; it is cheapest for row 0 to take the
    # free label 2 (+4) while row 1 moves up into label 0 (-1): a margin of 3, not 4. Row 1
    # without label 1: it takes label 0 (-1), row 0 the free label 2 (+4): 3 again
    cost = np.array([[0.0, 9.0, 4.0], [2.0, 3.0, 9.0]])
    labels = assign(cost)
    assert labels.tolist() == [0, 1]
    assert margins(cost, labels).tolist() == pytest.approx([3.0, 3.0])
    assert _margins_by_solving_again(cost, labels).tolist() == pytest.approx([3.0, 3.0])
    # one row, one label: nothing else to take, so the forbidden cost itself
    assert margins(np.array([[2.0]]), np.array([0])).tolist() == pytest.approx([1e6 - 2.0])


def test_margins_match_solving_each_forbidden_assignment_again():
    rng = np.random.default_rng(11)
    for trial in range(300):
        rows = int(rng.integers(1, 9))
        cost = rng.exponential(3.0, (rows, rows + int(rng.integers(0, 3))))
        if trial % 3 == 0:
            cost = np.round(cost)  # ties
        if trial % 4 == 0:
            cost[rng.random(cost.shape) < 0.2] = 1000.0
        labels = assign(cost)
        assert margins(cost, labels) == pytest.approx(_margins_by_solving_again(cost, labels), abs=1e-6)


def test_assignment_rejects_bad_matrices():
    with pytest.raises(ValueError, match="expected R x L"):
        assign(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="NaN"):
        assign(np.array([[np.nan]]))


def _toy_profile(game="easy-slider"):
    rng = np.random.default_rng(0)
    models = {}
    for kind, labels in (("tiles", ("S5", "Mn", "Ca")), ("coins", ("a", "2")), ("pawns", ("S", "M"))):
        X = np.concatenate([rng.normal(i * 3.0, 1.0, (20, 4)) for i in range(len(labels))])
        y = np.repeat(np.arange(len(labels)), 20)
        models[kind] = fit_class_model(X, y, labels)
    return Profile(game=game, name="toy", features={"id": "toy"}, models=models, meta={"seeds": [1, 2]})


def test_profile_round_trips_through_json_and_npz(tmp_path):
    prof = _toy_profile()
    jpath, npath = save_profile(prof, tmp_path / "set.json")
    assert jpath.name == "set.json" and npath.name == "set.npz"
    back = load_profile(tmp_path / "set")
    assert back.name == "toy" and back.meta == {"seeds": [1, 2]}
    x = np.array([[3.0, 3.0, 3.0, 3.0]])
    for kind in ("tiles", "coins", "pawns"):
        np.testing.assert_allclose(back.model(kind).costs(x), prof.model(kind).costs(x), rtol=1e-5)
    assert back.model("tiles").costs(x).argmin() == 1  # the class centred at 3


def test_profile_for_another_game_is_refused(tmp_path):
    save_profile(_toy_profile(game="slide"), tmp_path / "other")
    with pytest.raises(ProfileError, match="profile for game 'slide', expected a profile for 'easy-slider'"):
        load_profile(tmp_path / "other.json")


def test_profile_errors_name_the_problem(tmp_path):
    with pytest.raises(ProfileError, match="no such profile"):
        load_profile(tmp_path / "missing")
    (tmp_path / "bad.json").write_text('{"format": "something-else"}')
    with pytest.raises(ProfileError, match="not a table-caller profile"):
        load_profile(tmp_path / "bad")


def test_class_model_checks_its_arrays():
    with pytest.raises(ProfileError, match="do not fit"):
        ClassModel(("a", "b"), np.zeros((3, 4)), np.zeros((4, 2)))
    with pytest.raises(ProfileError, match="layers do not fit: weights \\(5, 3\\), bias \\(3,\\), into 4"):
        ClassModel(("a", "b"), np.zeros((2, 4)), np.zeros((4, 2)), front=((np.zeros((5, 3)), np.zeros(3)),))


def _front_model():
    """A model reading 2 features through one layer of 3 ReLU units, prototypes in their
    output: 'a' where the first unit fires, 'b' where the second does."""
    w = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 0.5]])
    b = np.array([0.0, 0.0, -1.0])
    means = np.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    return ClassModel(("a", "b"), means, np.eye(3), 1.0, front=((w, b),))


def test_a_class_model_with_learnt_layers_reads_through_them():
    model = _front_model()
    assert model.dim == 2
    x = np.array([[2.0, 0.0], [0.0, 2.0], [-3.0, 1.0]])
    np.testing.assert_allclose(model.embed(x), [[2, 0, 0], [0, 2, 0], [0, 1, 0]])
    # half the squared distance to each prototype in the layer's output
    np.testing.assert_allclose(model.costs(x), [[0, 4], [4, 0], [2.5, 0.5]])
    # a calibration example is added where the layer puts it
    more = model.with_prototypes(("a",), np.array([[0.0, 0.0]]))
    assert more.labels == ("a", "b", "a")
    np.testing.assert_allclose(more.means[2], [0, 0, 0])
    np.testing.assert_allclose(more.costs(np.array([[-3.0, 1.0]])), [[0.5, 0.5]])


def test_a_class_model_with_learnt_layers_round_trips(tmp_path):
    model = _front_model().with_calibration(0.5, 7.0)
    save_profile(Profile(game="slide", name="net", features={"id": "toy"}, models={"cards": model}), tmp_path / "net")
    back = load_profile(tmp_path / "net", game="slide", kinds=("cards",)).model("cards")
    assert len(back.front) == 1 and (back.temperature, back.outlier) == (0.5, 7.0)
    x = np.array([[2.0, 0.0], [-3.0, 1.0]])
    np.testing.assert_allclose(back.costs(x), model.costs(x))


def test_config_overrides_and_rejects_unknown_keys():
    cfg = config_from_dict({"assign": {"confidence_threshold": 0.95}, "rectify": {"cell_px": 40}})
    assert cfg.assign.confidence_threshold == 0.95 and cfg.rectify.cell_px == 40
    assert cfg.locate == VisionConfig().locate
    with pytest.raises(ConfigError, match=r"unknown key 'cell_size' in \[vision.rectify\]: expected one of cell_px, margin_pitches"):
        config_from_dict({"rectify": {"cell_size": 3}})
    with pytest.raises(ConfigError, match=r"unknown key 'cell_px' in \[vision\]: it belongs in \[vision.rectify\]"):
        config_from_dict({"cell_px": 40})
    with pytest.raises(ConfigError, match=r"\[vision.rectify\] cell_px = 'big': expected an integer"):
        config_from_dict({"rectify": {"cell_px": "big"}})


def test_gradient_histograms_bin_signed_directions_softly():
    from vision.features import gradient_histograms

    step_right = np.zeros((1, 8, 8), np.float32)
    step_right[:, :, 4:] = 1.0  # gradient along +x: angle 0, half-way between bins 15 and 0
    step_down = np.zeros((1, 8, 8), np.float32)
    step_down[:, 4:, :] = 1.0  # gradient along +y: angle 90 degrees, between bins 3 and 4
    step_left = 1.0 - step_right  # the same edge the other way round: angle 180, bins 7 and 8
    h = gradient_histograms(np.concatenate([step_right, step_down, step_left]), cells=1, bins=16)
    half = np.float32(1 / np.sqrt(2))
    expect = np.zeros((3, 16), np.float32)
    expect[0, [15, 0]] = half
    expect[1, [3, 4]] = half
    expect[2, [7, 8]] = half
    np.testing.assert_allclose(h, expect, atol=1e-3)


def test_gradient_histograms_match_a_sobel_and_arctan2_per_map():
    # the stacked Sobel with mirrored borders and cartToPolar must give what the plain
    # definition gives, map by map, including the borders of each map
    import cv2

    from vision.features import gradient_histograms

    rng = np.random.default_rng(5)
    maps = cv2.GaussianBlur(rng.random((6 * 24, 24)).astype(np.float32), (5, 5), 0).reshape(6, 24, 24)
    cells, bins = 4, 16
    expect = np.zeros((6, cells * cells * bins))
    for i, m in enumerate(maps):
        gx, gy = cv2.Sobel(m, cv2.CV_32F, 1, 0), cv2.Sobel(m, cv2.CV_32F, 0, 1)
        mag = np.hypot(gx, gy)
        pos = (np.arctan2(gy, gx) % (2 * np.pi)) / (2 * np.pi) * bins - 0.5
        for y, x in itertools.product(range(24), range(24)):
            lo = int(np.floor(pos[y, x]))
            frac = pos[y, x] - lo
            base = ((y * cells // 24) * cells + x * cells // 24) * bins
            expect[i, base + lo % bins] += (1 - frac) * mag[y, x]
            expect[i, base + (lo + 1) % bins] += frac * mag[y, x]
        expect[i] /= np.linalg.norm(expect[i]) + 1e-3
    np.testing.assert_allclose(gradient_histograms(maps, cells, bins), expect, atol=2e-4)


def test_white_level_is_the_90th_percentile_of_each_channel():
    from vision.features import _white

    rng = np.random.default_rng(6)
    crops = rng.integers(0, 256, (7, 13, 11, 3), dtype=np.uint8)
    crops[0] = 200  # a flat crop: every percentile is its one value
    expect = np.percentile(crops.reshape(7, -1, 3), 90, axis=1).astype(np.float32)
    np.testing.assert_array_equal(_white(crops), expect)
    assert _white(crops)[0].tolist() == [200.0, 200.0, 200.0]


def test_pawn_colour_histogram_bins_as_histogram2d():
    from vision import kernels

    rng = np.random.default_rng(7)
    ref = np.array([200.0, 180.0, 190.0], np.float32)
    raw = rng.integers(60, 256, (1, 500, 3)).astype(np.uint8)
    w = rng.random((1, 500)).astype(np.float32)
    pix = raw[0].astype(np.float32) / ref
    a, b = pix[:, 0] - pix[:, 2], pix[:, 1] - (pix[:, 0] + pix[:, 2]) / 2
    expect, _, _ = np.histogram2d(a, b, bins=5, range=[[-0.4, 0.4], [-0.4, 0.4]], weights=w[0])
    assert 0 < expect.sum() < w.sum()  # some colours fall outside the range and count nowhere
    got = kernels.pawn_statistics(raw, w, ref, 5)[0, 15:]
    np.testing.assert_allclose(got, np.sqrt(expect.ravel() / (expect.sum() + 1e-6)), rtol=1e-5)


def test_pawn_statistics_are_the_selections_statistics():
    from vision import kernels

    rng = np.random.default_rng(8)
    ref = np.array([210.0, 200.0, 190.0], np.float32)
    raw = rng.integers(0, 256, (2, 400, 3)).astype(np.uint8)
    fg = (rng.random((2, 400)) < 0.5).astype(np.float32)
    fg[1] = 0.0  # no foreground: the 12 % of pixels least like the slot's median
    got = kernels.pawn_statistics(raw, fg, ref, 5)
    for r in range(2):
        pix = raw[r].astype(np.float32) / ref
        if r == 0:
            sel = fg[r] > 0.5
        else:
            dist = np.abs(pix - np.median(pix, axis=0)).sum(1)
            sel = dist >= np.percentile(dist, 88)
        s = pix[sel]
        lum = s.mean(1)
        sat = np.abs(s - lum[:, None]).sum(1)
        top = s[sat >= np.median(sat)]
        np.testing.assert_allclose(got[r, :3], top.mean(0), rtol=1e-4)
        np.testing.assert_allclose(got[r, 6:9], [top.mean(1).mean(), np.median(lum), lum.std()], rtol=1e-4)
        np.testing.assert_allclose(got[r, 9:15], np.concatenate(np.percentile(raw[r][sel], (25, 75), axis=0)) / np.tile(ref, 2),
                                   rtol=1e-5)


def test_compiled_kernels_agree_with_their_plain_python_source():
    from vision import kernels

    if not hasattr(kernels.grow_lattice, "py_func"):
        pytest.skip("numba is switched off: the kernels run as plain Python")
    rng = np.random.default_rng(9)
    # a 5 x 5 lattice of 50 px tiles seen through a mild perspective, corners jittered
    H = np.array([[1.0, 0.1, 200.0], [0.05, 0.9, 100.0], [1e-4, 2e-4, 1.0]])
    quads = []
    for r in range(5):
        for c in range(5):
            sq = np.array([[c, r], [c + 0.85, r], [c + 0.85, r + 0.85], [c, r + 0.85]]) * 60.0
            p = np.c_[sq, np.ones(4)] @ H.T
            quads.append(p[:, :2] / p[:, 2:] + rng.normal(0, 0.3, (4, 2)))
    quads = np.array(quads)
    import cv2

    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    H0 = cv2.getPerspectiveTransform(quads[12].astype(np.float32), unit).astype(np.float64)
    fast = kernels.grow_lattice(quads, 12, H0, 0.22)
    plain = kernels.grow_lattice.py_func(quads, 12, H0, 0.22)
    assert fast[3].all() and np.array_equal(fast[3], plain[3]) and np.array_equal(fast[2], plain[2])
    np.testing.assert_allclose(fast[0], plain[0], rtol=1e-9, atol=1e-12)
    assert fast[1] == pytest.approx(plain[1])
    raw = rng.integers(0, 256, (3, 300, 3)).astype(np.uint8)
    fg = rng.random((3, 300)).astype(np.float32)
    ref = np.array([200.0, 190.0, 180.0], np.float32)
    np.testing.assert_allclose(kernels.pawn_statistics(raw, fg, ref, 5),
                               kernels.pawn_statistics.py_func(raw, fg, ref, 5), rtol=1e-6, atol=1e-6)
    # every other kernel, on small inputs
    image = rng.integers(0, 256, (40, 40, 3)).astype(np.uint8)
    gray = np.ascontiguousarray(image[..., 1])
    small = np.ascontiguousarray(quads[:6] / 8.0, np.float32)
    crops = rng.integers(0, 256, (4, 12, 12, 3)).astype(np.uint8)
    white = rng.uniform(100, 250, (4, 3)).astype(np.float32)
    maps = rng.random((2, 8, 8)).astype(np.float32)
    angles = (rng.random((2, 8, 8)) * 6.28).astype(np.float32)
    cost = rng.exponential(3.0, (5, 7))
    pts = rng.uniform(-0.5, 0.5, (20, 2))
    cases = [
        ("colour_rarity", (image, 8)),
        ("tileness", (gray, small)),
        ("channel_percentiles", (crops.reshape(4, -1, 3), 90.0)),
        ("ink_maps", (crops, white)),
        ("direction_histograms", (maps, angles, 4, 16)),
        ("exchange_margins", (cost, np.array([0, 1, 2, 3, 4]), 1e6)),
        ("lens_costs", (pts, pts * 3.0 + 1.0, pts[:5].copy(), pts[:5] * 3.0 + 1.0, np.array([-0.2, 0.0, 0.04]))),
        ("homography_dlt", (pts, pts * 2.0 - 1.0)),
    ]
    for name, args in cases:
        fast, plain = getattr(kernels, name)(*args), getattr(kernels, name).py_func(*args)
        for f, p in zip(fast if isinstance(fast, tuple) else (fast,), plain if isinstance(plain, tuple) else (plain,)):
            np.testing.assert_allclose(f, p, rtol=1e-6, atol=1e-9, err_msg=name)


def test_linear_homography_fit_recovers_an_exact_homography():
    from vision import kernels

    H = np.array([[2.0, 0.3, 10.0], [-0.2, 1.5, 5.0], [1e-3, -2e-3, 1.0]])
    src = np.random.default_rng(10).uniform(0, 100, (12, 2))
    p = np.c_[src, np.ones(12)] @ H.T
    np.testing.assert_allclose(kernels.homography_dlt(src, p[:, :2] / p[:, 2:]), H, rtol=1e-7, atol=1e-9)


def test_outlined_text_outline_stays_with_its_letters():
    # OpenCV 5 widens each glyph's advance with the stroke: an outline drawn thicker under
    # the text ran ~20 px past its end on a long line; shifted copies stay with the letters
    import cv2

    from vision.debug import outlined_text

    text = "no board in view: found 7 tiles on a lattice, expected at least 8 of the 24"
    img = np.full((40, 700, 3), 128, np.uint8)
    outlined_text(img, text, (10, 25), (0, 255, 255), 0.4, 1)
    (w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)
    cols = np.flatnonzero((img != 128).any(axis=(0, 2)))
    assert cols.min() >= 10 - 2 and cols.max() <= 10 + w + 2


def test_rectify_samples_each_canvas_pixel_where_the_lattice_maps_it():
    # the map is computed at nodes every 8 px and interpolated: on a frame whose pixels hold
    # their own coordinates, every canvas pixel must come from within 0.05 px of where the
    # lattice (with barrel distortion) maps it
    from vision.locate import Lattice
    from vision.rectify import canvas_size, rectify

    cfg = VisionConfig()
    h, w = 720, 1280
    ang = np.radians(20.0)
    # lattice units -> normalised frame: a board 0.6 of the frame's half-diagonal wide, turned 20 degrees
    A = np.array([[0.12 * np.cos(ang), -0.12 * np.sin(ang), -0.3], [0.12 * np.sin(ang), 0.12 * np.cos(ang), -0.3], [0.0, 0.0, 1.0]])
    lat = Lattice(np.linalg.inv(A), -0.08, ((w - 1) / 2, (h - 1) / 2), float(np.hypot(w, h) / 2), frozenset(), 0.9,
                  np.zeros((0, 4, 2)), np.zeros((0, 4, 2)))
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    coords = np.dstack([xs, ys, np.zeros_like(xs)])
    got = rectify(coords, lat, cfg)[..., :2]
    S = canvas_size(cfg)
    yy, xx = np.mgrid[0:S, 0:S].astype(np.float64)
    uv = np.stack([xx, yy], -1) / cfg.rectify.cell_px - cfg.rectify.margin_pitches
    want = lat.to_image(uv.reshape(-1, 2)).reshape(S, S, 2)
    inside = (want[..., 0] > 1) & (want[..., 0] < w - 2) & (want[..., 1] > 1) & (want[..., 1] < h - 2)
    assert inside.mean() > 0.9
    assert np.abs(got - want)[inside].max() < 0.05


def test_a_quad_corner_on_the_homography_s_horizon_maps_far_away_without_failing():
    import numpy as np

    from vision import kernels

    H = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])  # w = x: the line x = 0 is the horizon
    quads = np.array([[[0.0, 1.0], [1.0, 1.0], [1.0, 2.0], [0.0, 2.0]]])
    out = kernels.warp_quads(H, quads)
    assert np.all(np.isfinite(out)) and abs(out[0, 0, 1]) > 1e11 and out[0, 1].tolist() == [1.0, 1.0]
