"""A GluonCV YOLOv3's three output layers as RegionYolo, from a ``general`` config description (id ``TFYOLOV3``, as
the Model Optimizer's ``yolo_v3_mobilenet1_voc.json`` names it; ``configs/yolo_v3_mobilenet1_voc.json``).

``custom_attributes`` give RegionYolo's ``classes``, ``coords``, ``num``, ``anchors`` and ``masks`` (one mask per
entry point) and ``entry_points``: the MXNet nodes that read each output layer's prediction (GluonCV's
``yolooutputv3K_reshape0``). The prediction convolution feeding each entry point becomes the input of a RegionYolo
(``do_softmax`` 0: the sigmoids of box centres, objectness and class scores, the box sizes left raw), whose outputs,
in the entry points' order, replace the model's outputs; the box decoding and NMS after them are left out, as the
Model Optimizer left them out. MXNet's convolutions give NCHW, which RegionYolo reads, so no Transpose is added.
"""
from extensions.load.mxnet.loader import is_mxnet
from mo.front.common.config_replacement import FrontReplacementFromConfigFileGeneral
from mo.graph.graph import Graph
from mo.ops.regionyolo import RegionYoloOp
from mo.ops.result import Result
from mo.utils.error import Error

#: the RegionYolo attributes a description may set
_REGION_ATTRS = ('classes', 'coords', 'num', 'anchors', 'axis', 'end_axis')


class MXNetYoloV3RegionReplacement(FrontReplacementFromConfigFileGeneral):
    """The model's outputs become RegionYolo of the tensors the description's entry points read, one each."""
    replacement_id = 'TFYOLOV3'
    graph_condition = [is_mxnet]

    def transform_graph(self, graph: Graph, replacement_descriptions: dict):
        entry_points = list(replacement_descriptions.get('entry_points') or [])
        masks = list(replacement_descriptions.get('masks') or [])
        if not entry_points:
            raise Error('The TFYOLOV3 description names no entry_points (the nodes that read each YOLO output '
                        'layer\'s prediction)')
        if masks and len(masks) != len(entry_points):
            raise Error('The TFYOLOV3 description has {} masks for {} entry_points', len(masks), len(entry_points))
        by_name = {node.soft_get('name', node.id): node for node in graph.get_op_nodes()}
        missing = [name for name in entry_points if name not in by_name]
        if missing:
            raise Error('The TFYOLOV3 description\'s entry_points {} are no nodes of the model', ', '.join(missing),
                        hint='entry_points name the nodes that read each YOLO output layer\'s prediction, in '
                             'GluonCV\'s exports yolov30_yolooutputv3K_reshape0')
        sources = [by_name[name].in_port(0).get_source() for name in entry_points]
        for result in graph.get_op_nodes(op='Result'):
            graph.remove_node(result.id)
        attrs = {k: v for k, v in replacement_descriptions.items() if k in _REGION_ATTRS}
        for index, source in enumerate(sources):
            producer = source.node.soft_get('name', source.node.id)
            region = RegionYoloOp(graph, dict(attrs, do_softmax=0, mask=list(masks[index]) if masks else [],
                                              channels_first_done=True, dim_attrs=[],
                                              name=graph.unique_id(producer + '/YoloRegion'))).create_node()
            source.connect(region.in_port(0))
            Result(graph, {'name': region.name + '/sink_port_0', 'output_index': index}).create_node([region])
            self.match_count += 1
        graph.clean_up()
