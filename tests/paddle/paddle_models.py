"""Builds Paddle models for the conversion tests, exports them and records what Paddle Inference computes.

Run as a script in a child process (``python paddle_models.py OUT_DIR FORMAT NAME...``; FORMAT ``infer`` with
model paths records Paddle Inference on models that exist, such as the fixtures), as ``paddle_oracle.py``
is: the program format Paddle writes is chosen by ``FLAGS_enable_pir_api`` when ``paddle`` is imported, and
Paddle's native libraries stay out of the pytest worker. FORMAT ``pir`` exports ``OUT_DIR/NAME.json`` (Paddle 3's
default), ``classic`` ``OUT_DIR/NAME.pdmodel``; both with ``NAME.pdiparams`` when the model has weights.
For each model it writes ``OUT_DIR/NAME.npz``: the inputs (``in:<feed name>``) it fed Paddle Inference and the
outputs it got (``out:<fetch name>``, in fetch order).

``fixtures/p26_ops`` holds classic exports of some of these models by Paddle 2.6 (Paddle 3.3's classic exporter
fails on most of them), written by ``/tmp/paddle26/bin/python tests/paddle/paddle_models.py
tests/paddle/fixtures/p26_ops classic eltwise activations shapes indexing reductions encoder`` (a Paddle 2.6 venv
as ``tools/make_paddle_models.py`` says; the ``.npz`` and ``.pdiparams.info`` files deleted).

A model is ``models(paddle)[name]() -> (layer, [InputSpec], [example arrays])``; weights are random (seeded) and
batch-norm statistics perturbed, so no layer is an identity by accident.
"""
import os
import sys

import numpy as np


def _rand(shape, dtype='float32', low=-1.0, high=1.0, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in 'iu':
        return rng.integers(int(low), int(high), size=shape).astype(dtype)
    if np.dtype(dtype).kind == 'b':
        return rng.random(shape) > 0.5
    return rng.uniform(low, high, size=shape).astype(dtype)


def _perturb(paddle, layer, seed=1):
    """Random weights everywhere, scaled by fan-in so that deep models (resnet18, mobilenet) keep finite,
    moderate activations; norm scales around 1, batch-norm means and variances away from 0 and 1."""
    rng = np.random.default_rng(seed)
    for name, param in layer.named_parameters():
        dtype = 'float16' if param.dtype in (paddle.float16,) else 'float32'
        shape = list(param.shape)
        if name.endswith('_mean'):  # batch-norm statistics are parameters (not trained) in Paddle
            value = rng.uniform(-0.3, 0.3, size=shape)
        elif name.endswith('_variance'):
            value = rng.uniform(0.5, 1.5, size=shape)
        elif len(shape) >= 2:
            # a conv's weight is [out, in, k...]; a Linear's is [in, out]
            fan_in = int(np.prod(shape[1:])) if len(shape) > 2 else shape[0]
            limit = np.sqrt(3.0 / max(fan_in, 1))
            value = rng.uniform(-limit, limit, size=shape)
        elif name.endswith('weight'):
            value = rng.uniform(0.5, 1.5, size=shape)
        else:
            value = rng.uniform(-0.2, 0.2, size=shape)
        param.set_value(value.astype(dtype))
    for name, buffer in layer.named_buffers():
        if buffer.dtype not in (paddle.float32,):
            continue
        if name.endswith('_mean'):
            buffer.set_value(rng.uniform(-0.3, 0.3, size=buffer.shape).astype('float32'))
        elif name.endswith('_variance'):
            buffer.set_value(rng.uniform(0.5, 1.5, size=buffer.shape).astype('float32'))
    layer.eval()
    return layer


def _drop_callstacks(model_file):
    """Remove the Python call stacks the classic exporter stores on every op (``op_callstack``: most of the
    file, and paths of the machine it ran on), with Paddle's own ``framework_pb2``."""
    from paddle.base.proto import framework_pb2
    program = framework_pb2.ProgramDesc()
    with open(model_file, 'rb') as f:
        program.ParseFromString(f.read())
    for block in program.blocks:
        for op in block.ops:
            kept = [a for a in op.attrs if a.name != 'op_callstack']
            del op.attrs[:]
            op.attrs.extend(kept)
    with open(model_file, 'wb') as f:
        f.write(program.SerializeToString())


def _plain_kernels(config):
    """Paddle's plain CPU kernels: oneDNN's refuse some attributes (layer_norm's axis). Paddle 2.6 calls it
    mkldnn."""
    (config.disable_onednn if hasattr(config, 'disable_onednn') else config.disable_mkldnn)()


def models(paddle):
    """name -> builder; each builder returns (layer, input specs, example inputs)."""
    nn, F = paddle.nn, paddle.nn.functional
    spec = paddle.static.InputSpec
    table = {}

    def model(fn):
        table[fn.__name__] = fn
        return fn

    class Fn(nn.Layer):
        """A layer computing ``fn(*inputs)`` (with the sublayers given as ``parts``)."""

        def __init__(self, fn, **parts):
            super().__init__()
            self.fn = fn
            for key, part in parts.items():
                setattr(self, key, part)

        def forward(self, x, y=None, z=None):  # dy2static wants named arguments, not *args
            return self.fn(self, *[a for a in (x, y, z) if a is not None])

    @model
    def eltwise():
        layer = Fn(lambda s, x, y: (F.relu(x * y + x - y), paddle.tanh(x) / (paddle.abs(y) + 1),
                                    paddle.maximum(x, y) - paddle.minimum(x, y) ** 2))
        return layer, [spec([-1, 4], 'float32', 'x'), spec([-1, 4], 'float32', 'y')], \
            [_rand([3, 4]), _rand([3, 4], seed=1)]

    @model
    def convs():
        parts = dict(
            conv=nn.Conv2D(3, 8, 3, padding=1), strided=nn.Conv2D(8, 8, 3, stride=2, padding=[1, 0, 2, 1]),
            depthwise=nn.Conv2D(8, 8, 3, padding='SAME', groups=8), grouped=nn.Conv2D(8, 8, 1, groups=2),
            dilated=nn.Conv2D(8, 4, 3, dilation=2, padding='VALID', bias_attr=False),
            up=nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1),
            up_grouped=nn.Conv2DTranspose(6, 6, 4, stride=2, padding=1, groups=3),
            bn=nn.BatchNorm2D(8), bn2=nn.BatchNorm2D(6, epsilon=1e-3))

        def forward(s, x):
            y = F.relu(s.bn(s.conv(x)))
            y = s.grouped(s.depthwise(s.strided(y)))
            y = s.up_grouped(s.bn2(s.up(s.dilated(y))))
            sized = F.conv2d_transpose(x, s.up.weight[:3] * 0 + 0.1, stride=2, output_size=[32, 31])
            return y, sized
        return Fn(forward, **parts), [spec([-1, 3, 15, 15], 'float32', 'x')], [_rand([2, 3, 15, 15])]

    @model
    def pools():
        def forward(s, x):
            return (F.max_pool2d(x, 3, 2, padding=1), F.max_pool2d(x, 2, 2, ceil_mode=True),
                    F.avg_pool2d(x, 3, 2, padding=1, exclusive=False), F.avg_pool2d(x, 3, 2, padding=1),
                    F.avg_pool2d(x, 2, ceil_mode=True), F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, [3, 4]),
                    F.adaptive_max_pool2d(x, 3), F.max_pool2d(x, [2, 3], [1, 2], padding='SAME'))
        return Fn(forward), [spec([-1, 4, 11, 13], 'float32', 'x')], [_rand([2, 4, 11, 13])]

    @model
    def norms():
        parts = dict(ln=nn.LayerNorm([5, 6]), gn=nn.GroupNorm(2, 4), inorm=nn.InstanceNorm2D(4),
                     ln_plain=nn.LayerNorm(6, weight_attr=False, bias_attr=False))

        def forward(s, x):
            return s.ln(x), s.gn(x), s.inorm(x), s.ln_plain(x), F.layer_norm(x, [6], epsilon=1e-3)
        return Fn(forward, **parts), [spec([-1, 4, 5, 6], 'float32', 'x')], [_rand([2, 4, 5, 6]) * 3 + 1]

    @model
    def activations():
        def forward(s, x):
            return (F.relu6(x * 4), F.leaky_relu(x, 0.1), F.sigmoid(x), F.hardsigmoid(x * 4), F.hardswish(x * 4),
                    F.swish(x), F.silu(x), F.gelu(x), F.gelu(x, approximate=True), F.mish(x), F.softplus(x),
                    F.softplus(x, beta=2, threshold=1), F.elu(x, 0.5), F.selu(x), F.log_softmax(x, 1),
                    F.softmax(x, -1), paddle.exp(x), paddle.log(x + 4), paddle.sqrt(x + 4), paddle.rsqrt(x + 4),
                    paddle.square(x), paddle.pow(x, 3.0), paddle.clip(x, -0.5, 0.3), paddle.scale(x, 2, 0.5, False),
                    F.prelu(x, paddle.to_tensor([0.1, 0.2, 0.3], 'float32')), F.prelu(x, paddle.to_tensor([0.3])),
                    F.hardtanh(x * 3), paddle.abs(x), F.tanh(x))
        return Fn(forward), [spec([-1, 3, 4, 5], 'float32', 'x')], [_rand([2, 3, 4, 5], low=-3, high=3)]

    @model
    def shapes():
        def forward(s, x):
            a, b, c = paddle.split(x, [1, 2, -1], axis=1)
            p, q = paddle.split(x, 2, axis=-1)
            parts = paddle.unstack(x[:, :2], axis=1)
            return (paddle.reshape(x, [0, -1, 3]), paddle.transpose(x, [0, 2, 3, 1]), paddle.flatten(x, 1, 2),
                    paddle.squeeze(x[:, :1], 1), paddle.unsqueeze(x, [0, -1]), paddle.concat([a, c, b], axis=1),
                    paddle.stack([p, q], axis=-1), parts[1], paddle.tile(a, [1, 2, 1, 1]),
                    paddle.expand(a, [2, 3, 5, 6]), paddle.expand_as(a, x), paddle.shape(x).astype('float32'),
                    x[:, 1:3, ::2, -1], x[..., 2:-1], paddle.strided_slice(x, [1, 3], [0, 5], [4, 0], [2, -2]),
                    paddle.reshape(x, [-1, paddle.shape(x)[1] * 30]), paddle.cast(x * 3, 'int32'),
                    paddle.nn.functional.pad(x, [1, 2, 0, 1], mode='reflect'),
                    paddle.nn.functional.pad(x, [1, 1, 2, 0], value=0.5))
        return Fn(forward), [spec([-1, 4, 5, 6], 'float32', 'x')], [_rand([2, 4, 5, 6])]

    @model
    def indexing():
        def forward(s, x, i):
            return (paddle.gather(x, i[0], axis=1), paddle.gather_nd(x, paddle.stack([i[0] % 2, i[1]], -1)),
                    paddle.where(x > 0, x, x * 0.1), paddle.cumsum(x, 1), paddle.cumsum(x),
                    paddle.argmax(x, -1), paddle.argmin(x, 1, keepdim=True), paddle.argmax(x),
                    paddle.topk(x, 2)[0], paddle.topk(x, 2, axis=0, largest=False)[1],
                    F.one_hot(i, 6), F.embedding(i, s.table, padding_idx=2),
                    paddle.arange(0, paddle.shape(x)[1], 2).astype('float32'),
                    paddle.scatter(x, i[1], paddle.full([2, 5], 2.0)), paddle.full_like(x, 3.0), paddle.zeros_like(i),
                    paddle.full([2, 3], 7, 'int64'), paddle.full(paddle.shape(x)[:1], 1.5) + x[:, 0])
        layer = Fn(forward)
        layer.table = layer.create_parameter([6, 3])
        return layer, [spec([-1, 5], 'float32', 'x'), spec([2, 2], 'int64', 'i')], \
            [_rand([4, 5]), np.array([[1, 3], [0, 2]], 'int64')]

    @model
    def reductions():
        def forward(s, x, y):
            m = x > 0
            return (paddle.sum(x, 1), paddle.mean(x, [1, 2], keepdim=True), paddle.max(x), paddle.min(x, -1),
                    paddle.prod(x[:, :2], 2), paddle.all(m, 1), paddle.any(m), paddle.matmul(x, y),
                    paddle.matmul(x, y, transpose_x=True, transpose_y=True).sum(), paddle.logical_and(m, ~m),
                    paddle.logical_or(m, x < 0.5), (x >= 0) == (x <= 0.2), paddle.sum(m.astype('int32'), 1),
                    paddle.add_n([x, x, x]), paddle.mean(x))
        return Fn(forward), [spec([-1, 3, 3], 'float32', 'x'), spec([-1, 3, 3], 'float32', 'y')], \
            [_rand([2, 3, 3]), _rand([2, 3, 3], seed=3)]

    @model
    def dtypes():
        def forward(s, x, i, b):
            d = x.astype('float64')
            j = i.astype('int32')
            return (paddle.nn.functional.softmax(paddle.matmul(d, d, transpose_y=True) / 3), d.sum(1),
                    i * 3 - i // 2, paddle.floor_divide(i - 7, paddle.full_like(i, 3)), paddle.remainder(i - 7, 3),
                    j + 2, (j * 2).astype('int64'), x * s.weight16.astype('float32'),
                    (x * 40).astype('int8'), (x * 40 + 50).astype('uint8'), (x * 40).astype('int16').astype('int32'),
                    paddle.logical_xor(b, x > 0), paddle.where(b, i, -i), b.astype('float32').sum(),
                    paddle.floor_divide(x * 5, paddle.full_like(x, 2.0)), paddle.maximum(i, j.astype('int64')))
        layer = Fn(forward)
        # a float16 weight (OpenVINO's CPU plugin drops an f32 -> f16 -> f32 round trip of a tensor, so the f16
        # path is a weight's)
        layer.weight16 = layer.create_parameter([4], 'float16')
        return layer, [spec([-1, 4], 'float32', 'x'), spec([-1, 4], 'int64', 'i'), spec([-1, 4], 'bool', 'b')], \
            [_rand([3, 4]), _rand([3, 4], 'int64', 0, 20, seed=1), _rand([3, 4], 'bool', seed=2)]

    @model
    def misc():
        def forward(s, x, i):
            return (paddle.bmm(x, x), paddle.flip(x, [0, 2]), paddle.index_select(x, i[0], axis=1),
                    paddle.take_along_axis(x, i[0].reshape([1, 1, 2]).expand([2, 3, 2]), 2), paddle.nonzero(x > 0.3),
                    paddle.roll(x, 1, 2), paddle.roll(x, [2, -1], [0, 1]), paddle.roll(x, 2), paddle.tril(x),
                    paddle.triu(x, 1), paddle.norm(x, p=2, axis=-1), paddle.norm(x, p=1, axis=1, keepdim=True),
                    paddle.linalg.norm(x, p=float('inf'), axis=2), paddle.logsumexp(x, 1), paddle.logsumexp(x),
                    F.softshrink(x, 0.3), F.hardshrink(x, 0.4), F.tanhshrink(x), F.thresholded_relu(x, 0.2),
                    F.log_sigmoid(x), x * paddle.to_tensor([1.5, -2.0, 0.5]))
        return Fn(forward), [spec([-1, 3, 3], 'float32', 'x'), spec([2, 2], 'int64', 'i')], \
            [_rand([2, 3, 3]), np.array([[0, 2], [1, 1]], 'int64')]

    @model
    def mish_pattern():
        def forward(s, x):
            return x * paddle.tanh(F.softplus(x))
        return Fn(forward), [spec([-1, 6], 'float32', 'x')], [_rand([2, 6], low=-3, high=3)]

    @model
    def resnet18():
        return paddle.vision.models.resnet18(num_classes=10), [spec([-1, 3, 64, 64], 'float32', 'image')], \
            [_rand([2, 3, 64, 64])]

    @model
    def mobilenet_v3_small():
        return paddle.vision.models.mobilenet_v3_small(num_classes=10), \
            [spec([-1, 3, 64, 64], 'float32', 'image')], [_rand([1, 3, 64, 64])]

    @model
    def encoder():
        layer = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1), 2)
        return layer, [spec([-1, -1, 32], 'float32', 'src')], [_rand([2, 7, 32])]

    return table


def infer(out_dir, plan_file):
    """Run Paddle Inference on existing models with random inputs: ``plan_file`` is JSON
    ``{model path: [[feed name, shape, dtype(, high)], ...]}`` (values below ``high``, 5 by default); writes
    ``OUT_DIR/<dir name>_<stem>.npz`` as ``main`` does."""
    import json
    import paddle
    with open(plan_file) as f:
        plan = json.load(f)
    for path, feeds in plan.items():
        stem = os.path.splitext(path)[0] if not os.path.isdir(path) else os.path.join(path, '__model__')
        if os.path.isdir(path):
            config = paddle.inference.Config(path)
        else:
            params = stem + '.pdiparams'
            config = paddle.inference.Config(path, params if os.path.exists(params) else '')
        config.disable_gpu()
        config.switch_ir_optim(False)
        _plain_kernels(config)
        predictor = paddle.inference.create_predictor(config)
        record = {}
        for number, (name, shape, dtype, *high) in enumerate(feeds):
            value = _rand(shape, dtype, low=0 if dtype.startswith('int') else -1, high=(high or [5])[0], seed=number)
            handle = predictor.get_input_handle(name)
            handle.reshape(shape)
            handle.copy_from_cpu(value)
            record['in:' + name] = value
        predictor.run()
        for out_name in predictor.get_output_names():
            record['out:' + out_name] = predictor.get_output_handle(out_name).copy_to_cpu()
        tag = os.path.basename(os.path.dirname(path)) + '_' + os.path.basename(os.path.splitext(path)[0])
        np.savez(os.path.join(out_dir, tag + '.npz'), **record)


def main(out_dir, fmt, names):
    os.environ['FLAGS_enable_pir_api'] = '1' if fmt == 'pir' else '0'
    import paddle
    paddle.disable_static()
    table = models(paddle)
    for name in names:
        paddle.seed(0)
        layer, specs, inputs = table[name]()
        _perturb(paddle, layer)
        prefix = os.path.join(out_dir, name)
        static = paddle.jit.to_static(layer, input_spec=specs, full_graph=True)
        paddle.jit.save(static, prefix)
        model_file = prefix + ('.json' if fmt == 'pir' else '.pdmodel')
        if fmt == 'classic':
            _drop_callstacks(model_file)
        params_file = prefix + '.pdiparams'
        config = paddle.inference.Config(model_file, params_file if os.path.exists(params_file) else '')
        config.disable_gpu()
        config.switch_ir_optim(False)  # the program as written, not Paddle's fused rewrite of it
        _plain_kernels(config)
        predictor = paddle.inference.create_predictor(config)
        record = {}
        for spec_, value in zip(specs, inputs):
            handle = predictor.get_input_handle(spec_.name)
            handle.reshape(list(value.shape))
            handle.copy_from_cpu(np.ascontiguousarray(value))
            record['in:' + spec_.name] = value
        predictor.run()
        for out_name in predictor.get_output_names():
            record['out:' + out_name] = predictor.get_output_handle(out_name).copy_to_cpu()
        np.savez(prefix + '.npz', **record)


if __name__ == '__main__':
    if sys.argv[2] == 'infer':
        infer(sys.argv[1], sys.argv[3])
    else:
        main(sys.argv[1], sys.argv[2], sys.argv[3:])
