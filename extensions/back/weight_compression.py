"""``--compress_weights MODE``: the constant weights of MatMul, Gather and Convolution stored as 8- or 4-bit integer
codes, in the form OpenVINO's CPU plugin runs as compressed weights (the form ``weight_quant_lowering`` gives
MatMulNBits and GatherBlockQuantized):

    Const codes (i8/u8/i4/u4) -> Convert (the weights' float type, never folded)
    [-> Subtract Convert(Const zero point, u8/u4)]  (asymmetric modes only)
    -> Multiply Const scale [-> Reshape, for groups] -> MatMul / Gather / Convolution

Data-free (``mo.utils.weight_quantization``): a scale per output channel (8 bits; a Convolution's always) or per
group of ``--group_size`` input channels of one output channel (4 bits; default 128, -1 per channel). A MatMul's
weights are stored ``[output, input]`` with ``transpose_b`` set, as the plugin's compressed FullyConnected reads them
and groups along the input channels are contiguous. Which weights, and in how many bits (NNCF's ``compress_weights``
rules, whose names the options take):

- a weight counts when it is a float constant of at least ``MIN_WEIGHT_ELEMENTS`` elements read only as a
  MatMul's second input (rank 2), a Gather's table (rank 2, gathered along axis 0: an embedding) or a
  Convolution's kernel;
- in the 4-bit modes, embeddings, convolutions and the last layers (the weighted ops nearest the model's outputs,
  as the LM head) get the backup precision ``int8_asym`` unless ``--all_layers``, and so do weights whose input
  channels ``--group_size`` does not divide (NNCF falls back likewise; a warning counts them);
- ``--ratio R``: of the remaining weights, those with the smallest relative 4-bit error ``||w - Q4(w)|| / ||w||``
  are put in 4 bits while their elements stay within ``R`` of the remaining weights' elements; the rest (the most
  sensitive) get the backup precision.

Runs after the final constant folding, so every weight is a Const by then, and not inside loop bodies.
"""
import logging as log

import numpy as np

from extensions.back.constant_folding import FinalConstantFolding
from mo.back.replacement import BackReplacementPattern
from mo.front.common.rule import rewrite_node
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.ops.convert import Convert
from mo.ops.elementwise import Mul, Sub
from mo.ops.reshape import Reshape
from mo.utils.anchors import BackFinish
from mo.utils.weight_quantization import MODES, quantize, relative_error

#: weights smaller than this (16 KB in f32) stay as they are: the scales, zero points and three decompression ops
#: cost about what the codes save (a 64x64 weight saves 12 KB in 8 bits), and OpenVINO's compressed kernels are for
#: large weights; NNCF's embedding and LM-head layers are far above it
MIN_WEIGHT_ELEMENTS = 4096
#: the precision of the weights the 4-bit modes keep in 8 bits (NNCF's default backup mode)
BACKUP_MODE = 'int8_asym'
#: the default group of input channels of the 4-bit modes
DEFAULT_GROUP_SIZE = 128


def _options(graph: Graph) -> dict:
    return graph.graph.get('cmd_params') or {}


def _is_requested(graph: Graph) -> bool:
    return bool(_options(graph).get('compress_weights'))


class _Weight:
    """A float weight constant and the ops that read it: ``kind`` matmul, gather or conv; ``transposed`` when the
    MatMuls read it ``[input, output]`` (without transpose_b)."""

    def __init__(self, const: Node, kind: str, users: list, transposed: bool):
        self.const, self.kind, self.users, self.transposed = const, kind, users, transposed
        value = np.asarray(const.value)
        self.value = value
        self.matrix = value.T if transposed else value.reshape(value.shape[0], -1)

    @property
    def name(self) -> str:
        return self.const.soft_get('name', self.const.id)


def _const_source(node: Node, port: int):
    if not node.is_in_port_connected(port):
        return None
    source = node.in_port(port).get_source().node
    if source.soft_get('type') != 'Const' or not source.has_valid('value'):
        return None
    return source


def _usage(node: Node, const: Node):
    """How ``node`` reads ``const``: ``(kind, transposed)``, or None where it is no weight use we compress."""
    kind, rank = node.soft_get('type'), np.ndim(const.value)
    ports = [i for i, p in node.in_ports().items() if p.is_connected() and p.get_source().node.id == const.id]
    if kind == 'MatMul' and ports == [1] and rank == 2 and not node.soft_get('transpose_a', False):
        return 'matmul', not node.soft_get('transpose_b', False)
    if kind == 'Gather' and ports == [0] and rank == 2 and not node.soft_get('batch_dims', 0):
        axis = _const_source(node, 2)
        if axis is not None and np.size(axis.value) == 1 and int(np.asarray(axis.value).reshape(-1)[0]) in (0, -2):
            return 'gather', False
    if kind == 'Convolution' and ports == [1] and rank >= 3:
        return 'conv', False
    return None


def eligible_weights(graph: Graph) -> list:
    """The weights ``--compress_weights`` compresses (see the module docstring), in the graph's order."""
    weights = []
    for const in graph.get_op_nodes(type='Const'):
        value = const.soft_get('value', None)
        if value is None or np.asarray(value).dtype not in (np.float32, np.float16) or \
                np.size(value) < MIN_WEIGHT_ELEMENTS:
            continue
        users = [port.node for port in const.out_port(0).get_destinations()]
        usages = {_usage(user, const) for user in users}
        if not users or None in usages or len({transposed for _, transposed in usages}) != 1:
            continue  # read by something else too, or read in two layouts: left as it is
        kinds = {kind for kind, _ in usages}
        if 'conv' in kinds and len(kinds) > 1:
            continue
        # a table both gathered and multiplied (a tied embedding and LM head) is an embedding
        kind = 'gather' if 'gather' in kinds else kinds.pop()
        weights.append(_Weight(const, kind, users, usages.pop()[1]))
    return weights


def last_layers(graph: Graph, weights: list) -> set:
    """The ids of the weighted ops nearest the model's outputs: reached from a Result going upstream without
    passing another weighted op (a MatMul or Convolution of a constant, compressed or not)."""
    weighted = {user.id for weight in weights for user in weight.users if user.soft_get('type') != 'Gather'}
    weighted.update(node.id for node in graph.get_op_nodes() if node.soft_get('type') in ('MatMul', 'Convolution')
                    and _const_source(node, 1) is not None)
    found, seen = set(), set()
    stack = list(graph.get_op_nodes(type='Result'))
    while stack:
        node = stack.pop()
        for port in node.in_ports().values():
            if not port.is_connected():
                continue
            source = port.get_source().node
            if source.id in seen:
                continue
            seen.add(source.id)
            if source.id in weighted:
                found.add(source.id)
            else:
                stack.append(source)
    return found


def plan(graph: Graph, weights: list, mode: str, group_size: int, ratio: float, all_layers: bool) -> list:
    """``(weight, mode, group)`` for each of ``weights``: the precision and group of input channels each gets."""
    bits, _ = MODES[mode]
    backup = lambda weight: (weight, BACKUP_MODE, weight.matrix.shape[1])  # noqa: E731
    if bits == 8:
        return [(weight, mode, weight.matrix.shape[1]) for weight in weights]
    last = last_layers(graph, weights) if not all_layers else set()
    decided, primary, undivided = [], [], 0
    for weight in weights:
        columns = weight.matrix.shape[1]
        group = columns if group_size == -1 or weight.kind == 'conv' else group_size
        if not all_layers and (weight.kind in ('gather', 'conv') or any(u.id in last for u in weight.users)):
            decided.append(backup(weight))
        elif columns % group:
            undivided += 1
            decided.append(backup(weight))
        else:
            primary.append((weight, group))
    if undivided:
        log.warning('[ mo ] --group_size {} does not divide the input channels of {} weight(s): they are compressed '
                    'to {} per output channel'.format(group_size, undivided, BACKUP_MODE))
    if ratio < 1:
        _, symmetric = MODES[mode]
        order = sorted(range(len(primary)), key=lambda i: (relative_error(primary[i][0].matrix, bits, symmetric,
                                                                          primary[i][1]), i))
        budget, used, low = ratio * sum(w.matrix.size for w, _ in primary), 0, set()
        for i in order:
            if used + primary[i][0].matrix.size > budget:
                break
            used += primary[i][0].matrix.size
            low.add(i)
        decided += [(w, mode, g) if i in low else backup(w) for i, (w, g) in enumerate(primary)]
    else:
        decided += [(w, mode, g) for w, g in primary]
    return decided


def _shape_only(node: Node):
    """Inference of a decompression Convert: the shape, never the value, so the codes are not folded back."""
    node.out_port(0).data.set_shape(node.in_port(0).data.get_shape())


def _decompressed(b, weight: _Weight, mode: str, group: int):
    """The compressed form of ``weight`` (see the module docstring), built with ``b``."""
    bits, symmetric = MODES[mode]
    matrix = weight.matrix
    rows, columns = matrix.shape
    codes, scale, zero = quantize(matrix, bits, symmetric, group)
    float_type = weight.value.dtype
    if group < columns:
        layout = (rows, columns // group, group)  # [output, groups, group], the scale [output, groups, 1]
    else:
        layout = (rows,) + matrix.shape[1:] if weight.kind != 'conv' else weight.value.shape
    scale_shape = (rows, columns // group, 1) if group < columns else (rows,) + (1,) * (len(layout) - 1)
    x = b.op(Convert, [b.const(codes.reshape(layout), 'codes')], 'decompress', dst_type=float_type, infer=_shape_only)
    if zero is not None:
        zero_point = b.op(Convert, [b.const(zero.reshape(scale_shape), 'zero_point_codes')], 'zero_point',
                          dst_type=float_type, infer=_shape_only)
        x = b.op(Sub, [x, zero_point], 'subtract_zero_point')
    x = b.op(Mul, [x, b.const(scale.reshape(scale_shape).astype(float_type), 'scale')], 'multiply_scale')
    if group < columns:
        x = b.op(Reshape, [x, b.const(np.array([rows, columns], np.int64), 'ungrouped_shape')], 'ungrouped')
    return x


def _infer_new(b, result):
    for node_id in b.created:
        infer_node(Node(b.graph, node_id))


class CompressWeights(BackReplacementPattern):
    """MatMul, Gather and Convolution weights as 8- or 4-bit codes with scales (``--compress_weights``)."""
    id = 'CompressWeights'
    graph_condition = [_is_requested]
    run_not_recursively = True

    def run_after(self):
        return [FinalConstantFolding]

    def run_before(self):
        return [BackFinish]

    def find_and_replace_pattern(self, graph: Graph):
        options = _options(graph)
        mode = options['compress_weights']
        bits, _ = MODES[mode]
        group_size = options.get('group_size')
        group_size = (DEFAULT_GROUP_SIZE if bits == 4 else -1) if group_size is None else int(group_size)
        ratio = 1.0 if options.get('ratio') is None else float(options['ratio'])
        decided = plan(graph, eligible_weights(graph), mode, group_size, ratio, bool(options.get('all_layers')))
        counts = {}
        for weight, weight_mode, group in decided:
            if weight.transposed:
                for user in weight.users:
                    user['transpose_b'] = True  # the weights are stored [output, input]
            rewrite_node(weight.const, lambda node, b, w=weight, m=weight_mode, g=group: _decompressed(b, w, m, g),
                         type(self).__name__, after=_infer_new)
            counts[weight_mode] = counts.get(weight_mode, 0) + 1
        self.match_count = len(decided)
        log.info('[ mo ] compressed weights: {}'.format(
            ', '.join('{} in {}'.format(n, m) for m, n in sorted(counts.items())) or 'none eligible'))
