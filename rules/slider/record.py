"""The record of Slider (see ``rules.record``): what the rules offer for it."""

from rules.record import GameRecord
from rules.slider.table import TABLE

RECORD = GameRecord(
    name="slider",
    title="Slider",
    game_ref="rules.slider.game:GAME",
    table=TABLE,
    table_for_ref="rules.slider.table:table_for",
    codec="rules.slider.codec",
    notation="rules.slider.notation",
    explain="rules.slider.explain",
    reasons="rules.slider.reasons",
    observed="rules.slider.observed",
    max_perft_depth=8,
)
