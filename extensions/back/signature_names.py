"""A SavedModel signature's inputs and outputs are known in the IR by the signature's names only.

The frozen graph gives such a tensor several names: the placeholder's or the op's own (``serving_default_x``,
``StatefulPartitionedCall/Identity``), the tensor the signature points to, and the signature's key (``x``,
``output_0``). OpenVINO's ``get_any_name()`` picks the smallest of them, which is almost never the key; ovc names
these tensors by their keys alone, and so do users' programs written against the signature. ``--input`` and
``--output`` still accept every name (they are read before this step).
"""
from extensions.back.constant_folding import FinalConstantFolding
from mo.back.replacement import BackReplacementPattern
from mo.graph.graph import Graph
from mo.utils.anchors import BackFinish

#: the graph attribute in which a reader records the names a model's signature gives its inputs and outputs
#: (key -> tensor name; a TensorFlow SavedModel's signature)
SIGNATURE_NAMES = 'signature_names'


def _is_signature_model(graph: Graph) -> bool:
    return bool(graph.graph.get(SIGNATURE_NAMES))


class SignatureTensorNames(BackReplacementPattern):
    """The IR's inputs and outputs that a SavedModel signature names keep the signature's names only."""
    id = 'SignatureTensorNames'
    graph_condition = [_is_signature_model]

    def run_after(self):
        return [FinalConstantFolding]

    def run_before(self):
        return [BackFinish]

    def find_and_replace_pattern(self, graph: Graph):
        keys = set(graph.graph[SIGNATURE_NAMES])
        ports = [node.out_port(0) for node in graph.get_op_nodes(type='Parameter')]
        ports += [node.in_port(0).get_source() for node in graph.get_op_nodes(type='Result')
                  if node.is_in_port_connected(0)]
        for port in ports:
            names = port.get_tensor_names()
            kept = [name for name in names if name in keys or (name.endswith(':0') and name[:-2] in keys)]
            if kept and kept != names:
                port.remove_tensor_names()
                port.add_tensor_names(kept)
                self.match_count += 1
