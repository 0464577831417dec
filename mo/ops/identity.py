"""Identity: passes its input through; removed before the IR is written."""
from mo.front.common.partial_infer.elemental import copy_shape_infer
from mo.ops.op import Op


class Identity(Op):
    """Output 0 is input 0 (TF Identity, StopGradient, Snapshot, ...)."""
    op = 'Identity'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {'op': 'Identity', 'infer': lambda node: copy_shape_infer(node, lambda v: v),
                                 'in_ports_count': 1, 'out_ports_count': 1}, attrs)
