"""The announcer: phrasebook, speech worker, sinks (speaker, WAV file, console)."""

from voice.errors import VoiceError

__all__ = ["VoiceError"]
