"""Export small Paddle models with seeded weights, as test fixtures for mo's Paddle readers (mo/front/paddle).

    python tools/make_paddle_models.py [--out tests/paddle/fixtures]              # with Paddle 3.x
    /path/to/venv-with-paddle-2.6/bin/python tools/make_paddle_models.py [--out ...]  # with Paddle 2.6.x

(a Paddle 2.6 beside Paddle 3: ``python -m venv /tmp/paddle26 && /tmp/paddle26/bin/pip install
paddlepaddle==2.6.2``; it installs on Python 3.11.)

Which files a run writes depends on the Paddle it runs with:
  * Paddle 3.x: ``p3_pir/NAME.json`` + ``.pdiparams`` (``paddle.jit.save``'s default, PIR), then, in a child
    process started with ``FLAGS_enable_pir_api=0`` (the flag is read at import), ``p3_classic/NAME.pdmodel`` +
    ``.pdiparams``. Paddle 3.3's legacy exporter fails on ``cf``, ``ib`` and ``mixed`` ("logical_and(): argument must be
    Value, but got Variable": some ops reach PIR-only kernels), so ``p3_classic`` has ``net`` only.
  * Paddle 2.6.x: ``p26/NAME.pdmodel`` + ``.pdiparams`` (the classic format most deployed models are in), and
    ``p26_dir/net/``: a Paddle 1.x style directory, ``__model__`` and one file per parameter.

The models: ``net`` (conv + batch norm + relu + max pool + fc, dynamic batch), ``ib`` (int32/int64/bool ops:
cast, arange, compare, logical_and, where, argmax), ``cf`` (``if`` and ``while`` through ``paddle.jit.to_static``),
``mixed`` (parameters and buffers of float16, float64, int64 and bool) and ``seq`` (embedding of int64 ids,
LSTM, concat, split, stack, layer norm, softmax: slots with several vars, PIR's ``builtin.combine``/``split``).
Every file is a few KB.
``tests/paddle/test_paddle_reader.py`` reads the committed files with mo's readers and compares them with what
Paddle itself loads from them (``tests/paddle/paddle_oracle.py``). Run by hand when a fixture is added.
"""
import argparse
import os
import shutil
import subprocess
import sys

DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'paddle', 'fixtures')
MAX_BYTES = 256 * 1024


def _models():
    """``{name: (layer, input specs)}``; built only once paddle is imported (the mode flag comes first)."""
    import numpy as np
    import paddle
    from paddle.static import InputSpec

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
            self.bn = paddle.nn.BatchNorm2D(4)
            self.pool = paddle.nn.MaxPool2D(2)
            self.fc = paddle.nn.Linear(4 * 4 * 4, 5)

        def forward(self, x):
            y = self.pool(paddle.nn.functional.relu(self.bn(self.conv(x))))
            return self.fc(paddle.flatten(y, 1))

    class IntBool(paddle.nn.Layer):
        def forward(self, a, b):
            c = paddle.cast(a, 'int64') + paddle.arange(4, dtype='int64')
            mask = paddle.logical_and(c > 2, b)
            return paddle.where(mask, c, paddle.zeros_like(c)), paddle.argmax(paddle.cast(c, 'float32'), axis=-1)

    class ControlFlow(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 4)

        def forward(self, x, n):
            y = self.fc(x)
            if paddle.mean(y) > 0:
                y = y * 2.0
            else:
                y = y - 1.0
            i = paddle.zeros([1], dtype='int64')
            while i < n:
                y = y + 1.0
                i = i + 1
            return y, i

    class Mixed(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.w16 = self.create_parameter([3, 2], dtype='float16')
            self.w64 = self.create_parameter([2], dtype='float64')
            self.register_buffer('table', paddle.to_tensor(np.arange(6, dtype='int64').reshape(2, 3)))
            self.register_buffer('flags', paddle.to_tensor(np.array([True, False, True])))

        def forward(self, x):
            y = paddle.matmul(x, paddle.cast(self.w16, 'float32'))  # no float16 matmul on CPU
            z = paddle.cast(y, 'float64') + self.w64
            picked = paddle.where(self.flags, paddle.cast(self.table[0], 'float64'), paddle.zeros([3], 'float64'))
            return z, picked

    class Sequence(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.embed = paddle.nn.Embedding(20, 8)
            self.lstm = paddle.nn.LSTM(8, 8)
            self.norm = paddle.nn.LayerNorm(16)

        def forward(self, ids):
            e = self.embed(ids)
            out, _ = self.lstm(e)
            both = paddle.concat([out, e], axis=-1)
            first, second = paddle.split(both, 2, axis=1)
            stacked = paddle.stack([first, second], axis=0)
            return paddle.nn.functional.softmax(self.norm(stacked), axis=-1)

    paddle.seed(7)
    np.random.seed(7)
    net = Net()
    # running statistics that are not the initial zeros and ones: the params file must carry real values
    net.bn._mean.set_value(np.random.uniform(-1, 1, 4).astype('float32'))
    net.bn._variance.set_value(np.random.uniform(0.5, 2, 4).astype('float32'))
    models = {
        'net': (net, [InputSpec([None, 3, 8, 8], 'float32', 'x')]),
        'ib': (IntBool(), [InputSpec([2, 4], 'int32', 'a'), InputSpec([2, 4], 'bool', 'b')]),
        'cf': (paddle.jit.to_static(ControlFlow()) if hasattr(paddle.jit, 'to_static') else ControlFlow(),
               [InputSpec([None, 4], 'float32', 'x'), InputSpec([1], 'int64', 'n')]),
        'mixed': (Mixed(), [InputSpec([4, 3], 'float32', 'x')]),
        'seq': (Sequence(), [InputSpec([None, 6], 'int64', 'ids')]),
    }
    for layer, _ in models.values():
        layer.eval()
    return models


def _save(out_dir, names):
    import paddle
    os.makedirs(out_dir, exist_ok=True)
    for name, (layer, spec) in _models().items():
        if name not in names:
            continue
        paddle.jit.save(layer, os.path.join(out_dir, name), input_spec=spec)
        for leftover in (name + '.pdiparams.info',):  # training-only metadata: not a fixture
            path = os.path.join(out_dir, leftover)
            if os.path.exists(path):
                os.remove(path)
        print('wrote', os.path.join(out_dir, name))


def _legacy_directory(prefix, out_dir):
    """A Paddle 1.x style directory from a classic export: its program as ``__model__`` and every persistable
    var in a file of its own, written by Paddle's ``save_vars`` (``filename=None``)."""
    import paddle
    paddle.enable_static()
    os.makedirs(out_dir, exist_ok=True)
    shutil.copyfile(prefix + '.pdmodel', os.path.join(out_dir, '__model__'))
    exe = paddle.static.Executor(paddle.CPUPlace())
    program, _, _ = paddle.static.load_inference_model(prefix, exe)
    persistables = [v for v in program.list_vars() if v.persistable and v.name not in ('feed', 'fetch')]
    paddle.static.save_vars(exe, out_dir, program, vars=persistables, filename=None)
    paddle.disable_static()
    print('wrote', out_dir)


def _check_sizes(out):
    for root, _, files in os.walk(out):
        for f in files:
            size = os.path.getsize(os.path.join(root, f))
            if size > MAX_BYTES:
                raise SystemExit('{} has {} bytes: fixtures stay under {}'.format(os.path.join(root, f), size,
                                                                                  MAX_BYTES))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--out', default=DEFAULT_OUT)
    parser.add_argument('--classic-child', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    import paddle
    major = int(paddle.__version__.split('.')[0])
    if major >= 3 and args.classic_child:
        _save(os.path.join(out, 'p3_classic'), ('net',))
    elif major >= 3:
        _save(os.path.join(out, 'p3_pir'), ('net', 'ib', 'cf', 'mixed', 'seq'))
        env = dict(os.environ, FLAGS_enable_pir_api='0')
        subprocess.run([sys.executable, os.path.abspath(__file__), '--out', out, '--classic-child'], env=env,
                       check=True)
    elif paddle.__version__.startswith('2.6'):
        _save(os.path.join(out, 'p26'), ('net', 'ib', 'cf', 'mixed', 'seq'))
        _legacy_directory(os.path.join(out, 'p26', 'net'), os.path.join(out, 'p26_dir', 'net'))
    else:
        raise SystemExit('Paddle {}: this script knows Paddle 2.6 and 3.x'.format(paddle.__version__))
    _check_sizes(out)


if __name__ == '__main__':
    main()
