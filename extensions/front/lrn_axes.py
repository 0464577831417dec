"""LRN's axes input, which every framework's LRN leaves to the channels."""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node


class LRNAxes(OpRule):
    """LRN reads its axes on input 1: the channels, dimension 1 once the layout replacer made it NCHW."""
    op = 'LRN'

    def matches(self, node: Node) -> bool:
        return not node.is_in_port_connected(1)

    def rewrite(self, node: Node, b: Builder):
        b.const([1], 'axes', np.int64).out_port(0).connect(node.in_port(1))
        return node
