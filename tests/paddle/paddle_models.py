"""Builds Paddle models for the conversion tests, exports them and records what Paddle Inference computes.

Run as a script in a child process (``python paddle_models.py OUT_DIR FORMAT NAME...``; FORMAT ``infer`` with
model paths records Paddle Inference on models that exist, such as the fixtures), as ``paddle_oracle.py``
is: the program format Paddle writes is chosen by ``FLAGS_enable_pir_api`` when ``paddle`` is imported, and
Paddle's native libraries stay out of the pytest worker. FORMAT ``pir`` exports ``OUT_DIR/NAME.json`` (Paddle 3's
default), ``classic`` ``OUT_DIR/NAME.pdmodel``; both with ``NAME.pdiparams`` when the model has weights.
For each model it writes ``OUT_DIR/NAME.npz``: the inputs (``in:<feed name>``) it fed Paddle Inference and the
outputs it got (``out:<fetch name>``, in fetch order).

``python paddle_models.py OUT_DIR rename SOURCE OLD:NEW...`` copies a classic program with op types renamed.
Run as ``python paddle_models.py OUT_DIR infer_models MODEL_DIR NAME...``, it records Paddle Inference on the
programs ``MODEL_DIR/NAME.*`` that another Paddle exported from these models, fed the same example inputs.

``fixtures/p26_models`` holds Paddle 2.6's classic exports of the application models (``ocr_det``,
``ocr_rec_svtr``, ``ocr_rec_crnn``, ``yolo_det``, ``ppyoloe_head``, ``seg_net``, ``bert_encoder``), written as
``fixtures/p26_ops`` below (``.npz`` and ``.pdiparams.info`` deleted).

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


def _width() -> int:
    """The channel multiplier of the application models: 1 for the tests, more for ``tools/bench_paddle.py``
    (``PADDLE_MODELS_WIDTH``), which times the conversion of models of realistic sizes."""
    return int(os.environ.get('PADDLE_MODELS_WIDTH', '1'))


def _plain_kernels(config):
    """Paddle's plain CPU kernels: oneDNN's refuse some attributes (layer_norm's axis). Paddle 2.6 calls it
    mkldnn."""
    (config.disable_onednn if hasattr(config, 'disable_onednn') else config.disable_mkldnn)()


def models(paddle):
    """name -> builder; each builder returns (layer, input specs, example inputs)."""
    nn, F = paddle.nn, paddle.nn.functional
    # Paddle 2.6's dy2static recompiles a method of a class defined here with the module's globals, not this
    # function's closure: the names the layers' forward methods use must be globals too
    globals().update(paddle=paddle, nn=nn, F=F)
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

    # ----- application models (issue 40's test list): small widths, the structure of the real ones -----
    class ConvBNAct(nn.Layer):
        def __init__(self, cin, cout, k=3, stride=1, groups=1, act='relu'):
            super().__init__()
            self.conv = nn.Conv2D(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias_attr=False)
            self.bn = nn.BatchNorm2D(cout)
            self.act = {'relu': nn.ReLU, 'hardswish': nn.Hardswish, 'swish': nn.Swish, None: nn.Identity}[act]()

        def forward(self, x):
            return self.act(self.bn(self.conv(x)))

    @model
    def ocr_det():
        """A PP-OCR style text detector: a strided conv backbone, an FPN (nearest upsampling, add, concat of
        bilinear-resized levels) and the DB head (conv, batch norm, two transposed convs, sigmoid) with the
        differentiable binarisation of the shrink and threshold maps."""
        w = _width()

        class DB(nn.Layer):
            def __init__(self):
                super().__init__()
                self.stem = ConvBNAct(3, 8 * w, 3, 2, act='hardswish')
                self.c2 = ConvBNAct(8 * w, 12 * w, 3, 2)
                self.c3 = nn.Sequential(ConvBNAct(12 * w, 12 * w, 3, 2, groups=12 * w), ConvBNAct(12 * w, 16 * w, 1))
                self.c4 = nn.Sequential(ConvBNAct(16 * w, 16 * w, 3, 2, groups=16 * w),
                                        ConvBNAct(16 * w, 24 * w, 1, act='hardswish'))
                self.lat = nn.LayerList([nn.Conv2D(c * w, 16 * w, 1, bias_attr=False) for c in (12, 16, 24)])
                self.smooth = nn.LayerList([nn.Conv2D(16 * w, 4 * w, 3, padding=1, bias_attr=False)
                                            for _ in range(3)])
                self.heads = nn.LayerList([nn.Sequential(
                    nn.Conv2D(12 * w, 4 * w, 3, padding=1, bias_attr=False), nn.BatchNorm2D(4 * w), nn.ReLU(),
                    nn.Conv2DTranspose(4 * w, 4 * w, 2, 2), nn.BatchNorm2D(4 * w), nn.ReLU(),
                    nn.Conv2DTranspose(4 * w, 1, 2, 2)) for _ in range(2)])

            def forward(self, x):
                f2 = self.c2(self.stem(x))
                f3 = self.c3(f2)
                f4 = self.c4(f3)
                p4 = self.lat[2](f4)
                p3 = self.lat[1](f3) + F.upsample(p4, scale_factor=2, mode='nearest')
                p2 = self.lat[0](f2) + F.upsample(p3, scale_factor=2, mode='nearest')
                size = paddle.shape(p2)[2:]
                fused = paddle.concat([self.smooth[0](p2),
                                       F.interpolate(self.smooth[1](p3), size=size, mode='bilinear'),
                                       F.interpolate(self.smooth[2](p4), scale_factor=4, mode='nearest')], axis=1)
                shrink = F.sigmoid(self.heads[0](fused))
                threshold = F.sigmoid(self.heads[1](fused))
                binary = paddle.reciprocal(1 + paddle.exp(-50 * (shrink - threshold)))
                return paddle.concat([shrink, threshold, binary], axis=1)
        return DB(), [spec([-1, 3, -1, -1], 'float32', 'x')], [_rand([1, 3, 64, 96])]

    class RecBackbone(nn.Layer):
        """Conv stages that halve the height only (as PP-OCR's recognisers do) down to height 1."""
        def __init__(self, w=1):
            super().__init__()
            self.stem = ConvBNAct(3, 8 * w, 3, 1, act='hardswish')
            self.s1 = ConvBNAct(8 * w, 16 * w, 3, 1)
            self.s2 = ConvBNAct(16 * w, 24 * w, 3, 1, act='hardswish')

        def forward(self, x):
            y = F.max_pool2d(self.stem(x), 2, 2)                        # H/2, W/2
            y = F.max_pool2d(self.s1(y), (2, 1), (2, 1))                # H/4
            y = F.avg_pool2d(self.s2(y), (2, 1), (2, 1))                # H/8
            return paddle.mean(y, axis=2, keepdim=True)                 # height 1

    @model
    def ocr_rec_svtr():
        """An SVTR style recogniser: conv backbone, the H=1 map flattened to a sequence (reshape + transpose),
        a transformer mixer (layer norm, multi-head attention with matmul transpose_y, GELU MLP), a linear CTC
        head and softmax."""
        class Mixer(nn.Layer):
            def __init__(self, dim, heads):
                super().__init__()
                self.heads, self.dim = heads, dim
                self.norm1, self.norm2 = nn.LayerNorm(dim, epsilon=1e-6), nn.LayerNorm(dim, epsilon=1e-6)
                self.qkv = nn.Linear(dim, dim * 3)
                self.proj = nn.Linear(dim, dim)
                self.fc1, self.fc2 = nn.Linear(dim, dim * 2), nn.Linear(dim * 2, dim)

            def forward(self, seq):
                n, t = paddle.shape(seq)[0], paddle.shape(seq)[1]
                qkv = self.qkv(self.norm1(seq)).reshape([0, -1, 3, self.heads, self.dim // self.heads])
                qkv = qkv.transpose([2, 0, 3, 1, 4])
                q, k, v = qkv[0] * (self.dim // self.heads) ** -0.5, qkv[1], qkv[2]
                attn = F.softmax(paddle.matmul(q, k, transpose_y=True), axis=-1)
                mixed = paddle.matmul(attn, v).transpose([0, 2, 1, 3]).reshape([n, t, self.dim])
                seq = seq + self.proj(mixed)
                return seq + self.fc2(F.gelu(self.fc1(self.norm2(seq))))

        class SVTR(nn.Layer):
            def __init__(self, w, heads=4, classes=37):
                super().__init__()
                self.backbone = RecBackbone(w)
                self.mixers = nn.LayerList([Mixer(24 * w, heads) for _ in range(1 if w == 1 else 4)])
                self.ctc = nn.Linear(24 * w, classes)

            def forward(self, x):
                y = self.backbone(x)                                     # N, C, 1, W
                seq = paddle.transpose(y.flatten(2), [0, 2, 1])          # N, W, C
                for mixer in self.mixers:
                    seq = mixer(seq)
                return F.softmax(self.ctc(seq), axis=2)
        return SVTR(_width()), [spec([-1, 3, 32, -1], 'float32', 'x')], [_rand([2, 3, 32, 80])]

    @model
    def ocr_rec_crnn():
        """A CRNN recogniser: conv backbone, squeeze of the H=1 axis, transpose to a sequence, a bidirectional
        LSTM, a linear CTC head and softmax."""
        class CRNN(nn.Layer):
            def __init__(self, w, classes=37):
                super().__init__()
                self.backbone = RecBackbone(w)
                self.rnn = nn.LSTM(24 * w, 16 * w, num_layers=2, direction='bidirect')
                self.ctc = nn.Linear(32 * w, classes)

            def forward(self, x):
                seq = paddle.transpose(paddle.squeeze(self.backbone(x), axis=2), [0, 2, 1])
                out, _ = self.rnn(seq)
                return F.softmax(self.ctc(out), axis=2)
        return CRNN(_width()), [spec([-1, 3, 32, -1], 'float32', 'x')], [_rand([2, 3, 32, 80])]

    @model
    def yolo_det():
        """A PaddleDetection YOLOv3 style detector: backbone, two heads at strides 8 and 16 (nearest upsampling
        and concat between them), ``yolo_box`` decoding of each, concat and ``multiclass_nms3``."""
        import cases_nms  # this folder is the script's: multiclass_nms3 as PaddleDetection calls it, both formats
        cases_nms.setup()

        class Yolo(nn.Layer):
            def __init__(self, classes=3):
                super().__init__()
                self.classes = classes
                self.c1 = ConvBNAct(3, 8, 3, 2, act='swish')
                self.c2 = ConvBNAct(8, 12, 3, 2, act='swish')
                self.c3 = ConvBNAct(12, 16, 3, 2, act='swish')
                self.c4 = ConvBNAct(16, 16, 3, 2, act='swish')
                self.reduce = ConvBNAct(16, 8, 1, act='swish')
                self.head16 = nn.Conv2D(16, 2 * (5 + classes), 1)
                self.head8 = nn.Conv2D(24, 2 * (5 + classes), 1)
                self.nms = cases_nms.MulticlassNms3(score_threshold=0.01, nms_top_k=100, keep_top_k=20,
                                                    nms_threshold=0.45)

            def forward(self, image, im_shape):
                f8 = self.c3(self.c2(self.c1(image)))
                f16 = self.c4(f8)
                up = F.upsample(self.reduce(f16), scale_factor=2, mode='nearest')
                boxes, scores = [], []
                for out, anchors, stride in ((self.head16(f16), [30, 61, 62, 45], 16),
                                             (self.head8(paddle.concat([f8, up], 1)), [10, 13, 16, 30], 8)):
                    b, s = paddle.vision.ops.yolo_box(out, im_shape, anchors, self.classes, 0.01, stride,
                                                      scale_x_y=1.05)
                    boxes.append(b)
                    scores.append(s)
                boxes = paddle.concat(boxes, 1)
                scores = paddle.concat(scores, 1).transpose([0, 2, 1])
                return self.nms(boxes, scores)
        return Yolo(), [spec([1, 3, 64, 64], 'float32', 'image'), spec([1, 2], 'int32', 'im_shape')], \
            [_rand([1, 3, 64, 64]), np.array([[64, 64]], 'int32')]

    @model
    def ppyoloe_head():
        """A PP-YOLOE / PicoDet style anchor-free head and its decoding, as exported without NMS: per level a
        class branch (sigmoid) and a distribution branch (softmax over reg_max + 1 bins, integral by a 1x1 conv
        with fixed weights), anchor points from ``paddle.arange`` and ``meshgrid``, distances to boxes, scaled by
        the stride, concatenated over levels."""
        class Head(nn.Layer):
            def __init__(self, classes=4, reg_max=7):
                super().__init__()
                self.reg_max = reg_max
                self.stem = ConvBNAct(3, 8, 3, 2, act='swish')
                self.s8 = nn.Sequential(ConvBNAct(8, 12, 3, 2, act='swish'), ConvBNAct(12, 12, 3, 2, act='swish'))
                self.s16 = ConvBNAct(12, 16, 3, 2, act='swish')
                self.cls = nn.LayerList([nn.Conv2D(c, classes, 3, padding=1) for c in (12, 16)])
                self.reg = nn.LayerList([nn.Conv2D(c, 4 * (reg_max + 1), 3, padding=1) for c in (12, 16)])
                self.proj = nn.Conv2D(reg_max + 1, 1, 1, bias_attr=False)
                self.proj.weight.stop_gradient = True

            def forward(self, x):
                f8 = self.s8(self.stem(x))
                feats = [(f8, 8), (self.s16(f8), 16)]
                boxes, scores = [], []
                for i, (f, stride) in enumerate(feats):
                    h, w = paddle.shape(f)[2], paddle.shape(f)[3]
                    score = F.sigmoid(self.cls[i](f)).flatten(2)                       # N, C, HW
                    dist = self.reg[i](f).reshape([-1, 4, self.reg_max + 1, h * w]).transpose([0, 2, 3, 1])
                    dist = self.proj(F.softmax(dist, axis=1)).squeeze(1)              # N, HW, 4
                    ys, xs = paddle.meshgrid(paddle.arange(h, dtype='float32'), paddle.arange(w, dtype='float32'))
                    points = (paddle.stack([xs, ys], -1).reshape([-1, 2]) + 0.5) * stride
                    lt, rb = paddle.split(dist * stride, 2, -1)
                    boxes.append(paddle.concat([points - lt, points + rb], -1))
                    scores.append(score)
                return paddle.concat(boxes, 1), paddle.concat(scores, 2)
        layer = Head()
        return layer, [spec([-1, 3, 64, 64], 'float32', 'x')], [_rand([2, 3, 64, 64])]

    @model
    def seg_net():
        """A PaddleSeg style segmentation net (DeepLabV3+ like): backbone, ASPP (dilated convs and image
        pooling upsampled back), a decoder joining low-level features after bilinear upsampling with
        ``align_corners``, logits resized to the input and their argmax."""
        class Seg(nn.Layer):
            def __init__(self, classes=5):
                super().__init__()
                self.low = nn.Sequential(ConvBNAct(3, 8, 3, 2), ConvBNAct(8, 12, 3, 2))
                self.high = nn.Sequential(ConvBNAct(12, 16, 3, 2), ConvBNAct(16, 16, 3, 1))
                self.aspp = nn.LayerList([nn.Conv2D(16, 8, 1)] + [nn.Conv2D(16, 8, 3, padding=d, dilation=d)
                                                                   for d in (2, 3)])
                self.pool_conv = nn.Conv2D(16, 8, 1)
                self.fuse = ConvBNAct(32, 12, 1)
                self.low_conv = ConvBNAct(12, 4, 1)
                self.cls = nn.Conv2D(16, classes, 3, padding=1)

            def forward(self, x):
                low = self.low(x)
                high = self.high(low)
                pooled = self.pool_conv(F.adaptive_avg_pool2d(high, 1))
                pooled = F.interpolate(pooled, paddle.shape(high)[2:], mode='bilinear', align_corners=True)
                y = self.fuse(paddle.concat([F.relu(a(high)) for a in self.aspp] + [pooled], 1))
                y = F.interpolate(y, paddle.shape(low)[2:], mode='bilinear', align_corners=False)
                logits = self.cls(paddle.concat([y, self.low_conv(low)], 1))
                logits = F.interpolate(logits, paddle.shape(x)[2:], mode='bilinear', align_corners=False)
                return logits, paddle.argmax(logits, axis=1)
        return Seg(), [spec([-1, 3, -1, -1], 'float32', 'x')], [_rand([1, 3, 48, 64])]

    @model
    def bert_encoder():
        """A BERT style encoder written out: word, position and token-type embeddings, layer norm, two layers of
        multi-head attention (q/k/v linears, split heads by reshape + transpose, matmul with transpose_y,
        a scale, an additive mask from the attention mask, softmax), GELU feed-forward, residual layer norms,
        and a tanh pooler on the first token."""
        class Bert(nn.Layer):
            def __init__(self, vocab=50, dim=32, heads=4, layers=2, ffn=64):
                super().__init__()
                self.heads, self.dim = heads, dim
                self.word, self.pos = nn.Embedding(vocab, dim), nn.Embedding(16, dim)
                self.segment = nn.Embedding(2, dim)
                self.ln = nn.LayerNorm(dim)
                self.q = nn.LayerList([nn.Linear(dim, dim) for _ in range(layers)])
                self.k = nn.LayerList([nn.Linear(dim, dim) for _ in range(layers)])
                self.v = nn.LayerList([nn.Linear(dim, dim) for _ in range(layers)])
                self.o = nn.LayerList([nn.Linear(dim, dim) for _ in range(layers)])
                self.ln1 = nn.LayerList([nn.LayerNorm(dim) for _ in range(layers)])
                self.f1 = nn.LayerList([nn.Linear(dim, ffn) for _ in range(layers)])
                self.f2 = nn.LayerList([nn.Linear(ffn, dim) for _ in range(layers)])
                self.ln2 = nn.LayerList([nn.LayerNorm(dim) for _ in range(layers)])
                self.pool = nn.Linear(dim, dim)

            def split(self, t):
                return t.reshape([0, 0, self.heads, self.dim // self.heads]).transpose([0, 2, 1, 3])

            def forward(self, ids, mask):
                positions = paddle.arange(paddle.shape(ids)[1], dtype='int64').unsqueeze(0)
                h = self.ln(self.word(ids) + self.pos(positions) + self.segment(paddle.zeros_like(ids)))
                bias = ((1.0 - mask.astype('float32')) * -1e4).unsqueeze([1, 2])
                for i in range(len(self.q)):
                    q, k, v = self.split(self.q[i](h)), self.split(self.k[i](h)), self.split(self.v[i](h))
                    scores = paddle.matmul(q, k, transpose_y=True) * (self.dim // self.heads) ** -0.5 + bias
                    ctx = paddle.matmul(F.softmax(scores, -1), v).transpose([0, 2, 1, 3]).reshape([0, 0, self.dim])
                    h = self.ln1[i](h + self.o[i](ctx))
                    h = self.ln2[i](h + self.f2[i](F.gelu(self.f1[i](h))))
                return h, paddle.tanh(self.pool(h[:, 0]))
        mask = np.ones([2, 9], 'int64')
        mask[1, 6:] = 0
        w = _width()  # 8 for the benchmark: BERT-small sizes (vocabulary 25600, width 256, 6 layers)
        return Bert(50 * w ** 3, 32 * w, 4, 2 if w == 1 else 6, 64 * w), \
            [spec([-1, -1], 'int64', 'ids'), spec([-1, -1], 'int64', 'mask')], \
            [_rand([2, 9], 'int64', 0, 50), mask]

    @model
    def resnet50():
        """paddle.vision's ResNet50 (the benchmark's classifier)."""
        return paddle.vision.models.resnet50(num_classes=1000), [spec([-1, 3, 224, 224], 'float32', 'image')], \
            [_rand([1, 3, 224, 224])]

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


def infer_models(out_dir, model_dir, names):
    """Run Paddle Inference on the programs ``model_dir/NAME.pdmodel`` (or ``.json``) that another Paddle wrote
    from the models ``names`` of this file, fed their example inputs; writes ``OUT_DIR/NAME.npz`` as ``main``
    does (the committed Paddle 2.6 exports, checked against the Paddle that runs the tests)."""
    import paddle
    table = models(paddle)
    for name in names:
        _, specs, inputs = table[name]()
        stem = os.path.join(model_dir, name)
        model_file = stem + ('.json' if os.path.exists(stem + '.json') else '.pdmodel')
        _record(paddle, model_file, stem + '.pdiparams', specs, inputs, os.path.join(out_dir, name + '.npz'))


def _record(paddle, model_file, params_file, specs, inputs, npz):
    """Paddle Inference on ``model_file`` fed ``inputs`` (by the names of ``specs``): saved to ``npz``."""
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
    np.savez(npz, **record)


def rename_ops(out_dir, source, renames):
    """A copy of the classic program ``source`` (and its params) in ``out_dir`` with op types renamed (``OLD:NEW``):
    programs holding ops that Paddle 3 no longer writes (sync_batch_norm, which a model trained with it keeps) but
    whose inference is the op they are named for."""
    import shutil
    from paddle.base.proto import framework_pb2
    mapping = dict(item.split(':') for item in renames)
    program = framework_pb2.ProgramDesc()
    with open(source, 'rb') as f:
        program.ParseFromString(f.read())
    for block in program.blocks:
        for op in block.ops:
            op.type = mapping.get(op.type, op.type)
    stem = os.path.splitext(os.path.basename(source))[0]
    with open(os.path.join(out_dir, stem + '.pdmodel'), 'wb') as f:
        f.write(program.SerializeToString())
    params = os.path.splitext(source)[0] + '.pdiparams'
    if os.path.exists(params):
        shutil.copy(params, os.path.join(out_dir, stem + '.pdiparams'))


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
        _record(paddle, model_file, prefix + '.pdiparams', specs, inputs, prefix + '.npz')


if __name__ == '__main__':
    if sys.argv[2] == 'infer':
        infer(sys.argv[1], sys.argv[3])
    elif sys.argv[2] == 'rename':  # OUT_DIR rename SOURCE OLD:NEW...
        rename_ops(sys.argv[1], sys.argv[3], sys.argv[4:])
    elif sys.argv[2] == 'infer_models':  # OUT_DIR infer_models MODEL_DIR NAME...
        infer_models(sys.argv[1], sys.argv[3], sys.argv[4:])
    else:
        main(sys.argv[1], sys.argv[2], sys.argv[3:])
