"""Lowered control flow raised to While/If (mo.front.tf.control_flow): TensorFlow runs the lowered
and the raised GraphDef on the same feeds and must give identical outputs."""
import numpy as np
import pytest

tf = pytest.importorskip('tensorflow')

from mo.front.tf.control_flow import CONTROL_FLOW_OPS, has_control_flow, raise_control_flow  # noqa: E402
from mo.front.tf.proto import GraphDef  # noqa: E402
from tests.control_flow import lowered_models  # noqa: E402
from tests.support.oracles import TFRunner  # noqa: E402


def _raised(model_bytes):
    graph_def = GraphDef.FromString(model_bytes)
    count = raise_control_flow(graph_def)
    return graph_def, count


def _ops(graph_def):
    """Op types of the graph and of every library function."""
    ops = {n.op for n in graph_def.node}
    for fdef in graph_def.library.function:
        ops.update(n.op for n in fdef.node_def)
    return ops


@pytest.fixture(scope='module', params=sorted(lowered_models.ALL))
def model(request):
    return request.param, lowered_models.ALL[request.param]()


def test_raised_graph_gives_the_outputs_of_the_lowered_one(model):
    name, lowered = model
    graph_def, count = _raised(lowered.graph_def)
    assert count >= 1
    assert not _ops(graph_def) & CONTROL_FLOW_OPS, name
    # TensorFlow's importer takes the functions (TFRunner imports with import_graph_def)
    with TFRunner(lowered.graph_def) as reference, TFRunner(graph_def.SerializeToString()) as raised:
        for feeds in lowered.feeds:
            expected = reference.run(feeds, lowered.outputs)
            actual = raised.run(feeds, lowered.outputs)
            for output, e, a in zip(lowered.outputs, expected, actual):
                assert a.shape == e.shape, (name, output)
                np.testing.assert_array_equal(a, e, err_msg='{} {} {}'.format(name, output, feeds))


def test_raised_functions_match_their_call_sites(model):
    """Each While's cond/body take and return its T; If/Case branches take Tin and return Tout."""
    _, lowered = model
    graph_def, _ = _raised(lowered.graph_def)
    functions = {f.signature.name: f for f in graph_def.library.function}
    nodes = list(graph_def.node) + [n for f in graph_def.library.function for n in f.node_def]
    for node in nodes:
        if node.op == 'While':
            types = list(node.attr['T'].list.type)
            cond, body = functions[node.attr['cond'].func.name], functions[node.attr['body'].func.name]
            assert [a.type for a in cond.signature.input_arg] == types
            assert [a.type for a in cond.signature.output_arg] == [tf.bool.as_datatype_enum]
            assert [a.type for a in body.signature.input_arg] == types
            assert [a.type for a in body.signature.output_arg] == types
            assert len(node.attr['output_shapes'].list.shape) == len(types)
        elif node.op in ('If', 'Case'):
            names = [f.name for f in node.attr['branches'].list.func] if node.op == 'Case' else \
                [node.attr[branch].func.name for branch in ('then_branch', 'else_branch')]
            for name in names:
                fdef = functions[name]
                assert [a.type for a in fdef.signature.input_arg] == list(node.attr['Tin'].list.type)
                assert [a.type for a in fdef.signature.output_arg] == list(node.attr['Tout'].list.type)
                assert sorted(fdef.ret) == sorted(a.name for a in fdef.signature.output_arg)


def test_a_constant_predicate_leaves_the_taken_branch_only():
    lowered = lowered_models.v1_constant_predicate_cond()
    graph_def, _ = _raised(lowered.graph_def)
    ops = _ops(graph_def)
    assert 'If' not in ops and 'Sqrt' in ops and not ops & CONTROL_FLOW_OPS
    assert not graph_def.library.function


def test_the_attributes_are_those_tensorflow_writes_for_functional_control_flow():
    """The contract with the functional readers: our While/If carry TF's own attribute names."""
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    def fn(x, n):
        _, y = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * 2.0), [0, x])
        return y, tf.cond(n > 2, lambda: x + 1.0, lambda: x * 3.0), tf.switch_case(n, [lambda: x, lambda: -x])

    concrete = tf.function(fn).get_concrete_function(tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32))
    functional = convert_variables_to_constants_v2(concrete, lower_control_flow=False).graph.as_graph_def()
    tf_attrs = {}
    # the freezing lowers Case even with lower_control_flow=False: its Case is in the traced graph
    for node in list(functional.node) + list(concrete.graph.as_graph_def().node):
        tf_attrs.setdefault(node.op.replace('Stateless', ''), set()).update(node.attr.keys())
    lowered = convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString()
    graph_def, _ = _raised(lowered)
    ours = {n.op: set(n.attr.keys()) for n in graph_def.node if n.op in ('While', 'If', 'Case')}
    assert set(ours) == {'While', 'If', 'Case'}
    for op, keys in ours.items():
        assert keys <= tf_attrs[op], (op, keys - tf_attrs[op])
    assert {'T', 'cond', 'body', 'output_shapes', 'parallel_iterations', '_num_original_outputs'} <= ours['While']
    assert {'Tcond', 'Tin', 'Tout', 'then_branch', 'else_branch', 'output_shapes'} <= ours['If']
    assert {'Tin', 'Tout', 'branches', 'output_shapes'} <= ours['Case']


def test_a_graph_without_control_flow_is_left_alone():
    from tests.support import models
    data = models.get_model('small_cnn_bn').graph_def
    graph_def = GraphDef.FromString(data)
    assert not has_control_flow(graph_def)
    assert raise_control_flow(graph_def) == 0 and graph_def == GraphDef.FromString(data)


def test_the_loader_builds_the_graph_from_the_functional_form():
    """The load phase raises before building the graph: While nodes, no frames, the functions kept."""
    from extensions.load.tf.loader import TFLoader
    from mo.graph.graph import Graph
    lowered = lowered_models.v1_nested_while()
    graph = Graph()
    graph.graph['source_format'] = 'tf'
    graph.graph['cmd_params'] = {'graph_def_bytes': lowered.graph_def}
    TFLoader().find_and_replace_pattern(graph)
    ops = {d.get('op') for _, d in graph.nodes(data=True)}
    assert 'While' in ops and not ops & CONTROL_FLOW_OPS
    names = {f.signature.name for f in graph.graph['tf_library'].function}
    assert len(names) == 4  # cond and body of the outer and of the inner loop


@pytest.mark.parametrize('index', [1, 9])
def test_a_constant_case_index_leaves_the_taken_branch_only(index):
    """A lowered switch_case on a constant index: no Case, the branch _SwitchN routes to (the last
    one for an index out of range)."""
    from tests.control_flow.lowered_models import _frozen_v2
    data, inputs, outputs = _frozen_v2(
        lambda x: tf.switch_case(tf.constant(index), [lambda: x + 1.0, lambda: tf.exp(x), lambda: tf.sqrt(x)]),
        tf.TensorSpec([3], tf.float32))
    graph_def, count = _raised(data)
    ops = _ops(graph_def)
    assert count == 1 and 'Case' not in ops and not ops & CONTROL_FLOW_OPS
    assert ('Exp' in ops) == (index == 1) and ('Sqrt' in ops) == (index != 1)
    feeds = {inputs[0]: np.array([0.5, 2.0, 3.0], np.float32)}
    with TFRunner(data) as reference, TFRunner(graph_def.SerializeToString()) as raised:
        np.testing.assert_array_equal(raised.run(feeds, outputs)[0], reference.run(feeds, outputs)[0])


@pytest.mark.parametrize('name', ['v1_conds', 'v1_bidirectional_dynamic_rnn_lstm', 'tf2_conds_inside_loops'])
def test_the_raised_graph_does_not_depend_on_the_node_order_of_the_file(name):
    import random
    data = lowered_models.ALL[name]().graph_def
    shuffled = GraphDef.FromString(data)
    nodes = list(shuffled.node)
    random.Random(7).shuffle(nodes)
    del shuffled.node[:]
    shuffled.node.extend(nodes)
    first, _ = _raised(data)
    second, _ = _raised(shuffled.SerializeToString())
    assert first.SerializeToString(deterministic=True) == second.SerializeToString(deterministic=True)
