"""OpenVINO's Loop (opset5) and If (opset8): ops that own body graphs.

The bodies are converted when the op's inputs are inferred, so that each body Parameter gets the shape and type
of the tensor it stands for. The framework's reader hands each node the function that builds and converts a body
for given inputs (``build_body(node, specs)`` for a Loop, ``build_branch(node, tag, specs)`` for an If: TensorFlow's
are in ``mo.front.tf.function_graph``); the converted bodies live in the node's ``bodies`` attribute (IR tag ->
graph) and the IR writer writes them inside the layer, with the port maps and back edges ``ir_sections`` gives.
"""
import numpy as np

from mo.back.ir.xml_builder import ElementList
from mo.utils.shape import int64_array
from mo.graph.graph import Node
from mo.ops.body_io import BodyInput, add_unread_parameter, body_parameters, body_results, result_dtype, result_shape
from mo.ops.op import Op
from mo.utils.error import Error

#: how often a loop body is converted again with relaxed shapes before giving up
MAX_SHAPE_ROUNDS = 3

TRIP_COUNT_PORT, CONDITION_PORT, FIRST_VARIABLE_PORT = 0, 1, 2


def _name(node) -> str:
    return node.soft_get('name', node.id)


def _merge_shapes(a, b):
    """The shape both ``a`` and ``b`` fit: equal sizes kept, others -1; None when the ranks differ."""
    if a is None or b is None or len(a) != len(b):
        return None
    return [int(x) if int(x) == int(y) else -1 for x, y in zip(a, b)]


def _input_spec(node, port, dtype, declared=None) -> BodyInput:
    """A body Parameter standing for ``node``'s input ``port``: the inferred shape, loosened to TF's
    declared shape (its unknown sizes). Constants stay outside the body: OpenVINO's Loop reads an
    invariant input once, where a Const inside would be part of every iteration's graph."""
    data = node.in_port(port).data
    shape = data.get_shape()
    dtype = data.get_data_type() or dtype
    if dtype is None:
        raise Error('{} "{}": the type of input {} is unknown', node.soft_get('op'), _name(node), port)
    if shape is None:
        raise Error('{} "{}": the shape of input {} is unknown', node.soft_get('op'), _name(node), port)
    shape = [int(d) for d in shape]
    if declared is not None and len(declared) == len(shape):
        shape = [s if d >= 0 else -1 for s, d in zip(shape, declared)]
    return BodyInput(dtype, shape)


#: node attribute of the zeros of a tensor list reserved with elements of unknown rank (sizes Const, shape
#: Concat): the Loop that fills the list gives it the rank its body writes (see
#: ``extensions/front/tf/dense_list.py``)
UNKNOWN_RANK = 'unknown_rank_list'


def is_unranked_list(zeros: Node) -> bool:
    """Whether ``zeros`` is a list made with elements of unknown rank (see ``dense_zeros``)."""
    return bool(zeros.soft_get(UNKNOWN_RANK, None))


def widen_list_rank(zeros: Node, rank: int) -> bool:
    """Give a list made with elements of unknown rank (see ``dense_zeros``) elements of ``rank``
    dimensions of size 1; True when ``zeros`` is such a list. Called by loop inference once the body
    has shown what the list holds."""
    marks = zeros.soft_get(UNKNOWN_RANK, None)
    if not marks or rank < 0:
        return False
    sizes, concat = (Node(zeros.graph, node_id) for node_id in marks)
    value = int64_array([1] * rank)
    sizes['value'] = value
    sizes.out_port(0).data.set_value(value)
    for node in (concat, zeros):
        node.soft_get('infer')(node)
    return True


def _widen_list(node, port, body_shape) -> bool:
    """A tensor list whose elements' rank TF left unknown gets the rank the body writes."""
    if body_shape is None or len(body_shape) < 1:
        return False
    return widen_list_rank(node.in_port(port).get_source().node, len(body_shape) - 1)


def _is_unranked_list(node, port) -> bool:
    return is_unranked_list(node.in_port(port).get_source().node)


def _set_output(node, port, shape, dtype):
    node.out_port(port).data.set_shape(np.array(shape, dtype=np.int64))
    if dtype is not None:
        node.out_port(port).data.set_data_type(dtype)


class Loop(Op):
    """Loop whose body computes the next loop variables and the condition: inputs trip count, first execution
    condition, loop variables; output k is loop variable k after the last iteration. ``build_body(node, specs)``
    (given by the reader) converts the body for variables of ``specs``: output 0 the condition, output k + 1 the
    next value of variable k (a TF While: ``extensions.load.tf.while_loop``). ``stacked_results`` ({output port: body
    result index}, optional) adds outputs that concatenate a body result of every iteration along axis 0 (the body
    gives each a leading axis of size 1: MXNet's ``_while_loop`` per-step outputs, a Paddle array appended to in
    the loop)."""
    op = 'Loop'

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'Loop', 'op': 'Loop', 'version': 'opset5', 'infer': self.infer,
                                 'type_infer': self.type_infer, 'ir_sections': self.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def infer(node):
        types = node.variable_types
        invariant = node.soft_get('invariant_variables', set())
        declared = node.soft_get('declared_shapes', None) or [None] * len(types)
        specs = [_input_spec(node, FIRST_VARIABLE_PORT + k, types[k], declared[k])
                 for k in range(len(types))]
        # a list of elements of unknown rank is rank 1 until the body writes one; of unknown length
        # meanwhile, so that the first write broadcasts whatever the element's shape
        unranked = {k: spec.shape for k, spec in enumerate(specs)
                    if k not in invariant and _is_unranked_list(node, FIRST_VARIABLE_PORT + k)}
        for k in unranked:
            specs[k].shape = [-1] * len(specs[k].shape)
        for _ in range(MAX_SHAPE_ROUNDS):
            graph = node.build_body(node, specs)
            params, results = body_parameters(graph), body_results(graph)
            loosened = False
            for k, spec in enumerate(specs):
                if k not in invariant:
                    loosened |= Loop._settle(node, k, spec, result_shape(results[k + 1]), unranked)
            if not loosened:
                break
        else:
            raise Error('Loop "{}": the shapes of its variables did not settle', _name(node))
        for k, spec in enumerate(specs):
            if k not in params:  # a variable only the condition reads, or the body overwrites
                params[k] = add_unread_parameter(graph, k, spec)
        node['bodies'] = {'body': graph}
        node['body_parameters'] = {k: p.id for k, p in params.items()}
        node['body_results'] = {k: r.id for k, r in results.items()}
        node['back_edges'] = [(results[k + 1].id, params[k].id) for k in range(len(specs)) if k not in invariant]
        for k, spec in enumerate(specs):
            if not node.out_port(k).disconnected():
                _set_output(node, k, spec.shape, result_dtype(results[k + 1]) or spec.dtype)
        for port, index in node.soft_get('stacked_results', {}).items():
            if index not in results:
                raise Error('Loop "{}": its body has no result {} to stack', _name(node), index)
            if node.out_port(port).disconnected():
                continue
            shape = result_shape(results[index])
            if shape is not None and len(shape) < 1:
                raise Error('Loop "{}": output {} stacks a scalar; it needs a leading axis to concatenate on',
                            _name(node), port)
            if shape is not None:
                _set_output(node, port, [-1] + [int(d) for d in shape[1:]], result_dtype(results[index]))

    @staticmethod
    def _settle(node, k: int, spec: BodyInput, shape, unranked: dict) -> bool:
        """Loosen ``spec``, loop variable k's body input, to fit what the body made of it (``shape``);
        True when it changed, so the body must be converted again."""
        port = FIRST_VARIABLE_PORT + k
        if k in unranked:
            reserved = unranked.pop(k)
            if shape is not None and len(shape) == len(reserved):  # the list holds scalars: its length is known
                changed = spec.shape != reserved
                spec.shape = list(reserved)
                return changed
        merged = _merge_shapes(spec.shape, shape)
        if merged is None and _widen_list(node, port, shape):
            # the list as made (sizes 1) and as the body writes it (the length is the list's): the shape
            # both fit, so the next conversion settles
            widened = _input_spec(node, port, spec.dtype).shape
            spec.shape = _merge_shapes(widened, widened[:1] + [int(d) for d in shape[1:]]) or widened
            return True
        if merged is None:
            raise Error('Loop "{}": loop variable {} changes rank from {} to {} in the body; OpenVINO\'s '
                        'Loop needs a fixed rank', _name(node), k, spec.shape, shape)
        changed = merged != spec.shape
        spec.shape = merged
        return changed

    @staticmethod
    def type_infer(node):
        pass  # infer sets the output types from the converted body

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        ids = layer_ids['body']
        params, results = node.body_parameters, node.body_results
        port_map = ElementList('port_map')
        for k, param in sorted(params.items()):
            port_map.items.append(('input', [('external_port_id', str(FIRST_VARIABLE_PORT + k)),
                                             ('internal_layer_id', str(ids[param]))]))
        stacked = node.soft_get('stacked_results', {})
        for k, port in sorted(output_ports.items()):
            if k in stacked:  # one slice per iteration, concatenated along axis 0
                port_map.items.append(('output', [('external_port_id', str(port)),
                                                  ('internal_layer_id', str(ids[results[stacked[k]]])),
                                                  ('axis', '0')]))
                continue
            port_map.items.append(('output', [('external_port_id', str(port)),
                                              ('internal_layer_id', str(ids[results[k + 1]]))]))
        port_map.items.append(('output', [('external_port_id', '-1'), ('internal_layer_id', str(ids[results[0]])),
                                          ('purpose', 'execution_condition')]))
        back_edges = ElementList('back_edges', [('edge', [('from-layer', str(ids[r])), ('to-layer', str(ids[p]))])
                                                for r, p in node.back_edges])
        return [port_map, back_edges]


class If(Op):
    """If: input 0 the predicate, inputs 1.. the branches' arguments; ``build_branch(node, tag, specs)`` (given by
    the reader) converts branch ``tag`` (``then_body``, ``else_body``) for arguments of ``specs``."""
    op = 'If'

    def __init__(self, graph, attrs: dict):
        super().__init__(graph, {'type': 'If', 'op': 'If', 'version': 'opset8', 'infer': self.infer,
                                 'type_infer': self.type_infer, 'ir_sections': self.ir_sections}, attrs)

    def backend_attrs(self):
        return []

    @staticmethod
    def infer(node):
        count = len(node.input_types)
        specs = [_input_spec(node, 1 + k, node.input_types[k]) for k in range(count)]
        bodies, params, results = {}, {}, {}
        for tag in ('then_body', 'else_body'):
            graph = node.build_branch(node, tag, specs)
            bodies[tag] = graph
            params[tag] = {k: p.id for k, p in body_parameters(graph).items()}
            results[tag] = body_results(graph)
        node['bodies'] = bodies
        node['body_parameters'] = params
        node['body_results'] = {tag: {k: r.id for k, r in rs.items()} for tag, rs in results.items()}
        for k in range(len(node.output_types)):
            then_shape, else_shape = (result_shape(results[t][k]) for t in ('then_body', 'else_body'))
            shape = _merge_shapes(then_shape, else_shape)
            if shape is None:
                raise Error('If "{}": output {} has rank {} in one branch and {} in the other; OpenVINO\'s If '
                            'needs one rank', _name(node), k, len(then_shape), len(else_shape))
            if not node.out_port(k).disconnected():
                _set_output(node, k, shape, result_dtype(results['then_body'][k]) or node.output_types[k])

    @staticmethod
    def type_infer(node):
        pass

    @staticmethod
    def ir_sections(node, layer_ids, output_ports):
        sections = []
        for tag in ('then_body', 'else_body'):
            ids = layer_ids[tag]
            port_map = ElementList(tag.split('_')[0] + '_port_map')
            for k, param in sorted(node.body_parameters[tag].items()):
                port_map.items.append(('input', [('external_port_id', str(1 + k)),
                                                 ('internal_layer_id', str(ids[param]))]))
            for k, port in sorted(output_ports.items()):
                port_map.items.append(('output', [('external_port_id', str(port)),
                                                  ('internal_layer_id', str(ids[node.body_results[tag][k]]))]))
            sections.append(port_map)
        return sections
