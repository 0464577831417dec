"""mo summarize and mo transform read SavedModels and checkpoints frozen into a GraphDef; TensorFlow
runs the GraphDef mo transform writes and must agree with the SavedModel it came from."""
import numpy as np
import pytest

from tests.saved_model import builders
from tests.saved_model.conftest import (TOLERANCE, random_feeds, relative_error, run_mo, signature_specs,
                                        tf_signature_outputs)


@pytest.fixture(scope='module')
def module(tmp_path_factory):
    return builders.module_two_signatures(tmp_path_factory.mktemp('tools') / 'module')


def test_summarize_saved_model(module):
    code, out, err = run_mo('summarize', '--in_graph', module, '--signature', 'lookup')
    assert code == 0, err
    assert '(name=lookup_ids, type=int32(3), shape=[?,4])' in out
    assert '(name=vectors, op=Identity)' in out


def test_transform_saved_model_runs_in_tensorflow(module, tmp_path):
    from tests.support import oracles
    out_graph = tmp_path / 'frozen.pb'
    code, _, err = run_mo('transform', '--in_graph', module, '--out_graph', out_graph,
                          '--inputs', 'serving_default_x', '--outputs', 'hidden,scores',
                          '--transforms', 'strip_unused_nodes sort_by_execution_order')
    assert code == 0, err
    feeds = random_feeds(signature_specs(module, 'serving_default'))
    expected = tf_signature_outputs(module, 'serving_default', feeds)
    actual = oracles.run_tf(out_graph.read_bytes(), {'serving_default_x': feeds['x']}, ['hidden', 'scores'])
    for name, value in zip(('hidden', 'scores'), actual):
        assert relative_error(value, expected[name]) < TOLERANCE, name
    assert np.asarray(actual[0]).shape == expected['hidden'].shape


def test_summarize_meta_graph_with_checkpoint(tmp_path):
    prefix = builders.tf1_checkpoint(tmp_path / 'ckpt')
    code, out, err = run_mo('summarize', '--in_graph', prefix + '.meta')
    assert code == 0, err
    assert '(name=x, type=float(1), shape=[?,6])' in out
    assert 'No variables spotted.' not in out and 'variables: ' in out  # the checkpoint's, frozen


#: the issue's recipe: what a TF1 user runs on a frozen graph before deployment
RECIPE = 'strip_unused_nodes fold_constants(ignore_errors=true) fold_batch_norms fold_old_batch_norms'
#: the ops whose counts show what the transforms did (the bookkeeping Identity/NoOp/Const nodes differ by design)
COMPUTE_OPS = ('Conv2D', 'BiasAdd', 'Relu', 'MaxPool', 'MatMul', 'Mul', 'Add', 'AddV2', 'Sub', 'Rsqrt', 'Softmax')


def _tf_frozen(directory, signature='serving_default'):
    """``(GraphDef bytes, input names, output names)``: the signature frozen by TensorFlow itself (variables to
    constants, calls inlined)."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    loaded = tf.saved_model.load(str(directory))  # kept alive: the function reads its variables
    frozen = convert_variables_to_constants_v2(loaded.signatures[signature])
    names = [[t.name.split(':')[0] for t in tensors] for tensors in (frozen.inputs, frozen.outputs)]
    return (frozen.graph.as_graph_def().SerializeToString(),) + tuple(names)


def _compute_op_counts(graph_def_bytes) -> dict:
    from tests.support import oracles
    counts = oracles.summarize_tf(graph_def_bytes, include_functions=True)
    return {op: counts.get(op, 0) for op in COMPUTE_OPS}


@pytest.fixture(scope='module')
def keras_cnn(tmp_path_factory):
    return builders.keras_cnn(tmp_path_factory.mktemp('keras') / 'cnn')


def test_transform_recipe_on_keras_saved_model(keras_cnn, tmp_path):
    """A Keras SavedModel reaches the transforms frozen and inlined: the recipe folds its batch norm as TF's own
    tool does on TF's frozen graph, the save/restore functions are gone, and TF runs the result."""
    from tests.support import oracles
    out_graph = tmp_path / 'folded.pb'
    code, _, err = run_mo('transform', '--in_graph', keras_cnn, '--out_graph', out_graph, '--transforms', RECIPE)
    assert code == 0, err
    ours = oracles.graph_def_from(out_graph.read_bytes())
    ops = oracles.summarize_tf(out_graph.read_bytes(), include_functions=True)
    assert not {'StatefulPartitionedCall', 'PartitionedCall', 'SaveV2', 'RestoreV2', 'AssignVariableOp'} & set(ops), ops
    assert len(ours.library.function) == 0
    tf_frozen, tf_inputs, tf_outputs = _tf_frozen(keras_cnn)
    reference = oracles.run_tf_gtt(tf_frozen, tf_inputs, tf_outputs, RECIPE)
    outputs = [n.name for n in ours.node if n.name.startswith('output_')]
    assert _compute_op_counts(out_graph.read_bytes()) == _compute_op_counts(reference)
    assert _compute_op_counts(out_graph.read_bytes())['Rsqrt'] == 0  # the batch norm's scale was folded
    feeds = random_feeds(signature_specs(keras_cnn, 'serving_default'))
    expected = tf_signature_outputs(keras_cnn, 'serving_default', feeds)
    placeholder = [n.name for n in ours.node if n.op == 'Placeholder']
    assert len(placeholder) == 1 and len(feeds) == 1 and outputs == ['output_0']
    actual = oracles.run_tf(out_graph.read_bytes(), {placeholder[0]: next(iter(feeds.values()))}, outputs)
    assert relative_error(actual[0], expected['output_0']) < TOLERANCE


def test_summarize_keras_saved_model(keras_cnn):
    """summarize describes the signature's frozen graph: its variables, the layers' ops (not the saver's), and a
    command that freezes it for benchmark_model; the Python API gives the same facts as data."""
    import mo
    code, out, err = run_mo('summarize', '--in_graph', keras_cnn)
    assert code == 0, err
    assert 'Found 10 variables: ' in out and 'No variables spotted' not in out
    assert 'SaveV2' not in out and 'AssignVariableOp' not in out and 'StatefulPartitionedCall' not in out
    assert '1 Conv2D' not in out and '2 Conv2D' in out
    assert "mo transform --in_graph={} --out_graph=frozen_graph.pb --transforms='strip_unused_nodes'".format(
        keras_cnn) in out
    summary = mo.summarize_graph(str(keras_cnn))
    assert summary == out.rstrip('\n')
    assert summary.outputs == ['output_0'] and len(summary.variables) == 10 and summary.variable_parameters > 0
    assert dict(summary.op_counts)['Conv2D'] == 2
