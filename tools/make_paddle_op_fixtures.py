"""Write the classic-format fixtures of the Paddle op tests that Paddle 3.3 cannot export (``rnn``, control flow):

    /path/to/venv-with-paddle-2.6/bin/python tools/make_paddle_op_fixtures.py [--out tests/paddle/fixtures/ops_p26]

(a Paddle 2.6 beside Paddle 3: ``python -m venv /tmp/paddle26 && /tmp/paddle26/bin/pip install
paddlepaddle==2.6.2``). Each case of ``FIXTURES`` is exported by ``tests/paddle/paddle_export.py`` in the classic
format with that Python: ``<case>.pdmodel``/``.pdiparams``, the feeds and Paddle 2.6 Inference's outputs
(``.feeds.npz``, ``.outputs.npz``, ``.outputs.txt``). ``tests/paddle/test_paddle_rnn.py`` and
``test_paddle_control_flow.py`` convert them and compare with those outputs. Run by hand when a case changes.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=DEFAULT_OUT)
    out = os.path.abspath(parser.parse_args().out)
    os.makedirs(out, exist_ok=True)
    for module, cases in FIXTURES.items():
        subprocess.run([sys.executable, EXPORT, 'classic', out, module] + cases, check=True,
                       stdout=subprocess.DEVNULL)
    errors = sorted(name for name in os.listdir(out) if name.endswith('.error'))
    if errors:
        sys.exit('Paddle could not export: {} (see the .error files in {})'.format(', '.join(errors), out))


if __name__ == '__main__':
    main()
