"""Inception blocks (``scope`` description ``InceptionBlockBranchFusion``): fuse the branch heads.

In an Inception block several branches start with a convolution of the block's input with the
same kernel size and attributes (the 1x1 "reduce" convolutions). One convolution with the
weights concatenated along the output channels, followed by a VariadicSplit, computes the same
tensors with one pass over the input. ``configs/inception_block.json`` enables it for the blocks
named by its ``instances``; the sub-graph's input 0 (as written by
``--tensorflow_custom_operations_config_update``) is the block input whose consumers are fused.
Everything else in the block is left as it is.
"""
import logging as log

import numpy as np

from mo.utils.shape import int64_array
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.front.common.config_replacement import FrontReplacementFromConfigFileSubGraph
from mo.graph.graph import Graph, Node
from mo.ops.const import Const
from mo.ops.op import op_class_of
from mo.ops.split import VariadicSplit

#: attributes that must agree for two convolutions to be fused
_SAME = ('op', 'auto_pad', 'layout', 'tf_weights')
_SAME_ARRAYS = ('strides', 'dilations', 'pads_begin', 'pads_end')
_NOT_COPIED = ('name', '_in_ports', '_out_ports', 'pb', '_op_class')


def _const_weights(conv: Node):
    """The weights of ``conv`` as a numpy array (through Identity reads), or None."""
    source = conv.in_port(1).get_source() if conv.is_in_port_connected(1) else None
    while source is not None and source.node.soft_get('op') == 'Identity':
        source = source.node.in_port(0).get_source()
    if source is None or source.node.soft_get('op') != 'Const' or source.node.soft_get('value', None) is None:
        return None
    return np.asarray(source.node.value)


def _signature(conv: Node, weights):
    arrays = tuple(tuple(np.ravel(conv.soft_get(k, ())).tolist()) for k in _SAME_ARRAYS)
    return tuple(conv.soft_get(k, None) for k in _SAME) + arrays + (weights.shape[:-1], weights.dtype.str)


class InceptionBlockBranchFusion(FrontReplacementFromConfigFileSubGraph):
    """One convolution + VariadicSplit for the branch-head convolutions of each matched block."""
    replacement_id = 'InceptionBlockBranchFusion'

    def replace_sub_graph(self, graph: Graph, match):
        groups = {}
        for port in range(match.inputs_count()):
            for node, in_port in match.input_nodes(port):
                if in_port != 0 or node.soft_get('op') != 'Convolution' or node.soft_get('tf_weights') != 'HWIO':
                    continue
                weights = _const_weights(node)
                if weights is None or weights.ndim != 4:
                    continue
                groups.setdefault((port, _signature(node, weights)), []).append((node, weights))
        for (port, _), convs in sorted(groups.items(), key=lambda item: (item[0][0], item[1][0][0].id)):
            if len(convs) > 1:
                self._fuse(graph, match, sorted(convs, key=lambda c: c[0].soft_get('name', c[0].id)))

    @staticmethod
    def _fuse(graph: Graph, match, convs):
        first = convs[0][0]
        prefix = match.scope or match.custom_replacement_desc.id
        source = first.in_port(0).get_source()
        weights = np.concatenate([w for _, w in convs], axis=3)
        attrs = {k: v for k, v in first.attrs().items() if k not in _NOT_COPIED and k != 'kind'}
        attrs['name'] = graph.unique_id(prefix + '/fused_branch_heads/Conv2D')
        fused = op_class_of(first)(graph, attrs).create_node()
        source.connect(fused.in_port(0))
        Const(graph, {'name': attrs['name'] + '/weights', 'value': weights}).create_node().out_port(0).connect(
            fused.in_port(1))
        lengths = int64_array([w.shape[3] for _, w in convs])
        split = create_op_with_const_inputs(graph, VariadicSplit, {1: int64_array(3), 2: lengths},
                                            {'name': prefix + '/fused_branch_heads/split',
                                             'out_ports_count': len(convs)})
        fused.out_port(0).connect(split.in_port(0))
        for i, (conv, _) in enumerate(convs):
            names = conv.out_port(0).get_tensor_names()
            conv.out_port(0).get_connection().set_source(split.out_port(i))
            if names:
                split.out_port(i).add_tensor_names(names)
            graph.remove_node(conv.id)
        log.debug('{}: fused {} branch-head convolutions'.format(prefix, len(convs)))
