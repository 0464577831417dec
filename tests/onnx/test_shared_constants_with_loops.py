"""SharedSubexpressions (extensions/back/shared_subexpressions.py) and sub-graph ops: a Const an If or a Loop reads
keeps the readers the model gave it. OpenVINO 2026.4's CPU plugin segfaults in compile_model when such an i64 Const
is also read by the Equal that computes an If's condition, which sharing every equal small Const made of
torchvision's Keypoint and Mask R-CNN exports (the Loop's 0) and of the small model below (the If's 0). Each IR is
compiled in a child process (through ``compile_openvino``), so that a crash fails the test instead of ending the test
run; the numbers are checked against onnxruntime by
tests/onnx/test_detection_models.py and, for the small model here, below."""
import collections
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('openvino')
from onnx import TensorProto as T, helper  # noqa: E402

from tests.onnx.onnx_oracle import check_model, make_model  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS_DIR = os.path.join(ROOT, 'tests', 'onnx', 'models')

#: compiles the IR named by argv[1] the way the tests do, in a process of its own
_COMPILE = 'import sys; from tests.support.oracles import compile_openvino; compile_openvino(sys.argv[1])'


def compile_in_child(xml_path):
    """Compile ``xml_path`` with ``compile_openvino`` in a child process; a failure message naming a crash."""
    proc = subprocess.run([sys.executable, '-c', _COMPILE, str(xml_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    if proc.returncode < 0:
        return 'compile_model ended with signal {} (a crash)'.format(-proc.returncode)
    if proc.returncode:
        return 'compile_model failed: ' + proc.stderr[-2000:]
    return None


def _top_level(xml_path):
    """The model graph's layers by id, its edges (from id, from port, to id, to port) and the .bin bytes."""
    root = ET.parse(str(xml_path)).getroot()
    layers = {layer.get('id'): layer for layer in root.find('layers')}
    edges = [(e.get('from-layer'), e.get('from-port'), e.get('to-layer'), e.get('to-port')) for e in root.find('edges')]
    with open(str(xml_path)[:-4] + '.bin', 'rb') as f:
        return layers, edges, f.read()


def sub_graph_constants_read_by_conditions(xml_path):
    """Names of the Consts that an If or a Loop reads and that also feed an op computing an If's condition."""
    layers, edges, _ = _top_level(xml_path)
    readers = collections.defaultdict(list)
    for source, _, target, port in edges:
        readers[source].append((layers[target], port))
    found = []
    for layer_id, layer in layers.items():
        if layer.get('type') != 'Const' or not any(r.get('type') in ('If', 'Loop') for r, _ in readers[layer_id]):
            continue
        for reader, _ in readers[layer_id]:
            if any(r.get('type') == 'If' and port == '0' for r, port in readers[reader.get('id')]):
                found.append(layer.get('name'))
    return found


def small_constant_copies(xml_path) -> int:
    """The most Consts of at most 64 bytes the model graph holds with one type, shape and value, leaving out the
    copies an If or a Loop reads (each has its own: extensions/back/sub_graph_constants.py)."""
    layers, edges, data = _top_level(xml_path)
    read_by_sub_graph_op = {source for source, _, target, _ in edges if layers[target].get('type') in ('If', 'Loop')}
    values = collections.Counter()
    for layer_id, layer in layers.items():
        attrs = layer.find('data')
        if layer.get('type') == 'Const' and int(attrs.get('size')) <= 64 and layer_id not in read_by_sub_graph_op:
            offset, size = int(attrs.get('offset')), int(attrs.get('size'))
            values[attrs.get('element_type'), attrs.get('shape'), data[offset:offset + size]] += 1
    return max(values.values())


@pytest.mark.parametrize('name', ['keypoint_rcnn', 'mask_rcnn'])
def test_detector_with_loop_compiles_with_its_constants_shared(name, tmp_path):
    proc = subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model',
                           os.path.join(MODELS_DIR, name + '.onnx'), '--output_dir', str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    xml_path = tmp_path / (name + '.xml')
    # the export repeats scalar 0s and 1s about a hundred times: shared, but for the copies of the Ifs and the Loop
    # and the one SharedSubexpressions leaves unmerged because a sub-graph op read it
    assert small_constant_copies(xml_path) <= 2
    assert sub_graph_constants_read_by_conditions(xml_path) == []
    failure = compile_in_child(xml_path)
    assert failure is None, '{}: {}'.format(name, failure)


def _loop_and_if_model(one_zero=False):
    """y = x if numel(x) == 0 else x * 0 + x[0]; z = x[0] summed over numel(x) iterations. The If and the Loop each
    read an initializer 0 (their Gather index), the If's condition compares with a third (as the R-CNN exports do);
    ``one_zero``: the three are one initializer, which the If's branch and the Loop's body capture from the outer
    graph."""
    zeros = ('zero', 'zero', 'zero') if one_zero else ('zero_loop', 'zero_cond', 'zero_if')
    body = helper.make_graph(
        [helper.make_node('Identity', ['cond_in'], ['cond_out']),
         helper.make_node('Gather', ['x', zeros[0]], ['first'], axis=0),
         helper.make_node('Add', ['acc_in', 'first'], ['acc_out'])],
        'body', [helper.make_tensor_value_info('i', T.INT64, []), helper.make_tensor_value_info('cond_in', T.BOOL, []),
                 helper.make_tensor_value_info('acc_in', T.FLOAT, [])],
        [helper.make_tensor_value_info('cond_out', T.BOOL, []), helper.make_tensor_value_info('acc_out', T.FLOAT, [])])
    then_branch = helper.make_graph([helper.make_node('Identity', ['x'], ['then_y'])], 'then', [],
                                    [helper.make_tensor_value_info('then_y', T.FLOAT, [None])])
    else_branch = helper.make_graph(
        [helper.make_node('Gather', ['x', zeros[2]], ['x0'], axis=0), helper.make_node('Mul', ['x', 'zeros'], ['x_0']),
         helper.make_node('Add', ['x_0', 'x0'], ['else_y'])], 'else', [],
        [helper.make_tensor_value_info('else_y', T.FLOAT, [None])])
    nodes = [helper.make_node('Shape', ['x'], ['shape']),
             helper.make_node('ReduceProd', ['shape'], ['numel'], keepdims=0),
             helper.make_node('Equal', ['numel', zeros[1]], ['empty']),
             helper.make_node('If', ['empty'], ['y'], then_branch=then_branch, else_branch=else_branch),
             helper.make_node('Mul', ['x', 'zeros'], ['zeros_like']),
             helper.make_node('ReduceSum', ['zeros_like'], ['acc0'], keepdims=0),
             helper.make_node('Loop', ['numel', '', 'acc0'], ['z'], body=body)]
    initializers = dict({name: np.array(0, np.int64) for name in zeros}, zeros=np.array(0, np.float32))
    return make_model(nodes, [('x', T.FLOAT, ['n'])], [('y', T.FLOAT, None), ('z', T.FLOAT, None)], initializers)


@pytest.mark.parametrize('n', [3, 1])
def test_constants_of_an_if_and_a_loop_not_shared_with_the_if_condition(n, tmp_path):
    import mo
    model = _loop_and_if_model()
    result = mo.convert_model(model, output_dir=str(tmp_path / 'child'), model_name='model')
    assert sub_graph_constants_read_by_conditions(result.xml_path) == []
    failure = compile_in_child(result.xml_path)  # before compiling it in this process
    assert failure is None, failure
    check_model(model, {'x': np.arange(1, n + 1, dtype=np.float32)}, tmp_path)


@pytest.mark.parametrize('n', [3, 1])
def test_one_initializer_read_by_an_if_a_loop_and_the_if_condition(n, tmp_path):
    """The loader, not a merge, makes the Const they share: each sub-graph op gets a copy of its own
    (extensions/back/sub_graph_constants.py), and the IR compiles and gives onnxruntime's numbers."""
    import mo
    model = _loop_and_if_model(one_zero=True)
    result = mo.convert_model(model, output_dir=str(tmp_path / 'child'), model_name='model')
    assert sub_graph_constants_read_by_conditions(result.xml_path) == []
    failure = compile_in_child(result.xml_path)
    assert failure is None, failure
    check_model(model, {'x': np.arange(1, n + 1, dtype=np.float32)}, tmp_path)
