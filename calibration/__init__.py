"""Camera intrinsics, colour normalisation, piece-set profiles learnt from labelled images."""

from calibration.errors import CalibrationError

__all__ = ["CalibrationError"]
