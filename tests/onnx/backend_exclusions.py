"""Which cases of the ONNX backend test suite are out of scope for an OpenVINO IR converter, and why.

A case is out of scope when its model needs what an IR cannot hold or what has no fixed answer: each rule
below says which, and ``exclusion_reason`` gives the first rule a case meets. Everything else is in scope:
a case that fails there is mo's defect (listed in ``backend_known_failures.py`` until it is fixed).
"""
from typing import Optional

#: op types whose output is random: no expected output to compare with
RANDOM_OPS = {'Bernoulli', 'RandomNormal', 'RandomNormalLike', 'RandomUniform', 'RandomUniformLike', 'Multinomial',
              'Dropout_training'}
#: ops on strings or images in files: OpenVINO has no string tensors in IR v11 and decodes no images
STRING_OPS = {'StringNormalizer', 'StringSplit', 'StringConcat', 'RegexFullMatch', 'TfIdfVectorizer', 'ImageDecoder'}
#: domains of training and classical-ML ops, which OpenVINO does not run
OUT_OF_SCOPE_DOMAINS = {'ai.onnx.preview.training': 'a training-only op (gradients, optimizers)',
                        'ai.onnx.ml': 'a classical-ML op (ai.onnx.ml), which OpenVINO has no op for'}
#: element types OpenVINO's IR has no type for (float8 FNUZ variants, 2-bit and 6-bit types, complex: its f4e2m1
#: and f8e8m0 are ONNX's float4e2m1 and float8e8m0, which are in scope)
UNSUPPORTED_TYPES = {14: 'complex64', 15: 'complex128', 18: 'float8e4m3fnuz', 20: 'float8e5m2fnuz',
                     25: 'uint2', 26: 'int2', 27: 'float6e2m3', 28: 'float6e3m2'}


def _graphs(graph):
    yield graph
    for node in graph.node:
        for attr in node.attribute:
            if attr.HasField('g'):
                yield from _graphs(attr.g)
            for sub in attr.graphs:
                yield from _graphs(sub)


def _value_kinds(graph):
    for value_info in list(graph.input) + list(graph.output):
        yield value_info.name, value_info.type.WhichOneof('value')


def _elem_types(model):
    for graph in _graphs(model.graph):
        for value_info in list(graph.input) + list(graph.output) + list(graph.value_info):
            if value_info.type.WhichOneof('value') == 'tensor_type':
                yield value_info.type.tensor_type.elem_type
        for tensor in graph.initializer:
            yield tensor.data_type
        for node in graph.node:
            for attr in node.attribute:
                if attr.name == 'to':
                    yield attr.i


def exclusion_reason(name: str, model) -> Optional[str]:
    """Why case ``name`` is out of scope, or None when it is in scope."""
    for graph in _graphs(model.graph):
        for node in graph.node:
            if node.domain in OUT_OF_SCOPE_DOMAINS:
                return OUT_OF_SCOPE_DOMAINS[node.domain]
            if node.op_type in RANDOM_OPS:
                return 'a random op ({}): no fixed output to compare'.format(node.op_type)
            if node.op_type in STRING_OPS:
                return 'a string or image-decoding op ({}): IR v11 has no string tensors'.format(node.op_type)
            if node.op_type == 'Dropout' and any(a.name == 'seed' for a in node.attribute) and len(node.input) > 2:
                return 'Dropout in training mode: random'
    for value_name, kind in _value_kinds(model.graph):
        if kind in ('sequence_type', 'optional_type', 'map_type', 'sparse_tensor_type'):
            return 'model input or output "{}" is a {}: IR inputs and outputs are tensors'.format(
                value_name, kind.replace('_type', ''))
    for elem_type in _elem_types(model):
        if elem_type == 8:
            return 'a string tensor: IR v11 has no string tensors'
        if elem_type in UNSUPPORTED_TYPES:
            return 'element type {}: OpenVINO has no such type'.format(UNSUPPORTED_TYPES[elem_type])
    if 'training' in name and ('dropout' in name or 'batchnorm' in name):
        return 'a training-mode output: random or only defined when training'
    return None
