"""SqueezeNormalize: a Squeeze's ``squeeze_dims`` attribute becomes its input 1."""
import logging as log

from mo.front.common.partial_infer.utils import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.graph.graph import Graph
from mo.ops.const import Const
from mo.utils.error import Error


class SqueezeNormalize(FrontReplacementPattern):
    """Gives every Squeeze two inputs: data, and the axes (from ``squeeze_dims`` when set)."""
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for squeeze in graph.get_op_nodes(op='Squeeze'):
            connected = [i for i in squeeze.in_ports() if squeeze.is_in_port_connected(i)]
            if connected == [0] and squeeze.has_valid('squeeze_dims'):
                dims = Const(graph, {'name': squeeze.soft_get('name', squeeze.id) + '/Dims',
                                     'value': int64_array(squeeze.squeeze_dims)}).create_node()
                squeeze.in_port(1).connect(dims.out_port(0))
                del squeeze['squeeze_dims']
                self.match_count += 1
            elif len(connected) == 2:
                log.debug('Squeeze "{}" is already normalized'.format(squeeze.soft_get('name')))
            elif connected == [0]:
                continue  # no axes at all: squeeze every dimension of size 1 (opset allows one input)
            else:
                raise Error('Squeeze "{}" must have a data input and either an axes input or a "squeeze_dims" '
                            'attribute', squeeze.soft_get('name', squeeze.id))
