"""A Convert to the type its input already has is removed: exporters cast to the model's own type out of caution
(``hidden.to(float32)`` in every RMSNorm, ``.long()`` after an integer division), and each is a node the plugin
compiles and runs."""
import numpy as np

from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph


class NoOpConvertRemoval(BackReplacementPattern):
    """Convert(x, destination type = x's type) = x (but for a graph output, whose name the Convert carries)."""
    id = 'NoOpConvertRemoval'

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='Cast'):
            if not node.is_in_port_connected(0):
                continue
            source_type, target_type = node.in_port(0).data.get_data_type(), node.soft_get('dst_type', None)
            if source_type is None or target_type is None or np.dtype(source_type) != np.dtype(target_type):
                continue
            destinations = node.out_port(0).get_destinations()
            if any(port.node.soft_get('op') == 'Result' for port in destinations):
                continue
            source = node.in_port(0).get_source()
            names = node.out_port(0).get_tensor_names()
            node.out_port(0).get_connection().set_source(source)
            if names:
                source.add_tensor_names(names)
            self.match_count += 1
