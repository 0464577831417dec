"""The Model Optimizer's ONNX extractor table, for extension code written against it.

* ``onnx_op_extractors``: ONNX op type -> ``extractor(node)``, which gives ``node`` its mo op and returns the
  node's attribute dict (``None`` when the extractor declines). It is a live view of the extractors registered for
  framework ``onnx`` (the built-in ones and those of ``--extensions`` directories), so it always agrees with what
  the ``ONNXExtractor`` load step uses; register an extractor by defining a ``FrontExtractorOp`` class with
  ``op = 'X'`` in a ``front/onnx/`` folder, not by assigning to this table.
* ``onnx_op_extractor(node, lowered_keys_map)``: ``(supported, attrs)`` for one node, looking its op type up
  case-insensitively through ``lowered_keys_map`` (``{op.lower(): op}``, see ``lowered_keys_map()``).
* ``common_onnx_fields(node)``: the attributes every ONNX op node has (``kind``, ``name``, ``op``).
* ``node_pb_arg(pb_extractor)``: adapts a function of the NodeProto to a function of the node.
"""
from collections.abc import Mapping

from mo.front.extractor import FrontExtractorOp
from mo.graph.graph import Node
from mo.utils.error import Error


def node_pb_arg(pb_extractor: callable):
    """``lambda node: pb_extractor(node.pb)``: an extractor written for the NodeProto alone."""
    return lambda node: pb_extractor(node.pb)


class _ExtractorTable(Mapping):
    """``{onnx op type: extractor(node) -> attrs or None}`` read from the registry each time it is used."""

    @staticmethod
    def _classes() -> dict:
        return {op: cls for op, cls in FrontExtractorOp.registry.get('onnx', {}).items() if cls.enabled}

    def __getitem__(self, op):
        cls = self._classes()[op]

        def extract(node: Node):
            # the Model Optimizer's extension_extractor: the node's attributes when the class extracted it
            return node.graph.nodes[node.id] if cls.extract(node) else None
        extract.extractor_class = cls
        return extract

    def __iter__(self):
        return iter(sorted(self._classes()))

    def __len__(self):
        return len(self._classes())

    def __setitem__(self, op, extractor):
        raise Error('onnx_op_extractors is read-only in mo: to extract ONNX op "{}", define a FrontExtractorOp '
                    'class with op = \'{}\' in the front/onnx/ folder of an --extensions directory', op, op)

    def __repr__(self):
        return 'onnx_op_extractors({})'.format(', '.join(self))


onnx_op_extractors = _ExtractorTable()


def lowered_keys_map(extractors: Mapping = None) -> dict:
    """``{op.lower(): op}`` of ``extractors`` (default ``onnx_op_extractors``), as ``onnx_op_extractor`` takes."""
    return {op.lower(): op for op in (onnx_op_extractors if extractors is None else extractors)}


def common_onnx_fields(node: Node) -> dict:
    """``kind``, ``name`` and ``op`` of an ONNX op node.

    ``name`` is the node's name (an unnamed ONNX node is named after its first output by the loader, and its id
    is made from that name, as in the Model Optimizer); ``op`` the mo op if the node has one, else its op type.
    """
    return {
        'kind': 'op',
        'name': node.soft_get('name', node.id),
        'op': node.op if node.has_valid('op') else node.pb.op_type,
    }


def onnx_op_extractor(node: Node, lowered_keys_map: dict):
    """``(supported, attrs)``: extract ``node`` with the extractor of its op type (looked up case-insensitively).

    A node without a NodeProto (a Const or Parameter the loader made) is supported as it is.
    """
    if not node.has_valid('pb'):
        return True, node.graph.nodes[node.id]
    result = common_onnx_fields(node)
    node.graph.nodes[node.id].update(result)
    op = lowered_keys_map.get(result['op'].lower())
    if op is None or op not in onnx_op_extractors:
        return False, result
    attrs = onnx_op_extractors[op](node)
    if not attrs:
        return False, result
    result.update(attrs)
    return True, result
