"""What the tensor/math/segment batch cannot convert is one ``[ ERROR ]`` line naming the node and what is
unsupported (through the CLI, exit code 1, nothing written): Cumprod and the diagonal ops need a constant axis
or diagonal range, the V3 diagonal ops a known alignment."""
import os
import subprocess
import sys

import numpy as np
import pytest

tf = pytest.importorskip('tensorflow')

from tests.ops.harness import In, OpCase, frozen_graph  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _convert_error(tmp_path, graph_def_bytes) -> str:
    model = tmp_path / 'model.pb'
    model.write_bytes(graph_def_bytes)
    out = tmp_path / 'out'
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo.main', 'convert', '--input_model', str(model), '--output_dir',
                           str(out)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    errors = [line for line in proc.stderr.splitlines() if line.startswith('[ ERROR ]') and 'Hint:' not in line]
    assert proc.returncode == 1 and len(errors) == 1, proc.stderr
    assert 'Traceback' not in proc.stderr
    assert not out.exists() or not list(out.iterdir())
    return errors[0]


def _graph(name, fn, inputs):
    data, _, _ = frozen_graph(OpCase('errors/' + name, fn, inputs))
    return data


def test_cumprod_axis_fed_at_run_time(tmp_path):
    data = _graph('cumprod', lambda x, a: tf.raw_ops.Cumprod(x=x, axis=a), [In((2, 3)), In((), np.int32)])
    error = _convert_error(tmp_path, data)
    assert 'Cumprod "Cumprod"' in error and 'axis must be a constant' in error, error


@pytest.mark.parametrize('op', ['MatrixDiagPartV3', 'MatrixSetDiagV3', 'MatrixDiagV3'])
def test_diagonal_range_fed_at_run_time(op, tmp_path):
    k = In((2,), np.int32, values=lambda rng, s: np.array([0, 1]))
    if op == 'MatrixDiagPartV3':
        data = _graph(op, lambda x, d: tf.raw_ops.MatrixDiagPartV3(input=x, k=d, padding_value=0.0),
                      [In((3, 3)), k])
    elif op == 'MatrixSetDiagV3':
        data = _graph(op, lambda x, g, d: tf.raw_ops.MatrixSetDiagV3(input=x, diagonal=g, k=d),
                      [In((3, 3)), In((2, 3)), k])
    else:
        data = _graph(op, lambda g, d: tf.raw_ops.MatrixDiagV3(diagonal=g, k=d, num_rows=-1, num_cols=-1,
                                                                padding_value=0.0), [In((2, 3)), k])
    error = _convert_error(tmp_path, data)
    assert '{} "{}"'.format(op, op) in error and 'k must be constant' in error, error


def test_unknown_alignment(tmp_path):
    from mo.front.tf.proto import GraphDef
    graph_def = GraphDef.FromString(_graph('align', lambda x: tf.raw_ops.MatrixDiagPartV3(
        input=x, k=np.int32(0), padding_value=0.0, align='LEFT_RIGHT'), [In((3, 3))]))
    for node in graph_def.node:
        if node.op == 'MatrixDiagPartV3':
            node.attr['align'].s = b'MIDDLE'
    error = _convert_error(tmp_path, graph_def.SerializeToString())
    assert 'MatrixDiagPartV3' in error and 'align "MIDDLE"' in error, error
