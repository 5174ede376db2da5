"""Every sentence the Caller says, in the language of the rules texts.

One module per game (``voice/phrasebook/easy_slider.py`` ...) plus ``common.py`` for the
sentences all games share. ``setup_lines(game, state)`` is the setup announcement.
"""

from __future__ import annotations

import importlib
from typing import Any


def for_game(game: str):
    """The phrase module of ``game`` (a registry name such as "easy-slider")."""
    return importlib.import_module(f"{__name__}.{game.replace('-', '_')}")


def setup_lines(game: str, state: Any) -> list[str]:
    """The Caller's setup announcement for ``state``, one sentence per item, in the order of the rules text."""
    return list(for_game(game).setup_lines(state))
