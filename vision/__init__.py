"""Image -> observation: board localisation, rectification, classifiers, motion gating."""

from vision.errors import BoardNotFound, UnreadableImage, VisionError

__all__ = ["VisionError", "BoardNotFound", "UnreadableImage"]
