"""Easy Slider: the position and slides (state), JSON (codec), the layout check (check),
explaining an observed change (explain) and its verdicts as data (reasons), the solver
(solver), race scoring (race) and the registry's game object (game)."""
