"""GridSample-9, the op class ONNX's GridSample and Paddle's grid_sample both become."""
from mo.ops.op import Op
from mo.utils.error import Error


def _name(node) -> str:
    return node.soft_get('name', node.id)


class GridSample(Op):
    """GridSample-9: data [N, C, d1..dr], grid [N, o1..or, r] (normalized x, y, ... in [-1, 1]) -> [N, C, o1..or].
    OpenVINO's op takes r = 2 only; other ranks are lowered before the IR is written."""
    op = 'GridSample'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'GridSample', 'op': 'GridSample', 'version': 'opset9', 'align_corners': False,
            'mode': 'bilinear', 'padding_mode': 'zeros', 'infer': GridSample.infer, 'type_infer': GridSample.type_infer,
            'in_ports_count': 2, 'out_ports_count': 1,
        }, attrs)

    def backend_attrs(self):
        return [('align_corners', lambda n: str(bool(n.align_corners)).lower()), 'mode', 'padding_mode']

    @staticmethod
    def infer(node):
        data, grid = node.in_port(0).data.get_shape(), node.in_port(1).data.get_shape()
        if data is None or grid is None:
            return
        if len(data) < 3 or len(grid) != len(data) or int(grid[-1]) not in (-1, len(data) - 2):
            raise Error('GridSample "{}": data of shape {} and a grid of shape {} do not fit (a grid [N, ..., {}] '
                        'of the data\'s rank)', _name(node), data.tolist(), grid.tolist(), len(data) - 2)
        node.out_port(0).data.set_shape([int(d) for d in data[:2]] + [int(d) for d in grid[1:-1]])

    @staticmethod
    def type_infer(node):
        dtype = node.in_port(0).data.get_data_type()
        if dtype is not None:
            node.out_port(0).data.set_data_type(dtype)
