"""Learning a set from one photo of a known layout; refusing a layout that does not match; the guided flow."""

from __future__ import annotations

import io
import json

import cv2
import numpy as np
import pytest

import rules
from caller.cli import main
from calibration.guided import CalibrationCancelled, guided_shot
from calibration.learn import TILE_CLASSES, TruthMismatch, learn_profile, tile_misfit
from calibration.truth import truth_from_json
from simulator.layouts import easy_slider_layout
from simulator.looks import HELD_OUT_LOOKS
from simulator.render import CLEAN, render_table
from vision.errors import ProfileError
from vision.profile import load_profile, save_profile
from vision.reader import Reader

LOOK = HELD_OUT_LOOKS[0]
N_AUG = 6  # few variations: enough to check the flow and the refusals, quick for a unit test
N_LEARN = 16  # enough for a profile that reads other photos of this clean set


@pytest.fixture(scope="module")
def photo():
    layout = easy_slider_layout(31, kind="setup")
    return render_table(layout, seed=31, look=LOOK, conditions=dict(CLEAN, white_balance=-0.8))


@pytest.fixture(scope="module")
def learnt(photo):
    return learn_profile([("photo.png", photo.image)], [truth_from_json(photo.truth, "t.json")], n_augment=N_LEARN, seed=1)


def _swap(obj: dict, a: tuple[int, int], b: tuple[int, int]) -> dict:
    board = [list(r) for r in obj["board"]]
    board[a[0]][a[1]], board[b[0]][b[1]] = board[b[0]][b[1]], board[a[0]][a[1]]
    return dict(obj, board=board)


def test_a_profile_learnt_from_one_photo_reads_the_set_under_another_light(learnt, photo, tmp_path):
    prof = learnt.profile
    assert prof.game == "easy-slider"
    assert [prof.model(k).dim > 0 for k in ("tiles", "coins", "pawns")] == [True, True, True]
    assert tuple(prof.model("tiles").classes) == TILE_CLASSES
    # the photo's faces, its hole, and the default model's holes (the table, not the set: many tables)
    default_holes = load_profile(None).model("tiles").labels.count("hole")
    assert prof.model("tiles").labels == TILE_CLASSES + ("hole",) * default_holes and default_holes >= 2
    assert learnt.fits[0].problems == ()
    save_profile(prof, tmp_path / "myset")
    back = load_profile(tmp_path / "myset")
    assert back.meta["photos"] == ["photo.png"] and back.meta["augmentations_per_photo"] == N_LEARN
    # the same set, another layout, a cold window instead of a warm lamp
    other = easy_slider_layout(32, kind="midgame")
    r = render_table(other, seed=32, look=LOOK, conditions=dict(CLEAN, white_balance=0.8, exposure=0.85))
    obs = Reader(back).read(r.image)
    assert [list(row) for row in obs.board] == other["board"]


def test_the_learnt_faces_are_read_when_cut_a_few_px_off_their_places(learnt, photo):
    # on other cameras the lattice can put a face a few px off its place (strong lens
    # distortion, a tile laid a little off the grid): the copies the profile learns from are
    # also cut off their places (``crop_jitter_px``), so such faces still fit their own labels
    from calibration.config import CalibrationConfig
    from vision import features as F
    from vision.config import VisionConfig
    from vision.reader import analyse
    from vision.rectify import cell_crops

    other = easy_slider_layout(32, kind="midgame")
    r = render_table(other, seed=32, look=LOOK, conditions=dict(CLEAN, white_balance=0.8, exposure=0.85))
    cfg = VisionConfig()
    a = analyse(r.image, cfg)
    # every face cut 3 px right and 3 px down of where the lattice puts it
    feats = F.tile_features(cell_crops(a.view, cfg, F.FEATURES["tile_crop"], np.full((25, 2), 3.0)))[0]
    truth = [code or "hole" for row in other["board"] for code in row]

    def wrong(profile) -> int:
        tiles = profile.model("tiles")
        return sum(tiles.classes[j] != t for j, t in zip(tiles.costs(feats).argmin(1), truth))

    assert wrong(learnt.profile) == 0
    # learnt from centred faces only, the same photo's profile takes many of them for others
    centred = learn_profile([("photo.png", photo.image)], [truth_from_json(photo.truth, "t.json")], n_augment=N_LEARN, seed=1,
                            calibration=CalibrationConfig(crop_jitter_px=0.0))
    assert wrong(centred.profile) >= 5


def test_pawns_swapped_in_the_truth_are_refused_naming_them(photo):
    obj = dict(photo.truth)
    p = list(obj["pawns"])
    p[0], p[3] = p[3], p[0]  # the green and the red pawn (black against blue is not told apart reliably yet)
    with pytest.raises(TruthMismatch) as err:
        learn_profile([("photo.png", photo.image)], [truth_from_json(dict(obj, pawns=p), "bad.json")], n_augment=N_AUG)
    msg = str(err.value)
    assert msg.startswith("the layout given does not match the photo, nothing learnt: photo.png vs bad.json: ")
    assert "pawn 1 (left of row 1) looks green (Crowns), the truth says red (Suns)" in msg
    assert "pawn 4 (left of row 4) looks red (Suns), the truth says green (Crowns)" in msg


def test_coins_swapped_in_the_truth_are_refused_naming_them(photo):
    obj = dict(photo.truth)
    c = list(obj["coins"])
    c[1], c[3] = c[3], c[1]
    with pytest.raises(TruthMismatch) as err:
        learn_profile([("photo.png", photo.image)], [truth_from_json(dict(obj, coins=c), "bad.json")], n_augment=N_AUG)
    msg = str(err.value)
    words = {"a": "an ace", "2": "a 2", "3": "a 3", "4": "a 4", "5": "a 5"}
    assert f"coin 2 (above column 2) looks {words[c[3]]}, the truth says {words[c[1]]}" in msg
    assert f"coin 4 (above column 4) looks {words[c[1]]}, the truth says {words[c[3]]}" in msg
    assert "coin 1 " not in msg and "cells" not in msg


def test_a_hole_in_the_wrong_place_is_refused_naming_the_cells(photo):
    hr, hc = next((r, c) for r in range(5) for c in range(5) if photo.truth["board"][r][c] is None)
    bad = _swap(photo.truth, (hr, hc), (1, 1))
    with pytest.raises(TruthMismatch, match=rf"the truth puts the hole at \[1, 1\] but that cell shows a tile face; "
                                            rf"the hole is at \[{hr}, {hc}\]"):
        learn_profile([("photo.png", photo.image)], [truth_from_json(bad)], n_augment=N_AUG)


def test_suit_and_rank_misfit_singles_out_mislabelled_cells():
    # synthetic faces: feature = suit colour + rank glyph + noise; two cells swap labels
    rng = np.random.default_rng(0)
    suit_vec = rng.normal(0, 1, (4, 20))
    rank_vec = rng.normal(0, 1, (6, 20))
    codes = [s + r for s in "SMCA" for r in "na2345"] + [None]
    feats = np.array([suit_vec["SMCA".index(c[0])] + rank_vec["na2345".index(c[1])] if c else np.zeros(20) for c in codes])
    feats = feats + rng.normal(0, 0.05, feats.shape)
    labels = list(codes)
    labels[3], labels[17] = labels[17], labels[3]
    mis = tile_misfit(feats, labels, np.ones(20), [False] * 25)
    assert np.isnan(mis[24])
    flagged = sorted(int(i) for i in np.nonzero(mis > 4.0)[0])
    assert flagged == [3, 17]
    honest = tile_misfit(feats, codes, np.ones(20), [False] * 25)
    assert np.nanmax(honest) < 4.0


def test_a_profile_of_another_version_or_game_is_a_clear_error(learnt, tmp_path):
    jpath, _ = save_profile(learnt.profile, tmp_path / "p")
    head = json.loads(jpath.read_text())
    jpath.write_text(json.dumps(dict(head, version=99)))
    with pytest.raises(ProfileError, match="profile version 99, this program reads version 1"):
        load_profile(tmp_path / "p")
    jpath.write_text(json.dumps(dict(head, game="slide")))
    with pytest.raises(ProfileError, match="profile for game 'slide', expected a profile for 'easy-slider'"):
        load_profile(tmp_path / "p")


def test_cli_learns_the_same_profile_from_the_same_seed_and_refuses_with_one_line(photo, learnt, tmp_path, capsys):
    png = tmp_path / "photo.png"
    cv2.imwrite(str(png), photo.image)
    (tmp_path / "truth.json").write_text(json.dumps(dict(photo.truth, image="photo.png")))
    hr, hc = next((r, c) for r in range(5) for c in range(5) if photo.truth["board"][r][c] is None)
    (tmp_path / "wrong.json").write_text(json.dumps(_swap(photo.truth, (hr, hc), (0, 0))))
    rc = main(["calibrate", str(png), "--truth", str(tmp_path / "truth.json"), "--out", str(tmp_path / "myset"),
               "--augment", str(N_LEARN), "--seed", "1", "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0
    assert out.startswith(f"wrote {tmp_path / 'myset.json'} and {tmp_path / 'myset.npz'}: profile 'myset' learnt from 1 photo(s)")
    mine = load_profile(tmp_path / "myset")
    for kind in ("tiles", "coins", "pawns"):
        assert np.array_equal(mine.model(kind).means, learnt.profile.model(kind).means)
    rc = main(["calibrate", str(png), "--truth", str(tmp_path / "wrong.json"), "--out", str(tmp_path / "bad"),
               "--augment", str(N_AUG), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1
    assert "the truth puts the hole at [0, 0]" in err[0]
    assert not (tmp_path / "bad.json").exists()
    assert main(["calibrate", str(png), "--out", str(tmp_path / "x")]) == 2
    assert "--truth LAYOUT.json is required" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------
# the guided flow: a recorded image stands in for the camera, scripted stdin for the player


def _setup_photo(seed: int, tmp_path) -> str:
    game = rules.get("easy-slider")
    layout = game.to_json(game.setup(seed=seed))
    r = render_table(layout, seed=seed, look=LOOK, conditions=CLEAN)
    path = tmp_path / f"setup{seed}.png"
    cv2.imwrite(str(path), r.image)
    return str(path)


class _OneFrame:
    live = False
    description = "test frame"

    def __init__(self, image):
        self.image, self.closed = image, False

    def __iter__(self):
        from caller.sources import Frame

        yield Frame(0, 0.0, self.image)

    def close(self):
        self.closed = True


def test_guided_shot_announces_waits_for_enter_then_takes_the_photo():
    said, asked = [], []
    answers = iter(["r", ""])  # repeat once, then Enter
    img = np.zeros((40, 40, 3), np.uint8)
    src = _OneFrame(img)
    opened = []

    def open_source():
        opened.append(len(said))
        return src

    shot = guided_shot(7, open_source, announce=said.append, ask=lambda p: (asked.append(p), next(answers))[1])
    game = rules.get("easy-slider")
    assert shot.truth.to_json() == {k: v for k, v in game.to_json(game.setup(seed=7)).items() if k != "game"}
    assert len(said) == 2 and said[0] == said[1] and said[0][0].startswith("Pawns")
    assert opened == [2]  # the camera is opened only after the player confirmed
    assert shot.image is img and src.closed


def test_guided_shot_quit_or_end_of_input_cancels():
    with pytest.raises(CalibrationCancelled, match="cancelled by the player"):
        guided_shot(7, lambda: pytest.fail("camera opened"), announce=lambda lines: None, ask=lambda p: "q")

    def eof(prompt):
        raise EOFError

    with pytest.raises(CalibrationCancelled, match="no confirmation"):
        guided_shot(7, lambda: pytest.fail("camera opened"), announce=lambda lines: None, ask=eof)


def test_cli_guided_setup_learns_from_the_announced_layout(tmp_path, monkeypatch, capsys):
    frame = _setup_photo(12, tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    rc = main(["calibrate", "--setup", "12", "--camera-source", frame, "--no-voice", "--keep-photo",
               "--out", str(tmp_path / "guided"), "--augment", str(N_AUG), "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.startswith("Easy Slider setup (seed 12):\nPawns")
    assert "press Enter to take the photo" in out
    kept = json.loads((tmp_path / "guided.truth.json").read_text())
    game = rules.get("easy-slider")
    assert kept["board"] == game.to_json(game.setup(seed=12))["board"] and kept["image"] == "guided.photo.png"
    assert load_profile(tmp_path / "guided").meta["photos"] == ["setup 12 photo"]


def test_cli_guided_setup_quit_exits_1_without_a_profile(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    rc = main(["calibrate", "--setup", "12", "--camera-source", str(tmp_path / "none.png"), "--no-voice",
               "--out", str(tmp_path / "g")])
    assert rc == 1
    assert capsys.readouterr().err.strip() == "caller: error: calibration cancelled by the player"
    assert not (tmp_path / "g.json").exists()


def test_setup_with_images_is_refused(tmp_path, capsys):
    assert main(["calibrate", "--setup", "x", "--out", str(tmp_path / "g")]) == 2
    assert capsys.readouterr().err.startswith("caller: error: caller calibrate: argument --setup: ")
    assert main(["calibrate", "a.png", "--setup", "3", "--out", str(tmp_path / "g")]) == 2
    assert "--setup takes the photo itself" in capsys.readouterr().err
    assert main(["calibrate", "a.png", "--truth", "a.json", "--augment", "0", "--out", str(tmp_path / "g")]) == 2
    assert "argument --augment: 0: expected a number of variations from 1 to 96" in capsys.readouterr().err
