"""What the Caller says when it hears a hands-free command ("Caller, done / repeat / hint / pause")."""

from __future__ import annotations

from typing import Any

from voice.phrasebook.common import cell


def claim(name: str | None) -> str:
    """A "Caller, done" heard: the check follows at once."""
    return f"{name} calls Done. Checking." if name else "Done called. Checking."


def who_is_done(players: list[str]) -> str:
    """In a race a single microphone cannot tell who spoke: the claim must name the player."""
    return f"Who is done? Say: Caller, done, and your name: {', '.join(players)}."


def already_out(name: str) -> str:
    return f"{name} is already out of this round."


def nothing_to_repeat() -> str:
    return "Nothing was said yet."


def hint(slide: Any, length: int) -> str:
    """"Hint: slide the red 2 down, from row 1, column 3. 7 slides to go."."""
    if slide is None:
        return "The board is done: nothing to slide."
    word = slide.direction.word if slide.direction else "into the hole"
    return (f"Hint: slide the {slide.tile.spoken} {word}, from {cell(slide.src)}. "
            f"{length} {'slide' if length == 1 else 'slides'} to go.")


def no_hint() -> str:
    return "No hint yet: the Caller has not read the board."


def no_hints_for_this_game() -> str:
    return "The Caller has no hints for this game yet."


def no_hint_in_race() -> str:
    return "No hints during a race."


def paused() -> str:
    return "Clock paused. Say: Caller, pause, again to go on."


def resumed() -> str:
    return "Clock running again."
