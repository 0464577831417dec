"""TF1-style graphs with named scopes (Inception blocks, an SSD post-processor, a YOLO head)."""
from __future__ import annotations

import math

import numpy as np

from .records import ModelRecord, TensorInfo, _register, _tf


# TF1-style graphs with predictable names
# --------------------------------------------------------------------------------------------

class _Tf1Builder:
    """Helpers for building slim-like frozen graphs in graph mode with exact node names.

    A weight is ``Const NAME`` followed by ``Identity NAME/read``, as in a graph frozen from a
    TF1 checkpoint.
    """

    def __init__(self, seed: int):
        self.tf = _tf()
        self.rng = np.random.default_rng(seed)

    def weight(self, name, value):
        tf = self.tf
        c = tf.constant(np.asarray(value, dtype=np.float32), name=name)
        return tf.identity(c, name=name + '/read')

    def conv_bn(self, x, cout, k, stride, padding, scope, activation='Relu', bias=False, bn=True):
        """slim conv2d: SCOPE/weights, SCOPE/Conv2D, SCOPE/BatchNorm/FusedBatchNormV3, SCOPE/<act>."""
        tf = self.tf
        cin = int(x.shape[-1])
        with tf.name_scope(scope):
            w = self.weight('weights', self.rng.normal(0, math.sqrt(2.0 / (k * k * cin)),
                                                       (k, k, cin, cout)))
            y = tf.nn.conv2d(x, w, strides=[1, stride, stride, 1], padding=padding, name='Conv2D')
            if bias:
                b = self.weight('biases', self.rng.normal(0, 0.1, (cout,)))
                y = tf.nn.bias_add(y, b, name='BiasAdd')
            if bn:
                with tf.name_scope('BatchNorm'):
                    gamma = self.weight('gamma', self.rng.uniform(0.5, 1.5, cout))
                    beta = self.weight('beta', self.rng.normal(0, 0.2, cout))
                    mean = self.weight('moving_mean', self.rng.normal(0, 0.2, cout))
                    var = self.weight('moving_variance', self.rng.uniform(0.5, 1.5, cout))
                    y = tf.raw_ops.FusedBatchNormV3(
                        x=y, scale=gamma, offset=beta, mean=mean, variance=var, epsilon=1e-3,
                        is_training=False, data_format='NHWC', name='FusedBatchNormV3')[0]
            if activation == 'Relu':
                y = tf.nn.relu(y, name='Relu')
            elif activation == 'Relu6':
                y = tf.nn.relu6(y, name='Relu6')
            elif activation == 'LeakyRelu':
                y = tf.nn.leaky_relu(y, alpha=0.1, name='LeakyRelu')
            elif activation is not None:
                raise ValueError(activation)
        return y

    def finish(self, graph, name, inputs, outputs, notes, meta, feed_range=(-1.0, 1.0)):
        gd = graph.as_graph_def()
        data = gd.SerializeToString(deterministic=True)
        shapes = []
        for o in outputs:
            t = graph.get_tensor_by_name(o if ':' in o else o + ':0')
            shapes.append(tuple(int(d) for d in t.shape))
        return ModelRecord(name=name, graph_def=data, inputs=tuple(inputs), outputs=tuple(outputs),
                           output_shapes=tuple(shapes), feed_range=feed_range, notes=notes,
                           meta=meta, node_count=len(gd.node))


INCEPTION_SHAPE = (1, 19, 19, 3)
INCEPTION_BLOCKS = ('Mixed_5b', 'Mixed_5c', 'Mixed_5d')


@_register('inception_blocks')
def build_inception_blocks() -> ModelRecord:
    """Slim InceptionV4-like graph with three identical blocks under named scopes.

    Names (every conv unit is ``.../weights`` (Const) -> ``.../weights/read`` -> ``.../Conv2D`` ->
    ``.../BatchNorm/FusedBatchNormV3`` (gamma, beta, moving_mean, moving_variance likewise) ->
    ``.../Relu``)::

        input                                   Placeholder [1,19,19,3]
        InceptionV4/Conv2d_1a_3x3/...           3x3 stride 2 VALID -> [1,9,9,16]
        InceptionV4/Mixed_5a/Branch_0/Conv2d_0a_3x3/...      3x3 SAME, 16 ch
        InceptionV4/Mixed_5a/Branch_1/MaxPool_0a_3x3/MaxPool 3x3 stride 1 SAME
        InceptionV4/Mixed_5a/concat (+ concat/axis)          -> [1,9,9,32]
        InceptionV4/Mixed_5{b,c,d}/                            identical blocks, [1,9,9,32] -> same
            Branch_0/Conv2d_0a_1x1/...                        1x1, 8 ch
            Branch_1/Conv2d_0a_1x1/..., Branch_1/Conv2d_0b_3x3/...
            Branch_2/Conv2d_0a_1x1/..., Branch_2/Conv2d_0b_3x3/..., Branch_2/Conv2d_0c_3x3/...
            Branch_3/AvgPool_0a_3x3/AvgPool, Branch_3/Conv2d_0b_1x1/...
            concat (ConcatV2 of the 4 branches, axis Const concat/axis = 3)
        InceptionV4/Logits/AvgPool_1a/AvgPool   9x9 VALID -> [1,1,1,32]
        InceptionV4/Logits/Flatten/Reshape      -> [1,32]
        InceptionV4/Logits/Logits/MatMul, .../BiasAdd  (weights, biases)
        InceptionV4/Logits/Predictions          Softmax [1,10]   <- output

    The inputs of each Mixed_5{b,c,d} block all read the previous block's ``concat`` on port 0
    (``Branch_0/Conv2d_0a_1x1/Conv2D``, ``Branch_1/Conv2d_0a_1x1/Conv2D``,
    ``Branch_2/Conv2d_0a_1x1/Conv2D``, ``Branch_3/AvgPool_0a_3x3/AvgPool``); the output is ``concat``.
    """
    b = _Tf1Builder(seed=31)
    tf = b.tf
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, INCEPTION_SHAPE, name='input')
        with tf.name_scope('InceptionV4'):
            net = b.conv_bn(x, 16, 3, 2, 'VALID', 'Conv2d_1a_3x3')
            with tf.name_scope('Mixed_5a'):
                with tf.name_scope('Branch_0'):
                    b0 = b.conv_bn(net, 16, 3, 1, 'SAME', 'Conv2d_0a_3x3')
                with tf.name_scope('Branch_1'):
                    with tf.name_scope('MaxPool_0a_3x3'):
                        b1 = tf.nn.max_pool2d(net, 3, 1, 'SAME', name='MaxPool')
                net = tf.concat([b0, b1], axis=3, name='concat')
            for block in INCEPTION_BLOCKS:
                with tf.name_scope(block):
                    with tf.name_scope('Branch_0'):
                        b0 = b.conv_bn(net, 8, 1, 1, 'SAME', 'Conv2d_0a_1x1')
                    with tf.name_scope('Branch_1'):
                        b1 = b.conv_bn(net, 6, 1, 1, 'SAME', 'Conv2d_0a_1x1')
                        b1 = b.conv_bn(b1, 8, 3, 1, 'SAME', 'Conv2d_0b_3x3')
                    with tf.name_scope('Branch_2'):
                        b2 = b.conv_bn(net, 6, 1, 1, 'SAME', 'Conv2d_0a_1x1')
                        b2 = b.conv_bn(b2, 8, 3, 1, 'SAME', 'Conv2d_0b_3x3')
                        b2 = b.conv_bn(b2, 8, 3, 1, 'SAME', 'Conv2d_0c_3x3')
                    with tf.name_scope('Branch_3'):
                        with tf.name_scope('AvgPool_0a_3x3'):
                            b3 = tf.nn.avg_pool2d(net, 3, 1, 'SAME', name='AvgPool')
                        b3 = b.conv_bn(b3, 8, 1, 1, 'SAME', 'Conv2d_0b_1x1')
                    net = tf.concat([b0, b1, b2, b3], axis=3, name='concat')
            with tf.name_scope('Logits'):
                with tf.name_scope('AvgPool_1a'):
                    net = tf.nn.avg_pool2d(net, net.shape[1:3], 1, 'VALID', name='AvgPool')
                with tf.name_scope('Flatten'):
                    net = tf.reshape(net, [-1, 32], name='Reshape')
                with tf.name_scope('Logits'):
                    w = b.weight('weights', b.rng.normal(0, math.sqrt(1.0 / 32), (32, 10)))
                    bias = b.weight('biases', b.rng.normal(0, 0.1, (10,)))
                    net = tf.nn.bias_add(tf.matmul(net, w, name='MatMul'), bias, name='BiasAdd')
                tf.nn.softmax(net, name='Predictions')
    scopes = ['InceptionV4/' + s for s in INCEPTION_BLOCKS]
    return b.finish(
        graph, 'inception_blocks', [TensorInfo('input', INCEPTION_SHAPE)],
        ['InceptionV4/Logits/Predictions'],
        notes=build_inception_blocks.__doc__,
        meta={'scopes': scopes,
              'scope_instances': ['.*' + s for s in scopes],
              'block_inputs': ['Branch_0/Conv2d_0a_1x1/Conv2D', 'Branch_1/Conv2d_0a_1x1/Conv2D',
                               'Branch_2/Conv2d_0a_1x1/Conv2D', 'Branch_3/AvgPool_0a_3x3/AvgPool'],
              'block_output': 'concat',
              'block_input_producer': {'InceptionV4/Mixed_5b': 'InceptionV4/Mixed_5a/concat',
                                       'InceptionV4/Mixed_5c': 'InceptionV4/Mixed_5b/concat',
                                       'InceptionV4/Mixed_5d': 'InceptionV4/Mixed_5c/concat'}})


SSD_SHAPE = (1, 32, 32, 3)
SSD_GRID, SSD_ANCHORS, SSD_CLASSES = 8, 2, 3   # 8*8*2 = 128 boxes, 3 classes + background


def _ssd_anchors():
    """[N, 4] anchors (ymin, xmin, ymax, xmax) on an 8x8 grid, two sizes per cell."""
    out = []
    for i in range(SSD_GRID):
        for j in range(SSD_GRID):
            cy, cx = (i + 0.5) / SSD_GRID, (j + 0.5) / SSD_GRID
            for h, w in ((0.2, 0.2), (0.3, 0.15)):
                out.append((cy - h / 2, cx - w / 2, cy + h / 2, cx + w / 2))
    return np.asarray(out, np.float32)


@_register('ssd_like_postprocessor')
def build_ssd_like_postprocessor() -> ModelRecord:
    """A tiny SSD whose box decoding and score conversion live under ``Postprocessor/``.

    Names::

        input                                     Placeholder [1,32,32,3]
        FeatureExtractor/Conv2d_0/..., FeatureExtractor/Conv2d_1/...   (Conv2D, FusedBatchNormV3, Relu6)
                                                  -> [1,8,8,16]
        BoxPredictor_0/BoxEncodingPredictor/{Conv2D,BiasAdd} -> [1,8,8,8]
        BoxPredictor_0/ClassPredictor/{Conv2D,BiasAdd}       -> [1,8,8,8]
        BoxPredictor_0/Reshape   [1,128,1,4],  BoxPredictor_0/Reshape_1 [1,128,4]
        Squeeze                  box encodings [1,128,4] (squeeze axis 2)
        concat_1                 class predictions [1,128,4] (ConcatV2 of the one predictor)
        anchors                  Const [128,4] (ymin, xmin, ymax, xmax)
        Postprocessor/Shape                 Shape(Squeeze)                    start point
        Postprocessor/strided_slice         batch size
        Postprocessor/ExpandDims, Postprocessor/Tile/multiples (Pack), Postprocessor/Tile
                                            anchors tiled per batch item      start point
        Postprocessor/Reshape               tiled anchors -> [-1,4]
        Postprocessor/Reshape_1             box encodings -> [-1,4]             start point
        Postprocessor/Decode/...            center-size decoding (Split, RealDiv, Exp, Mul,
                                            Add, Sub), Postprocessor/Decode/concat [-1,4]
        Postprocessor/Reshape_2             -> [1,128,4]
        Postprocessor/scale_logits          RealDiv(concat_1, 2.0)             start point
        Postprocessor/convert_scores        Sigmoid
        Postprocessor/Slice                 drop background class -> [1,128,3]
        Postprocessor/strided_slice_1, Postprocessor/Cast_1   number of boxes as float32
        detection_boxes   Identity [1,128,4]   <- outputs
        detection_scores  Identity [1,128,3]
        num_detections    Identity []  (= 128.0)
    """
    b = _Tf1Builder(seed=32)
    tf = b.tf
    n_boxes = SSD_GRID * SSD_GRID * SSD_ANCHORS
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, SSD_SHAPE, name='input')
        with tf.name_scope('FeatureExtractor'):
            f = b.conv_bn(x, 8, 3, 2, 'SAME', 'Conv2d_0', activation='Relu6')
            f = b.conv_bn(f, 16, 3, 2, 'SAME', 'Conv2d_1', activation='Relu6')
        with tf.name_scope('BoxPredictor_0'):
            box = b.conv_bn(f, SSD_ANCHORS * 4, 1, 1, 'SAME', 'BoxEncodingPredictor',
                            activation=None, bias=True, bn=False)
            cls = b.conv_bn(f, SSD_ANCHORS * (SSD_CLASSES + 1), 1, 1, 'SAME', 'ClassPredictor',
                            activation=None, bias=True, bn=False)
            box = tf.reshape(box, [1, n_boxes, 1, 4], name='Reshape')
            cls = tf.reshape(cls, [1, n_boxes, SSD_CLASSES + 1], name='Reshape_1')
        box = tf.squeeze(box, axis=[2], name='Squeeze')
        cls = tf.concat([cls], axis=1, name='concat_1')
        anchors = tf.constant(_ssd_anchors(), name='anchors')
        with tf.name_scope('Postprocessor'):
            shape = tf.shape(box, name='Shape')
            batch = tf.strided_slice(shape, [0], [1], [1], shrink_axis_mask=1, name='strided_slice')
            tiled = tf.tile(tf.expand_dims(anchors, 0, name='ExpandDims'),
                            tf.stack([batch, 1, 1], name='Tile/multiples'), name='Tile')
            flat_anchors = tf.reshape(tiled, [-1, 4], name='Reshape')
            codes = tf.reshape(box, [-1, 4], name='Reshape_1')
            with tf.name_scope('Decode'):
                ymin_a, xmin_a, ymax_a, xmax_a = tf.split(flat_anchors, 4, axis=1, name='split')
                ha = tf.subtract(ymax_a, ymin_a, name='ha')
                wa = tf.subtract(xmax_a, xmin_a, name='wa')
                ycenter_a = tf.add(ymin_a, ha / 2.0, name='ycenter_a')
                xcenter_a = tf.add(xmin_a, wa / 2.0, name='xcenter_a')
                ty, tx, th, tw = tf.split(codes, 4, axis=1, name='split_1')
                ty = tf.truediv(ty, 10.0, name='truediv_ty')
                tx = tf.truediv(tx, 10.0, name='truediv_tx')
                th = tf.truediv(th, 5.0, name='truediv_th')
                tw = tf.truediv(tw, 5.0, name='truediv_tw')
                h = tf.multiply(tf.exp(th, name='Exp'), ha, name='h')
                w = tf.multiply(tf.exp(tw, name='Exp_1'), wa, name='w')
                ycenter = tf.add(ty * ha, ycenter_a, name='ycenter')
                xcenter = tf.add(tx * wa, xcenter_a, name='xcenter')
                ymin = tf.subtract(ycenter, h / 2.0, name='ymin')
                xmin = tf.subtract(xcenter, w / 2.0, name='xmin')
                ymax = tf.add(ycenter, h / 2.0, name='ymax')
                xmax = tf.add(xcenter, w / 2.0, name='xmax')
                decoded = tf.concat([ymin, xmin, ymax, xmax], axis=1, name='concat')
            boxes = tf.reshape(decoded, [-1, n_boxes, 4], name='Reshape_2')
            scores = tf.truediv(cls, 2.0, name='scale_logits')
            scores = tf.sigmoid(scores, name='convert_scores')
            scores = tf.slice(scores, [0, 0, 1], [-1, -1, SSD_CLASSES], name='Slice')
            count = tf.strided_slice(shape, [1], [2], [1], shrink_axis_mask=1, name='strided_slice_1')
            count = tf.cast(count, tf.float32, name='Cast_1')
        tf.identity(boxes, name='detection_boxes')
        tf.identity(scores, name='detection_scores')
        tf.identity(count, name='num_detections')
    outputs = ['detection_boxes', 'detection_scores', 'num_detections']
    return b.finish(
        graph, 'ssd_like_postprocessor', [TensorInfo('input', SSD_SHAPE)], outputs,
        notes=build_ssd_like_postprocessor.__doc__,
        meta={'scope': 'Postprocessor',
              'start_points': ['Postprocessor/Shape', 'Postprocessor/scale_logits',
                               'Postprocessor/Tile', 'Postprocessor/Reshape_1'],
              'end_points': outputs,
              'num_boxes': n_boxes, 'num_classes': SSD_CLASSES,
              'box_coder_scales': [10.0, 10.0, 5.0, 5.0], 'logit_scale': 2.0})


YOLO_SHAPE = (1, 32, 32, 3)
YOLO_REGION = {'classes': 3, 'coords': 4, 'num': 2, 'do_softmax': 1,
               'anchors': [1.08, 1.19, 3.42, 4.41]}


@_register('yolo_like_head')
def build_yolo_like_head() -> ModelRecord:
    """A darknet-style backbone and YOLO detection head; the output is the raw feature map.

    Names::

        input                       Placeholder [1,32,32,3]
        conv0/..., conv1/..., conv2/...   (weights, Conv2D, BatchNorm/FusedBatchNormV3, LeakyRelu 0.1)
        pool0/MaxPool, pool1/MaxPool      2x2 stride 2
        conv_out/{weights,Conv2D,biases,BiasAdd}   1x1 conv, num*(coords+1+classes) = 16 channels
        output                      Identity [1,8,8,16] (NHWC)  <- output

    ``meta['region_yolo']`` holds the RegionYolo attributes that fit the head
    (classes=3, coords=4, num=2, do_softmax=1, anchors).
    """
    b = _Tf1Builder(seed=33)
    tf = b.tf
    r = YOLO_REGION
    channels = r['num'] * (r['coords'] + 1 + r['classes'])
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, YOLO_SHAPE, name='input')
        y = b.conv_bn(x, 8, 3, 1, 'SAME', 'conv0', activation='LeakyRelu')
        with tf.name_scope('pool0'):
            y = tf.nn.max_pool2d(y, 2, 2, 'VALID', name='MaxPool')
        y = b.conv_bn(y, 16, 3, 1, 'SAME', 'conv1', activation='LeakyRelu')
        with tf.name_scope('pool1'):
            y = tf.nn.max_pool2d(y, 2, 2, 'VALID', name='MaxPool')
        y = b.conv_bn(y, 16, 3, 1, 'SAME', 'conv2', activation='LeakyRelu')
        y = b.conv_bn(y, channels, 1, 1, 'SAME', 'conv_out', activation=None, bias=True, bn=False)
        tf.identity(y, name='output')
    return b.finish(graph, 'yolo_like_head', [TensorInfo('input', YOLO_SHAPE)], ['output'],
                    notes=build_yolo_like_head.__doc__,
                    meta={'region_yolo': dict(YOLO_REGION), 'grid': [8, 8],
                          'channels': channels})
