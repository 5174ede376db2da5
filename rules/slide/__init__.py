"""Slide: the position, moves and scoring (state), JSON (codec), text notation (notation),
explaining an observed change (explain) and its verdicts as data (reasons), and the
registry's game object (game)."""
