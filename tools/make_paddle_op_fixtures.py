"""Write the classic-format fixtures of the Paddle op tests that Paddle 3.3 cannot export (``rnn``, control flow):

    /path/to/venv-with-paddle-2.6/bin/python tools/make_paddle_op_fixtures.py [--out tests/paddle/fixtures/ops_p26]

(a Paddle 2.6 beside Paddle 3: ``python -m venv /tmp/paddle26 && /tmp/paddle26/bin/pip install
paddlepaddle==2.6.2``). Each case of ``FIXTURES`` is exported by ``tests/paddle/paddle_export.py`` in the classic
format with that Python: ``<case>.pdmodel``/``.pdiparams``, the feeds and Paddle 2.6 Inference's outputs
(``.feeds.npz``, ``.outputs.npz``, ``.outputs.txt``). ``tests/paddle/test_paddle_rnn.py`` and
``test_paddle_control_flow.py`` convert them and compare with those outputs; ``interp_v1`` holds the interpolate
ops before ``_v2`` for ``test_paddle_interp.py``. Run by hand when a case changes.
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
                      'while_0', 'while_in_if'],
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


def interp_v1(out: str):
    """``interp_v1.pdmodel`` with its feeds and Paddle's outputs, as ``paddle_export.py`` writes a case."""
    import numpy as np  # numpy.random before paddle (see paddle_export.py)
    np.random.seed(7)
    import paddle
    from paddle.base.layer_helper import LayerHelper
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data('x', [1, 2, 5, 7], 'float32')
        outs = []
        for op, attrs in INTERP_V1:
            helper = LayerHelper(op)
            outs.append(helper.create_variable_for_type_inference('float32'))
            helper.append_op(type=op, inputs={'X': x}, outputs={'Out': outs[-1]},
                             attrs=dict(attrs, data_layout='NCHW'))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = np.random.rand(1, 2, 5, 7).astype(np.float32)
    results = exe.run(main, feed={'x': feed}, fetch_list=outs)
    prefix = os.path.join(out, 'interp_v1')
    paddle.static.save_inference_model(prefix, [x], outs, exe, program=main)
    sys.path.insert(0, os.path.dirname(EXPORT))
    from paddle_export import drop_callstacks
    drop_callstacks(prefix + '.pdmodel')
    np.savez(prefix + '.feeds.npz', x=feed)
    np.savez(prefix + '.outputs.npz', **{'o{}'.format(i): r for i, r in enumerate(results)})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=DEFAULT_OUT)
    out = os.path.abspath(parser.parse_args().out)
    os.makedirs(out, exist_ok=True)
    for module, cases in FIXTURES.items():
        subprocess.run([sys.executable, EXPORT, 'classic', out, module] + cases, check=True,
                       stdout=subprocess.DEVNULL)
    interp_v1(out)
    errors = sorted(name for name in os.listdir(out) if name.endswith('.error'))
    if errors:
        sys.exit('Paddle could not export: {} (see the .error files in {})'.format(', '.join(errors), out))


if __name__ == '__main__':
    main()
