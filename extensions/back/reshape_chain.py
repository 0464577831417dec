"""Two Reshapes in a row are one: a reshape only regroups the elements in their order, so Reshape(Reshape(x, a), b)
regroups x once into the second one's shape. Layout conversions leave such chains (a Keras squeeze-and-excite block's
[1,1,1,C] in NHWC, then [1,C,1,1] for the channels-first convolution); each is a node the plugin compiles."""
import numpy as np

from mo.front.common.rule import Builder
from mo.graph.graph import Node
from mo.middle.rule import BackOpRule
from mo.ops.reshape import Reshape


def _static(shape) -> bool:
    return shape is not None and all(int(d) >= 0 for d in shape)


class ReshapeOfReshape(BackOpRule):
    """Reshape(Reshape(x, a), b) = Reshape(x, the shape b gives): the inner Reshape stays only for its other readers."""
    id = 'ReshapeOfReshape'
    op = 'Reshape'

    def matches(self, node: Node) -> bool:
        source = node.in_port(0).get_source()
        return source is not None and source.node.soft_get('op') == 'Reshape' and \
            source.node.in_port(0).get_source() is not None and _static(node.out_port(0).data.get_shape())

    def rewrite(self, node: Node, b: Builder):
        inner = node.in_port(0).get_source().node
        target = b.const(np.array([int(d) for d in node.out_port(0).data.get_shape()], np.int64), 'target', np.int64)
        return b.op(Reshape, [inner.in_port(0).get_source(), target], 'reshape', special_zero=False)
