"""The Model Optimizer's ``extensions.front.div`` (2020-2021; ``openvino.tools.mo.front.div`` later), kept for
authors' unit tests.

``Div(a, b)`` becomes ``Mul(a, Pow(b, -1))``; the Mul takes the Div's name and the Div is renamed
``<name>/to_be_removed`` and left unconnected for the clean-up. A Div whose inputs are both known values
(a shape computation) stays, and so does one whose divisor is a known integer (its reciprocal would be 0).
mo's IR keeps ``Divide``, so the class is ``legacy_only`` (the Model Optimizer's was disabled too).
"""
import numpy as np

from mo.compat.inverse_input import replace_with_inverse_of_second
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph, Node
from mo.ops.elementwise import Mul, Pow


class Div(FrontReplacementPattern):
    """Every ``op='Div'`` node -> ``Mul`` of the first input and the second to the power -1."""
    legacy_only = True
    enabled = False

    @staticmethod
    def div_to_mul_replacement(div: Node):
        """Replace one Div node (a no-op for known values and for an integer divisor)."""
        dividend, divisor = div.in_port(0).data.get_value(), div.in_port(1).data.get_value()
        if dividend is not None and divisor is not None:
            return
        if divisor is not None and np.issubdtype(np.asarray(divisor).dtype, np.integer):
            return
        replace_with_inverse_of_second(div, Mul, Pow, 'reciprocal_')

    def find_and_replace_pattern(self, graph: Graph):
        for div in graph.get_op_nodes(op='Div'):
            self.div_to_mul_replacement(div)
