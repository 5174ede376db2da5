"""One module per sub-command. Each exposes ``register(subparsers)``, which adds its parser
and sets ``func(args) -> int`` as the parser's default; ``caller.cli`` discovers them."""

from __future__ import annotations

import importlib
import pkgutil


def discover() -> list:
    """The command modules of this package, sorted by name."""
    mods = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            mods.append(importlib.import_module(f"{__name__}.{info.name}"))
    return mods
