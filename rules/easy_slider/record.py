"""The record of Easy Slider (see ``rules.record``): what the rules offer for it."""

from rules.record import GameRecord
from rules.easy_slider.table import TABLE

RECORD = GameRecord(
    name="easy-slider",
    title="Easy Slider",
    game_ref="rules.easy_slider.game:GAME",
    table=TABLE,
    table_for_ref="rules.easy_slider.table:table_for",
    codec="rules.easy_slider.codec",
    notation="rules.easy_slider.notation",
    explain="rules.easy_slider.explain",
    reasons="rules.easy_slider.reasons",
    max_perft_depth=12,
)
