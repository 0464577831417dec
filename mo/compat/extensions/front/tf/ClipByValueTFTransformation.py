"""The Model Optimizer's ``extensions.front.tf.ClipByValueTFTransformation`` (``openvino.tools.mo.front.tf.`` later),
kept for authors' unit tests.

TensorFlow's ``ClipByValue(x, low, high)`` (op ``ClipByValueTF``: a Clamp whose bounds broadcast) becomes
``Maximum(Minimum(x, high), low)``: the Minimum named ``<name>/CLipMinimum`` (the Model Optimizer's spelling), the
Maximum taking the node's name. mo's TensorFlow front end reads ClipByValue into its own ops, so the class is
``legacy_only``.
"""
from mo.front.common.replacement import FrontReplacementSubgraph
from mo.graph.graph import Graph, rename_nodes
from mo.ops.elementwise import Maximum, Minimum


class ClipByValueTFTransformation(FrontReplacementSubgraph):
    """Every ``op='ClipByValueTF'`` node -> ``Maximum(Minimum(x, high), low)``."""
    legacy_only = True
    enabled = True

    def find_and_replace_pattern(self, graph: Graph):
        for clip in graph.get_op_nodes(op='ClipByValueTF'):
            name = clip.soft_get('name', clip.id)
            minimum = Minimum(graph, {'name': name + '/CLipMinimum'}).create_node()
            maximum = Maximum(graph, {'name': name + '/CLipMaximum'}).create_node()
            minimum.in_port(0).connect(clip.in_port(0).get_source())
            minimum.in_port(1).connect(clip.in_port(2).get_source())
            maximum.in_port(0).connect(minimum.out_port(0))
            maximum.in_port(1).connect(clip.in_port(1).get_source())
            clip.out_port(0).get_connection().set_source(maximum.out_port(0))
            rename_nodes([(clip, name + '/TBR'), (maximum, name)])
            graph.remove_node(clip.id)
