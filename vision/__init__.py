"""Image -> observation: board localisation, rectification, classifiers, motion gating.

The entry point is :class:`vision.reader.Reader`: ``Reader(profile=None).read(image)``
returns an :class:`vision.observation.Observation` or raises a :class:`VisionError`.
Only ``rules`` is imported from the rest of the project.
"""

from vision.errors import (
    BadImage,
    BoardNotFound,
    ConfigError,
    ProfileError,
    TooManyBoards,
    UnreadableImage,
    VisionError,
)

__all__ = [
    "VisionError",
    "BoardNotFound",
    "TooManyBoards",
    "UnreadableImage",
    "BadImage",
    "ProfileError",
    "ConfigError",
]
