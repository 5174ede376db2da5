"""Errors of the simulator package."""


class SimulatorError(Exception):
    """Root of every error raised by ``simulator``."""
