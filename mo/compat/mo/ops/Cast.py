"""The Model Optimizer's module ``mo.ops.Cast`` (extension authors import it): Cast: ``Cast`` (op ``Cast``, IR type ``Convert``; attribute ``dst_type``)."""
from mo.ops.convert import Convert as Cast

__all__ = ['Cast']
