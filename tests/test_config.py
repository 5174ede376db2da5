"""caller/config.py: where the settings file is found, typed defaults, validation of every section,
and every command that takes a settings file reading it the same way."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

import caller.config as cfg
from calibration.config import CalibrationConfig
from vision.config import VisionConfig
from voice.config import VoiceConfig
from voice.errors import VoiceConfigError

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path, text, name="caller.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_defaults_when_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(cfg, "USER_FILE", tmp_path / "absent.toml")
    c = cfg.load(env={})
    assert c.path is None
    assert c.voice == VoiceConfig() == VoiceConfig(True, None, 140, 1.0, "thread", 0.35, 15.0)
    assert c.section("vision") == VisionConfig() and c.section("calibration") == CalibrationConfig()
    with pytest.raises(KeyError):
        c.section("watch")


def _sections():
    """(title, config class) of every [vision.*] section and of [calibration]."""
    return [(f"vision.{f.name}", f.default_factory) for f in dataclasses.fields(VisionConfig)] + [("calibration", CalibrationConfig)]


def test_example_file_is_valid_and_states_the_defaults():
    c = cfg.load(ROOT / "caller.example.toml", env={})
    assert c.voice == VoiceConfig()
    assert c.section("vision") == VisionConfig() and c.section("calibration") == CalibrationConfig()


def test_example_file_and_docs_list_every_key_with_its_default():
    data = tomllib.loads((ROOT / "caller.example.toml").read_text(encoding="utf-8"))
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for title, cls in _sections():
        table = data
        for part in title.split("."):
            table = table[part]
        assert list(table) == [f.name for f in dataclasses.fields(cls)], title
        assert f"### `[{title}]`" in doc
        for f in dataclasses.fields(cls):
            value = repr(f.default) if isinstance(f.default, float) else str(f.default)
            assert f"| `{f.name}` | {value} |" in doc, (title, f.name)


def test_explicit_path_then_env_then_user_file(tmp_path, monkeypatch):
    explicit = write(tmp_path, "[voice]\nrate = 120\n", "a.toml")
    from_env = write(tmp_path, "[voice]\nrate = 130\n", "b.toml")
    user = write(tmp_path, "[voice]\nrate = 150\n", "c.toml")
    monkeypatch.setattr(cfg, "USER_FILE", user)
    assert cfg.load(explicit, env={"CALLER_CONFIG": str(from_env)}).voice.rate == 120
    assert cfg.load(None, env={"CALLER_CONFIG": str(from_env)}).voice.rate == 130
    assert cfg.load(None, env={}).voice.rate == 150
    assert cfg.load(None, env={"CALLER_CONFIG": ""}).path == user


def test_voice_section_values(tmp_path):
    p = write(tmp_path, '[voice]\nenabled = false\nvoice = "gmw/en-us+m3"\nrate = 200\nvolume = 1\n'
                        'engine = "subprocess"\ngap_s = 0.5\ntimeout_s = 5\n')
    v = cfg.load(p, env={}).voice
    assert v == VoiceConfig(False, "gmw/en-us+m3", 200, 1.0, "subprocess", 0.5, 5)
    assert isinstance(v.volume, float)


def test_unknown_voice_key_is_an_error_quoting_it(tmp_path):
    p = write(tmp_path, "[voice]\nspeed = 3\n")
    with pytest.raises(cfg.ConfigError) as e:
        cfg.load(p, env={})
    assert str(e.value) == (
        f"{str(p)!r}: unknown key 'speed' in [voice]: expected one of enabled, voice, rate, volume, engine, gap_s, timeout_s"
    )


@pytest.mark.parametrize(
    "line, said",
    [
        ("rate = 5", "bad rate 5: expected an integer number of words per minute from 80 to 450"),
        ("rate = 150.5", "bad rate 150.5"),
        ("volume = 1.5", "bad volume 1.5: expected a number from 0.0 to 1.0"),
        ("enabled = 1", "bad enabled 1: expected true or false"),
        ('engine = "cloud"', "bad engine 'cloud': expected one of 'thread', 'subprocess'"),
        ('voice = ""', "bad voice ''"),
    ],
)
def test_bad_voice_values(tmp_path, line, said):
    p = write(tmp_path, f"[voice]\n{line}\n")
    with pytest.raises(cfg.ConfigError, match=r"\[voice\]: " + __import__("re").escape(said)):
        cfg.load(p, env={})


def test_file_errors(tmp_path):
    with pytest.raises(cfg.ConfigError, match="does not exist"):
        cfg.load(tmp_path / "missing.toml", env={})
    with pytest.raises(cfg.ConfigError, match="is not valid TOML"):
        cfg.load(write(tmp_path, "[voice\n"), env={})
    with pytest.raises(cfg.ConfigError, match="top-level key 'rate' must be a \\[section\\] table, got 3"):
        cfg.load(write(tmp_path, "rate = 3\n"), env={})


def test_sections_go_to_their_owner_and_unknown_sections_are_errors(tmp_path, monkeypatch):
    p = write(tmp_path, "[vision.assign]\nconfidence_threshold = 0.5\n[calibration]\ncoin_gap = 4\n")
    c = cfg.load(p, env={})
    assert c.section("vision") == VisionConfig().replace(confidence_threshold=0.5)
    assert c.section("calibration") == CalibrationConfig(coin_gap=4.0)
    with pytest.raises(cfg.ConfigError) as e:
        cfg.load(write(tmp_path, "[voise]\nrate = 120\n", name="typo.toml"), env={})
    assert str(e.value) == (f"{str(tmp_path / 'typo.toml')!r}: unknown section [voise]: "
                            "expected one of [voice], [vision], [calibration]")
    with pytest.raises(cfg.ConfigError, match=r"unknown key 'threshold' in \[vision.assign\]"):
        cfg.load(write(tmp_path, "[vision.assign]\nthreshold = 0.5\n", name="bad.toml"), env={})

    def parse_watch(table):
        if set(table) - {"fps"}:
            raise ValueError(f"unknown key {sorted(set(table) - {'fps'})[0]!r} in [watch]")
        return ("watch", table["fps"])

    monkeypatch.setitem(cfg._SECTIONS, "watch", (parse_watch, lambda: ("watch", 25)))
    assert cfg.load(write(tmp_path, "[watch]\nfps = 30\n", name="w.toml"), env={}).section("watch") == ("watch", 30)
    assert cfg.parse({}).section("watch") == ("watch", 25)
    with pytest.raises(cfg.ConfigError, match=r"unknown key 'fsp' in \[watch\]"):
        cfg.parse({"watch": {"fsp": 1}})


@pytest.mark.parametrize(
    "text, said",
    [
        # a zero cell size used to crash in the middle of a run
        ("[vision.rectify]\ncell_px = 0", "[vision.rectify] cell_px = 0: expected a value at least 8 and at most 512"),
        # a NaN threshold used to be taken, and then no cell under a hand was flagged uncertain
        ("[vision.assign]\nconfidence_threshold = nan", "[vision.assign] confidence_threshold = nan: expected a finite number"),
        ("[vision.assign]\nconfidence_threshold = 1.5", "[vision.assign] confidence_threshold = 1.5: expected a value at least 0.0 and at most 1.0"),
        ("[vision.locate]\nlattice_tol = 0", "[vision.locate] lattice_tol = 0.0: expected a value above 0.0 and at most 0.5"),
        ("[vision.locate]\nmin_tiles = 2.5", "[vision.locate] min_tiles = 2.5: expected an integer"),
        ("[vision.motion]\nsettle_s = -inf", "[vision.motion] settle_s = -inf: expected a finite number"),
        ("[vision.motion]\nsettle_s = true", "[vision.motion] settle_s = True: expected a number"),
        ("[vision.tracker]\nmin_reads = 0", "[vision.tracker] min_reads = 0: expected a value at least 1 and at most 100"),
        ("[vision.pushes]\nclear = inf", "[vision.pushes] clear = inf: expected a finite number"),
        ("[calibration]\nridge = 0", "[calibration] ridge = 0.0: expected a value above 0.0"),
        ("[calibration]\nmisfit_limit = nan", "[calibration] misfit_limit = nan: expected a finite number"),
        # the flat keys of earlier files are named with the section they now live in
        ("[vision]\ncell_px = 40", "unknown key 'cell_px' in [vision]: it belongs in [vision.rectify]"),
        ("[vision]\nrectify = 3", "[vision.rectify] must be a table of settings, got 3"),
        ("[vision.rectify]\nscale = 3", "unknown key 'scale' in [vision.rectify]: expected one of cell_px, margin_pitches"),
        ("[calibration.extra]\nx = 1", "unknown key 'extra' in [calibration]: expected one of crop_jitter_px, copy_min_tiles, held_copies, "
                                       "misfit_limit, misfit_alone, tile_gap, prior_sure, familiar_cells, window_share_gain, structure_misread, swap_gap, swap_ordinary, pawn_gap, coin_gap, familiar_coins, ridge, prior_tile_weight, "
                                       "outlier_quantile, outlier_factor, outlier_offset, preview"),
    ],
)
def test_every_number_is_checked_at_load_time(tmp_path, text, said):
    p = write(tmp_path, text + "\n")
    with pytest.raises(cfg.ConfigError) as e:
        cfg.load(p, env={})
    assert str(e.value) == f"{str(p)!r}: {said}"


def test_a_byte_order_mark_is_accepted(tmp_path):
    p = tmp_path / "bom.toml"
    p.write_bytes("\ufeff[voice]\nrate = 120\n".encode("utf-8"))
    assert cfg.load(p, env={}).voice.rate == 120


def test_a_binary_file_is_one_clear_error(tmp_path, monkeypatch):
    p = tmp_path / "caller.toml"
    p.write_bytes(bytes([0x5B, 0x76, 0xFF, 0xFE, 0x00, 0x81]) * 10)
    with pytest.raises(cfg.ConfigError) as e:
        cfg.load(p, env={})
    assert str(e.value) == f"config file {str(p)!r} is not UTF-8 text (byte 2): expected a TOML settings file"
    monkeypatch.setattr(cfg, "USER_FILE", p)  # the same when it is the user's own file
    with pytest.raises(cfg.ConfigError, match="is not UTF-8 text"):
        cfg.load(None, env={})
    with pytest.raises(cfg.ConfigError, match="cannot read config file"):
        cfg.load(tmp_path, env={})


def test_voice_config_directly():
    with pytest.raises(VoiceConfigError, match="unknown key 'pitch' in \\[voice\\]"):
        VoiceConfig.from_mapping({"pitch": 3})
    assert VoiceConfig.from_mapping({"rate": 90}).rate == 90


def test_add_argument():
    import argparse

    parser = argparse.ArgumentParser()
    cfg.add_argument(parser)
    assert parser.parse_args(["--config", "x.toml"]).config == "x.toml"
    assert parser.parse_args([]).config is None
