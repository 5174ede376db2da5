"""Slider: the position and moves (state), JSON (codec), text notation (notation), explaining
an observed change (explain) and its verdicts as data (reasons), the computer player (ai)
and the registry's game object (game)."""
