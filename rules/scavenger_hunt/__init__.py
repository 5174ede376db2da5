"""Scavenger Hunt: the board's size (board), the position and turns (state), JSON (codec), text
notation (notation), explaining an observed change (explain), its verdicts as data (reasons)
and the registry's game object (game)."""
