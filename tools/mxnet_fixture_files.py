"""The MXNet fixtures that are not a symbol built with ``mx.sym``: Gluon exports (an LSTM; GluonCV's SSD,
YOLOv3 and Faster R-CNN around tiny backbones, and GluonCV ``export_block`` outputs, when GluonCV is installed), a hand-written MXNet 0.8 graph and
the ``.params`` files of the reader's own tests. Written by tools/make_mxnet_models.py (see its docstring)."""
import json
import os
import re

import numpy as np

from mxnet_fixture_common import SEED, import_mxnet, init_params, run, save_ref


def gluon_lstm(out):
    """A hybridized Gluon block (2-layer bidirectional LSTM, NTC, then Dense) exported as Gluon does it: the
    begin states are made inside the graph and the LSTM weights are concatenated by _rnn_param_concat."""
    mx = import_mxnet()
    from mxnet import gluon

    class Net(gluon.HybridBlock):
        def __init__(self):
            super().__init__(prefix='net_')
            with self.name_scope():
                self.lstm = gluon.rnn.LSTM(6, num_layers=2, bidirectional=True, layout='NTC', input_size=4)
                self.dense = gluon.nn.Dense(3, flatten=False, in_units=12)

        def hybrid_forward(self, F, x):
            return self.dense(self.lstm(x))

    mx.random.seed(SEED)
    net = Net()
    net.initialize(mx.init.Uniform(1.0))
    net.hybridize()
    rng = np.random.default_rng([SEED, 100])
    x = rng.standard_normal((2, 5, 4)).astype(np.float32)
    y = net(mx.nd.array(x)).asnumpy()
    prefix = os.path.join(out, 'gluon_lstm')
    net.export(prefix, epoch=0)
    save_ref(prefix + '.ref.npz', {'data': x}, [y])
    return True


def _gluoncv():
    """GluonCV's SSD, YOLOv3 and Faster R-CNN modules, or None without GluonCV (``gluoncv.model_zoo.ssd`` the
    package is shadowed by a module of that name, hence the full paths)."""
    import importlib
    try:
        return (importlib.import_module('gluoncv.model_zoo.ssd.ssd'),
                importlib.import_module('gluoncv.model_zoo.yolo.yolo3'),
                importlib.import_module('gluoncv.model_zoo.rcnn.faster_rcnn.faster_rcnn'))
    except ImportError:
        return None


def _export_detector(net, name, out, seed, size=(64, 64)):
    """Initialize ``net`` (seeded; BatchNorm's statistics and affine drawn away from 0/1), run it hybridized on
    a seeded image of ``size``, export it and its reference."""
    mx = import_mxnet()
    mx.random.seed(SEED)
    net.initialize(mx.init.Uniform(0.3))
    rng = np.random.default_rng([SEED, seed])
    x = rng.standard_normal((1, 3) + size).astype(np.float32)
    net(mx.nd.array(x))  # the deferred shapes become known
    _draw_affine_and_statistics(net, rng)
    net.hybridize()
    outputs = [o.asnumpy() for o in net(mx.nd.array(x))]
    prefix = os.path.join(out, name)
    net.export(prefix, epoch=0)
    _drop_constant_ids(prefix)
    save_ref(prefix + '.ref.npz', {'data': x}, outputs)


def _draw_affine_and_statistics(net, rng):
    """BatchNorm's running statistics and every gamma, beta and bias of ``net`` drawn away from 0/1."""
    mx = import_mxnet()
    for pname, param in sorted(net.collect_params().items()):
        shape = param.shape
        if pname.endswith('running_mean'):
            param.set_data(mx.nd.array(0.3 * rng.standard_normal(shape)))
        elif pname.endswith('running_var'):
            param.set_data(mx.nd.array(rng.uniform(0.5, 1.5, shape)))
        elif pname.endswith('gamma'):
            param.set_data(mx.nd.array(rng.uniform(0.6, 1.4, shape)))
        elif pname.endswith(('beta', 'bias')):
            param.set_data(mx.nd.array(0.2 * rng.standard_normal(shape)))


def _drop_constant_ids(prefix):
    """A Constant parameter's initializer is named after the id() of its Python object: drop that number from
    ``PREFIX-symbol.json`` so that every run writes the same file (the initializer plays no part in inference)."""
    with open(prefix + '-symbol.json') as f:
        text = re.sub(r'("__init__": "Constant_[^"]*?)_[0-9]{6,}"', r'\1"', f.read())
    with open(prefix + '-symbol.json', 'w') as f:
        f.write(text)


def _fresh_names(writer):
    """``writer`` run under a new MXNet name manager: Gluon numbers unnamed blocks (``ssd0``,
    ``_defaultpreprocess0``) per process, so without it the names would depend on the fixtures written before."""
    import functools

    @functools.wraps(writer)
    def write(out):
        mx = import_mxnet()
        with mx.name.NameManager():
            return writer(out)
    return write


def _tiny_backbone(gluon, stride_outputs):
    class Backbone(gluon.HybridBlock):
        """Three stride-2 convolutions; the last ``stride_outputs`` feature maps are the outputs."""

        def __init__(self):
            super().__init__()
            with self.name_scope():
                self.convs = [gluon.nn.Conv2D(8, 3, 2, 1, activation='relu') for _ in range(3)]
                for conv in self.convs:
                    self.register_child(conv)

        def hybrid_forward(self, F, x):
            maps = []
            for conv in self.convs:
                x = conv(x)
                maps.append(x)
            return tuple(maps[-stride_outputs:])
    return Backbone()


@_fresh_names
def gluoncv_ssd(out):
    """GluonCV's SSD (its anchor generator, box decoder, per-class decoder and box_nms as its export has them)
    around a three-convolution backbone with two feature maps, 2 classes, 64x64 input."""
    modules = _gluoncv()
    if modules is None:
        return False
    from mxnet import gluon
    net = modules[0].SSD(None, 64, lambda **kwargs: _tiny_backbone(gluon, 2), [8], [12, 24, 40], [[1, 2, 0.5]] * 2,
                         [16, 32], classes=['a', 'b'], nms_topk=50, post_nms=10, anchor_alloc_size=16)
    _export_detector(net, 'gluoncv_ssd', out, 400)
    return True


@_fresh_names
def gluoncv_yolo3(out):
    """GluonCV's YOLOv3 (its output layers, upsampling by repeat, box decoding and box_nms) on three stages of
    one conv + BN + LeakyReLU each, 3 classes, 64x64 input."""
    modules = _gluoncv()
    if modules is None:
        return False
    from mxnet import gluon

    def stage(stride):
        block = gluon.nn.HybridSequential()
        block.add(gluon.nn.Conv2D(8, 3, stride, 1, use_bias=False), gluon.nn.BatchNorm(), gluon.nn.LeakyReLU(0.1))
        return block
    anchors = [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]]
    net = modules[1].YOLOV3([stage(8), stage(2), stage(2)], [16, 8, 8], anchors, [32, 16, 8],
                            classes=['a', 'b', 'c'], alloc_size=(16, 16), nms_topk=50, post_nms=10)
    _export_detector(net, 'gluoncv_yolo3', out, 500)
    return True


#: a graph as MXNet 0.8 wrote it: attributes under "param" and "attr", hidden keys without underscores (also
#: an op's ARG_KEY form), two-element inputs, no versions, no BatchNorm moving statistics, argmax's axis -1
LEGACY_V08 = {
    'nodes': [
        {'op': 'null', 'param': {}, 'name': 'data', 'inputs': [], 'backward_source_id': -1},
        {'op': 'null', 'param': {}, 'name': 'conv_weight', 'inputs': [], 'backward_source_id': -1,
         'attr': {'lr_mult': '2.0'}},
        {'op': 'null', 'param': {}, 'name': 'conv_bias', 'inputs': [], 'backward_source_id': -1,
         'attr': {'wd_mult': '0.3', 'bias_lr_mult': '1.2'}},  # ARG_KEY on a variable stays as it is
        {'op': 'Convolution', 'param': {'kernel': '(3,3)', 'num_filter': '4', 'no_bias': 'False', 'pad': '(1,1)'},
         'name': 'conv', 'inputs': [[0, 0], [1, 0], [2, 0]], 'backward_source_id': -1,
         'attr': {'weight_wd_mult': '0.5', 'ctx_group': 'dev1'}},
        {'op': 'null', 'param': {}, 'name': 'bn_gamma', 'inputs': [], 'backward_source_id': -1},
        {'op': 'null', 'param': {}, 'name': 'bn_beta', 'inputs': [], 'backward_source_id': -1},
        {'op': 'BatchNorm', 'param': {'fix_gamma': 'False', 'eps': '0.001', 'momentum': '0.9',
                                      'use_global_stats': 'False'},
         'name': 'bn', 'inputs': [[3, 0], [4, 0], [5, 0]], 'backward_source_id': -1},
        {'op': 'argmax', 'param': {'axis': '-1'}, 'name': 'am', 'inputs': [[6, 0]], 'backward_source_id': -1},
        {'op': 'Flatten', 'param': {}, 'name': 'flat', 'inputs': [[6, 0]], 'backward_source_id': -1},
    ],
    'arg_nodes': [0, 1, 2, 4, 5],
    'heads': [[7, 0], [8, 0]],
}


def legacy_v08(out):
    """LEGACY_V08 as legacy_v08-symbol.json, MXNet's own upgrade of it (``mx.sym.load`` then ``tojson``) as
    legacy_v08.upgraded.json, and weights and references as for the other models."""
    mx = import_mxnet()
    prefix = os.path.join(out, 'legacy_v08')
    with open(prefix + '-symbol.json', 'w') as f:
        json.dump(LEGACY_V08, f, indent=1)
    sym = mx.sym.load(prefix + '-symbol.json')
    with open(prefix + '.upgraded.json', 'w') as f:
        f.write(sym.tojson())
    rng = np.random.default_rng([SEED, 300])
    inputs = {'data': rng.standard_normal((1, 3, 5, 5)).astype(np.float32)}
    args, aux = init_params(sym, inputs, {}, rng)
    outputs = run(sym, inputs, args, aux)
    mx.nd.save(prefix + '-0000.params', dict([('arg:' + k, v) for k, v in args.items()]
                                             + [('aux:' + k, v) for k, v in aux.items()]))
    save_ref(prefix + '.ref.npz', inputs, outputs)
    return True


def param_files(out):
    """dtypes.params (+ .ref.npz), np_shape.params (+ .ref.npz) and sparse.params."""
    mx = import_mxnet()
    rng = np.random.default_rng([SEED, 200])
    values = {
        'float32': rng.standard_normal((2, 3)).astype(np.float32),
        'float64': rng.standard_normal((3,)),
        'float16': rng.standard_normal((2, 2, 2)).astype(np.float16),
        'uint8': rng.integers(0, 256, (5,)).astype(np.uint8),
        'int32': rng.integers(-2 ** 31, 2 ** 31, (2, 2)).astype(np.int32),
        'int8': rng.integers(-128, 128, (7,)).astype(np.int8),
        'int64': rng.integers(-2 ** 62, 2 ** 62, (3, 1)).astype(np.int64),
        'bool': rng.integers(0, 2, (4,)).astype(np.bool_),
    }
    arrays = {('arg:' if i % 2 else 'aux:') + name: mx.nd.array(value, dtype=value.dtype)
              for i, (name, value) in enumerate(values.items())}
    bf16 = np.dtype([('bfloat16', np.uint16)])  # MXNet's own stand-in for bfloat16
    arrays['arg:bfloat16'] = mx.nd.amp_cast(mx.nd.array(rng.standard_normal((2, 3)).astype(np.float32)), dtype=bf16)
    arrays['unprefixed_weight'] = mx.nd.array(np.arange(6, dtype=np.float32).reshape(1, 2, 3, 1))
    mx.nd.waitall()
    mx.nd.save(os.path.join(out, 'dtypes.params'), arrays)
    loaded = mx.nd.load(os.path.join(out, 'dtypes.params'))
    ref = {}
    for name, array in loaded.items():
        value = array.asnumpy()
        ref[name] = value.view(np.uint16) if value.dtype == bf16 else value
    # the bfloat16 values as float32 too, from MXNet's own cast
    ref['arg:bfloat16:as_float32'] = mx.nd.amp_cast(loaded['arg:bfloat16'], dtype='float32').asnumpy()
    np.savez_compressed(os.path.join(out, 'dtypes.ref.npz'), **ref)

    with mx.util.np_shape(True):
        np_arrays = {'arg:scalar': mx.nd.array([2.5]).reshape(()), 'arg:empty': mx.nd.zeros((0, 3)),
                     'arg:matrix': mx.nd.array(rng.standard_normal((2, 2)).astype(np.float32))}
        mx.nd.waitall()
        mx.nd.save(os.path.join(out, 'np_shape.params'), np_arrays)
        loaded = mx.nd.load(os.path.join(out, 'np_shape.params'))
        np.savez_compressed(os.path.join(out, 'np_shape.ref.npz'),
                            **{name: array.asnumpy() for name, array in loaded.items()})

    dense = mx.nd.array(np.ones((2, 2), np.float32))
    rows = mx.nd.sparse.row_sparse_array((np.ones((1, 3), np.float32), [1]), shape=(4, 3))
    csr = mx.nd.sparse.csr_matrix(np.eye(3, dtype=np.float32))
    mx.nd.waitall()
    mx.nd.save(os.path.join(out, 'sparse.params'), {'arg:dense': dense, 'arg:embed_weight': rows, 'aux:csr': csr})
    return True


@_fresh_names
def gluoncv_faster_rcnn(out):
    """GluonCV's Faster R-CNN (RPN anchors, box decoding and box_nms for proposals, ROIAlign, the per-class
    decoder and its NMS, with shape_array, Cast, stack, split and AdaptiveAvgPooling2D on the way) on four
    stride-2 convolutions, 2 classes, a 64x96 input."""
    modules = _gluoncv()
    if modules is None:
        return False
    from mxnet import gluon
    features = gluon.nn.HybridSequential()
    features.add(*[gluon.nn.Conv2D(8, 3, 2, 1, activation='relu') for _ in range(4)])
    top = gluon.nn.HybridSequential()
    top.add(gluon.nn.Conv2D(8, 3, 1, 1, activation='relu'), gluon.nn.GlobalAvgPool2D())
    net = modules[2].FasterRCNN(features, top, classes=['a', 'b'], short=64, max_size=96, nms_topk=20, post_nms=5,
                                roi_mode='align', roi_size=(4, 4), strides=16, rpn_channel=8, scales=(2, 4),
                                ratios=(0.5, 1, 2), alloc_size=(16, 16), rpn_test_pre_nms=50, rpn_test_post_nms=10,
                                rpn_min_size=2)
    _export_detector(net, 'gluoncv_faster_rcnn', out, 600, size=(64, 96))
    return True


#: name -> writer(out) of each fixture this module makes; a writer returns False when it cannot run here
FILE_WRITERS = {'gluon_lstm': gluon_lstm, 'gluoncv_ssd': gluoncv_ssd, 'gluoncv_yolo3': gluoncv_yolo3,
                'gluoncv_faster_rcnn': gluoncv_faster_rcnn, 'legacy_v08': legacy_v08, 'params': param_files}


def _export_block_with_reference(net, name, out, rng, images, preprocess, layout):
    """Export ``net`` (initialized, seeded) with GluonCV's ``export_block(preprocess, layout)`` as ``name``, then
    load what was written as a deployment does (``SymbolBlock.imports``) and save its outputs on ``images[0]`` as
    ``NAME.ref.npz`` and on each further image ``k`` as ``NAME.ref<k>.npz``."""
    from gluoncv.utils import export_block
    mx = import_mxnet()
    from mxnet import gluon
    net(mx.nd.zeros((1, 3) + images[0].shape[1:3] if layout == 'HWC' else images[0].shape))  # deferred shapes
    _draw_affine_and_statistics(net, rng)
    prefix = os.path.join(out, name)
    export_block(prefix, net, data_shape=images[0].shape[1:], preprocess=preprocess, layout=layout)
    _drop_constant_ids(prefix)
    block = gluon.SymbolBlock.imports(prefix + '-symbol.json', ['data'], prefix + '-0000.params')
    for index, image in enumerate(images):
        outputs = block(mx.nd.array(image))
        outputs = [o.asnumpy() for o in (outputs if isinstance(outputs, (list, tuple)) else [outputs])]
        save_ref(prefix + ('.ref.npz' if index == 0 else '.ref{}.npz'.format(index)), {'data': image}, outputs)


def _tiny_classifier():
    """A GluonCV-style classifier: conv + BN + ReLU stem, a strided conv, global pooling and a Dense of 5."""
    from mxnet import gluon
    net = gluon.nn.HybridSequential(prefix='tinycls_')
    with net.name_scope():
        net.add(gluon.nn.Conv2D(8, 3, 1, 1, use_bias=False), gluon.nn.BatchNorm(), gluon.nn.Activation('relu'),
                gluon.nn.Conv2D(8, 3, 2, 1, activation='relu'), gluon.nn.GlobalAvgPool2D(), gluon.nn.Dense(5))
    return net


@_fresh_names
def gluoncv_export_hwc(out):
    """GluonCV's ``export_block(preprocess=True, layout='HWC')`` of a tiny classifier: the graph starts with its
    default preprocessing (broadcast_minus of the mean, broadcast_div by the std, both constants in the .params,
    then transpose NHWC -> NCHW), so its input is an image, here 1x32x32x3 in 0..255 (and 2x24x40x3 in
    ``.ref1.npz``)."""
    if _gluoncv() is None:
        return False
    mx = import_mxnet()
    mx.random.seed(SEED)
    net = _tiny_classifier()
    net.initialize(mx.init.Uniform(0.3))
    rng = np.random.default_rng([SEED, 700])
    images = [rng.uniform(0, 255, shape).astype(np.float32) for shape in ((1, 32, 32, 3), (2, 24, 40, 3))]
    _export_block_with_reference(net, 'gluoncv_export_hwc', out, rng, images, True, 'HWC')
    return True


@_fresh_names
def gluoncv_export_chw(out):
    """The same classifier exported by ``export_block(preprocess=None, layout='CHW')``: no preprocessing, an
    NCHW input (1x3x32x32)."""
    if _gluoncv() is None:
        return False
    mx = import_mxnet()
    mx.random.seed(SEED)
    net = _tiny_classifier()
    net.initialize(mx.init.Uniform(0.3))
    rng = np.random.default_rng([SEED, 701])
    images = [rng.standard_normal((1, 3, 32, 32)).astype(np.float32)]
    _export_block_with_reference(net, 'gluoncv_export_chw', out, rng, images, None, 'CHW')
    return True


@_fresh_names
def gluoncv_ssd_hwc(out):
    """The gluoncv_ssd detector as ``export_block(preprocess=True, layout='HWC')`` writes it: a 1x64x64x3 image
    in 0..255, normalised and transposed inside the graph."""
    modules = _gluoncv()
    if modules is None:
        return False
    mx = import_mxnet()
    from mxnet import gluon
    net = modules[0].SSD(None, 64, lambda **kwargs: _tiny_backbone(gluon, 2), [8], [12, 24, 40], [[1, 2, 0.5]] * 2,
                         [16, 32], classes=['a', 'b'], nms_topk=50, post_nms=10, anchor_alloc_size=16)
    mx.random.seed(SEED)
    net.initialize(mx.init.Uniform(0.3))
    rng = np.random.default_rng([SEED, 702])
    images = [rng.uniform(0, 255, (1, 64, 64, 3)).astype(np.float32)]
    _export_block_with_reference(net, 'gluoncv_ssd_hwc', out, rng, images, True, 'HWC')
    return True


FILE_WRITERS.update(gluoncv_export_hwc=gluoncv_export_hwc, gluoncv_export_chw=gluoncv_export_chw,
                    gluoncv_ssd_hwc=gluoncv_ssd_hwc)
