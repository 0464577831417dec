"""A ``paddle.nn.Layer`` given to ``mo.convert_model``: exported to a PIR program in a temporary directory with
Paddle's own ``paddle.jit.save``, which mo then reads as any other Paddle model. Only this path imports
``paddle``; nothing else of mo does."""
import inspect
import os

from mo.utils.error import Error


def _input_names(layer, count: int) -> list:
    """The forward's parameter names for the feeds (``x``, ``y``...), ``input_<i>`` where it takes *args."""
    try:
        params = [p for p in inspect.signature(layer.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params[:count]]
    return names + ['input_{}'.format(i) for i in range(len(names), count)]


def export_layer(layer, example_input, directory: str) -> str:
    """Export ``layer`` called on ``example_input`` (an array or tensor, or a list/tuple of them) to
    ``directory/model.json`` (+ ``.pdiparams``) and return the program's path. The feeds take the example's
    shapes with the first dimension dynamic, its element types, and the forward's parameter names."""
    if example_input is None:
        raise Error('input_model is a paddle.nn.Layer: give example_input (an array or a list of arrays) to '
                    'export it with')
    import numpy as np
    import paddle
    examples = list(example_input) if isinstance(example_input, (list, tuple)) else [example_input]
    specs = []
    for name, value in zip(_input_names(layer, len(examples)), examples):
        array = value.numpy() if hasattr(value, 'numpy') else np.asarray(value)
        shape = [None] + list(array.shape[1:]) if array.ndim else []
        specs.append(paddle.static.InputSpec(shape, str(array.dtype), name))
    was_training = layer.training
    layer.eval()
    prefix = os.path.join(directory, 'model')
    try:
        paddle.jit.save(paddle.jit.to_static(layer, input_spec=specs, full_graph=True), prefix)
    except Exception as exc:  # Paddle's export errors are of many kinds: one message names what failed
        raise Error('paddle.jit.save could not export the layer ({}: {})', type(exc).__name__,
                    str(exc).strip().splitlines()[-1] if str(exc).strip() else '') from None
    finally:
        if was_training:
            layer.train()
    for ext in ('.json', '.pdmodel'):
        if os.path.isfile(prefix + ext):
            return prefix + ext
    raise Error('paddle.jit.save wrote no program to {}', directory)
