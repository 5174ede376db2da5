"""Errors of the vision package.

Each message quotes the input at fault and says what was expected; the CLI prints it on
one line (``caller: error: ...`` or an ``{"image": ..., "error": ...}`` JSON line).
"""


class VisionError(Exception):
    """Root of every error raised by ``vision``."""


class BoardNotFound(VisionError):
    """No board (or not the expected number of boards) could be found in the image."""


class TooManyBoards(BoardNotFound):
    """More than one board is in view where one was expected."""


class UnreadableImage(VisionError):
    """The file is missing or is not an image that OpenCV can decode."""


class BadImage(VisionError):
    """An array handed to the reader is not an HxWx3 uint8 BGR image (or HxW grey)."""


class ProfileError(VisionError):
    """A piece-set profile is missing, damaged, of another format version, or for another game."""


class ConfigError(VisionError):
    """A vision configuration file or value is invalid."""
