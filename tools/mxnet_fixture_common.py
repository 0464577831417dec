"""What tools/make_mxnet_models.py and tools/mxnet_fixture_files.py share: MXNet's import, the seed, seeded
weights for a symbol, running it and writing the reference outputs."""
import os

import numpy as np

SEED = 20261206


def import_mxnet():
    """The mxnet module, imported the first time for plain kernels."""
    # the references come from MXNet's plain kernels: without this, the executor fuses Convolution, BatchNorm
    # and activations into oneDNN subgraphs, which round differently
    os.environ.setdefault('MXNET_SUBGRAPH_BACKEND', 'NONE')
    import mxnet as mx
    return mx


def init_params(sym, inputs, ranges, rng):
    """Seeded random args and aux states for every variable that is not an input; ``ranges`` maps weight names
    to the (low, high) of their uniform values."""
    mx = import_mxnet()
    shapes = {name: value.shape for name, value in inputs.items()}
    # a weight that only a subgraph reads gets its shape with its range: (low, high, shape)
    shapes.update({name: spec[2] for name, spec in ranges.items() if len(spec) == 3})
    # partial: MXNet infers no output shapes through _while_loop and _cond, though it knows every argument's
    arg_shapes, _, aux_shapes = sym.infer_shape_partial(**shapes)
    if any(0 in shape or not shape for shape in arg_shapes + aux_shapes):
        raise SystemExit('the weights\' shapes are not all known: {}'.format(arg_shapes + aux_shapes))
    args, aux = {}, {}
    for name, shape in zip(sym.list_arguments(), arg_shapes):
        if name in inputs:
            continue
        if name in ranges:
            value = rng.uniform(*ranges[name][:2], shape)
        elif name.endswith('_gamma'):
            value = rng.uniform(0.6, 1.4, shape)
        elif name.endswith(('_beta', '_bias')):
            value = 0.2 * rng.standard_normal(shape)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
            value = rng.standard_normal(shape) / np.sqrt(max(fan_in, 1))
        args[name] = mx.nd.array(value.astype(np.float32))
    for name, shape in zip(sym.list_auxiliary_states(), aux_shapes):
        if name.endswith('_moving_var'):
            value = rng.uniform(0.5, 1.5, shape)
        else:
            value = 0.3 * rng.standard_normal(shape)
        aux[name] = mx.nd.array(value.astype(np.float32))
    return args, aux


def run(sym, inputs, args, aux):
    mx = import_mxnet()
    feed = dict(args)
    feed.update({name: mx.nd.array(value, dtype=value.dtype) for name, value in inputs.items()})
    executor = sym.bind(mx.cpu(), args=feed, aux_states=dict(aux), grad_req='null')
    outputs = executor.forward(is_train=False)
    return [output.asnumpy() for output in outputs]


def save_ref(path, inputs, outputs):
    arrays = {'in:' + name: value for name, value in inputs.items()}
    arrays.update({'out:{}'.format(i): value for i, value in enumerate(outputs)})
    np.savez_compressed(path, **arrays)
