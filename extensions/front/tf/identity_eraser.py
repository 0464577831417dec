"""IdentityEraser: removes Identity-like nodes (Identity, IdentityN, StopGradient, Snapshot...).

Output ``i`` of the removed node is input ``i``: its consumers are fed by that input's producer,
which also takes over the TensorFlow tensor names of the removed output, so ``--output`` and
``--input`` names keep working after the node is gone.
"""
from mo.front.common.rule import OpRule


class IdentityEraser(OpRule):
    """Identity(x0, x1, ...) = x0, x1, ..."""
    op = 'Identity'
    frameworks = ('tf', 'onnx')  # ONNX's Identity too

    def rewrite(self, node, b):
        outputs = range(max(node.out_ports(), default=-1) + 1)
        return [node.in_port(idx) if node.is_in_port_connected(idx) else None for idx in outputs]
