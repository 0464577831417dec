"""The Model Optimizer's module ``mo.ops.shape`` (extension authors import it): Shape: ``Shape`` (op ``ShapeOf``)."""
from mo.ops.shapeof import ShapeOf as Shape

__all__ = ['Shape']
