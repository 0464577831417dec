"""Function inlining (extensions/load/tf/function_inlining.py): PartitionedCall bodies become nodes."""
import numpy as np
import pytest

from mo.front.tf.graphdef_io import parse_graph_def_bytes
from mo.front.tf.loader import graph_def_to_graph
from mo.utils.error import Error
from extensions.load.tf.function_inlining import inline_functions
from mo.front.tf.op_signatures import output_arg_offsets
from tests.convert.conftest import TOLERANCE, convert_bytes, max_error

tf = pytest.importorskip('tensorflow')


def _graph(graph_def_bytes):
    return graph_def_to_graph(parse_graph_def_bytes(graph_def_bytes, 'test'))


def _two_level_graph_def() -> bytes:
    """``outer(x)`` calls ``inner(x)``, which returns two tensors taken from a Split in swapped order."""
    @tf.function(autograph=False)
    def inner(x):
        a, b = tf.split(x, 2, axis=1)
        return tf.nn.relu(b) * 2.0, tf.tanh(a)

    @tf.function(autograph=False)
    def outer(x):
        p, q = inner(x)
        return tf.concat([p - q, q], axis=1)

    concrete = outer.get_concrete_function(tf.TensorSpec([2, 6], tf.float32, name='x'))
    return concrete.graph.as_graph_def().SerializeToString()


@pytest.fixture(scope='module')
def two_level():
    return _two_level_graph_def()


def test_funclib_model_nested_calls_are_inlined():
    from tests.support import models
    graph = _graph(models.get_model('small_cnn_bn_funclib').graph_def)
    assert inline_functions(graph) == 2  # the wrapper, then the body it calls
    ops = {d.get('op') for _, d in graph.nodes(data=True)}
    assert not ops & {'PartitionedCall', 'StatefulPartitionedCall'}
    # names: call node name / body node name, nested calls nest the prefix
    assert 'PartitionedCall/Relu6' in graph
    assert any(n.startswith('PartitionedCall/PartitionedCall/') and graph.nodes[n]['op'] == 'Conv2D'
               for n in graph.nodes)
    # the model's Identity now reads the wrapper's Identity, which reads the Relu6
    (src, _, data), = graph.in_edges('Identity', data=True)
    assert src == 'PartitionedCall/Identity' and data['out'] == 0
    (src, _, _), = graph.in_edges('PartitionedCall/Identity', data=True)
    assert src == 'PartitionedCall/Relu6'


def test_outputs_map_to_flat_ports(two_level):
    graph = _graph(two_level)
    assert inline_functions(graph) >= 1
    splits = [n for n, d in graph.nodes(data=True) if d.get('op') == 'Split']
    assert len(splits) == 1
    # relu reads the Split's second tensor (output:1), tanh its first (output:0)
    readers = {graph.nodes[dst]['op']: data['out'] for _, dst, data in graph.out_edges(splits[0], data=True)}
    assert readers == {'Relu': 1, 'Tanh': 0}


def test_output_arg_offsets_of_list_outputs():
    from mo.front.tf.node_def import make_node_def
    pb = make_node_def('s', 'Unpack', {'num': 3, 'axis': 0})
    assert output_arg_offsets(pb, {}, 'test') == {'output': (0, 3)}
    pb = make_node_def('b', 'FusedBatchNormV3')
    assert output_arg_offsets(pb, {}, 'test')['batch_variance'] == (2, 1)


def test_inlined_graph_converts_and_matches_tensorflow(two_level, tmp_path):
    from tests.support import oracles
    feeds = {'x': np.random.default_rng(3).standard_normal((2, 6)).astype(np.float32)}
    graph_def = parse_graph_def_bytes(two_level, 'test')
    output = [n.name for n in graph_def.node if n.op == 'Identity'][-1]
    expected = oracles.run_tf(two_level, feeds, [output])
    converted = convert_bytes(two_level, tmp_path, 'two_level')
    actual = oracles.run_openvino(converted.xml, feeds)
    assert max_error(actual, expected) < TOLERANCE


def test_call_to_unknown_function_is_an_error(two_level):
    graph = _graph(two_level)
    call = next(n for n, d in graph.nodes(data=True) if d.get('op') in ('PartitionedCall', 'StatefulPartitionedCall'))
    graph.nodes[call]['pb'].attr['f'].func.name = 'no_such_function'
    with pytest.raises(Error, match='no_such_function'):
        inline_functions(graph)


def test_call_without_library_is_an_error(two_level):
    graph = _graph(two_level)
    graph.graph['tf_library'] = None
    with pytest.raises(Error, match='no function library'):
        inline_functions(graph)


def _generic_function_graph(call_op: str) -> bytes:
    """``x -> call -> out``, the call running library function ``scale_of_type`` whose body's Cast takes its
    ``DstT`` from the function's attribute ``T`` (``$T``): a direct call (op ``scale_of_type``) sets ``T``, a
    PartitionedCall cannot."""
    from mo.front.tf.proto import GraphDef
    from mo.front.tf import dtypes
    graph_def = GraphDef()
    fdef = graph_def.library.function.add()
    fdef.signature.name = 'scale_of_type'
    fdef.signature.input_arg.add(name='x', type=dtypes.DT_FLOAT)
    fdef.signature.output_arg.add(name='y', type_attr='T')
    fdef.signature.attr.add(name='T', type='type')
    cast = fdef.node_def.add(name='cast', op='Cast', input=['x'])
    cast.attr['SrcT'].type = dtypes.DT_FLOAT
    cast.attr['DstT'].placeholder = 'T'
    fdef.ret['y'] = 'cast:y:0'
    x = graph_def.node.add(name='x', op='Placeholder')
    x.attr['dtype'].type = dtypes.DT_FLOAT
    call = graph_def.node.add(name='call', op=call_op, input=['x'])
    if call_op == 'PartitionedCall':
        call.attr['f'].func.name = 'scale_of_type'
    else:
        call.attr['T'].type = dtypes.DT_INT32
    graph_def.node.add(name='out', op='Identity', input=['call'])
    return graph_def.SerializeToString()


def test_attribute_placeholders_take_the_direct_call_s_attributes():
    from mo.front.tf import dtypes
    graph = _graph(_generic_function_graph('scale_of_type'))
    assert inline_functions(graph) == 1
    pb = graph.nodes['call/cast']['pb']
    assert pb.attr['DstT'].type == dtypes.DT_INT32 and pb.attr['SrcT'].type == dtypes.DT_FLOAT
    assert list(pb.input) == ['x']
    (src, _, data), = graph.in_edges('out', data=True)
    assert src == 'call/cast' and data['out'] == 0


def test_attribute_placeholder_of_a_partitioned_call_is_an_error():
    graph = _graph(_generic_function_graph('PartitionedCall'))
    with pytest.raises(Error, match=r'attribute "DstT" of node "call/cast" refers to "\$T", which the call does not set'):
        inline_functions(graph)
