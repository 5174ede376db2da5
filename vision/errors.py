"""Errors of the vision package."""


class VisionError(Exception):
    """Root of every error raised by ``vision``."""


class BoardNotFound(VisionError):
    """No board (or not the expected number of boards) could be found in the image."""


class UnreadableImage(VisionError):
    """The file is missing or is not an image that OpenCV can decode."""
