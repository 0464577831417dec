"""The graph ``mo transform`` and ``mo summarize`` work on, read from any TensorFlow model form.

A GraphDef file is read as it is. A SavedModel, a meta graph with its checkpoint, or a GraphDef with
``--input_checkpoint`` is first frozen as ``mo convert`` freezes it (the chosen signature's sub-graph, the
variables read from the checkpoint into constants) and then every function call is inlined: a Keras SavedModel's
graph is a single ``StatefulPartitionedCall`` of the model function, so without inlining the transforms would
see one opaque node and summarize would count the saver's functions. The function library keeps only the
functions still called (a loop's or a conditional's bodies); the save and restore functions go.
"""
from typing import List, Optional

from extensions.load.tf.function_inlining import inline_functions
from mo.back.tf.graphdef_writer import graph_to_graph_def
from mo.front.tf.loader import graph_def_to_graph
from mo.front.tf.model_source import load, load_other_message
from mo.front.tf.graphdef_io import read_graph_def_and_bytes
from mo.front.tf.saved_model import dangling_outputs
from mo.front.tf.wire import const_contents
from mo.graph.graph import Graph
from mo.utils.error import Error


class ToolModel:
    """A model as the graph tools see it.

    ``load()`` gives a fresh ``Graph`` of it (transforms that fail with ``ignore_errors`` reload it);
    ``frozen`` tells whether it was frozen from a SavedModel or checkpoint; ``inputs``/``outputs`` are then the
    signature's node names (the defaults of ``--inputs``/``--outputs``) and ``variables`` the names of the
    constants that were variables.
    """

    def __init__(self, path: str, args, outputs=None):
        params = {name: getattr(args, name, None) for name in ('saved_model_tags', 'signature', 'input_checkpoint')}
        params.update(input_model=path, output=','.join(outputs or ()))
        self.path = path
        self._graph_def, self._contents = None, None
        frozen = load(params)
        if frozen is None:
            try:
                graph_def, data, binary = read_graph_def_and_bytes(path)
            except Error as exc:
                with open(path, 'rb') as f:
                    frozen = load_other_message(params, f.read(), exc)
            else:
                self._graph_def, self._contents = graph_def, const_contents(data) if binary else None
        self.frozen = frozen is not None
        self.inputs: List[str] = []
        self.outputs: List[str] = []
        self.variables: List[str] = []
        if frozen is not None:
            self._graph_def = frozen.materialized()
            self.inputs = [node.name for node in self._graph_def.node if node.op == 'Placeholder']
            self.outputs = list(frozen.outputs or [name for name, _ in dangling_outputs(self._graph_def)])
            self.variables = sorted(frozen.contents)

    def load(self) -> Graph:
        """A new Graph of the model (inlined when it was frozen)."""
        graph = graph_def_to_graph(self._graph_def, Graph(), const_contents=self._contents)
        if self.frozen:
            inline_functions(graph)
            keep_called_functions(graph)
        return graph

    def graph_def(self):
        """The model as a GraphDef (inlined when it was frozen)."""
        if not self.frozen:
            return self._graph_def
        return graph_to_graph_def(self.load())


def _called(attr_value, out: set) -> None:
    """Add the names of the functions an AttrValue names (``func``, or a list of them) to ``out``."""
    if attr_value.HasField('func'):
        out.add(attr_value.func.name)
    elif attr_value.HasField('list'):
        out.update(f.name for f in attr_value.list.func)


def keep_called_functions(graph: Graph) -> Optional[int]:
    """Drop the library functions that no node of ``graph`` calls, directly or through other functions;
    returns how many were dropped (None without a library)."""
    library = graph.graph.get('tf_library')
    if library is None:
        return None
    functions = {f.signature.name: f for f in library.function}
    todo = set()
    for _, attrs in graph.nodes(data=True):
        pb = attrs.get('pb')
        if pb is not None:
            for value in pb.attr.values():
                _called(value, todo)
    kept = set()
    while todo:
        name = todo.pop()
        if name in kept or name not in functions:
            continue
        kept.add(name)
        for node in functions[name].node_def:
            for value in node.attr.values():
                _called(value, todo)
    dropped = [f for f in library.function if f.signature.name not in kept]
    remaining = [f for f in library.function if f.signature.name in kept]
    del library.function[:]
    library.function.extend(remaining)
    gradients = [g for g in library.gradient if g.function_name in kept]
    del library.gradient[:]
    library.gradient.extend(gradients)
    return len(dropped)
