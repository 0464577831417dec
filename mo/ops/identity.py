"""Identity: passes its input through; removed before the IR is written."""
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op
from mo.compat.ops_hook import legacy_op_names


class Identity(Op):
    """Output 0 is input 0 (TF Identity, StopGradient, Snapshot, ...)."""
    op = 'Identity'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': 'Identity', 'infer': lambda node: copy_shape_infer(node, lambda v: v),
                                 'in_ports_count': 1, 'out_ports_count': 1}, attrs)


# the Model Optimizer's classes of this module path that mo has not (its extractors import them) come from mo.compat
__getattr__ = legacy_op_names(__name__)
