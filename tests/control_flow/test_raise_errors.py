"""Control flow mo cannot raise is one ``[ ERROR ]`` line naming the loop frame and the node;
a real cycle outside loops is still "The graph has a cycle" (through the CLI)."""
import os
import subprocess
import sys

import pytest

pytest.importorskip('tensorflow')

from mo.front.tf.proto import GraphDef  # noqa: E402
from tests.control_flow import lowered_models  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRAME = 'while/while_context'
DT_RESOURCE = 20


def _mo(*args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo.main'] + list(args), capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    return proc.returncode, proc.stderr


def _convert_error(tmp_path, graph_def) -> str:
    model = tmp_path / 'model.pb'
    model.write_bytes(graph_def.SerializeToString())
    out = tmp_path / 'out'
    code, stderr = _mo('convert', '--input_model', str(model), '--output_dir', str(out))
    errors = [line for line in stderr.splitlines() if line.startswith('[ ERROR ]') and 'Hint:' not in line]
    assert code != 0 and len(errors) == 1, stderr
    assert 'Traceback' not in stderr
    assert not out.exists() or not list(out.iterdir())
    return errors[0]


def _while_model():
    graph_def = GraphDef.FromString(lowered_models.v1_while_input_trip_count().graph_def)
    ops = {n.name: n.op for n in graph_def.node}
    assert sum(op == 'LoopCond' for op in ops.values()) == 1
    return graph_def


def _add(graph_def, name, op, inputs):
    node = graph_def.node.add(name=name, op=op, input=inputs)
    node.attr['T'].type = 1
    return node


def test_a_loop_without_exit_names_its_frame(tmp_path):
    graph_def = _while_model()
    dropped = {n.name for n in graph_def.node if n.op == 'Exit'} | {'y'}
    kept = [n for n in graph_def.node if n.name not in dropped]
    del graph_def.node[:]
    graph_def.node.extend(kept)
    _add(graph_def, 'other', 'Relu', ['x'])  # the model still has an output
    error = _convert_error(tmp_path, graph_def)
    assert FRAME in error and 'Exit' in error and 'LoopCond' in error, error
    assert 'cycle' not in error


def test_a_resource_carried_through_a_loop_names_its_frame_and_node(tmp_path):
    graph_def = _while_model()
    merges = [n for n in graph_def.node if n.op == 'Merge' and n.attr['T'].type == 1]
    for node in graph_def.node:
        if node.op in ('Enter', 'Merge', 'Switch', 'NextIteration', 'Exit') and node.attr['T'].type == 1:
            node.attr['T'].type = DT_RESOURCE
    error = _convert_error(tmp_path, graph_def)
    assert FRAME in error and merges[0].name in error and 'resource' in error, error


def test_a_real_cycle_next_to_a_loop_is_still_a_cycle(tmp_path):
    graph_def = _while_model()
    _add(graph_def, 'loop_a', 'AddV2', ['x', 'loop_b'])
    _add(graph_def, 'loop_b', 'AddV2', ['loop_a', 'x'])
    _add(graph_def, 'out', 'Relu', ['loop_b'])
    error = _convert_error(tmp_path, graph_def)
    assert 'The graph has a cycle' in error and 'loop_a' in error and 'loop_b' in error, error
    assert 'Merge' not in error and 'NextIteration' not in error


def test_a_switch_without_its_predicate_is_one_error(tmp_path):
    graph_def = _while_model()
    switch = next(n for n in graph_def.node if n.op == 'Switch')
    del switch.input[1:]
    error = _convert_error(tmp_path, graph_def)
    assert switch.name in error and 'Switch' in error and 'expected 2' in error, error
