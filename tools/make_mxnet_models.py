"""Write small Apache MXNet models with seeded random weights, as test fixtures for mo's MXNet readers.

    /tmp/mxenv/bin/python tools/make_mxnet_models.py [--out tests/mxnet/fixtures] [NAME ...]

MXNet 1.9.1 is the last release and installs on Python 3.11 only beside numpy 1.23.5, so it lives in a venv
of its own (``python3 -m venv /tmp/mxenv && /tmp/mxenv/bin/pip install mxnet==1.9.1 numpy==1.23.5``); mo's
tests read the files with numpy alone and never import MXNet. The GluonCV fixtures (three detectors, and models
written by GluonCV's ``export_block`` with and without its preprocessing) need GluonCV 0.10 in the same venv,
whose newest dependencies want numpy 2; these install beside numpy 1.23.5::

    /tmp/mxenv/bin/pip install "gluoncv==0.10.*" "opencv-python<4.9" "scipy<1.12" "pandas<2.1" \
        "matplotlib<3.8" numpy==1.23.5

Without GluonCV they are skipped (and the committed ones kept).

Per model the script writes ``NAME-symbol.json`` and ``NAME-0000.params`` (``mx.model.save_checkpoint``, or
a hybridized Gluon block's ``export``) and ``NAME.ref.npz``: the inputs under ``in:NAME`` and MXNet's
inference outputs under ``out:0``, ``out:1``... in head order. Weights are seeded random values; BatchNorm's
running statistics are drawn away from 0/1 and gamma away from 1 (also where ``fix_gamma`` tells MXNet to
ignore it), so that a converter that drops a term or applies an ignored one gives different numbers.

``legacy_v08-symbol.json`` is a graph in MXNet 0.8's JSON form, written by hand, with
``legacy_v08.upgraded.json`` beside it: the same graph as MXNet 1.9.1 upgrades it on load.

Besides the models, ``dtypes.params`` holds one array of each element type MXNet saves (``dtypes.ref.npz`` has
``mx.nd.load``'s values, bfloat16 as its uint16 bits), ``np_shape.params`` is saved under NumPy shape
semantics (NDArray V3: a 0-d and an empty array), and ``sparse.params`` holds row_sparse and CSR arrays.
MXNet 1.9.1 writes neither NDArray V1 nor the oldest form: tests/mxnet builds those from the layout.

The output is byte-for-byte the same on every run (seeded weights and inputs, MXNet's plain CPU kernels).
"""
import argparse
import os
import sys

import numpy as np

from mxnet_fixture_common import SEED, import_mxnet, init_params, run, save_ref
from mxnet_fixture_files import FILE_WRITERS
from mxnet_fixture_options import FILE_WRITERS as OPTION_WRITERS

FILE_WRITERS = dict(FILE_WRITERS, **OPTION_WRITERS)
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'mxnet', 'fixtures')


# -- the models: each returns (symbol, {input name: array}, {param name: (low, high) uniform range}) ---------

def convnet(rng):
    """Convolution, BatchNorm both ways, every Activation and LeakyReLU kind, Pooling's conventions,
    Flatten, FullyConnected with and without flatten, SoftmaxOutput."""
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    x = mx.sym.Convolution(data, num_filter=8, kernel=(3, 3), pad=(1, 1), name='conv1')
    x = mx.sym.BatchNorm(x, fix_gamma=False, eps=1e-5, name='bn1')
    x = mx.sym.Activation(x, act_type='relu', name='relu1')
    x = mx.sym.Convolution(x, num_filter=8, kernel=(3, 3), stride=(1, 1), pad=(1, 1), no_bias=True, name='conv2')
    x = mx.sym.BatchNorm(x, fix_gamma=True, eps=1e-3, momentum=0.9, name='bn2')
    branches = [mx.sym.Activation(x, act_type=kind, name='act_' + kind) for kind in ('sigmoid', 'tanh', 'softrelu')]
    branches += [mx.sym.LeakyReLU(x, act_type='leaky', slope=0.1, name='leaky'),
                 mx.sym.LeakyReLU(x, act_type='prelu', gamma=mx.sym.Variable('prelu_gamma'), name='prelu'),
                 mx.sym.LeakyReLU(x, act_type='elu', slope=0.8, name='elu'),
                 mx.sym.LeakyReLU(x, act_type='selu', name='selu'),
                 mx.sym.LeakyReLU(x, act_type='gelu', name='gelu')]
    x = mx.sym.add_n(*branches, name='sum_acts')
    full = mx.sym.Pooling(x, pool_type='max', kernel=(3, 3), stride=(2, 2), pooling_convention='full', name='pool_full')
    valid = mx.sym.Pooling(full, pool_type='avg', kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                           pooling_convention='valid', count_include_pad=False, name='pool_valid')
    gpool = mx.sym.Pooling(valid, pool_type='avg', kernel=(1, 1), global_pool=True, name='pool_global')
    flat = mx.sym.Flatten(gpool, name='flatten')
    fc1 = mx.sym.FullyConnected(flat, num_hidden=12, name='fc1')
    fc2 = mx.sym.FullyConnected(valid, num_hidden=10, name='fc2')  # flatten=True over a 4-D input
    fc3 = mx.sym.FullyConnected(mx.sym.transpose(valid, axes=(0, 2, 3, 1)), num_hidden=5, flatten=False, name='fc3')
    soft = mx.sym.SoftmaxOutput(fc2, name='softmax')
    sym = mx.sym.Group([soft, fc1, fc3, full])
    inputs = {'data': rng.standard_normal((2, 3, 17, 17)).astype(np.float32),
              'softmax_label': np.zeros((2,), np.float32)}
    return sym, inputs, {'prelu_gamma': (0.05, 0.4)}


def arcface_block(rng):
    """An InsightFace/ArcFace-style stem and residual unit: input scaling, PReLU, BN-Conv-BN-PReLU-Conv-BN
    with a strided 1x1 shortcut, then BN, Dropout, the embedding FC, BN without gamma and L2Normalization."""
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    x = (data - 127.5) * 0.0078125
    x = mx.sym.Convolution(x, num_filter=8, kernel=(3, 3), pad=(1, 1), no_bias=True, name='conv0')
    x = mx.sym.BatchNorm(x, fix_gamma=False, eps=2e-5, momentum=0.9, name='bn0')
    x = mx.sym.LeakyReLU(x, act_type='prelu', name='relu0')
    y = mx.sym.BatchNorm(x, fix_gamma=False, eps=2e-5, name='stage1_unit1_bn1')
    y = mx.sym.Convolution(y, num_filter=16, kernel=(3, 3), pad=(1, 1), no_bias=True, name='stage1_unit1_conv1')
    y = mx.sym.BatchNorm(y, fix_gamma=False, eps=2e-5, name='stage1_unit1_bn2')
    y = mx.sym.LeakyReLU(y, act_type='prelu', name='stage1_unit1_relu1')
    y = mx.sym.Convolution(y, num_filter=16, kernel=(3, 3), stride=(2, 2), pad=(1, 1), no_bias=True,
                           name='stage1_unit1_conv2')
    y = mx.sym.BatchNorm(y, fix_gamma=False, eps=2e-5, name='stage1_unit1_bn3')
    s = mx.sym.Convolution(x, num_filter=16, kernel=(1, 1), stride=(2, 2), no_bias=True, name='stage1_unit1_conv1sc')
    s = mx.sym.BatchNorm(s, fix_gamma=False, eps=2e-5, name='stage1_unit1_sc')
    x = y + s
    x = mx.sym.BatchNorm(x, fix_gamma=False, eps=2e-5, name='bn1')
    x = mx.sym.Dropout(x, p=0.4)
    x = mx.sym.FullyConnected(x, num_hidden=16, name='pre_fc1')
    x = mx.sym.BatchNorm(x, fix_gamma=True, eps=2e-5, name='fc1')
    x = mx.sym.L2Normalization(x, mode='instance', name='l2norm')
    inputs = {'data': rng.uniform(0, 255, (1, 3, 16, 16)).astype(np.float32)}
    return x, inputs, {'relu0_gamma': (0.1, 0.35), 'stage1_unit1_relu1_gamma': (0.1, 0.35)}


def reshape_slice(rng):
    """Reshape's special codes (0, -1, -2, -3, -4, reverse), slice/slice_axis/slice_like with None bounds,
    Concat."""
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    like = mx.sym.Variable('like')
    outs = [
        mx.sym.Reshape(data, shape=(0, -3, 0), name='r_0m30'),                    # (2, 24, 5)
        mx.sym.Reshape(mx.sym.Reshape(data, shape=(0, -3, 0)), shape=(0, -4, 3, -1, -2), name='r_0m43m1m2'),
        mx.sym.Reshape(data, shape=(0, -3, -2), name='r_0m3m2'),                  # (2, 24, 5)
        mx.sym.Reshape(data, shape=(-1, 0), reverse=True, name='r_rev'),          # (48, 5)
        mx.sym.Reshape(data, shape=(0, 0, -1), name='r_00m1'),                    # (2, 6, 20)
        mx.sym.Reshape(data, shape=(-2,), name='r_m2'),
        mx.sym.reshape(data, shape=(2, -1), name='r_2m1'),
        mx.sym.slice(data, begin=(None, 1, None, 0), end=(None, 5, 3, None), step=(None, 2, None, None), name='sl'),
        mx.sym.slice(data, begin=(1, -4), end=(None, None), name='sl_neg'),
        mx.sym.slice(data, begin=(None, 5), end=(None, 0), step=(1, -2), name='sl_step_neg'),
        mx.sym.slice_axis(data, axis=1, begin=1, end=None, name='sla_none'),
        mx.sym.slice_axis(data, axis=-1, begin=-3, end=-1, name='sla_neg'),
        mx.sym.slice_like(data, like, axes=(1, 2), name='sll_axes'),
        mx.sym.slice_like(data, like, name='sll_all'),
        mx.sym.Concat(data, data * 2, dim=1, name='concat1'),
        mx.sym.concat(data, data + 1, data - 1, dim=-1, name='concat_neg'),
    ]
    inputs = {'data': rng.standard_normal((2, 6, 4, 5)).astype(np.float32),
              'like': rng.standard_normal((1, 3, 2, 5)).astype(np.float32)}
    return mx.sym.Group(outs), inputs, {}


def elementwise(rng):
    """broadcast_* and the *_scalar ops, reductions, unary math, norm, log_softmax, argmax, broadcast_to/axis,
    reshape_like, hard_sigmoid, reverse."""
    mx = import_mxnet()
    a = mx.sym.Variable('a')
    b = mx.sym.Variable('b')
    pos = mx.sym.abs(a) + 0.5
    outs = [
        mx.sym.broadcast_add(a, b), mx.sym.broadcast_sub(a, b), mx.sym.broadcast_mul(a, b),
        mx.sym.broadcast_div(a, b), mx.sym.broadcast_maximum(a, b), mx.sym.broadcast_minimum(a, b),
        mx.sym.broadcast_power(pos, b),
        3.0 - a,                      # _rminus_scalar
        2.0 / pos,                    # _rdiv_scalar
        a ** 2.0,                     # _power_scalar
        2.0 ** a,                     # _rpower_scalar
        a * 1.5 + 0.25, (a - 1.0) / 4.0,
        mx.sym.maximum(a, 0.1), mx.sym.minimum(a, -0.1),
        mx.sym.mean(a, axis=1, keepdims=True), mx.sym.sum(a, axis=(1, 2)), mx.sym.mean(a),
        mx.sym.sum(a, axis=1, exclude=True),
        mx.sym.sqrt(pos), mx.sym.square(a), mx.sym.rsqrt(pos), mx.sym.log(pos), mx.sym.abs(a), mx.sym.exp(a),
        mx.sym.norm(a, ord=2, axis=1), mx.sym.norm(a), mx.sym.norm(a, ord=1, axis=(1, 2), keepdims=True),
        mx.sym.log_softmax(a, axis=-1), mx.sym.softmax(a, axis=1), mx.sym.argmax(a, axis=1),
        mx.sym.argmax(a, axis=2, keepdims=True),
        mx.sym.broadcast_to(b, shape=(2, 3, 4)), mx.sym.broadcast_to(b, shape=(2, 0, 4)),
        mx.sym.broadcast_axis(b, axis=(0, 2), size=(2, 4)),
        mx.sym.reshape_like(a, mx.sym.Variable('c')),
        mx.sym.hard_sigmoid(a, alpha=0.3, beta=0.4), mx.sym.reverse(a, axis=1), mx.sym.reverse(a, axis=(0, 2)),
        mx.sym.clip(a, -0.5, 0.5), mx.sym.expand_dims(a, axis=1), mx.sym.transpose(a, axes=(2, 0, 1)),
    ]
    inputs = {'a': rng.standard_normal((2, 3, 4)).astype(np.float32),
              'b': (rng.uniform(0.5, 1.5, (1, 3, 1)) * rng.choice([-1, 1], (1, 3, 1))).astype(np.float32),
              'c': np.zeros((4, 6), np.float32)}
    return mx.sym.Group(outs), inputs, {}


def _rnn(rng, mode):
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    params = mx.sym.Variable(mode + '_parameters')
    state = mx.sym.Variable(mode + '_state')
    args = dict(state_size=6, num_layers=2, bidirectional=True, mode=mode, state_outputs=True, name=mode)
    if mode == 'lstm':
        out = mx.sym.RNN(data, params, state, mx.sym.Variable('lstm_state_cell'), **args)
    else:
        out = mx.sym.RNN(data, params, state, **args)
    inputs = {'data': rng.standard_normal((5, 2, 4)).astype(np.float32),
              mode + '_state': (0.5 * rng.standard_normal((4, 2, 6))).astype(np.float32)}
    if mode == 'lstm':
        inputs['lstm_state_cell'] = (0.5 * rng.standard_normal((4, 2, 6))).astype(np.float32)
    return out, inputs, {mode + '_parameters': (-0.5, 0.5)}


def lstm(rng):
    """mx.sym.RNN: a 2-layer bidirectional LSTM (TNC) with given begin states and all three outputs."""
    return _rnn(rng, 'lstm')


def gru(rng):
    """mx.sym.RNN: a 2-layer bidirectional GRU (TNC) with a given begin state and both outputs."""
    return _rnn(rng, 'gru')


def deconv_upsample(rng):
    """Deconvolution (stride, pad, adj, groups), UpSampling nearest and bilinear, BilinearResize2D."""
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    d1 = mx.sym.Deconvolution(data, num_filter=3, kernel=(4, 4), stride=(2, 2), pad=(1, 1), name='deconv1')
    d2 = mx.sym.Deconvolution(data, num_filter=4, kernel=(3, 3), stride=(2, 2), pad=(1, 1), adj=(1, 1),
                              num_group=2, no_bias=True, name='deconv2')
    up = mx.sym.UpSampling(d1, scale=2, sample_type='nearest', name='up_nearest')
    upb = mx.sym.UpSampling(d2, mx.sym.Variable('up_bilinear_weight'), scale=2, sample_type='bilinear',
                            num_filter=4, num_args=2, name='up_bilinear')
    r1 = mx.sym.contrib.BilinearResize2D(data, height=7, width=9, name='resize_hw')
    r2 = mx.sym.contrib.BilinearResize2D(data, scale_height=2.0, scale_width=1.5, name='resize_scale')
    inputs = {'data': rng.standard_normal((1, 4, 5, 5)).astype(np.float32)}
    return mx.sym.Group([d1, d2, up, upb, r1, r2]), inputs, {}


def ssd_head(rng):
    """An SSD head on two feature maps: MultiBoxPrior, class and box predictions flattened and concatenated,
    SoftmaxActivation over channels, MultiBoxDetection."""
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    f1 = mx.sym.Activation(mx.sym.Convolution(data, num_filter=8, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                              name='f1_conv'), act_type='relu')
    f2 = mx.sym.Activation(mx.sym.Convolution(f1, num_filter=8, kernel=(3, 3), stride=(2, 2), pad=(1, 1),
                                              name='f2_conv'), act_type='relu')
    num_classes, anchors, cls, loc = 3, [], [], []
    for i, (feat, sizes, ratios) in enumerate([(f1, (0.2, 0.3), (1, 2, 0.5)), (f2, (0.5, 0.7), (1, 2))]):
        n = len(sizes) + len(ratios) - 1
        anchors.append(mx.sym.Flatten(mx.sym.contrib.MultiBoxPrior(feat, sizes=sizes, ratios=ratios, clip=(i == 1),
                                                                   name='prior%d' % i)))
        c = mx.sym.Convolution(feat, num_filter=n * (num_classes + 1), kernel=(3, 3), pad=(1, 1), name='cls%d' % i)
        cls.append(mx.sym.Flatten(mx.sym.transpose(c, axes=(0, 2, 3, 1))))
        b = mx.sym.Convolution(feat, num_filter=n * 4, kernel=(3, 3), pad=(1, 1), name='loc%d' % i)
        loc.append(mx.sym.Flatten(mx.sym.transpose(b, axes=(0, 2, 3, 1))))
    anchor = mx.sym.Reshape(mx.sym.Concat(*anchors, dim=1), shape=(0, -1, 4), name='anchors')
    cls = mx.sym.transpose(mx.sym.Reshape(mx.sym.Concat(*cls, dim=1), shape=(0, -1, num_classes + 1)),
                           axes=(0, 2, 1))
    cls_prob = mx.sym.SoftmaxActivation(cls, mode='channel', name='cls_prob')
    loc = mx.sym.Concat(*loc, dim=1, name='loc_preds')
    det = mx.sym.contrib.MultiBoxDetection(cls_prob, loc, anchor, nms_threshold=0.45, force_suppress=False,
                                           variances=(0.1, 0.1, 0.2, 0.2), nms_topk=20, name='detection')
    inputs = {'data': rng.standard_normal((1, 3, 16, 16)).astype(np.float32)}
    return mx.sym.Group([det, anchor, cls_prob]), inputs, {}


def rcnn_head(rng):
    """A Faster R-CNN head: _contrib_Proposal from RPN scores and deltas, then ROIPooling and _contrib_ROIAlign
    of the proposals and a FullyConnected on each."""
    mx = import_mxnet()
    feat = mx.sym.Variable('feat')
    im_info = mx.sym.Variable('im_info')
    num_anchors = 6
    score = mx.sym.Convolution(feat, num_filter=2 * num_anchors, kernel=(1, 1), name='rpn_cls_score')
    score = mx.sym.Reshape(score, shape=(0, 2, -1, 0), name='rpn_cls_score_reshape')
    prob = mx.sym.SoftmaxActivation(score, mode='channel', name='rpn_cls_prob')
    prob = mx.sym.Reshape(prob, shape=(0, 2 * num_anchors, -1, 0), name='rpn_cls_prob_reshape')
    delta = mx.sym.Convolution(feat, num_filter=4 * num_anchors, kernel=(1, 1), name='rpn_bbox_pred')
    rois = mx.sym.contrib.Proposal(prob, delta, im_info, feature_stride=16, scales=(2, 4), ratios=(0.5, 1, 2),
                                   rpn_pre_nms_top_n=50, rpn_post_nms_top_n=8, threshold=0.7, rpn_min_size=4,
                                   name='rois')
    pool = mx.sym.ROIPooling(feat, rois, pooled_size=(2, 2), spatial_scale=0.0625, name='roi_pool')
    align = mx.sym.contrib.ROIAlign(feat, rois, pooled_size=(3, 3), spatial_scale=0.0625, sample_ratio=2,
                                    name='roi_align')
    fc = mx.sym.FullyConnected(pool, num_hidden=4, name='cls_score')
    fc2 = mx.sym.FullyConnected(align, num_hidden=4, name='cls_score_align')
    inputs = {'feat': rng.standard_normal((1, 4, 6, 8)).astype(np.float32),
              'im_info': np.array([[96, 128, 1.0]], np.float32)}
    # small box deltas: proposals that are not all clipped to the image border
    return mx.sym.Group([rois, pool, align, fc, fc2]), inputs, {'rpn_bbox_pred_weight': (-0.15, 0.15)}


def box_ops(rng):
    """_contrib_box_nms (corner and center boxes, a class id) and _contrib_box_decode."""
    mx = import_mxnet()
    dets = mx.sym.Variable('dets')
    deltas = mx.sym.Variable('deltas')
    anchors = mx.sym.Variable('anchors')
    nms = mx.sym.contrib.box_nms(dets, overlap_thresh=0.5, valid_thresh=0.05, topk=-1, coord_start=2,
                                 score_index=1, id_index=0, force_suppress=False, name='nms')
    nms2 = mx.sym.contrib.box_nms(dets, overlap_thresh=0.3, valid_thresh=0.0, topk=5, coord_start=2,
                                  score_index=1, id_index=-1, in_format='corner', out_format='center',
                                  name='nms_center')
    dec = mx.sym.contrib.box_decode(deltas, anchors, std0=0.1, std1=0.1, std2=0.2, std3=0.2, clip=2.0,
                                    format='corner', name='decode')
    dec2 = mx.sym.contrib.box_decode(deltas, anchors, format='center', name='decode_center')
    n = 12
    xy = rng.uniform(0, 40, (1, n, 2))
    wh = rng.uniform(8, 24, (1, n, 2))
    boxes = np.concatenate([xy, xy + wh], -1)
    ids = rng.integers(0, 2, (1, n, 1)).astype(np.float64)
    scores = rng.permutation(np.linspace(0.02, 0.98, n)).reshape(1, n, 1)  # distinct: a stable order
    inputs = {'dets': np.concatenate([ids, scores, boxes], -1).astype(np.float32),
              'deltas': (0.5 * rng.standard_normal((1, n, 4))).astype(np.float32),
              'anchors': boxes.astype(np.float32)}
    return mx.sym.Group([nms, nms2, dec, dec2]), inputs, {}


def control_flow(rng):
    """The control-flow ops, whose bodies are subgraphs in the JSON: _foreach (a tanh recurrence over the first
    axis with a weight from outside), _while_loop (its final states) and _cond."""
    mx = import_mxnet()
    data, init, i = mx.sym.Variable('data'), mx.sym.Variable('init'), mx.sym.Variable('i')
    weight = mx.sym.Variable('w')

    def step(x, states):
        state = states[0] * 0.5 + mx.sym.broadcast_mul(x, weight)
        return mx.sym.tanh(state), [state]
    outs, states = mx.sym.contrib.foreach(step, data, [init], name='scan')
    # the loop's per-step outputs past its last step are undefined: only its final states are compared
    _, (count, total) = mx.sym.contrib.while_loop(lambda n, s: n < 3, lambda n, s: (s * 2, [n + 1, s * 0.5 + 1]),
                                                  [i, init], max_iterations=5, name='loop')
    branch = mx.sym.contrib.cond(mx.sym.sum(init) > 0, lambda: init * 2, lambda: init - 1, name='branch')
    inputs = {'data': rng.standard_normal((3, 2, 4)).astype(np.float32),
              'init': rng.standard_normal((2, 4)).astype(np.float32), 'i': np.zeros((1,), np.float32)}
    return mx.sym.Group([outs, states[0], count, total, branch]), inputs, {'w': (-1.0, 1.0, (2, 4))}


def while_stacked(rng):
    """_while_loop's per-step outputs, stacked on a new axis 0 to max_iterations: two outputs of different shapes
    from a loop that reads a weight from outside and stops before max_iterations (MXNet leaves the rows past its
    last step uninitialised: the test compares the steps the counter says ran), one from a loop that runs to
    max_iterations."""
    mx = import_mxnet()
    i, init, weight = mx.sym.Variable('i'), mx.sym.Variable('init'), mx.sym.Variable('w')

    def step(n, s):
        state = mx.sym.tanh(mx.sym.broadcast_mul(s, weight)) + 0.5
        return [state * 2, mx.sym.sum(state, axis=1)], [n + 1, state]
    (per_step, sums), (count, state) = mx.sym.contrib.while_loop(lambda n, s: n < 3, step, [i, init],
                                                                 max_iterations=5, name='early')
    full, (full_count, _) = mx.sym.contrib.while_loop(lambda n, s: n < 100, lambda n, s: (s * 0.5, [n + 1, s + 1]),
                                                      [i, init], max_iterations=4, name='full')
    inputs = {'i': np.zeros((1,), np.float32), 'init': rng.standard_normal((2, 4)).astype(np.float32)}
    return mx.sym.Group([per_step, sums, count, state, full, full_count]), inputs, {'w': (-1.0, 1.0, (2, 4))}


def ssd_batch(rng):
    """The SSD head of ``ssd_head`` on a batch of 3 images: MultiBoxDetection decodes each image on its own."""
    sym, _, ranges = ssd_head(rng)
    return sym, {'data': rng.standard_normal((3, 3, 16, 16)).astype(np.float32)}, ranges


def multi_proposal(rng):
    """_contrib_MultiProposal (Proposal for a batch: rois of every image, column 0 the image's index) on 2 images of
    different sizes, then ROIPooling and ROIAlign of each roi in its own image, as a Faster R-CNN with batch 2."""
    mx = import_mxnet()
    feat = mx.sym.Variable('feat')
    num_anchors = 6
    score = mx.sym.Convolution(feat, num_filter=2 * num_anchors, kernel=(1, 1), name='rpn_cls_score')
    prob = mx.sym.SoftmaxActivation(mx.sym.Reshape(score, shape=(0, 2, -1, 0)), mode='channel', name='rpn_cls_prob')
    prob = mx.sym.Reshape(prob, shape=(0, 2 * num_anchors, -1, 0), name='rpn_cls_prob_reshape')
    delta = mx.sym.Convolution(feat, num_filter=4 * num_anchors, kernel=(1, 1), name='rpn_bbox_pred')
    rois, scores = mx.sym.contrib.MultiProposal(prob, delta, mx.sym.Variable('im_info'), feature_stride=16,
                                                scales=(2, 4), ratios=(0.5, 1, 2), rpn_pre_nms_top_n=50,
                                                rpn_post_nms_top_n=6, threshold=0.7, rpn_min_size=4,
                                                output_score=True, name='rois')
    pool = mx.sym.ROIPooling(feat, rois, pooled_size=(2, 2), spatial_scale=0.0625, name='roi_pool')
    align = mx.sym.contrib.ROIAlign(feat, rois, pooled_size=(2, 2), spatial_scale=0.0625, sample_ratio=2,
                                    name='roi_align')
    inputs = {'feat': rng.standard_normal((2, 4, 6, 8)).astype(np.float32),
              'im_info': np.array([[96, 128, 1.0], [80, 100, 1.5]], np.float32)}
    return mx.sym.Group([rois, scores, pool, align]), inputs, {'rpn_bbox_pred_weight': (-0.15, 0.15)}


MODELS = [convnet, arcface_block, reshape_slice, elementwise, lstm, gru, deconv_upsample, ssd_head, rcnn_head,
          box_ops, control_flow, while_stacked, ssd_batch, multi_proposal]


#: model -> {output index: index of the output counting the loop's steps}: a _while_loop's stacked output has
#: max_iterations rows, of which MXNet fills the steps that ran and leaves the rest uninitialised memory; they
#: are saved as 0, so that the file is the same on every run (the tests compare the steps that ran)
UNDEFINED_ROWS = {'while_stacked': {0: 2, 1: 2}}


def write_model(make, out):
    mx = import_mxnet()
    rng = np.random.default_rng([SEED, MODELS.index(make)] if make in MODELS else SEED)
    sym, inputs, ranges = make(rng)
    args, aux = init_params(sym, inputs, ranges, rng)
    outputs = run(sym, inputs, args, aux)
    for index, counter in UNDEFINED_ROWS.get(make.__name__, {}).items():
        outputs[index][int(outputs[counter].ravel()[0]):] = 0
    for i, value in enumerate(outputs):
        if not np.all(np.isfinite(value)):
            raise SystemExit('{}: output {} is not finite'.format(make.__name__, i))
    prefix = os.path.join(out, make.__name__)
    mx.model.save_checkpoint(prefix, 0, sym, args, aux)
    save_ref(prefix + '.ref.npz', inputs, outputs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--out', default=DEFAULT_OUT)
    parser.add_argument('names', nargs='*', help='models to write (default: all, and the .params fixtures)')
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    makers = {make.__name__: make for make in MODELS}
    names = args.names or list(makers) + list(FILE_WRITERS)
    for name in names:
        if name in FILE_WRITERS:
            if not FILE_WRITERS[name](args.out):
                print('skipped', name, '(GluonCV is not installed)')
                continue
        elif name in makers:
            write_model(makers[name], args.out)
        else:
            raise SystemExit('unknown model {}'.format(name))
        print('wrote', name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
