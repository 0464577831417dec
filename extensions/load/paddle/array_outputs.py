"""Load phase for Paddle's PIR ``while`` that appends to a tensor array: the array after the loop becomes an
output of the ``while`` node.

PIR writes an array in place: ``create_array`` before the loop, ``array_write_`` in the body region, and the
ops after the loop (``array_to_tensor``, ``array_length``...) read the value ``create_array`` made, not anything
the ``while`` returns. The classic format has the array among the ``while``'s outputs instead. This step makes
the PIR graph say what the classic one says: the ``while`` node gets an output port per such array (slot
``ArrayOut``, the names in ``array_outputs``) and the array's readers after the ``while`` in program order read
that port (an array also used before the loop is refused: it does not start empty). The loop's extractor then
makes the array a scan output (``extensions/front/paddle/array_scan.py``).
"""
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.paddle.graph import PROGRAM, TENSORS
from mo.graph.graph import Graph, Node
from mo.utils.error import Error
from mo.utils.replacement import for_framework
from extensions.front.paddle.array_scan import WRITES, is_array
from extensions.load.paddle.body_inputs import PaddleBodyInputs, region_blocks
from extensions.load.paddle.loader import PaddleInputsOutputs


def _writes(program, blocks, name: str) -> bool:
    """Whether an op of ``blocks`` (or of the blocks nested in them) writes array ``name``."""
    for block in blocks:
        for op in program.blocks[block].ops:
            if op.type in WRITES and op.operands[:1] == [name]:
                return True
            if _writes(program, region_blocks(op), name):
                return True
    return False


class PaddleArrayOutputs(LoadReplacementPattern):
    """A PIR ``while`` appending to an array gets it as an output (see the module docstring)."""
    id = 'PaddleArrayOutputs'
    graph_condition = [for_framework('paddle')]
    auto_clean_up = False  # no Results yet: everything would look dead

    def run_after(self):
        return [PaddleBodyInputs]

    def run_before(self):
        return [PaddleInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        program = graph.graph.get(PROGRAM)
        loops = [node for node in graph.get_op_nodes(op='while') if getattr(node.soft_get('pb', None), 'regions',
                                                                            None)]
        if not loops:
            return
        tensors = graph.graph.get(TENSORS, {})
        order = {tuple(op.results): k for k, op in enumerate(program.blocks[0].ops) if op.results}
        position = {node.id: order.get(tuple(node.pb.results)) for node in graph.get_op_nodes()
                    if getattr(node.soft_get('pb', None), 'results', None)}
        for loop in loops:
            blocks = region_blocks(loop.pb)
            arrays = [name for name in loop.soft_get('outer_values', None) or []
                      if is_array(program, name) and _writes(program, blocks, name)]
            if not arrays:
                continue
            out_slots = dict(loop.soft_get('out_slots', None) or {})
            first = max([p for ports in out_slots.values() for p in ports] + [-1]) + 1
            here = position.get(loop.id)
            for k, name in enumerate(arrays):
                source, source_port = tensors[name]
                for _, reader, key, data in list(graph.out_edges(source, keys=True, data=True)):
                    after = position.get(reader)
                    if data['out'] != source_port or reader == loop.id or here is None or after is None:
                        continue
                    if after < here:
                        raise Error('Paddle while "{}": tensor array "{}" is used before the loop that appends to '
                                    'it (by {}); mo converts an array the loop fills from empty', loop.soft_get(
                                        'name', loop.id), name, Node(graph, reader).soft_get('paddle_type', reader))
                    graph.remove_edge(source, reader, key)
                    graph.add_edge(loop.id, reader, **dict(data, out=first + k))
            out_slots['ArrayOut'] = list(range(first, first + len(arrays)))
            loop['out_slots'] = out_slots
            loop['array_outputs'] = arrays
            self.match_count += 1


class PaddleArrayWriteChain(LoadReplacementPattern):
    """PIR's in-place array writes as a chain: each ``array_write_`` reads the array as the write before it left
    it, and each other reader of the array the array as the last write before it (in program order) left it, as
    the classic format's ``write_to_array`` chain says (``mo.front.paddle.graph``). What the writes then build is
    ``extensions/front/paddle/array_static.py``'s business."""
    id = 'PaddleArrayWriteChain'
    graph_condition = [for_framework('paddle')]
    auto_clean_up = False  # no Results yet: everything would look dead

    def run_after(self):
        return [PaddleArrayOutputs]

    def run_before(self):
        return [PaddleInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        program = graph.graph.get(PROGRAM)
        arrays = [node for node in graph.get_op_nodes(op='create_array')
                  if getattr(node.soft_get('pb', None), 'results', None)]
        if not arrays or program.format != 'pir':
            return
        order = {tuple(op.results): k for k, op in enumerate(program.blocks[0].ops) if op.results}
        for array in arrays:
            readers = []
            for _, reader, key, data in graph.out_edges(array.id, keys=True, data=True):
                node = Node(graph, reader)
                at = order.get(tuple(getattr(node.soft_get('pb', None), 'results', None) or ()))
                if at is not None:
                    readers.append((at, reader, key, data))
            if not any(Node(graph, reader).soft_get('op') == 'array_write' for _, reader, _, _ in readers):
                continue
            current = (array.id, 0)
            for _, reader, key, data in sorted(readers, key=lambda item: item[0]):
                if current[0] != array.id:
                    graph.remove_edge(array.id, reader, key)
                    graph.add_edge(current[0], reader, **dict(data, out=current[1]))
                node = Node(graph, reader)
                if node.soft_get('op') == 'array_write' and data['in'] in node.in_slots.get('Array', []):
                    current = (reader, node.out_slots['Out'][0])
            self.match_count += 1
