"""Result: a model output."""
from mo.ops.op import Op


class Result(Op):
    """Marks its input as a model output; has no outputs."""
    op = 'Result'

    def __init__(self, graph, attrs: dict = None):
        super().__init__(graph, {
            'type': 'Result', 'op': 'Result', 'version': 'opset1',
            'infer': lambda node: None, 'in_ports_count': 1, 'out_ports_count': 0,
        }, attrs)
