"""Model-local functions (ModelProto.functions) inlined at load time.

A node whose (domain, op_type) names a function of the model is replaced by the function's nodes: the
function's inputs and outputs become the call's tensors, every other tensor and node name gets the prefix
``<call name>/`` (unique, as the call's outputs are), and each attribute that refers to one of the function's
(``ref_attr_name``) takes the call's value, or the function's default (``attribute_proto``), or is left out.
Calls inside a function are inlined the same way.
"""
from mo.front.onnx.proto import NodeProto
from mo.utils.error import Error

#: how deep functions may call functions (a recursive function is an error, not a hang)
MAX_DEPTH = 64


def _key(domain: str, name: str):
    return ('' if domain in ('', 'ai.onnx') else domain), name


def inline_functions(nodes, functions: dict) -> list:
    """``nodes`` (NodeProtos) with every call of a function in ``functions`` ({(domain, name): FunctionProto})
    replaced by the function's nodes; ``nodes`` itself (a list) when there is nothing to inline."""
    if not functions:
        return list(nodes)
    table = {_key(d, n): f for (d, n), f in functions.items()}
    result = []
    for pb in nodes:
        _expand(pb, table, result, 0)
    return result


def _expand(pb, table: dict, out: list, depth: int):
    function = table.get(_key(pb.domain, pb.op_type))
    if function is None:
        out.append(pb)
        return
    call = pb.name or next((o for o in pb.output if o), pb.op_type)
    if depth > MAX_DEPTH:
        raise Error('Function "{}" called by node "{}" calls functions more than {} deep (is it recursive?)',
                    function.name, call, MAX_DEPTH)
    names = {}
    for k, name in enumerate(function.input):
        names[name] = pb.input[k] if k < len(pb.input) else ''
    for k, name in enumerate(function.output):
        names[name] = pb.output[k] if k < len(pb.output) else ''
    given = {a.name: a for a in pb.attribute}
    defaults = {a.name: a for a in function.attribute_proto}

    def rename(name):
        if not name:
            return name
        return names[name] if name in names else '{}/{}'.format(call, name)

    for index, inner in enumerate(function.node):
        node = NodeProto()
        node.op_type, node.domain = inner.op_type, inner.domain
        node.name = '{}/{}'.format(call, inner.name or '{}_{}'.format(inner.op_type, index))
        node.input.extend(rename(n) for n in inner.input)
        node.output.extend(rename(n) for n in inner.output)
        for attr in inner.attribute:
            if attr.ref_attr_name:
                source = given.get(attr.ref_attr_name) or defaults.get(attr.ref_attr_name)
                if source is None:
                    continue  # neither given nor defaulted: the attribute is absent
                copy = node.attribute.add()
                copy.CopyFrom(source)
                copy.name = attr.name
            else:
                node.attribute.add().CopyFrom(attr)
        _expand(node, table, out, depth + 1)
