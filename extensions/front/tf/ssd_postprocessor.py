"""SSD post-processing (box decoding, score conversion) -> one DetectionOutput (opset8).

Driven by a ``points`` description with id ``SSDPostprocessorReplacement`` (see
``configs/ssd_postprocessor.json``). The order of ``start_points`` gives the roles of the
sub-graph's inputs (each start point's input 0):

0. the box encodings ``[N, P, 4]`` in TensorFlow's ``(ty, tx, th, tw)`` order;
1. the class logits ``[N, P, C + 1]`` (background first);
2. the anchors ``[P, 4]`` or ``[1, P, 4]`` as ``(ymin, xmin, ymax, xmax)``, normalized.

Further start points (e.g. the ``Shape`` that only computes the batch size) are swallowed with
the sub-graph. ``custom_attributes`` hold the TensorFlow box coder's ``box_coder_scales``
(``[y, x, h, w]``, they become the priors' variances ``1 / scale``), ``logit_scale``,
``score_converter`` (``SIGMOID``, ``SOFTMAX`` or ``IDENTITY``) and any DetectionOutput
attribute (``nms_threshold``, ``confidence_threshold``, ``top_k``, ``keep_top_k``, ...).

The first end point's consumers read the DetectionOutput; the other end points must feed only
model outputs, which are dropped (the detections replace them).
"""
import numpy as np

from mo.utils.shape import int64_array
from mo.front.common.graph_utils import create_op_with_const_inputs
from mo.front.common.config_replacement import FrontReplacementFromConfigFileSubGraph
from mo.graph.graph import Graph
from mo.ops.activation_ops import Sigmoid
from mo.ops.broadcast import Broadcast
from mo.ops.concat import Concat
from mo.ops.const import Const
from mo.ops.detection_output import DetectionOutput
from mo.ops.elementwise import Div
from mo.ops.gather import Gather
from mo.ops.nn_ops import Softmax
from mo.ops.reshape import Reshape
from mo.ops.shapeof import ShapeOf
from mo.ops.unsqueeze import Unsqueeze
from mo.utils.error import Error

#: TensorFlow's (y, x, h, w) / (ymin, xmin, ymax, xmax) -> OpenVINO's (x, y, w, h) / (xmin, ymin, xmax, ymax)
_YX_TO_XY = int64_array([1, 0, 3, 2])
#: attributes of the description that configure this replacer rather than the DetectionOutput
_OWN_ATTRS = ('box_coder_scales', 'logit_scale', 'score_converter')


class SSDPostprocessorReplacement(FrontReplacementFromConfigFileSubGraph):
    """Replaces the points-matched post-processor with DetectionOutput (see the module docstring)."""
    replacement_id = 'SSDPostprocessorReplacement'

    def replace_sub_graph(self, graph: Graph, match):
        desc = match.custom_replacement_desc
        attrs = dict(desc.custom_attributes)
        if match.inputs_count() < 3:
            raise Error('{}: needs three start points (box encodings, class logits, anchors), has {}', desc.where(),
                        match.inputs_count())
        scales = np.asarray(attrs.get('box_coder_scales', [10.0, 10.0, 5.0, 5.0]), np.float32)
        if scales.shape != (4,) or np.any(scales <= 0):
            raise Error('{}: custom_attributes.box_coder_scales must be four positive numbers', desc.where())
        converter = str(attrs.get('score_converter', 'SIGMOID')).upper()
        if converter not in ('SIGMOID', 'SOFTMAX', 'IDENTITY'):
            raise Error('{}: custom_attributes.score_converter "{}" is not SIGMOID, SOFTMAX or IDENTITY',
                        desc.where(), converter)
        sources = []
        for port in range(3):
            node, in_port = match.single_input_node(port)
            source = node.in_port(in_port).get_source()
            if source is None:
                raise Error('{}: start point "{}" has no input {}', desc.where(), node.soft_get('name'), in_port)
            sources.append(source)
        boxes_src, logits_src, anchors_src = sources
        prefix = desc.id

        # box encodings: (ty, tx, th, tw) -> (tx, ty, tw, th), flattened per image
        box_xy = create_op_with_const_inputs(graph, Gather, {1: _YX_TO_XY, 2: int64_array(-1)},
                                             {'name': prefix + '/box_encodings_xy'})
        boxes_src.connect(box_xy.in_port(0))
        box_flat = create_op_with_const_inputs(graph, Reshape, {1: int64_array([0, -1])},
                                               {'name': prefix + '/box_logits', 'special_zero': True})
        box_xy.out_port(0).connect(box_flat.in_port(0))

        # class scores as TensorFlow's score converter computes them, flattened per image
        scores = logits_src
        logit_scale = float(attrs.get('logit_scale', 1.0))
        if logit_scale != 1.0:
            scaled = create_op_with_const_inputs(graph, Div, {1: np.float32(logit_scale)},
                                                 {'name': prefix + '/scale_logits'})
            scores.connect(scaled.in_port(0))
            scores = scaled.out_port(0)
        if converter != 'IDENTITY':
            activation = (Sigmoid(graph, {'name': prefix + '/sigmoid'}) if converter == 'SIGMOID'
                          else Softmax(graph, {'name': prefix + '/softmax', 'axis': -1})).create_node()
            scores.connect(activation.in_port(0))
            scores = activation.out_port(0)
        class_flat = create_op_with_const_inputs(graph, Reshape, {1: int64_array([0, -1])},
                                                 {'name': prefix + '/class_predictions', 'special_zero': True})
        scores.connect(class_flat.in_port(0))

        # proposals [1, 2, P * 4]: the anchors as (xmin, ymin, xmax, ymax), then their variances
        anchors = create_op_with_const_inputs(graph, Reshape, {1: int64_array([-1, 4])},
                                              {'name': prefix + '/anchors'})
        anchors_src.connect(anchors.in_port(0))
        anchors_xy = create_op_with_const_inputs(graph, Gather, {1: _YX_TO_XY, 2: int64_array(1)},
                                                 {'name': prefix + '/anchors_xy'})
        anchors.out_port(0).connect(anchors_xy.in_port(0))
        shape = ShapeOf(graph, {'name': prefix + '/anchors_shape'}).create_node()
        anchors_xy.out_port(0).connect(shape.in_port(0))
        variances = Broadcast(graph, {'name': prefix + '/variances'}).create_node()
        Const(graph, {'name': prefix + '/variance_values',
                      'value': (1.0 / scales[_YX_TO_XY]).astype(np.float32)}).create_node().out_port(0).connect(
            variances.in_port(0))
        shape.out_port(0).connect(variances.in_port(1))
        proposals = Concat(graph, {'name': prefix + '/proposals_2d', 'axis': 0}).create_node()
        for port, tensor in enumerate((anchors_xy, variances)):
            unsqueeze = create_op_with_const_inputs(graph, Unsqueeze, {1: int64_array([0])},
                                                    {'name': '{}/proposal_part_{}'.format(prefix, port)})
            tensor.out_port(0).connect(unsqueeze.in_port(0))
            unsqueeze.out_port(0).connect(proposals.in_port(port))
        proposals_flat = create_op_with_const_inputs(graph, Reshape, {1: int64_array([1, 2, -1])},
                                                     {'name': prefix + '/proposals'})
        proposals.out_port(0).connect(proposals_flat.in_port(0))

        detection_attrs = {k: v for k, v in attrs.items() if k not in _OWN_ATTRS}
        if 'keep_top_k' in detection_attrs and not isinstance(detection_attrs['keep_top_k'], list):
            detection_attrs['keep_top_k'] = [detection_attrs['keep_top_k']]
        detection_attrs['name'] = graph.unique_id(prefix + '/DetectionOutput')
        detection = DetectionOutput(graph, detection_attrs).create_node()
        for port, node in enumerate((box_flat, class_flat, proposals_flat)):
            node.out_port(0).connect(detection.in_port(port))

        self._rewire_outputs(graph, match, detection)
        graph.remove_nodes_from([n for n in match.matched_nodes_names() if n in graph])

    @staticmethod
    def _rewire_outputs(graph: Graph, match, detection):
        desc = match.custom_replacement_desc
        first, first_port = match.output_node(0)
        names = first.out_port(first_port).get_tensor_names()
        first.out_port(first_port).get_connection().set_source(detection.out_port(0))
        detection.out_port(0).add_tensor_names(names)
        for port in range(1, match.outputs_count()):
            node, out_port = match.output_node(port)
            for consumer in node.out_port(out_port).get_destinations():
                if consumer.node.soft_get('op') != 'Result':
                    raise Error('{}: end point "{}" feeds "{}"; only the detections (the first end point) may be used '
                                'after the post-processor', desc.where(), node.soft_get('name'),
                                consumer.node.soft_get('name'))
                graph.remove_node(consumer.node.id)
