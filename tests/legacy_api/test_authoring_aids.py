"""What keeps an extension author from guessing: --dump_ops, the warning for a replacer that
matched nothing, the report of classes that can never run, and the tensor/connection helpers."""
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from mo.graph.graph import Node
from mo.utils.unittest.graph import build_graph, connect, regular_op_with_shaped_data, result, valued_const_with_data

ROOT = Path(__file__).resolve().parents[2]


def _relu6_model(tmp_path) -> str:
    """A frozen TF graph with a Relu6 between a Conv2D and the output (TF builds it)."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    weights = tf.constant(np.random.default_rng(0).standard_normal((3, 3, 2, 4)).astype(np.float32))
    concrete = tf.function(lambda x: tf.nn.relu6(tf.nn.conv2d(x, weights, 1, 'SAME'))).get_concrete_function(
        tf.TensorSpec((1, 5, 5, 2), tf.float32, name='x'))
    path = tmp_path / 'relu6.pb'
    path.write_bytes(convert_variables_to_constants_v2(concrete).graph.as_graph_def().SerializeToString())
    return str(path)


def _mo(*args, cwd=ROOT):
    proc = subprocess.run([sys.executable, '-m', 'mo.main'] + list(args), capture_output=True, text=True,
                          cwd=str(cwd))
    return proc.returncode, proc.stdout, proc.stderr


def _extension(tmp_path, source: str) -> Path:
    ext = tmp_path / 'ext'
    (ext / 'front').mkdir(parents=True)
    (ext / 'front' / 'mine.py').write_text(textwrap.dedent(source))
    return ext


def test_dump_ops_lists_what_the_front_phase_matches(tmp_path):
    code, out, err = _mo('convert', '--input_model', _relu6_model(tmp_path), '--output_dir', str(tmp_path),
                         '--dump_ops', 'front')
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith('[ mo ] ops at the start of the front phase')
    rows = [line.split('\t') for line in lines[1:] if line.count('\t') == 3]
    assert ['Parameter', 'Parameter', 'x', 'inputs: none'] in rows
    # each input as source:port in port order; the filter is a Const, not folded away as without --dump_ops
    conv = [row for row in rows if row[0] == 'Convolution']
    assert len(conv) == 1 and conv[0][2] == 'Conv2D' and conv[0][3].startswith('inputs: x:0, ')
    # TF's Relu6 is the Model Optimizer's Clamp by then: that is what a FrontReplacementOp must name
    assert any(row[0] == 'Clamp' for row in rows) and not any(row[0] == 'Relu6' for row in rows)
    assert (tmp_path / 'relu6.xml').exists()


def test_a_user_replacer_that_matches_nothing_names_the_ops_present(tmp_path):
    ext = _extension(tmp_path, '''
        from mo.front.common.replacement import FrontReplacementOp

        class Relu6Replacer(FrontReplacementOp):
            op = 'Relu6'
            enabled = True

            def replace_op(self, graph, node):
                return [node.id]
        ''')
    code, out, err = _mo('convert', '--input_model', _relu6_model(tmp_path), '--output_dir', str(tmp_path / 'o'),
                         '--extensions', str(ext))
    assert code == 0, err
    warning = [line for line in err.splitlines() if 'Relu6Replacer matched nothing' in line]
    assert len(warning) == 1, err
    assert 'no node fits op "Relu6"' in warning[0] and 'Clamp' in warning[0] and '--dump_ops front' in warning[0]


def test_classes_that_can_never_run_are_reported(tmp_path):
    ext = _extension(tmp_path, '''
        from mo.front.common.replacement import FrontReplacementOp, FrontReplacementPattern

        class Typo(FrontReplacementOp):
            opp = 'Relu'
            enabled = True

            def replace_op(self, graph, node):
                return [node.id]

        class DoesNothing(FrontReplacementPattern):
            enabled = True
        ''')
    code, out, err = _mo('convert', '--input_model', str(ROOT / 'examples' / 'small_cnn.pb'), '--output_dir',
                         str(tmp_path / 'o'), '--extensions', str(ext))
    assert code == 0, err
    assert 'class Typo defines "opp"; did you mean "op"?' in err
    assert 'replacer class DoesNothing has no "op", "pattern"' in err and 'mine.py' in err


def test_tensor_debug_info_and_connection_data():
    nodes = {**regular_op_with_shaped_data('input', [1, 3], {'type': 'Parameter', 'op': 'Parameter'}),
             **valued_const_with_data('k', np.array([2.0], dtype=np.float32)),
             **regular_op_with_shaped_data('mul', [1, 3], {'type': 'Multiply', 'op': 'Mul'}), **result('out')}
    graph = build_graph(nodes, [*connect('input', '0:mul'), *connect('k', '1:mul'), *connect('mul', 'out')])
    mul = Node(graph, 'mul')
    mul.out_port(0).add_tensor_names(['scope/mul', 'scope/mul:0'])
    assert mul.out_port(0).get_tensor_debug_info() == [('scope/mul', 'scope/mul:0')]
    assert Node(graph, 'out').in_port(0).get_tensor_debug_info() == [('scope/mul', 'scope/mul:0')]
    connection = mul.in_port(1).get_connection()
    assert connection.data.get_value().tolist() == [2.0]
    assert mul.out_port(0).get_connection().data.get_shape().tolist() == [1, 3]
