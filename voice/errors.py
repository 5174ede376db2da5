"""Errors of the voice package."""


class VoiceError(Exception):
    """Root of every error raised by ``voice``."""
