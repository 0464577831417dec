"""Load phase: input pipelines feed a model through queues or tf.data iterators; the tensors the model takes from
them become the model's inputs.

A FIFOQueue (or FIFOQueueV2, PaddingFIFOQueue(V2), RandomShuffleQueue(V2)) is filled by an input pipeline (readers,
decoders, QueueEnqueue*) and read by QueueDequeue ops. Each output of a QueueDequeue, QueueDequeueV2,
QueueDequeueMany(V2) or QueueDequeueUpTo(V2) that the model reads becomes a Placeholder of the queue's component
type and shape (``component_types`` of the dequeue, ``shapes`` of the queue), with the batch dimension of the
many/up-to forms in front: ``n`` when it is a constant for DequeueMany, unknown otherwise. The queue, everything
else that uses it (enqueue, close, size) and the pipeline feeding only those are removed. The Placeholders carry
the dequeue's tensor names (``dequeue``/``dequeue:0``, ``dequeue:1``...), so ``--input``/``--input_shape`` and
the IR's input names work as for any input. This runs before ``TFInputsOutputs`` applies those options.

A tf.data iterator (TF1's OneShotIterator/Iterator(V2), TF2's AnonymousIterator(V2/V3) inside a function) is read the
same way by IteratorGetNext(Sync): each component it hands the model becomes a Placeholder of the getter's
``output_types``/``output_shapes`` (shapes as the dataset declares them, an unknown batch as -1), named after the
getter's tensors. The iterator, what else uses it (MakeIterator, IteratorToStringHandle, DeleteIterator) and the
dataset pipeline feeding only those are removed.
"""
import networkx as nx
import numpy as np

from extensions.load.tf.loader import TFInputsOutputs, _is_tf
from extensions.load.tf.while_loop import TFWhileAsLoop
from mo.front.loader_replacement import LoadReplacementPattern
from mo.front.tf.dtypes import np_dtype
from mo.front.tf.extractor_utils import tf_attr
from mo.graph.graph import Graph, Node
from mo.utils.error import Error

QUEUES = ('FIFOQueue', 'FIFOQueueV2', 'PaddingFIFOQueue', 'PaddingFIFOQueueV2', 'RandomShuffleQueue',
          'RandomShuffleQueueV2')
#: dequeue op -> whether its components get a leading batch dimension
DEQUEUES = {'QueueDequeue': False, 'QueueDequeueV2': False, 'QueueDequeueMany': True, 'QueueDequeueManyV2': True,
            'QueueDequeueUpTo': True, 'QueueDequeueUpToV2': True}
ITERATORS = ('Iterator', 'IteratorV2', 'OneShotIterator', 'AnonymousIterator', 'AnonymousIteratorV2',
             'AnonymousIteratorV3')
GETTERS = ('IteratorGetNext', 'IteratorGetNextSync')


def _data_edges(graph: Graph, node_id, out: bool):
    edges = graph.out_edges(node_id, keys=True, data=True) if out else graph.in_edges(node_id, keys=True, data=True)
    return [e for e in edges if not e[3].get('control_flow_edge')]


class InputPipelinesAsInputs(LoadReplacementPattern):
    """Every component the model takes from a queue or a tf.data iterator becomes a Placeholder; the queues, the
    iterators and their pipelines go."""
    id = 'InputPipelinesAsInputs'
    graph_condition = [_is_tf]

    def run_after(self):
        return [TFWhileAsLoop]

    def run_before(self):
        return super().run_before() + [TFInputsOutputs]

    def find_and_replace_pattern(self, graph: Graph):
        readers = [Node(graph, n) for n in graph.in_insertion_order(  # the op index: no scan of every node
            [n for op in tuple(DEQUEUES) + GETTERS for n in graph.nodes_by_attr('op', op)])]
        if not readers:
            return
        sources = set()
        for node in readers:
            if node.op in DEQUEUES:
                sources.add(self._dequeue(graph, node))
            else:
                sources.add(self._get_next(graph, node))
                # TF1's one-shot iterator builds its dataset in a function; the graph keeps a copy nothing reads
                sources.update(n.id for n in graph.get_op_nodes() if 'Dataset' in n.soft_get('op')
                               and not _data_edges(graph, n.id, out=True))
            self.match_count += 1
        self._remove_pipelines(graph, sources)

    @staticmethod
    def _source_of(graph: Graph, node: Node, kinds: tuple, what: str) -> Node:
        """The queue or iterator ``node`` reads (its input 0)."""
        sources = [src for src, _, _, attrs in _data_edges(graph, node.id, out=False) if attrs.get('in') == 0]
        source = Node(graph, sources[0]) if sources else None
        if source is None or source.soft_get('op') not in kinds:
            raise Error('{} "{}" reads {} that mo cannot follow ({}); cut the model at the tensors it reads with '
                        '--input', node.op, node.soft_get('name', node.id), what,
                        source.soft_get('op') if source is not None else 'nothing')
        return source

    def _dequeue(self, graph: Graph, node: Node):
        queue = self._source_of(graph, node, QUEUES, 'a queue')
        types = [np_dtype(t) for t in (tf_attr(node, 'component_types') or [])]
        shapes = tf_attr(queue, 'shapes') or []
        if DEQUEUES[node.op]:  # Many/UpTo hand over a batch of components: a leading dimension
            count = self._constant(graph, node, 1) if node.op.startswith('QueueDequeueMany') else None
            batch = -1 if count is None else int(count)
            shapes = [None if shape is None else (batch,) + tuple(shape) for shape in shapes]
        self._as_placeholders(graph, node, types, shapes)
        return queue.id

    def _get_next(self, graph: Graph, node: Node):
        iterator = self._source_of(graph, node, ITERATORS, 'an iterator')
        types = [np_dtype(t) for t in (tf_attr(node, 'output_types') or [])]
        self._as_placeholders(graph, node, types, tf_attr(node, 'output_shapes') or [])
        return iterator.id

    @staticmethod
    def _as_placeholders(graph: Graph, node: Node, types: list, shapes: list):
        """Each output of ``node`` that is read becomes a Placeholder of ``types[port]`` and ``shapes[port]`` (None:
        unknown rank) carrying the output's tensor names; ``node`` goes."""
        name, op = node.soft_get('name', node.id), node.op
        consumers = {}
        for _, dst, key, attrs in _data_edges(graph, node.id, out=True):
            consumers.setdefault(attrs.get('out', 0), []).append((dst, attrs))
        graph.remove_node(node.id)  # the Placeholders take its name and tensor names
        for port, edges in sorted(consumers.items()):
            if port >= len(types):
                raise Error('{} "{}": output {} has no component type', op, name, port)
            placeholder = graph.unique_id(name if port == 0 else '{}_component_{}'.format(name, port))
            attrs = {'kind': 'op', 'op': 'Placeholder', 'name': placeholder, 'pb': None, 'user_dtype': types[port],
                     '_out_ports': {0: {'tensor_names': ['{}:{}'.format(name, port)]}}}
            if port < len(shapes) and shapes[port] is not None:
                attrs['user_shape'] = np.array([int(d) for d in shapes[port]], dtype=np.int64)
            graph.add_node(placeholder, **attrs)
            for dst, edge in edges:
                graph.add_edge(placeholder, dst, **dict(edge, out=0))

    @staticmethod
    def _constant(graph: Graph, node: Node, port: int):
        for src, _, _, attrs in _data_edges(graph, node.id, out=False):
            if attrs.get('in') == port and graph.nodes[src].get('op') == 'Const':
                return np.ravel(graph.nodes[src].get('value'))[0]
        return None

    @staticmethod
    def _remove_pipelines(graph: Graph, sources: set):
        """The queues and iterators, whatever else uses them (enqueue, close, size, MakeIterator, string handles),
        and what only fed those."""
        doomed = set()
        for source in sources:
            if source in graph:
                doomed.add(source)
                doomed.update(dst for _, dst, _, _ in _data_edges(graph, source, out=True))
        feeding = set()
        for node_id in doomed:
            feeding.update(nx.ancestors(graph, node_id))
        graph.remove_nodes_from(doomed)
        changed = True
        while changed:  # what fed only the removed ops, upstream first removed as it runs dry (control edges, such
            # as a tf.function's NoOp waiting for the dataset, only order what is gone)
            dry = [n for n in feeding if n in graph and not _data_edges(graph, n, out=True)]
            graph.remove_nodes_from(dry)
            changed = bool(dry)
