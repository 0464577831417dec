"""A constant that an If, Loop or TensorIterator reads is theirs alone.

ONNX lets one initializer feed an If's branches (as a captured outer-scope value), a Loop's body and the Equal that
computes the If's condition; a folded shape value can end up read the same way. OpenVINO 2026.4's CPU plugin
crashes (a segmentation fault in ``compile_model``) on an IR where one Const feeds an If or Loop and also the
computation of an If's condition, and ``ovc``'s IR of such a model gives each reader a Const of its own. So does this
step, for every Const a sub-graph op shares with any other reader: the copies cost no ``.bin`` space (equal blobs
are stored once), only a Const layer each.
"""
from extensions.back.constant_folding import FinalConstantFolding
from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph
from mo.middle.partial_infer import infer_node
from mo.ops.const import feed_constant
from mo.utils.anchors import BackFinish

#: the IR types of the ops that run sub-graphs (each framework has its own op for them)
SUB_GRAPH_TYPES = ('If', 'Loop', 'TensorIterator')


class SubGraphOpsOwnTheirConstants(BackReplacementPattern):
    """A Const read by an If, Loop or TensorIterator and by anything else: the sub-graph op reads a copy of its own."""
    enabled = True
    id = 'SubGraphOpsOwnTheirConstants'

    def run_after(self):
        # last: constant folding makes new Consts that may be read so
        return [FinalConstantFolding]

    def run_before(self):
        return [BackFinish]

    def find_and_replace_pattern(self, graph: Graph):
        for sub_graph_type in SUB_GRAPH_TYPES:
            for node in graph.get_op_nodes(type=sub_graph_type):
                for index, port in sorted(node.in_ports().items()):
                    if port.disconnected():
                        continue
                    source = port.get_source()
                    if source.node.soft_get('type') != 'Const' or len(source.get_destinations()) < 2:
                        continue
                    value = source.data.get_value()
                    if value is None:
                        continue
                    port.disconnect()
                    name = '{}/{}_input_{}'.format(source.node.soft_get('name', source.node.id),
                                                   node.soft_get('name', node.id), index)
                    infer_node(feed_constant(node, index, value, name))
                    self.match_count += 1
