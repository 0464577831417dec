"""MatMul by constant weights reads them transposed (``transpose_b``), the [out, in] layout of the CPU plugin's
FullyConnected: stored as [in, out], the plugin transposes every weight matrix again at each compilation."""
import numpy as np

from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph
from mo.ops.const import set_const_value


class MatMulWeightsTransposed(BackReplacementPattern):
    """MatMul(x, W) with a Const W (rank 2 or more, read by nothing else) = MatMul(x, W^T, transpose_b=True)."""
    id = 'MatMulWeightsTransposed'

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='MatMul'):
            if node.soft_get('transpose_b', False) or not node.is_in_port_connected(1):
                continue
            source = node.in_port(1).get_source()
            const = source.node
            if const.soft_get('op') != 'Const' or len(source.get_destinations()) != 1:
                continue  # a weight also read elsewhere (a tied embedding) would be stored twice
            value = const.soft_get('value', None)
            if value is None or np.ndim(value) < 2:
                continue
            # a view: the IR writer copies each weight in C order only as it writes it (a copy here would hold every
            # weight twice, beside the checkpoint pages the originals view)
            set_const_value(const, np.swapaxes(value, -1, -2))
            node['transpose_b'] = True
            self.match_count += 1
