"""The announcer: phrasebook, speech worker, sinks (speaker, WAV file, console).

``say(lines, voice_out=..., speaker=...)`` speaks a fixed announcement and returns when it
is done (``caller setup --say``). The live Caller uses ``Announcer`` with the sinks from
``build_sinks``; see voice/announcer.py for the queue's rules.
"""

from __future__ import annotations

import os
from typing import Iterable, TextIO

from voice.announcer import Announcer, Message
from voice.config import VoiceConfig
from voice.errors import VoiceError
from voice.sinks import ConsoleSink, SpeakerSink, WavSink


def build_sinks(
    config: VoiceConfig | None = None,
    *,
    voice_out: str | os.PathLike | None = None,
    speaker: bool = True,
    console: TextIO | None | bool = True,
) -> list:
    """The sinks for a command that speaks: console text (unless ``console=False``; a stream
    to print elsewhere than stdout), a WavSink when ``voice_out`` is given, and the speaker
    when ``speaker`` is true and the config's ``enabled`` is true."""
    config = config if config is not None else VoiceConfig()
    sinks: list = []
    if console is not False:
        sinks.append(ConsoleSink(None if console is True else console))
    if voice_out is not None:
        sinks.append(WavSink(os.fspath(voice_out), gap_s=config.gap_s))
    if speaker and config.enabled:
        sinks.append(SpeakerSink())
    return sinks


def say(
    lines: Iterable[str],
    voice_out: str | os.PathLike | None = None,
    speaker: bool = False,
    config: VoiceConfig | None = None,
    console: TextIO | None | bool = False,
) -> WavSink | None:
    """Speak ``lines`` in order and return when done (blocking; for one-shot commands).

    The lines are not printed (``console=False``): the command prints its own text. With
    ``voice_out`` every line goes, in order, into that WAV file, and a file that could not
    be written is a VoiceError (after the speaker had its turn). With ``speaker`` the lines
    are spoken aloud, or a one-line notice says why not and the text stands alone.
    Returns the WavSink (its ``info`` and ``rendered`` describe the file), or None.
    """
    config = config if config is not None else VoiceConfig()
    sinks = build_sinks(config, voice_out=voice_out, speaker=speaker, console=console)
    wav = next((s for s in sinks if isinstance(s, WavSink)), None)
    with Announcer(sinks, config) as announcer:
        for line in lines:
            announcer.announce(line)
    if wav is not None and wav.error is not None:
        raise VoiceError(f"{wav.path} was not written: {wav.error}")
    return wav


__all__ = ["Announcer", "ConsoleSink", "Message", "SpeakerSink", "VoiceConfig", "VoiceError", "WavSink", "build_sinks", "say"]
