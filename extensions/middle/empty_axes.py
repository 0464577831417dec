"""Ops whose axes input is an empty constant, which the runtime reads differently from TensorFlow.

* A Squeeze with no axes squeezes every dimension of size 1.

That is how mo infers it (and TensorFlow's Squeeze with no ``squeeze_dims``), but the runtime
reads an empty axes tensor as "squeeze nothing"; a user's extension (such as the Model
Optimizer's own SqueezeNormalize example) may still wire one. The one-input form says what is
meant, so the empty axes input is dropped, before transpose sinking reads the axes as a layout.

* A reduction over no axes (``tf.reduce_sum(x, [])``) returns its input; the runtime refuses an empty
  axes tensor, so the reduction is bypassed.
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


#: the reductions a TF reduction op becomes (mo.ops.reduce)
REDUCTIONS = ('ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceLogicalAnd',
              'ReduceLogicalOr')


class ReduceEmptyAxes(MiddleReplacementPattern):
    """ReduceX(x, axes=[]) -> x."""
    enabled = True

    def run_before(self):
        return [TransposeSinking]

    def find_and_replace_pattern(self, graph: Graph):
        for op in REDUCTIONS:
            for reduce in graph.get_op_nodes(op=op):
                axes = reduce.in_port(1).data.get_value() if reduce.is_in_port_connected(1) else None
                if axes is None or np.size(axes) != 0:
                    continue
                source = reduce.in_port(0).get_source()
                reduce.in_port(0).disconnect()
                reduce.out_port(0).get_connection().set_source(source)
                self.match_count += 1
