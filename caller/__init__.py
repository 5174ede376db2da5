"""The table Caller: the application (CLI, live session loop, frame sources, config).

Imports go one way: ``caller`` -> ``vision``, ``calibration``, ``voice`` -> ``rules``.
"""

import os

# The Caller is built to run on one core (the reader's matrices are small): numpy's BLAS
# threads only wait on each other, and on a busy machine (the camera's grabber thread, the
# speech engine, another program) they made ``caller watch`` a third slower on a recording
# (23.5 s against 16.1 s, 2-core machine, the same events). Set before numpy is first
# imported; a user's own setting wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
