"""Calibrating a set whose board the default finder cannot see, end to end on the command line.

Edition 117 (``caller render --edition 117``) is dark brown plastic tiles with light inks on a
green felt in dim light. In its photos 10 and 26 the default board finder puts no tile on a
lattice, so ``caller calibrate`` used to stop there. With the board's corners it learns the
set, its faces measured in the negative (light inks on dark faces), and the profile's colours
find the board in photo 26.
"""

from __future__ import annotations

import json

import pytest

from caller.cli import main
from vision.profile import load_profile

EDITION = "117"
NOT_FOUND = "no board in view: found 0 tiles on a lattice, expected at least 7 of the 24"


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    d = tmp_path_factory.mktemp("edition117")
    for seed in ("10", "26"):
        assert main(["render", "--edition", EDITION, "--seed", seed, "-o", str(d / f"s{seed}.png")]) == 0
    return d


def _corners(path) -> list[str]:
    return [f"{x},{y}" for x, y in json.loads(path.read_text())["board_corners"]]


@pytest.fixture
def headless(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def _calibrate(scene, out, *extra):
    return main(["calibrate", str(scene / "s10.png"), "--truth", str(scene / "s10.json"), "--out", str(out), "--quiet", *extra])


def test_without_corners_and_headless_one_line_says_to_pass_them(scene, tmp_path, capsys, headless):
    out, debug = tmp_path / "out", tmp_path / "debug"
    out.mkdir()
    assert _calibrate(scene, out / "p", "--debug", str(debug)) == 2
    assert capsys.readouterr().err == (
        f"caller: error: {scene / 's10.png'}: {NOT_FOUND}; if you can see the board, pass its outer corners in image "
        "pixels: --corners x,y x,y x,y x,y (far-left first, clockwise)\n")
    assert not list(out.iterdir())
    # what the finder tried: the tile-like quads it saw and the error
    assert [p.name for p in debug.iterdir()] == ["s10-grid.png"]


def test_with_a_display_the_click_window_opens_and_escape_cancels(scene, tmp_path, capsys, monkeypatch):
    from calibration import click
    from calibration.guided import CalibrationCancelled

    monkeypatch.setenv("DISPLAY", ":0")
    asked = []

    def escape(image, source):
        asked.append((image.shape, source))
        raise CalibrationCancelled(f"calibration cancelled: no corners clicked for {source}, nothing written")

    monkeypatch.setattr(click, "click_corners", escape)
    assert _calibrate(scene, tmp_path / "p") == 1
    assert asked == [((720, 1280, 3), str(scene / "s10.png"))]
    assert capsys.readouterr().err == f"caller: error: calibration cancelled: no corners clicked for {scene / 's10.png'}, nothing written\n"
    assert not list(tmp_path.iterdir())
    # the settings' preview off: no window, the headless line
    (tmp_path / "nowin.toml").write_text("[calibration]\npreview = false\n")
    assert _calibrate(scene, tmp_path / "p", "--config", str(tmp_path / "nowin.toml")) == 2
    assert len(asked) == 1 and "pass its outer corners in image pixels" in capsys.readouterr().err


def test_corners_outside_the_photo_are_one_line(scene, tmp_path, capsys):
    c = _corners(scene / "s10.json")
    assert _calibrate(scene, tmp_path / "p", "--corners", *c[:2], "1300,561", c[3]) == 2
    assert capsys.readouterr().err == "caller: error: --corners: the near-right corner (1300, 561) is outside the 1280x720 image\n"
    assert not list(tmp_path.iterdir())


def test_with_the_corners_the_sets_own_structure_judges_the_photo(scene, tmp_path, capsys):
    # past the board finder: the default model reads these light inks on dark faces as nothing
    # it knows, so the set's own suit x rank structure judges the layout. Measured in the
    # negative, the faces follow their suits and ranks: the honest layout is learnt with the
    # default settings, and a layout with two tiles swapped is refused
    corners = _corners(scene / "s10.json")
    truth = json.loads((scene / "s10.json").read_text())
    board = [list(row) for row in truth["board"]]
    board[1][2], board[3][0] = board[3][0], board[1][2]  # S2 and A4
    (tmp_path / "swapped.json").write_text(json.dumps(dict(truth, board=board)))
    rc = main(["calibrate", str(scene / "s10.png"), "--truth", str(tmp_path / "swapped.json"), "--out",
               str(tmp_path / "p"), "--quiet", "--corners", *corners, "--augment", "4"])
    err = capsys.readouterr().err
    assert rc == 2
    # (with four copies the structure names the swapped A4 with a neighbour as its partner; with
    # the default 24 it refuses the layout whole, as 10 tiles unlike their suit and rank)
    assert err.startswith(f"caller: error: the layout given does not match the photo, nothing learnt: {scene / 's10.png'} vs "
                          f"{tmp_path / 'swapped.json'}: cells [1, 2] (A4) and ")
    assert not list((tmp_path).glob("p.*"))
    assert _calibrate(scene, tmp_path / "p", "--corners", *corners, "--augment", "4") == 0
    assert sorted(p.name for p in tmp_path.glob("p.*")) == ["p.json", "p.npz"]


def test_the_corners_learn_the_set_and_the_profile_finds_its_board_in_another_photo(scene, tmp_path, capsys):
    out, debug = tmp_path / "myset", tmp_path / "debug"
    rc = _calibrate(scene, out, "--corners", *_corners(scene / "s10.json"), "--debug", str(debug))
    assert rc == 0, capsys.readouterr().err
    assert capsys.readouterr().out.startswith(f"wrote {out}.json and {out}.npz: profile 'myset' learnt from 1 photo(s)")
    assert sorted(p.name for p in debug.iterdir()) == ["s10-calibrate.png"]  # (the finder was not asked)
    prof = load_profile(out)
    assert prof.meta["board_colours"] == {"face_lab": [15.0, 132.0, 134.0], "face_spread": [2.48, 3.97, 2.48],
                                          "table_lab": [34.0, 113.0, 139.0], "table_spread": [3.97, 2.48, 2.48]}
    # the second photo: the default finds no board there, the profile does, and reads it
    photo2 = str(scene / "s26.png")
    assert main(["read", photo2, "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"image": photo2, "error": NOT_FOUND}
    assert main(["read", photo2, "--profile", str(out), "--json"]) == 0
    got, truth = json.loads(capsys.readouterr().out), json.loads((scene / "s26.json").read_text())
    assert got["board"] == truth["board"] and got["pawns"] == truth["pawns"]
    # its faces learnt in the negative, every cell is read sure (six were uncertain when the
    # faces were measured as they are); its coins are not told apart, and pawns 0 and 3 both
    # look like the Arms pawn (pawn 3 fits it three times better than the Moons pawn it is
    # read as): their margins are under their own misfit, and they are not read
    assert got["uncertain"] == [] and got["uncertain_pawns"] == [0, 3]
    assert got["uncertain_coins"] == [0, 1, 2, 3, 4]
