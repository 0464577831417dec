"""opset4 CTCLoss: logits ``[N, T, C]``, logit_length ``[N]``, labels ``[N, S]``, label_length ``[N]``,
blank_index (scalar, optional: C - 1); output ``[N]``, the negative log-likelihood of each sequence's labels."""
import numpy as np

from mo.ops.op import Op
from mo.utils.error import Error


class CTCLoss(Op):
    op = type = 'CTCLoss'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'CTCLoss', 'op': 'CTCLoss', 'version': 'opset4', 'preprocess_collapse_repeated': False,
            'ctc_merge_repeated': True, 'unique': False,
            'infer': CTCLoss.infer, 'type_infer': CTCLoss.type_infer, 'in_ports_count': 5, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [(name, lambda n, name=name: str(bool(n[name])).lower())
                for name in ('preprocess_collapse_repeated', 'ctc_merge_repeated', 'unique')]

    @staticmethod
    def infer(node):
        shape = node.in_port(0).data.get_shape()
        if shape is None:
            return
        if len(shape) != 3:
            raise Error('CTCLoss "{}": the logits must be [N, T, C], got {}', node.soft_get('name', node.id),
                        [int(d) for d in shape])
        node.out_port(0).data.set_shape([int(shape[0])])

    @staticmethod
    def type_infer(node):
        node.out_port(0).data.set_data_type(node.in_port(0).data.get_data_type() or np.dtype(np.float32))
