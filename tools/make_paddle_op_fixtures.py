"""Write the classic-format fixtures of the Paddle op tests that Paddle 3.3 cannot export (``rnn``, control flow,
grid_sampler):

    /path/to/venv-with-paddle-2.6/bin/python tools/make_paddle_op_fixtures.py [--out tests/paddle/fixtures/ops_p26]

(a Paddle 2.6 beside Paddle 3: ``python -m venv /tmp/paddle26 && /tmp/paddle26/bin/pip install
paddlepaddle==2.6.2``). Each case of ``FIXTURES`` is exported by ``tests/paddle/paddle_export.py`` in the classic
format with that Python: ``<case>.pdmodel``/``.pdiparams``, the feeds and Paddle 2.6 Inference's outputs
(``.feeds.npz``, ``.outputs.npz``, ``.outputs.txt``). ``tests/paddle/test_paddle_rnn.py``,
``test_paddle_control_flow.py`` and ``test_paddle_arrays.py`` convert them and compare with those outputs;
``interp_v1`` holds the interpolate ops before ``_v2`` for ``test_paddle_interp.py``, ``density_prior_box`` for
``test_paddle_detection.py``, ``fill_constant_batch_size_like``, ``quantize_linear`` and the ``grid_sample`` cases
(the classic ``grid_sampler``) for ``test_paddle_more_ops.py``, ``partial_ops`` and ``partial_sum_negative_start``
(partial_concat and partial_sum, which Paddle 3 cannot export) for ``test_paddle_pool3d.py``. Run by hand when a
case changes.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPORT = os.path.join(HERE, '..', 'tests', 'paddle', 'paddle_export.py')
DEFAULT_OUT = os.path.join(HERE, '..', 'tests', 'paddle', 'fixtures', 'ops_p26')

#: cases module -> the cases to export (a few per family: the PIR tests export every case themselves)
FIXTURES = {
    'cases_rnn': ['lstm_2layers_bidirect_states', 'gru_bidirect_lengths', 'rnn_relu_bidirect',
                  'rnn_tanh_3layers_states', 'lstm_time_major_dynamic', 'gru_2layers_dynamic'],
    'cases_control': ['if_true', 'if_false', 'if_input_true', 'if_input_false', 'if_two_outputs', 'while_3',
                      'while_0', 'while_in_if', 'if_in_while'],
    'cases_nms': ['multiclass_nms_v1_v2'],
    'cases_array': ['array_stack_concat', 'array_stack_concat_once', 'array_stack1_concat1', 'array_decoder',
                    'array_length_read', 'array_two_lists', 'array_slice_after_loop', 'array_static_writes'],
    'cases_more': ['grid_sample', 'grid_sample_unaligned_border', 'grid_sample_nearest_reflection',
                   'grid_sample_unaligned_reflection'],
}


#: the classic interpolate ops before ``_v2`` (one float ``scale``; Paddle 2.x programs still hold them), which no
#: Python API of Paddle 2.6 writes any more: a static program of the ops themselves, run by Paddle's executor
INTERP_V1 = [
    ('bilinear_interp', dict(out_h=-1, out_w=-1, scale=1.7, interp_method='bilinear', align_corners=False,
                             align_mode=0)),
    ('nearest_interp', dict(out_h=9, out_w=4, interp_method='nearest', align_corners=False, align_mode=1)),
    ('bilinear_interp', dict(out_h=11, out_w=3, interp_method='bilinear', align_corners=True, align_mode=1)),
    ('nearest_interp', dict(out_h=-1, out_w=-1, scale=2.5, interp_method='nearest', align_corners=True,
                            align_mode=1)),
]


#: density_prior_box, which Paddle 3 no longer exposes to Python: the attributes of each op of the fixture
DENSITY_PRIOR_BOX = [
    dict(densities=[4, 2, 1], fixed_sizes=[32.0, 64.0, 128.0], fixed_ratios=[1.0], variances=[0.1, 0.1, 0.2, 0.2],
         clip=False, step_w=8.0, step_h=8.0, offset=0.5, flatten_to_2d=False),
    dict(densities=[2, 1], fixed_sizes=[16.0, 40.0], fixed_ratios=[1.0, 2.0], variances=[0.1, 0.2, 0.3, 0.4],
         clip=True, step_w=0.0, step_h=0.0, offset=0.3, flatten_to_2d=False),
    dict(densities=[3], fixed_sizes=[20.0], fixed_ratios=[0.5], variances=[0.1, 0.1, 0.2, 0.2], clip=False,
         step_w=10.0, step_h=6.0, offset=0.5, flatten_to_2d=True),
]


#: fill_constant_batch_size_like (Paddle 1.x's constant shaped by a batch): its attributes for each op of the fixture
FILL_BATCH_SIZE_LIKE = [
    dict(shape=[-1, 3], dtype=5, value=1.5, str_value='1.5', input_dim_idx=0, output_dim_idx=0, force_cpu=False),
    dict(shape=[2, -1, 4], dtype=5, value=-2.0, str_value='-2.0', input_dim_idx=1, output_dim_idx=1,
         force_cpu=False),
]


#: quantize_linear / dequantize_linear (PaddleSlim's quantized models): (op, scale feed, attributes) per op of the
#: fixture, per tensor and per channel, both rounding types (which also decide the clipping range), 8 and 4 bits
QUANTIZE_LINEAR = [
    ('quantize_linear', 'scale', dict(bit_length=8, quant_axis=-1, round_type=0, is_test=True)),
    ('quantize_linear', 'scale', dict(bit_length=4, quant_axis=-1, round_type=1, is_test=True)),
    ('quantize_linear', 'channel_scale', dict(bit_length=4, quant_axis=1, round_type=0, is_test=True)),
    ('quantize_linear', 'channel_scale', dict(bit_length=4, quant_axis=1, round_type=1, is_test=True)),
    ('dequantize_linear', 'scale', dict(bit_length=8, quant_axis=-1, round_type=0, is_test=True)),
    ('dequantize_linear', 'channel_scale', dict(bit_length=4, quant_axis=1, round_type=0, is_test=True)),
]


#: partial_concat / partial_sum: (op, start_index, length) per op of the fixture, on the three feeds ``a``, ``b``, ``c``
#: (length -1 takes the columns to the end; partial_concat counts a negative start from the end, partial_sum reads
#: outside its inputs for one, so mo refuses that)
PARTIAL_OPS = [('partial_concat', 1, 3), ('partial_concat', 2, -1), ('partial_concat', -4, 2),
               ('partial_sum', 0, 4), ('partial_sum', 3, -1), ('partial_sum', 5, 1)]


def static_fixture(out: str, case: str, inputs, ops):
    """``<case>.pdmodel`` of the classic ops ``ops`` (``(type, input slots by feed name, output slots, attrs)``)
    on feeds ``inputs`` (name -> array), with Paddle's executor's outputs, as ``paddle_export.py`` writes a case."""
    import numpy as np
    import paddle
    from paddle.base.layer_helper import LayerHelper
    paddle.enable_static()
    main_program, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_program, startup):
        feeds = {name: paddle.static.data(name, list(value.shape), str(value.dtype)) for name, value in inputs.items()}
        fetches = []
        for op, in_slots, out_slots, attrs in ops:
            helper = LayerHelper(op)
            outputs = {slot: helper.create_variable_for_type_inference('float32') for slot in out_slots}
            helper.append_op(type=op, inputs={slot: [feeds[n] for n in name] if isinstance(name, list) else feeds[name]
                                              for slot, name in in_slots.items()},
                             outputs=outputs, attrs=attrs)
            fetches += [outputs[slot] for slot in out_slots]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    results = exe.run(main_program, feed=inputs, fetch_list=fetches)
    prefix = os.path.join(out, case)
    paddle.static.save_inference_model(prefix, list(feeds.values()), fetches, exe, program=main_program)
    sys.path.insert(0, os.path.dirname(EXPORT))
    from paddle_export import drop_callstacks
    drop_callstacks(prefix + '.pdmodel')
    np.savez(prefix + '.feeds.npz', **inputs)
    np.savez(prefix + '.outputs.npz', **{'o{}'.format(i): r for i, r in enumerate(results)})


def static_fixtures(out: str):
    import numpy as np  # numpy.random before paddle (see paddle_export.py)
    rng = np.random.RandomState(7)
    static_fixture(out, 'interp_v1', {'x': rng.rand(1, 2, 5, 7).astype(np.float32)},
                   [(op, {'X': 'x'}, ['Out'], dict(attrs, data_layout='NCHW')) for op, attrs in INTERP_V1])
    shapes = {'feature': np.zeros((1, 4, 5, 6), np.float32), 'image': np.zeros((1, 3, 40, 48), np.float32)}
    static_fixture(out, 'density_prior_box', shapes,
                   [('density_prior_box', {'Input': 'feature', 'Image': 'image'}, ['Boxes', 'Variances'], attrs)
                    for attrs in DENSITY_PRIOR_BOX])
    x = ((rng.rand(2, 3, 4) - 0.5) * 6).astype(np.float32)
    x[0, 0, :2] = [0.25, -0.75]  # small values of both signs beside the random ones
    quantize_feeds = {'x': x, 'scale': np.array([2.0], np.float32), 'zero_point': np.zeros([1], np.float32),
                      'channel_scale': np.array([1.0, 2.5, 0.5], np.float32),
                      'channel_zero_point': np.zeros([3], np.float32)}
    static_fixture(out, 'quantize_linear', quantize_feeds,
                   [(op, {'X': 'x', 'Scale': scale, 'ZeroPoint': scale.replace('scale', 'zero_point')}, ['Y'], attrs)
                    for op, scale, attrs in QUANTIZE_LINEAR])
    static_fixture(out, 'fill_constant_batch_size_like', {'x': rng.rand(3, 5).astype(np.float32)},
                   [('fill_constant_batch_size_like', {'Input': 'x'}, ['Out'], attrs)
                    for attrs in FILL_BATCH_SIZE_LIKE])
    static_fixture(out, 'partial_ops', {name: ((rng.rand(3, 6) - 0.5) * 4).astype(np.float32) for name in 'abc'},
                   [(op, {'X': ['a', 'b', 'c']}, ['Out'], dict(start_index=start, length=length))
                    for op, start, length in PARTIAL_OPS])
    # a negative start, which partial_sum's kernel does not handle (mo refuses it): the program is what counts
    static_fixture(out, 'partial_sum_negative_start', {name: np.zeros((2, 4), np.float32) for name in 'ab'},
                   [('partial_sum', {'X': ['a', 'b']}, ['Out'], dict(start_index=-2, length=-1))])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=DEFAULT_OUT)
    out = os.path.abspath(parser.parse_args().out)
    os.makedirs(out, exist_ok=True)
    for module, cases in FIXTURES.items():
        subprocess.run([sys.executable, EXPORT, 'classic', out, module] + cases, check=True,
                       stdout=subprocess.DEVNULL)
    static_fixtures(out)
    errors = sorted(name for name in os.listdir(out) if name.endswith('.error'))
    if errors:
        sys.exit('Paddle could not export: {} (see the .error files in {})'.format(', '.join(errors), out))


if __name__ == '__main__':
    main()
