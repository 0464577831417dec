"""An ONNX model's IR inputs and outputs carry the model's tensor names only, as ovc writes them: get_any_name() is
the ONNX output's name, not the producing node's."""
import numpy as np
import onnx
import openvino as ov
from onnx import TensorProto, helper, numpy_helper

import mo


def test_inputs_and_outputs_have_the_names_ovc_gives(tmp_path):
    nodes = [helper.make_node('Relu', ['x'], ['h'], name='/act/Relu'),
             helper.make_node('MatMul', ['h', 'w'], ['logits'], name='/fc/MatMul'),
             helper.make_node('Split', ['logits'], ['a', 'b'], name='/split/Split', axis=1)]
    graph = helper.make_graph(nodes, 'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3])],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ('logits', 'a', 'b')],
                              [numpy_helper.from_array(np.ones((3, 4), np.float32), 'w')])
    path = tmp_path / 'named.onnx'
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)]), str(path))
    ours = ov.Core().read_model(str(mo.convert_model(str(path), output_dir=str(tmp_path / 'out')).xml_path))
    theirs = ov.convert_model(str(path))
    assert [p.get_names() for p in ours.inputs] == [p.get_names() for p in theirs.inputs]
    assert [p.get_names() for p in ours.outputs] == [p.get_names() for p in theirs.outputs]
    assert [p.get_any_name() for p in ours.outputs] == ['logits', 'a', 'b']
