"""MVN: mean-variance normalization over ``axes`` (opset6)."""
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op


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
