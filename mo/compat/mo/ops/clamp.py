"""The Model Optimizer's module ``mo.ops.clamp`` (extension authors import it): Clamp: ``Clamp`` (attributes ``min``/``max``; the Model Optimizer's ``AttributedClamp`` is the same op)."""
from mo.ops.activation_ops import Clamp

AttributedClamp = Clamp

__all__ = ['Clamp', 'AttributedClamp']
