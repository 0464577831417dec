"""``mo transform`` keeps lowered loops and conditionals (GraphDef in, GraphDef out, no raising):
each transform gives the node set TensorFlow's own Graph Transform Tool gives, and the result
computes in TensorFlow what TF's tool's result computes."""
import re
from collections import Counter

import numpy as np
import pytest

tf = pytest.importorskip('tensorflow')

from tests.control_flow import lowered_models  # noqa: E402
from tests.support.oracles import GTTError, graph_def_from, run_tf, run_tf_gtt  # noqa: E402

MODELS = ('v1_while_input_trip_count', 'v1_nested_while', 'v1_conds', 'v1_dynamic_rnn_gru', 'keras_lstm',
          'tf2_while_and_cond_lowered', 'tf2_switch_case_lowered')
TRANSFORMS = ('strip_unused_nodes', 'fold_constants', 'fold_constants(ignore_errors=true)',
              'sort_by_execution_order', 'remove_nodes(op=Identity)', 'remove_nodes(op=Identity, op=CheckNumerics)',
              'fold_batch_norms', 'fold_old_batch_norms', 'merge_duplicate_nodes', 'remove_control_dependencies',
              'strip_unused_nodes fold_constants(ignore_errors=true) sort_by_execution_order',
              'add_default_attributes', 'remove_attribute(attribute_name=_class)', 'remove_device',
              'set_device(device="/cpu:0")', 'backport_concatv2', 'flatten_atrous_conv', 'fuse_pad_and_conv',
              'fuse_resize_pad_and_conv', 'obfuscate_names', 'quantize_weights(minimum_size=1)',
              'round_weights(num_steps=16)', 'sparsify_gather', 'insert_logging(op=Exit)',
              'rename_op(old_op_name=Tanh, new_op_name=Sigmoid)')
# quantize_nodes is left out: mo's keeps some ops float where TF's tool writes graphs its own
# kernels cannot run (see extensions/transforms/quantize_nodes.py), so the node sets differ by design


def _mo_transform(data: bytes, inputs, outputs, transforms: str) -> bytes:
    from mo.back.tf.graphdef_writer import graph_to_graph_def
    from mo.front.tf.graphdef_io import parse_graph_def_bytes
    from mo.front.tf.loader import graph_def_to_graph
    from mo.graph.graph import Graph
    from mo.pipeline.transform import transform_graph
    graph = graph_def_to_graph(parse_graph_def_bytes(data), Graph())
    graph = transform_graph(graph, inputs, outputs, transforms)
    return graph_to_graph_def(graph).SerializeToString()


@pytest.fixture(scope='module', params=MODELS)
def model(request):
    return lowered_models.ALL[request.param]()


def _names(lowered):
    inputs = sorted({name.split(':')[0] for feeds in lowered.feeds for name in feeds})
    outputs = [name.split(':')[0] for name in lowered.outputs]
    return inputs, outputs


@pytest.mark.parametrize('transforms', TRANSFORMS)
def test_transform_keeps_the_loops_as_tensorflows_tool_does(model, transforms):
    inputs, outputs = _names(model)
    try:
        expected = run_tf_gtt(model.graph_def, inputs, outputs, transforms)
    except GTTError:
        with pytest.raises(Exception):
            _mo_transform(model.graph_def, inputs, outputs, transforms)
        return
    actual = _mo_transform(model.graph_def, inputs, outputs, transforms)
    # mo's fold_constants keeps a folded node's name where TF invents "name/_0__cf__0" (documented)
    expected_nodes = {re.sub(r'/_\d+__cf__\d+$', '', n.name): n.op for n in graph_def_from(expected).node}
    actual_nodes = {n.name: n.op for n in graph_def_from(actual).node}
    if transforms in ('merge_duplicate_nodes', 'obfuscate_names'):
        # which duplicate survives a second round of merging follows the order of TF's node hashes;
        # what survives does not
        assert Counter(actual_nodes.values()) == Counter(expected_nodes.values())
    else:
        assert actual_nodes == expected_nodes
    for feeds in model.feeds:
        try:
            reference = run_tf(expected, feeds, model.outputs)
        except (tf.errors.OpError, ValueError):
            # TF's tool breaks this graph too (remove_control_dependencies takes constants out of
            # their frames; remove_nodes(op=Identity) keeps colocation with removed nodes): the
            # node sets above are the whole comparison
            continue
        if any(np.isnan(r).any() for r in reference):
            # TF's Dequantize turns the range [0, FLT_MIN] that quantize_weights gives an all-zero
            # constant (Keras' initial LSTM state) into NaN: no reference to compare with
            continue
        for r, g in zip(reference, run_tf(actual, feeds, model.outputs)):
            np.testing.assert_allclose(g, r, rtol=1e-6, atol=1e-6)


def test_mo_transform_cli_writes_a_nested_loop_that_still_runs(tmp_path):
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    lowered = lowered_models.v1_nested_while()
    inputs, outputs = _names(lowered)
    source, target = tmp_path / 'in.pb', tmp_path / 'out.pb'
    source.write_bytes(lowered.graph_def)
    transforms = 'strip_unused_nodes fold_constants(ignore_errors=true) sort_by_execution_order'
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo.main', 'transform', '--in_graph', str(source), '--out_graph',
                           str(target), '--inputs', ','.join(inputs), '--outputs', ','.join(outputs),
                           '--transforms', transforms], capture_output=True, text=True, env=env, cwd=root,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    written = target.read_bytes()
    expected = run_tf_gtt(lowered.graph_def, inputs, outputs, transforms)
    ops = [n.op for n in graph_def_from(written).node]
    assert Counter(ops) == Counter(n.op for n in graph_def_from(expected).node)
    assert ops.count('NextIteration') == 4  # two loop variables in each of the two frames
    for feeds in lowered.feeds:
        for r, g in zip(run_tf(lowered.graph_def, feeds, lowered.outputs), run_tf(written, feeds, lowered.outputs)):
            np.testing.assert_array_equal(g, r)
