"""A Squeeze whose axes input is an empty constant squeezes every dimension of size 1.

That is how mo infers it (and TensorFlow's Squeeze with no ``squeeze_dims``), but the runtime
reads an empty axes tensor as "squeeze nothing"; a user's extension (such as the Model
Optimizer's own SqueezeNormalize example) may still wire one. The one-input form says what is
meant, so the empty axes input is dropped, before transpose sinking reads the axes as a layout.
"""
import numpy as np

from extensions.middle.transpose_sinking import TransposeSinking
from mo.graph.graph import Graph
from mo.middle.replacement import MiddleReplacementPattern


class SqueezeEmptyAxes(MiddleReplacementPattern):
    """Squeeze(x, axes=[]) -> Squeeze(x)."""
    enabled = True

    def run_before(self):
        return [TransposeSinking]

    def find_and_replace_pattern(self, graph: Graph):
        for squeeze in graph.get_op_nodes(op='Squeeze'):
            if not squeeze.is_in_port_connected(1):
                continue
            axes = squeeze.in_port(1).data.get_value()
            if axes is not None and np.size(axes) == 0:
                squeeze.in_port(1).disconnect()
                self.match_count += 1
