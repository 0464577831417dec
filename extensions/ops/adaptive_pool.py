"""opset8 AdaptiveAvgPool: each output cell the mean of its bin of the input (bins from floor(i * in / out) to
ceil((i + 1) * in / out)), for MXNet's _contrib_AdaptiveAvgPooling2D."""
from mo.ops.op import Op
from mo.utils.error import Error


class AdaptiveAvgPool(Op):
    """Inputs: data ``[N, C, spatial...]``, output_shape (int64, one value per spatial axis); output ``[N, C,
    output_shape...]``."""
    op = type = 'AdaptiveAvgPool'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'AdaptiveAvgPool', 'op': 'AdaptiveAvgPool', 'version': 'opset8',
            'infer': AdaptiveAvgPool.infer, 'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    @staticmethod
    def infer(node):
        shape, size = node.in_port(0).data.get_shape(), node.in_port(1).data.get_value()
        if shape is None:
            return
        if size is None:
            raise Error('AdaptiveAvgPool "{}": the output shape must be a constant', node.soft_get('name', node.id))
        sizes = [int(v) for v in size.reshape(-1)]
        if len(sizes) != len(shape) - 2:
            raise Error('AdaptiveAvgPool "{}": {} output sizes for an input of shape {}',
                        node.soft_get('name', node.id), len(sizes), [int(d) for d in shape])
        node.out_port(0).data.set_shape([int(shape[0]), int(shape[1])] + sizes)
