"""What a converted graph offers its user: its inputs and outputs (names, shapes, types) and its size."""
import dataclasses
from typing import List, Tuple

import numpy as np

from mo.graph.graph import Node


@dataclasses.dataclass(frozen=True)
class TensorInfo:
    """A model input or output: its names, shape (-1: dynamic) and type."""
    names: Tuple[str, ...]
    shape: Tuple[int, ...]
    dtype: np.dtype

    @property
    def name(self) -> str:
        """The name to use: the one OpenVINO's ``get_any_name()`` gives the IR's tensor (the least of its names)."""
        return min(self.names) if self.names else ''

    def __str__(self):
        dims = ','.join('?' if d < 0 else str(d) for d in self.shape)
        return '{} [{}] {}'.format(self.name, dims, np.dtype(self.dtype).name)



def _port_info(node, port, names) -> TensorInfo:
    shape = port.data.get_shape()
    dtype = port.data.get_data_type()
    return TensorInfo(tuple(names), tuple(int(d) for d in shape) if shape is not None else (),
                      np.dtype(dtype) if dtype is not None else np.dtype(np.float32))


def model_io(graph) -> Tuple[List[TensorInfo], List[TensorInfo]]:
    """The converted model's inputs (Parameters) and outputs (Results), in IR order."""
    inputs, outputs = [], []
    for node in _parameters_and_results(graph):
        if node.soft_get('kind') != 'op':
            continue
        if node.soft_get('type') == 'Parameter':
            names = node.out_port(0).get_tensor_names() or [node.soft_get('name', node.id)]
            if node.out_port(0).disconnected():
                inputs.append(TensorInfo(tuple(names), tuple(int(d) for d in np.ravel(node.soft_get('shape', []))),
                                         np.dtype(node.soft_get('data_type', None) or np.float32)))
            else:
                inputs.append(_port_info(node, node.out_port(0), names))
        elif node.soft_get('type') == 'Result':
            source = node.in_port(0).get_source()
            names = source.get_tensor_names() or [source.node.soft_get('name', source.node.id)]
            outputs.append(_port_info(node, node.in_port(0), names))
    return inputs, outputs


def _parameters_and_results(graph) -> list:
    """The graph's Parameter and Result nodes in the IR's (topological) order: found by the type index and
    placed by the writer's cached order, without a Node per node of the graph."""
    wanted = set(graph.nodes_by_attr('type', 'Parameter')) | set(graph.nodes_by_attr('type', 'Result'))
    return [Node(graph, node_id) for node_id in graph.topological_ids() if node_id in wanted]


def ir_layer_count(graph) -> int:
    return graph.count_by_attr('kind', 'op')
