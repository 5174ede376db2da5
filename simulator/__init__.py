"""Renders synthetic tables and recorded games for tests, demos and sample_images/."""

from simulator.errors import SimulatorError

__all__ = ["SimulatorError"]
