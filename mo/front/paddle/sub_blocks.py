"""The bodies of Paddle's control flow (PIR ``if``/``while`` regions, classic ``while``/``conditional_block``
sub-blocks) as graphs of their own, converted by ``mo.graph.body_conversion.convert_body``.

A body is loaded the way a model is (``mo.front.paddle.graph.program_to_graph``), from a program whose top
block is the sub-block: the same ``blocks`` list with block 0 replaced by a block holding the sub-block's ops
and every var visible from it, so that nested control flow still finds its own sub-blocks by index. Its feeds
are the values the body reads (``input_name(k)``), its fetches the values it yields (``output_name(k)``), as
``mo.ops.loop``'s Loop and If find them; the model's weights are its persistable vars.
"""
import hashlib

import numpy as np

from collections import namedtuple

from mo.front.paddle.model import Block, Op, Program
from mo.graph.graph import Graph, Node
from mo.ops.body_io import input_name, output_name
from mo.graph import body_conversion
from mo.utils.error import Error
from mo.front.paddle.graph import PROGRAM
from mo.front.paddle.graph import program_to_graph

#: PIR ops that end a region, their operands its results
YIELDS = ('cf.yield',)

#: changes to a body block before it is converted: ``ops`` {op index: the op in its place, or None to drop it},
#: ``vars`` the ``model.Var``s the new ops write (as ``extensions/front/paddle/array_scan.py`` makes them)
BodyEdits = namedtuple('BodyEdits', 'ops vars')


def _op_regions(op: Op) -> list:
    """The block indices an op owns: PIR regions, a classic ``sub_block`` attribute."""
    blocks = [b for region in op.regions for b in region]
    if op.attr_types.get('sub_block') == 'BLOCK' or ('sub_block' in op.attrs and not op.regions):
        blocks.append(int(op.attrs['sub_block']))
    return blocks


def _operands(op: Op) -> list:
    if op.operands:
        return [name for name in op.operands if name is not None]
    return [name for names in op.inputs.values() for name in names]


def _results(op: Op) -> list:
    if op.results:
        return [name for name in op.results if name is not None]
    return [name for names in op.outputs.values() for name in names]


def free_values(program: Program, block_idx: int, weights) -> list:
    """The values the block ``block_idx`` (and the blocks nested in it) reads but does not define, in order of
    first use: what the enclosing graph must pass in. Weights stay out (the body has its own Consts); so do
    the members of PIR vectors (``%12[0]``), whose vector is the value read."""
    found, defined = [], set()

    def walk(idx):
        block = program.blocks[idx]
        defined.update(block.args)
        for op in block.ops:
            for name in _operands(op):
                if name not in defined and name not in weights and name not in found:
                    found.append(name)
            for nested in _op_regions(op):
                walk(nested)
            defined.update(_results(op))
            if op.type == 'builtin.combine':
                defined.update(_results(op))
    walk(block_idx)
    return found


def body_program(program: Program, block_idx: int, inputs, outputs, edits=None) -> Program:
    """``program`` with block ``block_idx`` as its top block: its ops (the region's yield left out), the vars
    visible from it, ``inputs`` fed and ``outputs`` fetched (labelled ``output_name(k)``). ``edits``, a
    ``BodyEdits``, replaces or leaves out some of the block's ops and declares the vars its new ops make."""
    block = program.blocks[block_idx]
    visible, idx = {}, block_idx
    while idx >= 0:
        for name, var in program.blocks[idx].vars.items():
            visible.setdefault(name, var)
        idx = program.blocks[idx].parent_idx
    ops = list(block.ops)
    if edits is not None:
        ops = [edits.ops.get(k, op) for k, op in enumerate(ops)]
        ops = [op for op in ops if op is not None]
        visible.update({var.name: var for var in edits.vars})
    ops = [op for op in ops if op.type not in YIELDS]
    top = Block(0, -1, visible, ops, list(block.args))
    blocks = [top] + list(program.blocks[1:])
    return Program(blocks, list(inputs), list(outputs), [output_name(k) for k in range(len(outputs))],
                   program.format, program.version, program.op_versions, program.path)


def yielded(program: Program, block_idx: int) -> list:
    """The operands of the PIR region's closing ``cf.yield`` (``[]`` when it yields nothing)."""
    for op in reversed(program.blocks[block_idx].ops):
        if op.type in YIELDS:
            return list(op.operands)
    return []


def weights_of(graph: Graph) -> dict:
    """The model's persistable values, by var name, from the Const nodes the loader made of them."""
    program = graph.graph.get(PROGRAM)
    names = set(program.persistable_vars()) if program is not None else set()
    found = {}
    for node in graph.get_op_nodes():
        if node.soft_get('pb', 1) is None and node.soft_get('name') in names and node.has_valid('value'):
            found[node.name] = node.value
    return found


def convert_block(owner: Node, block_idx: int, inputs, specs, outputs, where: str, edits=None) -> Graph:
    """The converted body of block ``block_idx``: Parameter k (``input_name(k)``) is var ``inputs[k]`` with the
    shape and type of ``specs[k]`` (a ``mo.ops.body_io.BodyInput``), Result k reads var ``outputs[k]``;
    ``edits`` as ``body_program`` takes them."""
    program, weights = owner.paddle_program, owner.paddle_weights
    edited = sorted((k, op.type if op is not None else None) for k, op in edits.ops.items()) if edits else []
    digest = hashlib.sha256('{}|{}|{}|{}|{}'.format(program.path, block_idx, list(inputs), list(outputs),
                                                    edited).encode())
    key = ('paddle', id(program), digest.digest(), tuple((s.dtype.str, tuple(s.shape or ())) for s in specs))
    missing = [name for name in outputs if name is None]
    if missing:
        raise Error('{}: the block yields a value left out', where)

    def make_graph():
        graph = body_conversion.body_graph('paddle')
        sub = body_program(program, block_idx, [n for n in inputs if n not in weights], outputs, edits)
        program_to_graph(graph, sub, {name: value for name, value in weights.items()})
        # by node, not through the var map: a classic body writes its loop variables again (the map then names
        # the last writer)
        feeds = {node.soft_get('name'): node for node in graph.get_op_nodes(op='Parameter')}
        for k, (name, spec) in enumerate(zip(inputs, specs)):
            node = feeds.get(name)
            if name in weights or node is None:
                continue
            node['name'] = input_name(k)
            node['user_shape'] = list(spec.shape) if spec.shape is not None else None
            node['user_dtype'] = np.dtype(spec.dtype)
        return graph

    return body_conversion.convert_body(key, make_graph, where)
