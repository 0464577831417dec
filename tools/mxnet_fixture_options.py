"""MXNet fixtures for the Model Optimizer's MXNet options (written by tools/make_mxnet_models.py).

``nd_split``: a small style-transfer-like graph whose own weights are saved as MXNet's fast neural style saves
them (``mx.nd.save`` of plain names into ``nd_split_args.nd`` and ``nd_split_auxs.nd``) while its last
convolution's weights come from a pretrained checkpoint, ``nd_split_vgg-0000.params``, that also holds arrays the
graph does not use (with ``nd_split_vgg-symbol.json``, its graph): the case of ``--nd_prefix_name`` with
``--pretrained_model_name``. ``nd_split.ref.npz`` holds MXNet's output with the merged weights.

``gluoncv_yolo3_heads`` (after ``gluoncv_yolo3``): ``gluoncv_yolo3.heads.npz``, what MXNet computes inside each of
the exported YOLOv3's three output layers for the reference input (the sigmoids of the box centres, the raw box
sizes, the sigmoids of objectness and class scores: the internal outputs of GluonCV's ``YOLOOutputV3``), laid out
as the prediction convolution's channels ``[1, anchors * (5 + classes), H, W]`` under ``region:K``: what
RegionYolo gives for output layer K.
"""
import os

import numpy as np

from mxnet_fixture_common import SEED, import_mxnet, init_params, run, save_ref


def nd_split(out):
    mx = import_mxnet()
    data = mx.sym.Variable('data')
    x = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), pad=(1, 1), name='style_conv1')
    x = mx.sym.BatchNorm(x, fix_gamma=False, eps=1e-5, name='style_bn1')
    x = mx.sym.Activation(x, act_type='relu')
    y = mx.sym.Convolution(x, num_filter=5, kernel=(1, 1), name='vgg_conv1')
    rng = np.random.default_rng([SEED, 900])
    inputs = {'data': rng.standard_normal((1, 3, 6, 6)).astype(np.float32)}
    args, aux = init_params(y, inputs, {}, rng)
    outputs = run(y, inputs, args, aux)
    prefix = os.path.join(out, 'nd_split')
    y.save(prefix + '-symbol.json')
    own = {name: value for name, value in args.items() if name.startswith('style_')}
    mx.nd.save(prefix + '_args.nd', own)
    mx.nd.save(prefix + '_auxs.nd', aux)
    # the pretrained network: vgg_conv1 and a layer the style graph does not have (the Model Optimizer reads the
    # checkpoint's symbol too, so it is a whole checkpoint)
    vgg = mx.sym.Convolution(mx.sym.Variable('data'), num_filter=5, kernel=(1, 1), name='vgg_conv1')
    vgg = mx.sym.FullyConnected(mx.sym.Pooling(vgg, kernel=(1, 1), global_pool=True, pool_type='avg'),
                                num_hidden=3, name='vgg_fc6')
    pretrained = {name: value for name, value in args.items() if name.startswith('vgg_')}
    pretrained['vgg_fc6_weight'] = mx.nd.array(rng.standard_normal((3, 5)).astype(np.float32))
    pretrained['vgg_fc6_bias'] = mx.nd.array(rng.standard_normal((3,)).astype(np.float32))
    mx.model.save_checkpoint(prefix + '_vgg', 0, vgg, pretrained, {})
    save_ref(prefix + '.ref.npz', inputs, outputs)
    return True


def gluoncv_yolo3_heads(out):
    mx = import_mxnet()
    prefix = os.path.join(out, 'gluoncv_yolo3')
    if not os.path.isfile(prefix + '-symbol.json'):
        return False
    symbol = mx.sym.load(prefix + '-symbol.json')
    internals = symbol.get_internals()
    params = {name.split(':', 1)[-1]: value for name, value in mx.nd.load(prefix + '-0000.params').items()}
    x = np.load(prefix + '.ref.npz')['in:data']
    regions = {}
    for layer in range(3):
        scope = 'yolov30_yolooutputv3{}_'.format(layer)
        parts = ['sigmoid0', 'slice_axis1', 'sigmoid1', 'sigmoid2']  # centres, sizes, objectness, classes
        heads = [internals[scope + part + '_output'] for part in parts] + [internals[scope + 'conv0_fwd_output']]
        group = mx.sym.Group(heads)
        feed = {name: params[name] for name in group.list_arguments() if name in params}
        feed['data'] = mx.nd.array(x)
        aux = {name: params[name] for name in group.list_auxiliary_states()}
        values = [v.asnumpy() for v in group.bind(mx.cpu(), feed, aux_states=aux, grad_req='null').forward()]
        conv = values.pop()
        joined = np.concatenate(values, axis=-1)  # [1, H * W, anchors, 5 + classes]
        batch, channels, height, width = conv.shape
        regions['region:{}'.format(layer)] = joined.transpose(0, 2, 3, 1).reshape(batch, channels, height, width)
    np.savez_compressed(prefix + '.heads.npz', **regions)
    return True


FILE_WRITERS = {'nd_split': nd_split, 'gluoncv_yolo3_heads': gluoncv_yolo3_heads}
