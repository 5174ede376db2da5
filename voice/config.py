"""``VoiceConfig``: the ``[voice]`` section of the Caller's TOML config (see caller.example.toml).

All fields have defaults, so an absent section or file means "speak with the defaults".
``VoiceConfig.from_mapping`` validates a parsed TOML table and raises VoiceConfigError
quoting the bad key or value.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from voice.errors import VoiceConfigError

ENGINES = ("thread", "subprocess")


@dataclass(frozen=True)
class VoiceConfig:
    """How the Caller speaks.

    enabled: False silences speaker and WAV rendering (console text is still printed).
    voice: an espeak-ng voice name or identifier ("gmw/en-us", "gmw/en-us+m3"); None means
        "gmw/en-us+klatt3" with espeak-ng (the clearest to a recogniser here) and the
        system's default voice with other engines.
    rate: speaking rate in words per minute (espeak-ng accepts 80-450; 140 is a calm
        announcer and scored best in the recogniser benchmark).
    volume: 0.0-1.0 (1.0 = the engine's full level).
    engine: "thread" (pyttsx3 lives in one worker thread of this process) or "subprocess"
        (pyttsx3 lives in a child process that can be killed if it hangs).
    gap_s: seconds of silence between two sentences in a WAV file.
    timeout_s: longest wait for one sentence to render before the engine is declared hung.
    """

    enabled: bool = True
    voice: str | None = None
    rate: int = 140
    volume: float = 1.0
    engine: str = "thread"
    gap_s: float = 0.35
    timeout_s: float = 15.0

    def __post_init__(self) -> None:
        _check(isinstance(self.enabled, bool), "enabled", self.enabled, "true or false")
        _check(self.voice is None or (isinstance(self.voice, str) and self.voice.strip() != ""),
               "voice", self.voice, "a non-empty espeak-ng voice name such as \"gmw/en-us\"")
        _check(isinstance(self.rate, int) and not isinstance(self.rate, bool) and 80 <= self.rate <= 450,
               "rate", self.rate, "an integer number of words per minute from 80 to 450")
        _check(_is_number(self.volume) and 0.0 <= self.volume <= 1.0, "volume", self.volume,
               "a number from 0.0 to 1.0")
        _check(self.engine in ENGINES, "engine", self.engine, f"one of {', '.join(map(repr, ENGINES))}")
        _check(_is_number(self.gap_s) and 0.0 <= self.gap_s <= 5.0, "gap_s", self.gap_s,
               "seconds from 0.0 to 5.0")
        _check(_is_number(self.timeout_s) and 0.5 <= self.timeout_s <= 300.0, "timeout_s", self.timeout_s,
               "seconds from 0.5 to 300")

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any], where: str = "[voice]") -> "VoiceConfig":
        """Build from a parsed TOML table; an unknown key is an error that quotes it."""
        if not isinstance(table, Mapping):
            raise VoiceConfigError(f"{where} must be a table of settings, got {table!r:.60}")
        known = [f.name for f in fields(cls)]
        for key in table:
            if key not in known:
                raise VoiceConfigError(f"unknown key {key!r} in {where}: expected one of {', '.join(known)}")
        values = dict(table)
        if isinstance(values.get("volume"), int) and not isinstance(values.get("volume"), bool):
            values["volume"] = float(values["volume"])
        try:
            return cls(**values)
        except VoiceConfigError as exc:
            raise VoiceConfigError(f"{where}: {exc}") from None


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _check(ok: bool, key: str, value: Any, expected: str) -> None:
    if not ok:
        raise VoiceConfigError(f"bad {key} {value!r}: expected {expected}")
