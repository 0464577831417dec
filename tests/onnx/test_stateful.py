"""``--stateful``: a decoder with past key-values (tests/onnx/llm_decoder.py, Qwen2-style, built with onnx.helper)
becomes an IR whose cache is OpenVINO state (ReadValue/Assign, a beam_idx input); greedy generation with one infer
request, one token at a time after the prompt, gives the tokens onnxruntime gives when present is fed back as past."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
from onnx import TensorProto as T, helper  # noqa: E402

from tests.onnx.llm_decoder import (DecoderConfig, build_decoder, greedy_onnxruntime, past_names,  # noqa: E402
                                    quantized_4bit)
from tests.onnx.onnx_oracle import assert_close, make_model, run_onnxruntime  # noqa: E402
from tests.support.oracles import compile_openvino  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PROMPT = np.array([[3, 17, 42, 5, 9], [11, 2, 60, 33, 8]], np.int64)
#: OpenVINO's CPU would quantize the activations of a compressed-weight MatMul: not what onnxruntime computes
NO_DYNAMIC_QUANTIZATION = {'DYNAMIC_QUANTIZATION_GROUP_SIZE': '0'}


def _convert(model, tmp_path, **options):
    import mo
    path = tmp_path / 'decoder.onnx'
    onnx.save(model, str(path))
    return mo.convert_model(str(path), output_dir=str(tmp_path / 'ir'), model_name='decoder', stateful=True,
                            **options)


def _feeds(ids, done, beam):
    batch, length = ids.shape
    return {'input_ids': ids, 'attention_mask': np.ones((batch, done + length), np.int64),
            'position_ids': np.arange(done, done + length, dtype=np.int64)[None].repeat(batch, 0),
            'beam_idx': np.asarray(beam, np.int32)}


def _greedy_stateful(request, prompt, steps):
    """Greedy tokens from a stateful IR: the prompt, then one token a call; the cache is the request's state."""
    ids, done, generated = prompt, 0, []
    for _ in range(steps):
        logits = request.infer(_feeds(ids, done, np.arange(len(prompt))))['logits']
        done += ids.shape[1]
        ids = logits[:, -1].argmax(-1).astype(np.int64)[:, None]
        generated.append(ids[:, 0])
    return np.stack(generated, axis=1)


def _ir_form(xml_path):
    import openvino as ov
    model = ov.Core().read_model(str(xml_path))
    return model, [i.get_any_name() for i in model.inputs], [o.get_any_name() for o in model.outputs]


@pytest.mark.parametrize('cfg', [DecoderConfig(), DecoderConfig(layers=3, heads=4, kv_heads=1, seed=1)],
                         ids=['gqa2', 'mqa'])
def test_greedy_generation_matches_onnxruntime(tmp_path, cfg):
    model = build_decoder(cfg)
    result = _convert(model, tmp_path)
    ir, inputs, outputs = _ir_form(result.xml_path)
    assert inputs == ['input_ids', 'attention_mask', 'position_ids', 'beam_idx']
    assert outputs == ['logits']
    assert len(ir.get_sinks()) == len(ir.get_variables()) == 2 * cfg.layers
    ops = {op.get_type_name() for op in ir.get_ops()}
    assert {'ReadValue', 'Assign'} <= ops
    expected = greedy_onnxruntime(model, PROMPT, steps=8)
    request = compile_openvino(result.xml_path).create_infer_request()
    np.testing.assert_array_equal(_greedy_stateful(request, PROMPT, 8), expected)
    # reset_state() empties the cache: the same request generates the same tokens again
    request.reset_state()
    np.testing.assert_array_equal(_greedy_stateful(request, PROMPT, 8), expected)


def test_logits_of_each_step_and_beam_reorder(tmp_path):
    # the logits themselves, step by step, and beam_idx picking which cache row each row continues from
    model = build_decoder()
    result = _convert(model, tmp_path)
    request = compile_openvino(result.xml_path).create_infer_request()
    names = past_names(2)
    cache = {p: np.zeros((2, 2, 0, 8), np.float32) for p, _ in names}
    steps = [(PROMPT, [0, 1]), (np.array([[7], [1]]), [0, 1]), (np.array([[4], [50]]), [1, 0]),
             (np.array([[12], [12]]), [1, 1])]
    done = 0
    for ids, beam in steps:
        feeds = _feeds(ids, done, beam)
        actual = request.infer(feeds)['logits']
        reference_feeds = {k: v for k, v in feeds.items() if k != 'beam_idx'}
        reference_feeds.update({p: v[np.asarray(beam)] for p, v in cache.items()})
        outputs = run_onnxruntime(model, reference_feeds)
        assert_close(actual, outputs[0], 1e-4, 1e-5, 'logits after {} tokens'.format(done))
        cache = {p: v for (p, _), v in zip(names, outputs[1:])}
        done += ids.shape[1]


def test_int4_matmulnbits_weights(tmp_path):
    # the MatMulNBits form onnxruntime GenAI's builder and its quantizer write (the cache names are optimum's); the
    # 4-bit weights stay compressed (u4/i4 Constants) in the stateful IR
    model = quantized_4bit(build_decoder(DecoderConfig(hidden=64, intermediate=96, seed=2)), block_size=32)
    assert any(node.op_type == 'MatMulNBits' for node in model.graph.node)
    result = _convert(model, tmp_path)
    ir, inputs, _ = _ir_form(result.xml_path)
    assert inputs[-1] == 'beam_idx' and len(ir.get_sinks()) == 4
    assert any(op.get_type_name() == 'Constant' and op.get_element_type().get_type_name() in ('u4', 'i4')
               for op in ir.get_ops())
    expected = greedy_onnxruntime(model, PROMPT, steps=8)
    request = compile_openvino(result.xml_path, config=NO_DYNAMIC_QUANTIZATION).create_infer_request()
    np.testing.assert_array_equal(_greedy_stateful(request, PROMPT, 8), expected)


def test_other_cache_names(tmp_path):
    # past.N.key / present_key_values.N.key pair up by layer and kind as well
    model = build_decoder(past='past.{}.{}', present='present_key_values.{}.{}')
    result = _convert(model, tmp_path)
    expected = greedy_onnxruntime(model, PROMPT, steps=5, past='past.{}.{}', present='present_key_values.{}.{}')
    request = compile_openvino(result.xml_path).create_infer_request()
    np.testing.assert_array_equal(_greedy_stateful(request, PROMPT, 5), expected)


# ----- bad input: one [ ERROR ] line, a non-zero exit, nothing written ---------------------------------------------

def _mo(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, '-m', 'mo'] + [str(a) for a in args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


def _no_cache_model():
    return make_model([helper.make_node('Relu', ['x'], ['y'])], [('x', T.FLOAT, ['batch', 4])],
                      [('y', T.FLOAT, ['batch', 4])])


def _unpaired_model():
    model = build_decoder()
    renamed = {'past_key_values.1.value': 'past_key_values.9.value'}
    for value in model.graph.input:
        value.name = renamed.get(value.name, value.name)
    for node in model.graph.node:
        node.input[:] = [renamed.get(i, i) for i in node.input]
    return model


def _static_past_model():
    model = build_decoder()
    dims = model.graph.input[3].type.tensor_type.shape.dim  # past_key_values.0.key
    dims[2].Clear()
    dims[2].dim_value = 4
    return model


@pytest.mark.parametrize('make, message', [
    (_no_cache_model, '--stateful: the model has no key-value cache: no input is named past_key_values.N.key/value'),
    (_unpaired_model, 'input "past_key_values.9.value" has no output present.9.value; output "present.1.value" has '
                      'no input past_key_values.1.value'),
    (_static_past_model, 'input "past_key_values.0.key" of shape [\'?\', 2, 4, 8] should have exactly one dynamic'),
], ids=['no_cache', 'unpaired', 'static_past'])
def test_bad_cache_is_one_error_line(tmp_path, make, message):
    path = tmp_path / 'model.onnx'
    onnx.save(make(), str(path))
    out = tmp_path / 'out'
    proc = _mo('convert', path, '--stateful', '--output_dir', out)
    assert proc.returncode != 0
    assert 'Traceback' not in proc.stderr, proc.stderr
    errors = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith('[ ERROR ]')]
    assert len(errors) == 1 and message in errors[0], proc.stdout + proc.stderr
    assert not out.exists() or not list(out.iterdir())


def test_without_stateful_the_cache_stays_inputs_and_outputs(tmp_path):
    import mo
    path = tmp_path / 'decoder.onnx'
    onnx.save(build_decoder(), str(path))
    result = mo.convert_model(str(path), output_dir=str(tmp_path), model_name='decoder')
    ir, inputs, outputs = _ir_form(result.xml_path)
    assert 'beam_idx' not in inputs and 'past_key_values.0.key' in inputs and 'present.1.value' in outputs
    assert not ir.get_sinks()
