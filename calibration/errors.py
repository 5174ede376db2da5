"""Errors of the calibration package."""


class CalibrationError(Exception):
    """Root of every error raised by ``calibration`` (bad truth files, profiles of another version or game)."""
