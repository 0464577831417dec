"""Load phase for Paddle's PIR control flow: the values an ``if``'s or a ``while``'s regions read from the
enclosing graph become inputs of the op node.

A PIR region reads the enclosing block's values by name, not through its op's operands, so the loader does not
connect them; left so, a value only the regions read would look dead and go at the first clean-up (the one that
follows the Results), and its producer with it. This step runs right after the loader, while the loader's var
map names every producer: it connects each such value (in order of first use; the model's weights excluded, the
bodies have their own) to a new input port of the op, slot ``Outer``, and lists their names in
``outer_values``. The control-flow extractors (``extensions/front/paddle/control_flow_ext.py``) pass them on to
If and Loop. Classic ``while``/``conditional_block`` list what their sub-blocks read as operands already.
The model's weights are kept aside for the bodies too (``WEIGHTS``): one only a body reads would go as well.
"""
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.paddle.graph import PROGRAM, TENSORS
from mo.front.paddle.sub_blocks import free_values, weights_of
from mo.graph.graph import Graph
from mo.utils.error import Error
from mo.utils.replacement import for_framework
from extensions.load.paddle.loader import PaddleLoader
from extensions.load.paddle.loader import PaddleInputsOutputs

#: PIR ops whose regions may read the enclosing block's values
REGION_OPS = ('if', 'while')
#: ops with bodies (PIR regions, classic sub-blocks)
BODY_OPS = REGION_OPS + ('conditional_block',)
#: graph attribute: the model's weights by var name, kept for the bodies (a weight only a body reads has no
#: consumer in the enclosing graph, so its Const goes at the first clean-up)
WEIGHTS = 'paddle_weights_by_name'


def region_blocks(op) -> list:
    return [block for region in op.regions for block in region]


class PaddleBodyInputs(LoadReplacementPattern):
    """Connects what PIR ``if``/``while`` regions read to their op nodes (see the module docstring)."""
    id = 'PaddleBodyInputs'
    graph_condition = [for_framework('paddle')]
    auto_clean_up = False  # no Results yet: everything would look dead

    def run_after(self):
        return [PaddleLoader]

    def run_before(self):
        return [PaddleInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        program = graph.graph.get(PROGRAM)
        tensors = graph.graph.get(TENSORS, {})
        nodes = [node for node in graph.get_op_nodes() if node.soft_get('op') in BODY_OPS]
        if not nodes:
            return
        weights = graph.graph[WEIGHTS] = weights_of(graph)
        for node in nodes:
            pb = node.soft_get('pb', None)
            if node.soft_get('op') not in REGION_OPS or pb is None or not getattr(pb, 'regions', None):
                continue
            blocks = region_blocks(pb)
            args = {name for block in blocks for name in program.blocks[block].args}
            outer = []
            for block in blocks:
                outer += [name for name in free_values(program, block, weights)
                          if name not in outer and name not in args]
            first = max([p for ports in (node.soft_get('in_slots', None) or {}).values() for p in ports] + [-1]) + 1
            ports = []
            for k, name in enumerate(outer):
                found = tensors.get(name)
                if found is None:
                    raise Error('Paddle {} "{}": its regions read "{}", which nothing before it produces',
                                node.op, node.soft_get('name', node.id), name)
                graph.add_edge(found[0], node.id, **{'out': found[1], 'in': first + k})
                ports.append(first + k)
            node['in_slots'] = dict(node.soft_get('in_slots', None) or {}, Outer=ports)
            node['outer_values'] = outer
            self.match_count += 1
