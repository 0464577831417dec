"""A tied embedding (GPT-2's token embedding is also its output layer, read through a Transpose) is stored once:
the MatMul reads the embedding with its transpose flag, and the IR computes onnxruntime's numbers."""
import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper

import mo
from tests.support.oracles import compile_openvino


def _tied_model(path, vocab=50, width=16, perm=(1, 0)):
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((vocab, width)).astype(np.float32)
    nodes = [helper.make_node('Gather', ['wte', 'ids'], ['h']),
             helper.make_node('Relu', ['h'], ['r']),
             helper.make_node('Transpose', ['wte'], ['wte_t'], perm=list(perm)),
             helper.make_node('MatMul', ['r', 'wte_t'], ['logits'])]
    graph = helper.make_graph(nodes, 'tied', [helper.make_tensor_value_info('ids', TensorProto.INT64, [1, 4])],
                              [helper.make_tensor_value_info('logits', TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(weight, 'wte')])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)]), str(path))
    return weight


def _run(xml, ids):
    compiled = compile_openvino(xml)
    return compiled([ids])[0]


def test_a_tied_embedding_is_stored_once_and_computes_right(tmp_path):
    weight = _tied_model(tmp_path / 'tied.onnx')
    result = mo.convert_model(str(tmp_path / 'tied.onnx'), output_dir=str(tmp_path / 'out'), model_name='tied')
    ids = np.array([[3, 0, 49, 7]], np.int64)
    expected = onnxruntime.InferenceSession(str(tmp_path / 'tied.onnx')).run(None, {'ids': ids})[0]
    np.testing.assert_allclose(_run(result.xml_path, ids), expected, rtol=1e-5, atol=1e-5)
    assert result.bin_path.stat().st_size < 1.5 * weight.nbytes  # one copy of the weight, not two
    xml = result.xml_path.read_text()
    assert '<data transpose_a="false" transpose_b="true"' in xml


@pytest.mark.parametrize('perm', [(0, 1)])
def test_a_transpose_that_does_not_swap_is_left_to_folding(tmp_path, perm):
    _tied_model(tmp_path / 'same.onnx', vocab=16, width=16, perm=perm)
    result = mo.convert_model(str(tmp_path / 'same.onnx'), output_dir=str(tmp_path / 'out'), model_name='same')
    ids = np.array([[3, 0, 15, 7]], np.int64)
    expected = onnxruntime.InferenceSession(str(tmp_path / 'same.onnx')).run(None, {'ids': ids})[0]
    np.testing.assert_allclose(_run(result.xml_path, ids), expected, rtol=1e-5, atol=1e-5)
