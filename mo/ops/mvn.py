"""MVN: mean-variance normalization over ``axes`` (opset6)."""
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.compat.ops_hook import legacy_op_names


class MVN(Op):
    """``(x - mean(x)) / sqrt(var(x) + eps)`` over the axes given on input 1."""
    op = 'MVN'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'MVN', 'op': 'MVN', 'version': 'opset6', 'eps': 1e-9, 'normalize_variance': 1,
            'eps_mode': 'inside_sqrt', 'infer': copy_shape_infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return ['eps', 'eps_mode', 'normalize_variance']


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
