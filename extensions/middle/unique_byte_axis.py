"""Unique along an axis, unsorted, of one-byte elements: computed on int32 values.

OpenVINO's CPU plugin (2026.4) returns uninitialised indices, inverse indices and counts from Unique with an
``axis`` input and ``sorted=false`` when the elements are one byte wide (int8, uint8, boolean): the same op on
int16 or int32 values is right, and widening one-byte values to int32 is exact. Y is converted back.
"""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import MiddleOpRule
from mo.ops.convert import Convert
from mo.ops.sequence_ops import Unique


class UniqueByteAxis(MiddleOpRule):
    """Unique(x: 1 byte, axis, sorted=false) = Unique(Convert(x, int32), axis) with Y converted back."""
    id = 'UniqueByteAxis'
    op = 'Unique'

    def matches(self, node: Node) -> bool:
        dtype = node.in_port(0).data.get_data_type()
        return node.is_in_port_connected(1) and not node.sorted and dtype is not None and \
            np.dtype(dtype).itemsize == 1

    def rewrite(self, node: Node, b: Builder):
        dtype = np.dtype(node.in_port(0).data.get_data_type())
        wide = b.op(Convert, [node.in_port(0)], 'as_i32', dst_type=np.dtype(np.int32))
        unique = b.op(Unique, [wide, node.in_port(1)], 'unique', sorted=False,
                      index_element_type=node.index_element_type, count_element_type=node.count_element_type)
        values = b.op(Convert, [unique.out_port(0)], 'values', dst_type=dtype)
        return [values] + [unique.out_port(port) for port in (1, 2, 3)]
