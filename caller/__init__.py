"""The table Caller: the application (CLI, live session loop, frame sources, config).

Imports go one way: ``caller`` -> ``vision``, ``calibration``, ``voice`` -> ``rules``.
"""

__version__ = "0.1.0"
