"""``mo.convert_model(layer, example_input=...)`` for a ``paddle.nn.Layer``: exported by Paddle to a temporary
PIR program and converted; the IR computes what the layer computes. Run in a child process (Paddle stays out of
the pytest worker, as in ``paddle_models.py``)."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = textwrap.dedent('''
    import json, sys
    import numpy as np
    import paddle
    import mo
    from tests.support.oracles import compile_openvino

    paddle.seed(0)

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
            self.bn = paddle.nn.BatchNorm2D(4)
            self.fc = paddle.nn.Linear(4, 2)

        def forward(self, image, bias):
            y = paddle.nn.functional.relu(self.bn(self.conv(image)))
            return self.fc(y.mean([2, 3])) + bias

    net = Net()
    net.bn._mean.set_value(np.full([4], 0.1, 'float32'))
    net.bn._variance.set_value(np.full([4], 1.7, 'float32'))
    net.train()  # convert_model exports in eval mode and leaves the layer as it was
    image = np.random.default_rng(0).uniform(-1, 1, [2, 3, 6, 6]).astype('float32')
    bias = np.arange(2, dtype='float32').reshape(1, 2)
    result = mo.convert_model(net, example_input=[image, bias], output_dir=sys.argv[1])
    still_training = net.training
    net.eval()
    expected = net(paddle.to_tensor(image), paddle.to_tensor(bias)).numpy()
    compiled = compile_openvino(result.xml_path)
    batch3 = np.concatenate([image, image[:1]])
    ours = compiled([image, bias])[0]
    ours3 = compiled([batch3, bias])[0]
    print(json.dumps({'inputs': [i.name for i in result.inputs], 'shapes': [list(i.shape) for i in result.inputs],
                      'error': float(np.max(np.abs(ours - expected) / (np.abs(expected) + 1e-6))),
                      'batch3': list(ours3.shape), 'still_training': still_training}))
    try:
        mo.convert_model(net, output_dir=sys.argv[1] + '_none')
    except mo.Error as exc:
        print(json.dumps({'no_example': str(exc)}))
''')


def test_a_paddle_layer_converts_through_the_python_api(tmp_path):
    import json
    script = tmp_path / 'convert_layer.py'  # dy2static reads the layer's source: a file, not -c
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(tmp_path / 'ir')], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT, GLOG_minloglevel='3'), timeout=600)
    assert done.returncode == 0, done.stderr[done.stderr.rfind('Traceback'):][-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{')]
    report, refusal = lines[0], lines[1]
    assert report['inputs'] == ['image', 'bias'] and report['shapes'] == [[-1, 3, 6, 6], [-1, 2]]
    assert report['error'] < 1e-4 and report['batch3'] == [3, 2] and report['still_training']
    assert 'example_input' in refusal['no_example']
