"""Errors of the voice package."""


class VoiceError(Exception):
    """Root of every error raised by ``voice``."""


class VoiceConfigError(VoiceError, ValueError):
    """A bad ``[voice]`` setting: the message quotes the key and the value and says what was expected."""


class EngineUnavailable(VoiceError):
    """No speech engine could be started (pyttsx3 missing, or its driver, e.g. espeak-ng, not installed)."""


class RenderFailed(VoiceError):
    """The engine did not write a usable WAV for a sentence (missing, empty or unreadable file, or a hang)."""


class NoAudioDevice(VoiceError):
    """Speech was rendered but could not be played (no sound card, ``aplay`` missing or failing)."""
