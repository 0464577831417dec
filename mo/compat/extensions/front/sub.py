"""The Model Optimizer's ``extensions.front.sub`` (2020-2021; ``openvino.tools.mo.front.sub`` later), kept for
authors' unit tests.

``Sub(a, b)`` becomes ``Add(a, Mul(b, -1))``; the Add takes the Sub's name (the tensors are equal) and the
Sub is renamed ``<name>/to_be_removed`` and left unconnected for the clean-up. A Sub whose inputs are both
known values (a shape computation) and one marked ``zero_point_sub`` stay. mo's IR keeps ``Subtract``, so
the class is ``legacy_only`` (the Model Optimizer's was disabled too: its middle-phase fusing called it).
"""
from mo.compat.inverse_input import replace_with_inverse_of_second
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.elementwise import Add, Mul


class Sub(FrontReplacementPattern):
    """Every ``op='Sub'`` node -> ``Add`` of the first input and the second times -1."""
    legacy_only = True
    enabled = False

    @staticmethod
    def sub_to_add_replacement(sub: Node):
        """Replace one Sub node (a no-op when both its inputs are known values)."""
        if sub.in_port(0).data.get_value() is not None and sub.in_port(1).data.get_value() is not None:
            return
        replace_with_inverse_of_second(sub, Add, Mul, 'neg_')

    def find_and_replace_pattern(self, graph: Graph):
        for sub in graph.get_op_nodes(op='Sub'):
            # a Sub marked zero_point_sub is a dequantization step that must stay a Subtract
            if not sub.has_and_set('zero_point_sub'):
                self.sub_to_add_replacement(sub)
