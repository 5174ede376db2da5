"""caller/config.py: where the settings file is found, typed defaults, [voice] validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.config import VisionConfig

import caller.config as cfg
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
    assert c.section("vision") == VisionConfig() and c.section("watch") == {}


def test_example_file_is_valid_and_states_the_defaults():
    c = cfg.load(ROOT / "caller.example.toml", env={})
    assert c.voice == VoiceConfig()


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


def test_other_sections_pass_through_or_go_to_their_owner(tmp_path, monkeypatch):
    p = write(tmp_path, "[vision]\nconfidence_threshold = 0.5\n[watch]\nfps = 30\n")
    c = cfg.load(p, env={})
    assert c.section("vision") == VisionConfig(confidence_threshold=0.5) and c.section("watch") == {"fps": 30}
    bad = write(tmp_path, "[vision]\nthreshold = 0.5\n", name="bad.toml")
    with pytest.raises(cfg.ConfigError, match="unknown vision setting 'threshold'"):
        cfg.load(bad)

    def parse_watch(table):
        if set(table) - {"fps"}:
            raise ValueError(f"unknown key {sorted(set(table) - {'fps'})[0]!r} in [watch]")
        return ("watch", table["fps"])

    monkeypatch.setitem(cfg._SECTIONS, "watch", (parse_watch, lambda: ("watch", 25)))
    assert cfg.load(p, env={}).section("watch") == ("watch", 30)
    assert cfg.parse({}).section("watch") == ("watch", 25)
    with pytest.raises(cfg.ConfigError, match=r"unknown key 'fsp' in \[watch\]"):
        cfg.parse({"watch": {"fsp": 1}})


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
