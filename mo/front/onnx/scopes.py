"""ONNX's scoping of names: a body graph (an attribute of If, Loop, Scan, ...) may read any tensor of the
graphs that enclose it by its name. ``sub_graph_reads(node)`` lists the names a node's bodies read from
outside themselves, in order of first reading, so that the node can take them as inputs of its own."""


def node_bodies(pb) -> list:
    """The GraphProtos among a NodeProto's attributes (``g`` and ``graphs`` fields), in attribute order."""
    bodies = []
    for attr in pb.attribute:
        if attr.HasField('g'):
            bodies.append(attr.g)
        bodies.extend(attr.graphs)
    return bodies


def free_tensors(graph_proto) -> list:
    """Names ``graph_proto`` (nested bodies included) reads but neither declares nor computes: the tensors of
    the enclosing graphs it uses."""
    produced = {t.name for t in graph_proto.initializer}
    produced.update(t.values.name for t in graph_proto.sparse_initializer)
    produced.update(v.name for v in graph_proto.input)
    for pb in graph_proto.node:
        produced.update(o for o in pb.output if o)
    found, seen = [], set()

    def read(name):
        if name and name not in produced and name not in seen:
            seen.add(name)
            found.append(name)

    for pb in graph_proto.node:
        for name in pb.input:
            read(name)
        for name in sub_graph_reads(pb):
            read(name)
    for value_info in graph_proto.output:
        read(value_info.name)
    return found


def sub_graph_reads(pb) -> list:
    """The names node ``pb``'s bodies read from the graphs enclosing the node, in order of first reading."""
    found, seen = [], set()
    for body in node_bodies(pb):
        for name in free_tensors(body):
            if name not in seen:
                seen.add(name)
                found.append(name)
    return found
