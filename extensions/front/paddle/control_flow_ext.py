"""Paddle's control flow as OpenVINO's If (opset8) and Loop (opset5), their bodies converted from the program's
blocks (``mo.front.paddle.sub_blocks``) when the op's inputs are inferred.

* PIR ``if(cond)`` with a then and an else region, each ending in ``cf.yield``: If(cond, the values the
  regions read), the results the yields;
* PIR ``while(cond, vars...)`` whose body region takes the vars as block arguments and yields ``(next cond,
  next vars...)``: Loop(-1, cond, vars..., the values the body reads), those read-only variables passed through;
* classic ``while(X..., Condition)`` whose sub-block writes its ``Out`` vars (the condition among them) in
  place: Loop over the ``Out`` vars, the other ``X`` read-only;
* either ``while`` appending to a tensor array once per iteration: a scan output of the Loop (``array_scan.py``);
* classic ``conditional_block(Cond, Input...)`` pairs that ``select_input(Mask, X=[when false, when true])``
  joins (what ``paddle.jit.to_static`` writes for an ``if``/``else``): one If, its then branch the block that
  makes ``X[1]``, its else branch the one that makes ``X[0]``. A conditional_block whose outputs are read
  elsewhere becomes an If whose two branches both run its block (Paddle leaves such outputs unwritten when
  the condition is false, which no If can express).
"""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from extensions.load.paddle.body_inputs import WEIGHTS
from mo.front.extractor import FrontExtractorOp
from mo.front.paddle.sub_blocks import BodyEdits, convert_block, weights_of, yielded
from extensions.front.paddle.array_scan import is_array, loop_append, scan_var
from mo.graph.graph import Node
from mo.ops.convert import Convert
from mo.ops.loop import If, Loop
from mo.utils.error import Error
from mo.front.paddle.graph import PROGRAM

#: slot names of PIR's if/while results and while operands, by position (their number varies)
MANY = 64


def _program(node):
    return node.graph.graph[PROGRAM]


def _weights(node) -> dict:
    """The model's weights, as ``extensions/load/paddle/body_inputs.py`` kept them before the first clean-up."""
    cache = node.graph.graph.get(WEIGHTS)
    if cache is None:
        cache = node.graph.graph[WEIGHTS] = weights_of(node.graph)
    return cache


def _dtype(program, name, block=0):
    try:
        dtype = program.var(name, block).dtype
    except Error:
        dtype = None
    return np.dtype(dtype) if dtype is not None else np.dtype(np.float32)


def _numbered_ports(node: Node, prefix: str, out: bool = False) -> list:
    """The ports of slots ``<prefix>0``, ``<prefix>1``... in order."""
    slots = node.soft_get('out_slots' if out else 'in_slots', None) or {}
    return [slots['{}{}'.format(prefix, k)][0] for k in range(MANY) if '{}{}'.format(prefix, k) in slots]


class _ControlFlowExtractor(FrontExtractorOp):
    framework = 'paddle'
    internal = None

    @classmethod
    def extract(cls, node):
        # a classic while or conditional_block writes vars in place: the loader names it after its first output
        # var, which names that var's first writer too; the If/Loop that takes the node's name needs one of its own
        name = node.soft_get('name', node.id)
        if any(other.id != node.id and other.soft_get('name') == name for other in node.graph.get_op_nodes()):
            node['name'] = '{}/{}'.format(name, node['op'])
        node['paddle_program'] = _program(node)
        node['paddle_weights'] = _weights(node)
        node['paddle_op'] = node['op']
        cls.attributes(node)
        node['op'] = cls.internal
        return True


class PirIfExtractor(_ControlFlowExtractor):
    """PIR if -> PaddleIf (then If-8)."""
    op = 'if'
    internal = 'PaddleIf'

    @classmethod
    def describe(cls, op):
        return 'If (opset8)'

    @classmethod
    def attributes(cls, node):
        program = node.paddle_program
        regions = node.pb.regions
        if len(regions) != 2 or not regions[0] or not regions[1]:
            raise Error('Paddle if "{}" has {} regions, not a then and an else', node.soft_get('name', node.id),
                        len(regions))
        blocks = [regions[0][0], regions[1][0]]
        node['branch_blocks'] = blocks
        node['outer_values'] = list(node.soft_get('outer_values', None) or [])  # extensions/load/paddle/body_inputs
        node['outer_ports'] = list(node.in_slots.get('Outer', []))
        node['branch_outputs'] = [yielded(program, block) for block in blocks]


class WhileExtractor(_ControlFlowExtractor):
    """while (PIR and classic) -> PaddleWhile (then Loop-5)."""
    op = 'while'
    internal = 'PaddleWhile'

    @classmethod
    def describe(cls, op):
        return 'Loop (opset5)'

    @classmethod
    def attributes(cls, node):
        program = node.paddle_program
        pb = node.pb
        where = 'Paddle while "{}"'.format(node.soft_get('name', node.id))
        if pb.regions:  # PIR: while(cond, vars) { ^args: ... yield(cond', vars') }
            block = pb.regions[0][0]
            args = list(program.blocks[block].args)
            outer = list(node.soft_get('outer_values', None) or [])  # extensions/load/paddle/body_inputs
            outer_ports = list(node.in_slots.get('Outer', []))
            yields = yielded(program, block)
            if len(yields) != len(args) + 1:
                raise Error('Paddle while "{}": its body yields {} values for {} loop variables',
                            node.soft_get('name', node.id), len(yields), len(args))
            # an array the body appends to in place (extensions/load/paddle/array_outputs.py gave the while an
            # output for it): a scan output, no longer read from outside
            arrays = list(node.soft_get('array_outputs', None) or [])
            appends = [loop_append(program, block, name, where) for name in arrays]
            kept = [(name, port) for name, port in zip(outer, outer_ports) if name not in arrays]
            outer, outer_ports = [name for name, _ in kept], [port for _, port in kept]
            node.attrs().update(body_block=block, body_inputs=args + outer,
                                body_outputs=yields + outer + [a.scan for a in appends], carried_count=len(args),
                                outer_values=outer, classic=False, outer_ports=outer_ports,
                                body_edits=_edits(program, block, appends), scan_count=len(appends))
            return
        block = int(pb.attrs['sub_block'])
        read, written = list(pb.inputs.get('X') or []), list(pb.outputs.get('Out') or [])
        condition = (pb.inputs.get('Condition') or [None])[0]
        if condition not in written:
            written.append(condition)  # a condition the body leaves alone is a variable all the same
        arrays = [name for name in written if is_array(program, name)]
        appends = [loop_append(program, block, name, where) for name in arrays]
        written = [name for name in written if name not in arrays]
        invariant = [name for name in read if name not in written and name not in arrays]
        node.attrs().update(body_block=block, body_inputs=written + invariant,
                            body_outputs=[condition] + written + invariant + [a.scan for a in appends],
                            carried_count=len(written), carried_names=written, read_names=read,
                            condition_name=condition, classic=True, body_edits=_edits(program, block, appends),
                            scan_count=len(appends), array_outputs=arrays)


def _edits(program, block: int, appends) -> BodyEdits:
    """The body's edits for its appends to arrays (``array_scan.py``)."""
    ops = {}
    for append in appends:
        ops.update(append.edits)
    return BodyEdits(ops, [scan_var(program, block, append) for append in appends])


class ConditionalBlockExtractor(_ControlFlowExtractor):
    """conditional_block -> PaddleConditionalBlock (joined by select_input, else an If running it)."""
    op = 'conditional_block'
    internal = 'PaddleConditionalBlock'

    @classmethod
    def describe(cls, op):
        return 'If (opset8)'

    @classmethod
    def attributes(cls, node):
        pb = node.pb
        node['body_block'] = int(pb.attrs['sub_block'])
        node['read_names'] = list(pb.inputs.get('Input') or [])
        node['written_names'] = list(pb.outputs.get('Out') or [])


class SelectInputExtractor(_ControlFlowExtractor):
    """select_input -> PaddleSelectInput (an If of the two conditional blocks, else Select)."""
    op = 'select_input'
    internal = 'PaddleSelectInput'

    @classmethod
    def describe(cls, op):
        return 'If (opset8)'

    @classmethod
    def attributes(cls, node):
        pass


def _spec_types(node, names, block=0):
    return [_dtype(node.paddle_program, name, block) for name in names]


def branch_builder(blocks, inputs, outputs):
    """``build_branch(node, tag, specs)`` of an If whose then/else bodies are ``blocks``, reading ``inputs``
    and yielding ``outputs[0]``/``outputs[1]``."""
    def build(node, tag, specs):
        which = 0 if tag == 'then_body' else 1
        where = 'The {} branch of Paddle if "{}"'.format(tag.split('_')[0], node.soft_get('name', node.id))
        return convert_block(node, blocks[which], inputs, specs, outputs[which], where)
    return build


def body_builder(block, inputs, outputs, edits=None):
    """``build_body(node, specs)`` of a Loop whose body is ``block`` (``edits`` as ``convert_block`` takes them)."""
    def build(node, specs):
        where = 'The body of Paddle while "{}"'.format(node.soft_get('name', node.id))
        return convert_block(node, block, inputs, specs, outputs, where, edits)
    return build


def as_bool(b: Builder, port, tag: str):
    return b.op(Convert, [port], tag, dst_type=np.dtype(np.bool_))


class PaddleIfLowering(OpRule):
    """PaddleIf(cond) -> If(cond, the values its regions read)."""
    op = 'PaddleIf'

    def rewrite(self, node: Node, b: Builder):
        outer = list(node.outer_values)
        cond = node.in_port((node.in_slots.get('Cond') or [0])[0])
        outputs = [list(o) for o in node.branch_outputs]
        if len(outputs[0]) != len(outputs[1]):
            raise Error('Paddle if "{}": its then region yields {} values, its else region {}', b.name,
                        len(outputs[0]), len(outputs[1]))
        count = len(outputs[0])
        new = b.op(If, [as_bool(b, cond, 'condition')] + [node.in_port(p) for p in node.outer_ports], 'if',
                   input_types=_spec_types(node, outer), output_types=_spec_types(node, outputs[0]),
                   build_branch=branch_builder(node.branch_blocks, outer, outputs),
                   paddle_program=node.paddle_program, paddle_weights=node.paddle_weights,
                   in_ports_count=1 + len(outer), out_ports_count=count)
        ports = _numbered_ports(node, 'Out', out=True)
        result = [None] * (max(ports + [-1]) + 1)
        for k, port in enumerate(ports):
            result[port] = new.out_port(k)
        return [item if node.is_out_port_connected(k) else None for k, item in enumerate(result)]


class PaddleWhileLowering(OpRule):
    """PaddleWhile -> Loop(-1, cond, variables..., read-only values...)."""
    op = 'PaddleWhile'

    def rewrite(self, node: Node, b: Builder):
        if node.classic:
            ports = node.in_slots.get('X', [])
            by_name = dict(zip(node.read_names, ports))
            for name in node.soft_get('array_outputs', None) or []:
                source = node.in_port(by_name[name]).get_source().node if name in by_name else None
                if source is not None and source.soft_get('op') != 'PaddleCreateArray':
                    raise Error('Paddle while "{}": tensor array "{}" is written before the loop that appends to '
                                'it; mo converts an array the loop fills from empty', b.name, name)
            cond_port = node.in_slots['Condition'][0]
            sources = []
            for name in node.body_inputs:
                if name == node.condition_name:
                    sources.append(node.in_port(cond_port))
                elif name in by_name:
                    sources.append(node.in_port(by_name[name]))
                else:
                    raise Error('Paddle while "{}": var "{}" is first written inside the loop; a Loop needs its '
                                'value before the first iteration', b.name, name)
        else:
            cond_port = node.in_slots['Condition'][0]
            sources = [node.in_port(p) for p in _numbered_ports(node, 'X')] + \
                [node.in_port(p) for p in node.outer_ports]
        count, carried = len(node.body_inputs), int(node.carried_count)
        scans = int(node.soft_get('scan_count', 0))
        block = node.body_block
        types = [_dtype(node.paddle_program, name, block) for name in node.body_inputs]
        trips = b.const(np.array(-1, np.int64), 'trip_count', np.int64)
        loop = b.op(Loop, [trips, as_bool(b, node.in_port(cond_port), 'condition')] + sources, 'loop',
                    variable_types=types, invariant_variables=set(range(carried, count)),
                    build_body=body_builder(block, node.body_inputs, node.body_outputs,
                                            node.soft_get('body_edits', None)),
                    paddle_program=node.paddle_program, paddle_weights=node.paddle_weights,
                    stacked_results={count + j: count + 1 + j for j in range(scans)},
                    in_ports_count=2 + count, out_ports_count=count + scans)
        # an array appended to in the loop: the iterations' values stacked (array_scan.py)
        stacked = {name: loop.out_port(count + j) for j, name in enumerate(node.soft_get('array_outputs', None)
                                                                            or [])}
        if node.classic:
            ports = (node.soft_get('out_slots', None) or {}).get('Out', [])
            finals = {name: loop.out_port(k) for k, name in enumerate(node.carried_names)}
            finals.update(stacked)
            outs = [finals.get(name) for name in (node.pb.outputs.get('Out') or [])]
        else:
            ports = _numbered_ports(node, 'Out', out=True)
            outs = [loop.out_port(k) for k in range(len(ports))]
            array_ports = (node.soft_get('out_slots', None) or {}).get('ArrayOut', [])
            ports, outs = ports + array_ports, outs + list(stacked.values())
        result = [None] * (max(ports + [-1]) + 1)
        for port, out in zip(ports, outs):
            result[port] = out
        return [item if node.is_out_port_connected(k) else None for k, item in enumerate(result)]


def _block_if(node: Node, b: Builder, predicate, blocks, outputs, tag='if'):
    """An If over classic blocks: inputs the vars either block reads (from the conditional_block nodes'
    Input ports)."""
    reads, sources = [], []
    for block_node in blocks:
        for name, port in zip(block_node.read_names, block_node.in_slots.get('Input', [])):
            if name not in reads:
                reads.append(name)
                sources.append(block_node.in_port(port))
    first = blocks[0]
    return b.op(If, [predicate] + sources, tag, input_types=_spec_types(first, reads),
                output_types=_spec_types(first, outputs[0]),
                build_branch=branch_builder([n.body_block for n in blocks], reads, outputs),
                paddle_program=first.paddle_program, paddle_weights=first.paddle_weights,
                in_ports_count=1 + len(reads), out_ports_count=len(outputs[0]))


class PaddleSelectInputLowering(OpRule):
    """select_input(Mask, X=[x0, x1]) of two conditional_block outputs -> If(Mask != 0) running the block that
    writes x1 (then) or the one that writes x0 (else)."""
    op = 'PaddleSelectInput'

    def rewrite(self, node: Node, b: Builder):
        xs = node.in_slots.get('X', [])
        mask = node.in_port(node.in_slots['Mask'][0])
        if len(xs) != 2:
            raise Error('Paddle select_input "{}" selects among {} values; only two are supported', b.name, len(xs))
        producers = []
        for port in xs:
            source = node.in_port(port).get_source()
            producer = source.node
            if producer.soft_get('op') != 'PaddleConditionalBlock':
                raise Error('Paddle select_input "{}": its input {} does not come from a conditional_block', b.name,
                            port)
            slot_ports = (producer.soft_get('out_slots', None) or {}).get('Out', [])
            name = producer.written_names[slot_ports.index(source.idx)]
            producers.append((producer, name))
        (else_node, else_name), (then_node, then_name) = producers
        return _block_if(node, b, as_bool(b, mask, 'condition'), [then_node, else_node],
                         [[then_name], [else_name]])


class PaddleConditionalBlockLowering(OpRule):
    """A conditional_block still read after select_input's rule: If(Cond) whose two branches run its block."""
    op = 'PaddleConditionalBlock'

    def rewrite(self, node: Node, b: Builder):
        ports = (node.soft_get('out_slots', None) or {}).get('Out', [])
        if not any(node.is_out_port_connected(p) for p in ports):
            return []
        names = list(node.written_names)
        cond = node.in_port(node.in_slots['Cond'][0])
        new = _block_if(node, b, as_bool(b, cond, 'condition'), [node, node], [names, names])
        result = [None] * (max(ports + [-1]) + 1)
        for k, port in enumerate(ports):
            result[port] = new.out_port(k)
        return [item if node.is_out_port_connected(k) else None for k, item in enumerate(result)]
