"""README's extension examples copied and enabled, and the replace_op contract docs/extensions.md states.

Issue 27: README's Relu6ToClamp broke conversion when enabled (the node it returned as its own
replacement was removed, leaving its consumer without an input), and a replace_op returning ``[]``
crashed a later built-in step instead of naming the user's class.
"""
import re
import subprocess
import sys

import numpy as np
import pytest

from mo.front.common.replacement import FrontReplacementOp
from mo.utils.error import Error
from mo.utils.graph_builder import build_graph
from tests.extensions_tutorial.tutorial import ROOT, blocks
from tests.support.oracles import compare, run_openvino, run_tf


def readme_extension_blocks() -> list:
    """The python blocks of README's "Writing extensions" section (up to its ONNX subsection)."""
    text = (ROOT / 'README.md').read_text()
    section = text[text.index('## Writing extensions'):text.index('### ONNX extensions')]
    return [block for block in blocks(section) if block.lang == 'python']


def conv_bias_relu6_model(path):
    """Conv2D + BiasAdd + Relu6 / 6 (TF builds it): what README's two replacers match."""
    import tensorflow as tf
    rng = np.random.default_rng(0)
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, (1, 5, 5, 2), name='x')
        y = tf.nn.conv2d(x, tf.constant(rng.standard_normal((3, 3, 2, 4)).astype(np.float32)), 1, 'SAME')
        y = tf.nn.bias_add(y, tf.constant(rng.standard_normal(4).astype(np.float32)))
        tf.identity(tf.nn.relu6(y) / 6.0, name='out')
    path.write_bytes(graph.as_graph_def().SerializeToString())


def test_readme_replacers_enabled_convert_and_match(tmp_path):
    starting = [block for block in readme_extension_blocks() if block.path.startswith('front/')]
    assert len(starting) == 1
    source = starting[0].text
    assert source.count('enabled = False') == 2
    ext = tmp_path / 'ext'
    (ext / 'front').mkdir(parents=True)
    (ext / starting[0].path).write_text(source.replace('enabled = False', 'enabled = True'))
    model = tmp_path / 'model.pb'
    conv_bias_relu6_model(model)
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(model), '--extensions', str(ext),
                           '--output_dir', str(tmp_path / 'ir')], capture_output=True, text=True, cwd=str(ROOT),
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    # both found what they are written for (a replacer that matches nothing warns)
    assert 'matched nothing' not in proc.stderr, proc.stderr
    x = np.random.default_rng(1).standard_normal((1, 5, 5, 2)).astype(np.float32) * 3
    assert compare(run_openvino(tmp_path / 'ir' / 'model.xml', {'x': x})[0], run_tf(model, {'x': x}, ['out'])[0]) < 1e-5


def test_readme_unit_test_example_runs_as_written():
    testing = [block for block in readme_extension_blocks() if 'compare_graphs' in block.text]
    assert len(testing) == 1
    exec(compile(testing[0].text, 'README.md', 'exec'), {})


# ----- the replace_op contract -------------------------------------------------------------------------------------
def _graph(with_consumer: bool):
    nodes = [('x', 'Parameter'), ('relu', 'ReLU'), ('other', 'Sigmoid')]
    edges = [('x', 'relu', 0)] + ([('relu', 'other', 0)] if with_consumer else [])
    return build_graph(nodes, edges)


def _replacer(result):
    class Returns(FrontReplacementOp):
        op = 'ReLU'
        enabled = False  # run by hand below, never in a conversion

        def replace_op(self, graph, node):
            return result(graph, node)
    return Returns()


def test_an_empty_list_removes_a_node_that_feeds_nothing():
    graph = _graph(with_consumer=False)
    _replacer(lambda graph, node: []).find_and_replace_pattern(graph)
    assert 'relu' not in graph


def test_an_empty_list_for_a_node_with_consumers_is_the_users_error():
    graph = _graph(with_consumer=True)
    with pytest.raises(Error) as info:
        _replacer(lambda graph, node: []).find_and_replace_pattern(graph)
    assert str(info.value) == 'Returns.replace_op returned [] for "relu" (ReLU), whose output port 0 still feeds other'
    assert 'docs/extensions.md#the-replace_op-contract' in info.value.hint
    assert 'relu' in graph and graph.has_edge('relu', 'other')  # nothing was re-wired


def test_the_node_itself_keeps_it_and_its_consumers():
    graph = _graph(with_consumer=True)
    _replacer(lambda graph, node: [node.id]).find_and_replace_pattern(graph)
    assert graph.has_edge('x', 'relu') and graph.has_edge('relu', 'other')


def test_the_items_take_over_the_ports_in_order():
    graph = _graph(with_consumer=True)
    _replacer(lambda graph, node: [('x', 0)]).find_and_replace_pattern(graph)
    assert 'relu' not in graph and graph.has_edge('x', 'other')


def test_readme_and_tutorial_state_the_contract():
    tutorial = (ROOT / 'docs' / 'extensions.md').read_text()
    assert re.search(r'^### The replace_op contract$', tutorial, re.M)
    for case in ('`[div.id]`', '`[node.id]`', '`[]`', '`None`'):
        assert case in tutorial
