"""Slider: the position and moves (state), JSON (codec), text notation (notation), explaining
an observed change (explain), the computer player (ai) and the registry's game object (game)."""
