"""Shared helpers for the ONNX tests: build a model, run it in onnxruntime (the reference) and the IR mo
wrote for it in OpenVINO, and compare.

Nothing here shares code with mo's conversion: onnxruntime runs the ONNX model, OpenVINO runs the IR.
"""
from typing import Dict, List, Optional, Sequence

import numpy as np


def make_model(nodes, inputs, outputs, initializers=(), opset: int = 17, domains: Optional[Dict[str, int]] = None,
               ir_version: int = None, **graph_kwargs):
    """A ModelProto of one graph: ``inputs``/``outputs`` are ``(name, onnx elem type, shape)`` or ValueInfoProtos,
    ``initializers`` numpy arrays by name (a dict) or TensorProtos."""
    from onnx import helper, numpy_helper

    def value_info(item):
        if not isinstance(item, tuple):
            return item
        name, elem_type, shape = item
        return helper.make_tensor_value_info(name, elem_type, shape)
    if isinstance(initializers, dict):
        initializers = [numpy_helper.from_array(np.asarray(v), k) for k, v in initializers.items()]
    graph = helper.make_graph(list(nodes), 'test', [value_info(i) for i in inputs], [value_info(o) for o in outputs],
                              initializer=list(initializers), **graph_kwargs)
    opsets = [helper.make_opsetid('', opset)] + [helper.make_opsetid(d, v) for d, v in (domains or {}).items()]
    model = helper.make_model(graph, opset_imports=opsets)
    # onnxruntime reads IR versions up to what its build knows: pick the one this opset came with
    model.ir_version = ir_version or min(model.ir_version, 10)
    return model


def run_onnxruntime(model, feeds: Dict[str, np.ndarray]) -> List[np.ndarray]:
    """The model's outputs as onnxruntime computes them (CPU, no graph optimizations that change numerics)."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    data = model if isinstance(model, (bytes, str)) else model.SerializeToString()
    session = ort.InferenceSession(data, options, providers=['CPUExecutionProvider'])
    return session.run(None, feeds)


def run_ir(xml_path, feeds: Dict[str, np.ndarray], outputs: Sequence[str]) -> List[np.ndarray]:
    """Compile the IR (OpenVINO CPU, f32 inference precision) and run it on ``feeds`` (by input name); the
    outputs named ``outputs`` (ONNX tensor names), in that order."""
    from tests.support.oracles import compile_openvino
    from tests.support.ov_tensors import infer
    compiled = compile_openvino(xml_path)  # exact f32
    by_name = {}
    for port in compiled.inputs:
        for name in port.get_names():
            by_name[name] = port
    missing = [name for name in feeds if name not in by_name]
    assert not missing, 'the IR has no inputs {} (it has {})'.format(missing, [p.get_names() for p in compiled.inputs])
    result = infer(compiled, {by_name[name]: value for name, value in feeds.items()})  # ml_dtypes types too
    values = []
    for name in outputs:
        port = next((p for p in compiled.outputs if name in p.get_names()), None)
        assert port is not None, 'the IR has no output "{}" (it has {})'.format(
            name, [p.get_names() for p in compiled.outputs])
        values.append(np.asarray(result[port]))
    return values


def assert_close(actual, expected, rtol: float = 1e-4, atol: float = 1e-5, what: str = 'output'):
    """Same shape and dtype; floats within ``atol + rtol * |expected|`` (NaN where NaN); the rest exactly."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, '{}: shape {} != {}'.format(what, actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, '{}: dtype {} != {}'.format(what, actual.dtype, expected.dtype)
    if expected.dtype.kind in 'fc':
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=what)


def check_model(model, feeds: Dict[str, np.ndarray], tmp_path, rtol: float = 1e-4, atol: float = 1e-5, **options):
    """Convert ``model`` with ``mo.convert_model``, run it in OpenVINO and onnxruntime on ``feeds`` and compare every
    graph output. Returns the conversion result."""
    import mo
    result = mo.convert_model(model, output_dir=str(tmp_path), model_name='model', **options)
    names = [o.name for o in model.graph.output]
    expected = run_onnxruntime(model, feeds)
    actual = run_ir(result.xml_path, feeds, names)
    for name, a, e in zip(names, actual, expected):
        assert_close(a, e, rtol, atol, 'output "{}"'.format(name))
    return result
