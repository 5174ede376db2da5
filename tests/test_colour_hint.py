"""A calibrated set's colours help the board finder: ``vision.colour_hint`` and locate's hook.

Edition 117 is dark brown plastic tiles with light inks on a green felt in dim light: the
default board finder finds no board in its photos 10 and 23 (no tile on a lattice), and the
colours learnt from photo 10 (through the board's corners) find the board in photo 23.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.corners import estimate_face, lattice_from_corners
from simulator.layouts import easy_slider_layout
from simulator.render import render_table
from vision.colour_hint import META_KEY, ColourHint, learn_colours
from vision.config import VisionConfig
from vision.errors import BoardNotFound, ProfileError
from vision.locate import locate
from vision.profile import load_profile, save_profile
from vision.reader import Reader, analyse

EDITION = 117
CFG = VisionConfig()


def _photo(seed: int):
    return render_table(easy_slider_layout(seed), seed=seed, edition=EDITION)


@pytest.fixture(scope="module")
def photos():
    return _photo(10), _photo(23)


@pytest.fixture(scope="module")
def hint(photos):
    r = photos[0]
    corners = np.array(r.truth["board_corners"])
    lattice = lattice_from_corners(corners, r.image.shape, estimate_face(r.image, corners))
    a = analyse(r.image, CFG, k=0, lattices=[lattice])
    board = r.truth["board"]
    cells = [(i, j) for i in range(5) for j in range(5)]
    return learn_colours(a.view, CFG.rectify.cell_px, CFG.rectify.margin_pitches,
                         [c for c in cells if board[c[0]][c[1]] is not None], [c for c in cells if board[c[0]][c[1]] is None])


def test_the_default_finder_misses_both_photos(photos):
    for r in photos:
        with pytest.raises(BoardNotFound, match="no board in view: found 0 tiles on a lattice, expected at least 7 of the 24"):
            locate(r.image, CFG)


def test_the_colours_learnt_are_dark_brown_faces_on_green_felt(hint):
    assert hint.to_json() == {"face_lab": [15.0, 132.0, 134.0], "face_spread": [2.48, 3.97, 2.48],
                              "table_lab": [34.0, 113.0, 139.0], "table_spread": [3.97, 2.48, 2.48]}
    assert ColourHint.from_json(json.loads(json.dumps(hint.to_json()))).to_json() == hint.to_json()


def test_the_hint_finds_the_board_in_another_photo(photos, hint):
    r = photos[1]
    lat = locate(r.image, CFG, hint)[0]
    assert len(lat.tiles) == 14
    # the lattice is the truth's board: each true corner lies on a corner of the board's outer tile edges
    e = (1 - lat.face) / 2
    uv = lat.to_lattice(np.array(r.truth["board_corners"]))
    want = np.array([[e, e], [5 - e, e], [5 - e, 5 - e], [e, 5 - e]])
    assert np.abs(uv[:, None, :] - want[None]).max(2).min(1).max() < 0.1
    # the rendering: faces light, felt dark
    g, m = hint.rendering(r.image), hint.mask(r.image)
    assert g[5, 5] < 60 and m[5, 5] == 0
    q = np.array(r.truth["cells"][2][2])  # a tile face (the middle cell) of the truth: mostly light
    t = np.linspace(0.15, 0.85, 8)
    pts = [(1 - v) * ((1 - u) * q[0] + u * q[1]) + v * ((1 - u) * q[3] + u * q[2]) for u in t for v in t]
    xs, ys = np.array(pts).astype(int).T
    assert np.median(g[ys, xs]) > 200 and np.mean(m[ys, xs] == 255) > 0.6


def test_a_profile_with_bad_colours_is_one_clear_line(tmp_path):
    prof = load_profile(None)
    bad = type(prof)(prof.game, "p", prof.features, prof.models, dict(prof.meta, **{META_KEY: {"face_lab": [1, 2]}}))
    save_profile(bad, tmp_path / "p")
    with pytest.raises(ProfileError) as e:
        Reader(tmp_path / "p")
    assert str(e.value).startswith("profile 'p': the profile's 'board_colours' entry is not four Lab triples")
    neg = dict(face_lab=[1, 2, 3], face_spread=[1, -1, 1], table_lab=[1, 2, 3], table_spread=[1, 1, 1])
    with pytest.raises(ProfileError, match="holds numbers that are not colours and positive spreads"):
        ColourHint.from_json(neg)


def test_a_profile_of_another_version_with_colours_is_one_clear_line(tmp_path, hint, capsys):
    from caller.cli import main

    prof = load_profile(None)
    jpath, _ = save_profile(type(prof)(prof.game, "p", prof.features, prof.models,
                                       dict(prof.meta, **{META_KEY: hint.to_json()})), tmp_path / "p")
    assert Reader(tmp_path / "p").hint.to_json() == hint.to_json()  # version 1 with the colours: read
    jpath.write_text(json.dumps(dict(json.loads(jpath.read_text()), version=2)))
    assert main(["read", "x.png", "--profile", str(tmp_path / "p")]) == 2
    assert capsys.readouterr().err == f"caller: error: {tmp_path / 'p'}: profile version 2, this program reads version 1\n"


def test_the_default_profile_has_no_hint():
    assert Reader().hint is None
