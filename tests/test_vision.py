"""The board reader on rendered scenes with known truth and on the stills in sample_images/.

Renders come from the simulator with fixed seeds (disjoint from the default model's training
seeds and from the benchmark's); every assertion compares with the simulator's truth.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from caller.cli import main
from vision import BoardNotFound, ProfileError, TooManyBoards, UnreadableImage
from vision.reader import Reader, read_image_file

ROOT = Path(__file__).resolve().parent.parent
# Known misreads of the current reader (it is below its bars, see the README):
# strict, so a fix shows up as XPASS and the mark must then go.
KNOWN_MISREADS = {
    # the hand hides the pawns of rows 3 and 4: both are flagged uncertain (never acted on),
    # but the guess under them is the wrong way round
    "easy-slider_midgame_hand_standard": "the two pawns under the hand are flagged uncertain but read swapped",
}
STILLS = [
    pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_MISREADS[p.stem])] if p.stem in KNOWN_MISREADS else [])
    for p in sorted((ROOT / "sample_images").glob("easy-slider_*.jpg"))
]
STILL_PATHS = sorted((ROOT / "sample_images").glob("easy-slider_*.jpg"))


@pytest.fixture(scope="module")
def reader():
    return Reader()


def _render(seed, **kw):
    from simulator.layouts import easy_slider_layout
    from simulator.render import render_table

    kind = kw.pop("kind", "midgame")
    return render_table(easy_slider_layout(seed, kind=kind), seed=seed, **kw)


def _assert_reads(obs, truth):
    got = {"board": [list(r) for r in obs.board], "pawns": list(obs.pawns), "coins": list(obs.coins)}
    want = {"board": truth["board"], "pawns": truth["pawns"], "coins": truth["coins"]}
    assert got == want
    covered = {tuple(c) for c in truth.get("covered", [])}
    assert covered <= set(obs.uncertain), "covered cells must be reported uncertain"


@pytest.mark.parametrize("path", STILLS)
def test_every_sample_still_is_read_exactly(reader, path):
    truth = json.loads(path.with_suffix(".json").read_text())
    obs = reader.read(read_image_file(path))
    if truth.get("covered"):
        # a hand over the board: the cells it hides are never trusted, the rest are read right
        covered = {tuple(c) for c in truth["covered"]}
        assert covered <= set(obs.uncertain)
        for r in range(5):
            for c in range(5):
                if (r, c) not in set(obs.uncertain):
                    assert obs.board[r][c] == truth["board"][r][c], (r, c)
        assert list(obs.pawns) == truth["pawns"] and list(obs.coins) == truth["coins"]
    else:
        _assert_reads(obs, truth)


@pytest.mark.slow
@pytest.mark.parametrize("seed,look", [(7001, "standard"), (7002, "wood-classic"), (7003, "paper-print"), (7004, "plastic-bold")])
def test_rendered_boards_are_read_in_the_players_frame(reader, seed, look):
    from simulator.render import CLEAN

    r = _render(seed, look=look, conditions=dict(CLEAN))
    obs = reader.read(r.image)
    _assert_reads(obs, r.truth)
    # the player's top-left board corner is found where the truth has it (orientation)
    tl = np.array(r.truth["board_corners"][0])
    pitch = np.linalg.norm(np.subtract(r.truth["board_corners"][1], r.truth["board_corners"][0])) / 5
    assert np.linalg.norm(np.array(obs.board_corners[0]) - tl) < 0.5 * pitch


@pytest.mark.slow
def test_a_hand_over_the_board_makes_its_cells_uncertain(reader):
    r = _render(7102, look="standard", hands=1, conditions={"glare": 0.0})
    assert r.truth["covered"], "this seed puts a hand over some cells"
    obs = reader.read(r.image)
    assert {tuple(c) for c in r.truth["covered"]} <= set(obs.uncertain)


def test_unreadable_file_is_one_error_line_and_the_batch_goes_on(tmp_path, capsys):
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"this is not a picture")
    with pytest.raises(UnreadableImage, match="broken.jpg: not an image"):
        read_image_file(bad)
    good = STILL_PATHS[0] if STILL_PATHS else None
    args = ["read", str(bad), str(tmp_path / "missing.png")] + ([str(good)] if good else []) + ["--json"]
    status = main(args)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0] == {"image": str(bad), "error": f"{bad}: not an image OpenCV can read (expected JPEG, PNG, BMP, TIFF or WebP)"}
    assert lines[1]["error"] == f"{tmp_path / 'missing.png'}: no such file"
    if good:
        assert "board" in lines[2] and "error" not in lines[2]


def test_no_board_in_view(reader):
    rng = np.random.default_rng(5)
    table = np.full((720, 1280, 3), (60, 100, 150), np.uint8)
    table = cv2.add(table, rng.integers(0, 20, table.shape, dtype=np.uint8))
    with pytest.raises(BoardNotFound, match="no board in view"):
        reader.read(table)


@pytest.mark.slow
def test_two_boards_where_one_was_expected(reader):
    from simulator.render import CLEAN

    from simulator.camera import CameraSpec

    # two tables side by side, seen by the same kind of camera so the boards look alike
    a = _render(7205, look="standard", size=(640, 720), conditions=dict(CLEAN), kind="setup")
    b = _render(7206, look="standard", size=(640, 720), conditions=dict(CLEAN), kind="setup",
                camera=CameraSpec.from_json(a.truth["camera"]))
    with pytest.raises(TooManyBoards, match="two boards in view"):
        reader.read(np.hstack([a.image, b.image]))


def test_a_profile_for_another_game_is_refused(tmp_path, capsys):
    from vision.profile import load_profile, save_profile

    prof = load_profile(None)
    other = type(prof)(game="slide", name="someone's slide set", features=prof.features, models=prof.models, meta={})
    save_profile(other, tmp_path / "slide-set")
    with pytest.raises(ProfileError, match="profile for game 'slide', expected a profile for 'easy-slider'"):
        Reader(tmp_path / "slide-set")
    status = main(["read", "whatever.jpg", "--profile", str(tmp_path / "slide-set.json")])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("caller: error: ") and "expected a profile for 'easy-slider'" in err[0]


def test_text_output_and_debug_pictures(tmp_path, capsys):
    path = ROOT / "sample_images" / "easy-slider_setup_standard.jpg"
    if not path.exists():
        pytest.skip("sample_images/easy-slider_setup_standard.jpg is missing")
    status = main(["read", str(path), "--debug", str(tmp_path)])
    out = capsys.readouterr().out
    truth = json.loads(path.with_suffix(".json").read_text())
    assert status == 0
    assert [c.rstrip("?") for c in out.splitlines()[1].split()] == [c or "--" for c in truth["board"][0]]
    for name in ("grid", "board", "cells"):
        assert cv2.imread(str(tmp_path / f"{path.stem}-{name}.png")) is not None


def test_a_failed_read_still_writes_its_debug_picture(tmp_path, capsys):
    table = np.full((720, 1280, 3), (60, 100, 150), np.uint8)
    path = tmp_path / "empty_table.png"
    cv2.imwrite(str(path), table)
    status = main(["read", str(path), "--debug", str(tmp_path / "dbg"), "--json"])
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert status == 1
    assert line["error"].startswith("no board in view")
    picture = cv2.imread(str(tmp_path / "dbg" / "empty_table-grid.png"))
    assert picture is not None and picture.shape == (720, 1280, 3)


def test_the_pawns_under_the_hand_in_the_sample_still_are_flagged(reader):
    path = ROOT / "sample_images" / "easy-slider_midgame_hand_standard.jpg"
    if not path.exists():
        pytest.skip(f"{path.name} is missing")
    truth = json.loads(path.with_suffix(".json").read_text())
    obs = reader.read(read_image_file(path))
    wrong = {i for i, (a, b) in enumerate(zip(obs.pawns, truth["pawns"])) if a != b}
    assert wrong <= set(obs.uncertain_pawns)
    assert obs.coins == tuple(truth["coins"])
    assert {tuple(c) for c in truth["covered"]} <= set(obs.uncertain)


@pytest.mark.parametrize("name", ["easy-slider_midgame_wood", "easy-slider_setup_standard"])
@pytest.mark.parametrize("dx,dy", [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_window_one_pitch_off_is_put_back(reader, name, dx, dy):
    # the lattice moved one pitch each way (as a stray tile-like quad can do): the re-check
    # finds the board again, whatever orientation the moved window first suggested
    from vision.reader import analyse

    path = ROOT / "sample_images" / f"{name}.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    image = read_image_file(path)
    off = analyse(image, reader.config, lattices=[reader.analyse(image).lattice.shifted(dx, dy)])
    assert [list(r) for r in reader.observe(off).board] != truth["board"]
    _assert_reads(reader.observe(reader.recheck(image, off)), truth)


def test_a_face_in_shade_that_still_fits_clearly_is_not_called_covered(reader):
    # a soft shadow over the left of the frame (a lamp behind a player): the faces there are
    # darker than any known face (excess ink, as under a hand) but the lower-left one still
    # fits its label clearly, so it is read, not reported covered
    path = ROOT / "sample_images" / "easy-slider_setup_standard.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    image = read_image_file(path)
    x = np.linspace(0.0, 1.0, image.shape[1])[None, :, None]
    shaded = np.clip(image * (1 - 0.55 * np.clip((0.5 - x) / 0.2, 0, 1)), 0, 255).astype(np.uint8)
    obs = reader.read(shaded)
    assert [list(r) for r in obs.board] == truth["board"]
    assert (4, 0) not in obs.covered and (4, 0) not in obs.uncertain


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_the_faces_settle_a_side_the_pawns_and_coins_left_in_doubt(reader, turn):
    # the coin row and pawn column pointed to a wrong side, narrowly (as a half-hidden coin row
    # can): the upright faces fit only the player's quarter turn, so the re-check turns back
    from vision.reader import analyse

    path = ROOT / "sample_images" / "easy-slider_midgame_wood.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    image = read_image_file(path)
    right = reader.analyse(image)
    wrong = analyse(image, reader.config, (right.k + turn) % 4, lattices=[right.lattice])
    wrong.orientation_margin = 1.0
    assert list(reader.observe(wrong).pawns) != truth["pawns"]
    fixed = reader.recheck(image, wrong)
    assert fixed.k == right.k
    _assert_reads(reader.observe(fixed), truth)
    # a side the pawns and coins are sure of is not second-guessed
    wrong.orientation_margin = 10.0
    assert reader.orient_by_faces(image, wrong).k == wrong.k


@pytest.mark.parametrize("name", ["easy-slider_midgame_wood", "easy-slider_setup_plastic_1080p"])
def test_a_cell_where_the_search_saw_a_face_is_never_the_hole(reader, name, monkeypatch):
    from vision import reader as R

    path = ROOT / "sample_images" / f"{name}.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    image = read_image_file(path)
    a = reader.examine(image)
    seen = a.seen_faces()
    hole_at = [i for i in range(25) if truth["board"][i // 5][i % 5] is None]
    # the faces the board search saw, in the player's order: the true hole is not among them
    assert seen.sum() == len(a.lattice.tiles) >= 20 and not seen[hole_at].any()
    # the set's hole label fits a seen face best (a blank face on a table like the calibration
    # photo's) and the true hole (another table) fits that face's label as well as the hole:
    # the face keeps its label, and the true hole keeps the hole
    classes = reader.profile.model("tiles").classes
    hole = classes.index(R.HOLE)
    victim = int(np.nonzero(seen)[0][0])
    label = classes.index(truth["board"][victim // 5][victim % 5])
    real = reader.nudged_costs

    def costs(analysis, cost):
        cost = real(analysis, cost).copy()
        cost[victim, hole] = cost[victim].min() - 5.0
        cost[hole_at[0], label] = cost[hole_at[0]].min()
        return cost

    monkeypatch.setattr(reader, "nudged_costs", costs)
    obs = reader.observe(a)
    assert [list(r) for r in obs.board] == truth["board"]
    # the same costs without the search's faces: the hole moves onto that face
    monkeypatch.setattr(reader, "config", reader.config.replace(seen_face_hole_cost=0.0))
    assert reader.observe(a).board[victim // 5][victim % 5] is None


def test_a_window_on_the_coin_row_with_the_blank_row_unseen_is_moved_back(reader, monkeypatch):
    # a solved board: its bottom row is the four blank null faces and the hole, which the board
    # search does not see, so the window could as well take the coin row. Even when the faces
    # raise no suspicion, the coin row and pawn column, which fit the right window far better,
    # move it back
    from vision.reader import _lattice_shift, analyse

    path = ROOT / "sample_images" / "easy-slider_solved_paper.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    image = read_image_file(path)
    right = reader.analyse(image)
    # the window one row up, towards the coins: its top row (the coin row) holds no face seen
    off = analyse(image, reader.config, right.k, lattices=[right.lattice.shifted(*_lattice_shift(0, -1, right.k))])
    off.orientation_margin = reader.config.orientation.sure_margin
    assert not off.seen_faces().reshape(5, 5)[0].any()
    assert [list(r) for r in reader.observe(off).board] != truth["board"]
    monkeypatch.setattr(reader, "_window_suspect", lambda cost: False)
    _assert_reads(reader.observe(reader.recheck(image, off)), truth)
    # the pieces beside the board must fit the moved window clearly better to move it
    monkeypatch.setattr(reader, "config", reader.config.replace(side_gain=1000.0))
    assert reader.recheck(image, off).lattice is off.lattice


def test_a_window_two_rows_off_on_a_light_board_is_moved_back_twice(reader, monkeypatch):
    # white faces on a white table (seed 905100 of the read benchmark, once read wrong there):
    # the search saw faces only in one corner, and after the faces settled the side the
    # window held the coin row and had lost the blank null row. Here the window is put two
    # rows off (the table beyond the coins and the coin row in, no face seen in either): one
    # move from the unseen edge is not enough; the window moved is checked again
    from benchmarks.scenes import render_scene, scene_spec
    from vision.reader import _lattice_shift, analyse

    r = render_scene(905100, scene_spec(905100, ("standard",), size=(1280, 720)))
    _assert_reads(reader.read(r.image), r.truth)
    right = reader.examine(r.image)
    off = analyse(r.image, reader.config, right.k, lattices=[right.lattice.shifted(*_lattice_shift(0, -2, right.k))])
    off.orientation_margin = reader.config.orientation.sure_margin
    assert not off.seen_faces().reshape(5, 5)[:2].any()
    monkeypatch.setattr(reader, "_window_suspect", lambda cost: False)
    _assert_reads(reader.observe(reader.recheck(r.image, off)), r.truth)
    monkeypatch.setattr(reader, "config", reader.config.replace(unseen_edge_moves=1))
    assert [list(row) for row in reader.observe(reader.recheck(r.image, off)).board] != r.truth["board"]


@pytest.mark.parametrize("seed, rule, without", [
    # a solved board on a light check cloth: the board search took two coins for faces and
    # missed the blank null row, so the window held the coin row; the pieces beside it fit it
    # poorly (side score 2), and the window moved off that edge, where they fit 11 better, is kept
    (950594, "unseen_edge_faces", 0),
    # a solved board under a strong glare: the search's window is a row and a column off; the
    # first move puts it right along one axis, and the window moved, still suspect, moves again
    (950471, "window_moves", 1),
])
def test_a_window_off_on_the_held_out_look_is_moved_back(reader, monkeypatch, seed, rule, without):
    # photos of the calibration benchmark (the held-out look), read wrong whole by the default
    # model and a calibrated profile alike before the rule
    from benchmarks.bench_calibrate import KINDS, _render

    r = _render(seed, "unseen-ivory", KINDS[seed % 3])
    _assert_reads(reader.read(r.image), r.truth)
    monkeypatch.setattr(reader, "config", reader.config.replace(**{rule: without}))
    assert [list(row) for row in reader.read(r.image).board] != r.truth["board"]


def test_a_coin_found_off_its_centre_is_searched_wider(reader):
    # blur, a thick coin's side or its shadow can pull the ring search 5-19 px off the digit:
    # a coin that then fits no value is cut over a wider grid, and read right
    from vision import features as F
    from vision.reader import coin_costs

    path = ROOT / "sample_images" / "easy-slider_solved_paper.jpg"
    truth = json.loads(path.with_suffix(".json").read_text())
    a = reader.examine(read_image_file(path))
    model = reader.profile.model("coins")
    a.coin_centres = a.coin_centres + np.array([-9.0, 9.0])
    a.coin_feats = F.coin_features(a.coin_windows, a.coin_centres)
    wide = coin_costs(a, model)
    assert [model.classes[i] for i in wide.argmin(1)] == truth["coins"]
    assert wide.min(1).max() < reader.config.features.coin_wide_share * model.outlier
    narrow = coin_costs(a, model, reader.config.replace(coin_wide_share=float("inf")))
    assert [model.classes[i] for i in narrow.argmin(1)] != truth["coins"]


def _dev_scene_with_a_hand(seed):
    """The development scene ``seed`` as the read benchmark renders it with ``--dev --hands 1``."""
    from benchmarks.scenes import DEV_SEEDS, render_scene, scene_spec, training_looks

    i = seed - DEV_SEEDS[0]
    looks = ("standard",) if i % 2 == 0 else tuple(l for l in training_looks() if l != "standard")
    spec = scene_spec(seed, looks, size=(1920, 1080) if i % 3 == 2 else (1280, 720))
    spec["hands"] = 1
    return render_scene(seed, spec)


@pytest.mark.slow
@pytest.mark.parametrize("seed, wrong, uncertain", [
    # before, no cell under this hand was covered and (2, 2) and the hole at (3, 1) were read
    # wrong at confidence 0.92; now (2, 2) and (3, 2) fit at over 10 nats and 6 times the
    # board's median (covered), and the loosely fitting cells beside them are uncertain;
    # (1, 1), read right, is uncertain too: with the covered cells free to hide any tile its
    # face no longer rules out the label read under the hand
    (500047, {(0, 1), (0, 2), (1, 2), (2, 2), (3, 1)},
     {(0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2), (4, 2)}),
    # (4, 0), under the hand's edge, was read as the hole at 0.92
    (500015, {(3, 0), (4, 0), (4, 4)}, {(3, 0), (4, 0), (4, 4)}),
    # (2, 2), at the edge of the hidden cells, was read M4 for C4 at 0.94
    (500034, {(0, 2), (0, 3), (1, 2), (1, 3), (2, 2)}, {(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (2, 2)}),
])
def test_cells_a_hand_hides_that_are_read_wrong_are_uncertain(reader, seed, wrong, uncertain):
    r = _dev_scene_with_a_hand(seed)
    obs = reader.read(r.image)
    got = {(i, j) for i in range(5) for j in range(5) if obs.board[i][j] != r.truth["board"][i][j]}
    assert got == wrong
    assert set(obs.uncertain) == uncertain


@pytest.mark.slow
def test_coins_under_a_hand_that_fit_no_value_are_uncertain(reader):
    # the arm comes from the far side over the first two coins: they fit no value (82 and 22
    # nats) and were read swapped at confidence 0.98
    r = _dev_scene_with_a_hand(500033)
    obs = reader.read(r.image)
    assert list(obs.coins) == ["5", "3", "2", "a", "4"] and r.truth["coins"] == ["3", "5", "2", "a", "4"]
    assert obs.uncertain_coins == (0, 1)
    assert [list(row) for row in obs.board] == r.truth["board"] and set(obs.uncertain) == {(0, 0), (0, 1)}


def test_a_coin_s_face_read_turned_is_its_crop_turned_about_its_middle():
    from vision import features as F

    # reading a face turned a quarter samples the same points as turning the upright crop a
    # quarter (within a grey level of interpolation); unturned, the crop is as it always was
    rng = np.random.default_rng(4)
    windows = rng.integers(0, 256, (3, 128, 128, 3), dtype=np.uint8)
    centres = np.array([[64.0, 64.0], [50.5, 70.25], [80.0, 47.0]])
    upright = F._coin_crops(windows, centres, 51.2, 32).astype(int)
    quarter = F._coin_crops(windows, centres, 51.2, 32, 90.0).astype(int)
    assert np.abs(quarter - np.rot90(upright, 1, (1, 2))).max() <= 1
    assert np.array_equal(F._coin_crops(windows, centres, 51.2, 32, 0.0), upright.astype(np.uint8))
    # a whole turn round reads the face as it lies
    assert np.abs(F.coin_features(windows, centres, 360.0) - F.coin_features(windows, centres)).max() < 1e-3
