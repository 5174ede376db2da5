"""Errors of the calibration package."""


class CalibrationError(Exception):
    """Root of every error raised by ``calibration`` (bad truth files, profiles of another version or game)."""


class BoardNotSeen(CalibrationError):
    """The board finder found no board in a photo, and no corners were given or clicked for it."""
