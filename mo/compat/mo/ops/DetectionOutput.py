"""The Model Optimizer's module ``mo.ops.DetectionOutput`` (extension authors import it): DetectionOutput."""
from mo.ops.detection_output import DetectionOutput

__all__ = ['DetectionOutput']
