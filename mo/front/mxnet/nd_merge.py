"""The Model Optimizer's ``--nd_prefix_name PREFIX --pretrained_model_name NAME-EPOCH.params``: a model whose
weights are split between a pretrained checkpoint and ``PREFIX_args.nd``/``PREFIX_auxs.nd`` files of its own.

MXNet's fast neural style transfer is the known case: the style network is saved with ``mx.nd.save`` as two
NDArray lists of plain names, and the loss network's layers come from a pretrained checkpoint (VGG19) that holds
many more layers than the graph uses. The weights of ``--input_symbol``'s graph are then:

* the pretrained checkpoint's ``arg:`` (or unprefixed) arrays that the graph names; the others belong to the
  pretrained network only and are left out;
* every array of ``PREFIX_args.nd`` (over a pretrained one of the same name) and of ``PREFIX_auxs.nd``: these
  must belong to the graph, as a ``.params`` file's arrays must.

``PREFIX`` without a folder is looked for beside the pretrained checkpoint, as the Model Optimizer did. The arrays
stay views of the mapped files.
"""
import os
from typing import Dict, Optional

import numpy as np

from mo.front.mxnet.params import read_params
from mo.front.mxnet.symbol import Symbol
from mo.utils.error import Error, UsageError

#: the options that come together, as the Model Optimizer required them
OPTIONS = ('--nd_prefix_name', '--pretrained_model_name', '--input_symbol')


def wants_merge(options: dict) -> bool:
    """Whether the options ask for a merged model; a UsageError when only some of the three are given."""
    given = [bool(options.get(flag[2:])) for flag in OPTIONS]
    if not any(given[:2]):
        return False
    if not all(given):
        missing = [flag for flag, present in zip(OPTIONS, given) if not present]
        raise UsageError('{} go together: {} is missing', ', '.join(OPTIONS), ' and '.join(missing),
                         hint='--input_symbol names the graph, --pretrained_model_name the pretrained '
                              'NAME-EPOCH.params, --nd_prefix_name the PREFIX of PREFIX_args.nd and PREFIX_auxs.nd')
    return True


def nd_files(nd_prefix: str, pretrained: str):
    """``(PREFIX_args.nd, PREFIX_auxs.nd)`` paths: beside the pretrained checkpoint when PREFIX names no folder."""
    if not os.path.dirname(nd_prefix):
        nd_prefix = os.path.join(os.path.dirname(pretrained), nd_prefix)
    return nd_prefix + '_args.nd', nd_prefix + '_auxs.nd'


def _strip(name: str) -> str:
    return name.split(':', 1)[1] if name.startswith(('arg:', 'aux:')) else name


def _arrays(path: str, what: str) -> Dict[str, Optional[np.ndarray]]:
    if not os.path.isfile(path):
        raise Error('The {} "{}" does not exist', what, path,
                    hint='--nd_prefix_name PREFIX reads PREFIX_args.nd and PREFIX_auxs.nd')
    params = read_params(path)
    if len(params) and not params.names:
        raise Error('"{}" holds unnamed arrays; the {} must be saved as a dict (mx.nd.save(path, dict))', path, what)
    return {_strip(name): array for name, array in params.items()}


def merged_weights(symbol: Symbol, nd_prefix: str, pretrained: str) -> Dict[str, Optional[np.ndarray]]:
    """The weights of ``symbol`` from the pretrained checkpoint and the ``.nd`` files (see the module)."""
    if not os.path.isfile(pretrained):
        raise Error('The pretrained model "{}" does not exist', pretrained)
    names = {node.name for node in symbol.variables}
    base = read_params(pretrained)
    weights = {name: array for name, array in dict(base.unprefixed, **base.arg_params).items() if name in names}
    args_path, auxs_path = nd_files(nd_prefix, pretrained)
    weights.update(_arrays(args_path, 'arguments file'))
    weights.update(_arrays(auxs_path, 'auxiliary states file'))
    return weights
