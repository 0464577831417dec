"""YOLO region layers from a ``general`` config description, and their channels-first layout.

``YoloRegionReplacement`` (id ``TFYOLO``, ``configs/yolo_region.json``) puts a RegionYolo (opset1)
in front of every model output; its attributes (``classes``, ``coords``, ``num``,
``do_softmax``, ``anchors``, ``mask``, ``axis``, ``end_axis``) come from ``custom_attributes``.

RegionYolo reads its input as ``[N, C, H, W]`` while mo keeps TensorFlow's NHWC layout, so
``RegionYoloChannelsFirst`` gives every RegionYolo on a 4D input a Transpose to NCHW in front
(transpose sinking cancels it against the one after the last convolution) and, when the
output is still 4D (``do_softmax = 0``), a Transpose back to NHWC after it. It runs after every
config-driven replacer, so a user's RegionYolo replacer (the seeds' ``YoloRegionAddon``) gets
the same treatment.
"""
from mo.utils.shape import int64_array
from mo.front.common.replacement import FrontReplacementPattern
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.front.common.config_replacement import FrontReplacementFromConfigFileGeneral, is_config_driven
from mo.graph.graph import Graph, Node
from mo.ops.regionyolo import RegionYoloOp
from mo.ops.result import Result
from mo.ops.transpose import Transpose
from mo.utils.class_registration import registered_classes
from mo.utils.anchors import FrontStart

_NHWC_TO_NCHW = int64_array([0, 3, 1, 2])
_NCHW_TO_NHWC = int64_array([0, 2, 3, 1])
#: the RegionYolo attributes a description may set
_REGION_ATTRS = ('classes', 'coords', 'num', 'do_softmax', 'anchors', 'mask', 'axis', 'end_axis')


class YoloRegionReplacement(FrontReplacementFromConfigFileGeneral):
    """Result <- X becomes Result <- RegionYolo <- X for every model output."""
    replacement_id = 'TFYOLO'

    def transform_graph(self, graph: Graph, replacement_descriptions: dict):
        attrs = {k: v for k, v in replacement_descriptions.items() if k in _REGION_ATTRS}
        for result in graph.get_op_nodes(op='Result'):
            source = result.in_port(0).get_source()
            name = result.soft_get('name', result.id)
            producer = source.node
            region = RegionYoloOp(graph, dict(attrs, name=graph.unique_id(
                '{}/YoloRegion'.format(producer.soft_get('name', producer.id))))).create_node()
            source.connect(region.in_port(0))
            graph.remove_node(result.id)
            Result(graph, {'name': name}).create_node([region])
            self.match_count += 1


class RegionYoloChannelsFirst(FrontReplacementPattern):
    """Wraps RegionYolo on 4D NHWC data in Transposes (see the module docstring)."""
    id = 'RegionYoloChannelsFirst'

    def run_after(self):
        return [FrontStart] + [cls for cls in registered_classes() if is_config_driven(cls)]

    def find_and_replace_pattern(self, graph: Graph):
        for node in graph.get_op_nodes(op='RegionYolo'):
            if node.soft_get('channels_first_done', False) or graph.stage != 'front':
                continue
            node['channels_first_done'] = True
            name = node.soft_get('name', node.id)
            to_nchw = create_op_with_const_inputs(graph, Transpose, {1: _NHWC_TO_NCHW},
                                                  {'name': name + '/to_nchw'})
            node.in_port(0).get_connection().insert_node(to_nchw)
            if self._keeps_4d(node):
                to_nhwc = create_op_with_const_inputs(graph, Transpose, {1: _NCHW_TO_NHWC},
                                                      {'name': name + '/to_nhwc'})
                node.out_port(0).get_connection().insert_node(to_nhwc)
            self.match_count += 1

    @staticmethod
    def _keeps_4d(node: Node) -> bool:
        """True when RegionYolo's output is still [N, C, H, W] (no flattening)."""
        if not node.soft_get('do_softmax', 1):
            return True
        axis, end_axis = int(node.soft_get('axis', 1)) % 4, int(node.soft_get('end_axis', -1)) % 4
        return axis == end_axis
