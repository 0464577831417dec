"""Load phase: a TensorFlow While gets the inputs of OpenVINO's Loop.

TF's While evaluates its ``cond`` function before every iteration, the first one included.
OpenVINO's Loop takes the first decision as an input (``execution_condition``) and the body
computes the following ones. So in front of each While a copy of ``cond`` is inlined on the
While's own inputs, and the While's inputs become Loop's:

    0: trip count (-1: no limit; TF's maximum_iterations is a loop variable its cond compares)
    1: the first execution condition (the inlined cond)
    2 + k: loop variable k

The body's share of the work, ``cond`` after ``body``, is done when the body is converted
(``mo.ops.loop``).
"""
import numpy as np

from extensions.load.tf.function_inlining import TFFunctionInlining, inline_functions
from extensions.load.tf.loader import TFInputsOutputs, _is_tf
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.tf.dtypes import tf_dtype_from_numpy
from mo.front.tf.node_def import add_input_edge, op_node_attrs
from mo.front.tf.proto import NodeDef
from mo.graph.graph import Graph, Node
from mo.utils.error import Error

WHILE_OPS = ('While', 'StatelessWhile')

#: Loop's inputs before the loop variables
TRIP_COUNT_PORT, CONDITION_PORT, FIRST_VARIABLE_PORT = 0, 1, 2


def _functions(graph: Graph) -> dict:
    library = graph.graph.get('tf_library')
    return {f.signature.name: f for f in library.function} if library is not None else {}


class TFWhileAsLoop(LoadReplacementPattern):
    """While(vars) -> While(trip count -1, cond(vars), vars): the inputs OpenVINO's Loop takes."""
    id = 'TFWhileAsLoop'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFFunctionInlining]

    def run_before(self):
        return super().run_before() + [TFInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        loops = [Node(graph, n) for n in graph.in_insertion_order(
            [n for op in WHILE_OPS for n in graph.nodes_by_attr('op', op)])]  # the op index: no scan of every node
        if not loops:
            return
        functions = _functions(graph)
        for node in loops:
            self._add_loop_inputs(graph, node, functions)
            self.match_count += 1
        inline_functions(graph)  # the cond copies

    @staticmethod
    def _add_loop_inputs(graph: Graph, node, functions: dict):
        name = node.soft_get('name', node.id)
        cond = node.pb.attr['cond'].func.name if 'cond' in node.pb.attr else ''
        if cond not in functions:
            raise Error('While "{}": its cond function "{}" is not in the graph\'s function library', name, cond)
        data_edges = [(src, key, attrs) for src, _, key, attrs in graph.in_edges(node.id, keys=True, data=True)
                      if not attrs.get('control_flow_edge')]
        call = NodeDef()
        call.name, call.op = graph.unique_id(name + '/initial_condition'), 'PartitionedCall'
        call.attr['f'].func.name = cond
        call.attr['Tin'].list.type.extend(node.pb.attr['T'].list.type)
        call.attr['Tout'].list.type.append(tf_dtype_from_numpy(np.bool_))
        graph.add_node(call.name, **op_node_attrs(call))
        trip = NodeDef()
        trip.name, trip.op = graph.unique_id(name + '/trip_count'), 'Const'
        trip.attr['dtype'].type = tf_dtype_from_numpy(np.int64)
        tensor = trip.attr['value'].tensor
        tensor.dtype = tf_dtype_from_numpy(np.int64)
        tensor.int64_val.append(-1)
        graph.add_node(trip.name, **op_node_attrs(trip))
        for src, key, attrs in data_edges:
            graph.add_edge(src, call.name, **{'out': attrs.get('out', 0), 'in': attrs['in']})
            graph.remove_edge(src, node.id, key)
            graph.add_edge(src, node.id, **dict(attrs, **{'in': attrs['in'] + FIRST_VARIABLE_PORT}))
        add_input_edge(graph, trip.name, node.id, 0, TRIP_COUNT_PORT)
        add_input_edge(graph, call.name, node.id, 0, CONDITION_PORT)
