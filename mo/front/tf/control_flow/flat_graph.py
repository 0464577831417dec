"""A GraphDef's nodes by name, with the consumer index and loop frames the raising passes need."""
import collections

from mo.front.tf.node_def import format_input, parse_input
from mo.utils.error import Error

Tensor = collections.namedtuple('Tensor', 'node port')


class FlatGraph:
    """The nodes of one GraphDef (``NodeDef`` messages, edited in place), with their parsed inputs
    and the consumers of every node kept up to date through :meth:`replace`.

    Nodes are kept in name order, not file order: whatever the raising decides by order (loop
    variable order, function bodies, names) must not change when the file lists nodes otherwise.
    """

    def __init__(self, graph_def):
        self.graph_def = graph_def
        self.nodes = collections.OrderedDict()
        for pb in sorted(graph_def.node, key=lambda node: node.name):
            if pb.name in self.nodes:
                raise Error('The graph has two nodes named "{}"', pb.name)
            self.nodes[pb.name] = pb
        self._inputs = {name: [parse_input(text, name) for text in pb.input] for name, pb in self.nodes.items()}
        self._consumers = collections.defaultdict(list)
        for name, inputs in self._inputs.items():
            for src, port in inputs:
                self._consumers[src].append((name, port))

    # ---- inputs and consumers ------------------------------------------------------------
    def inputs(self, name):
        """(source, port) per input of node ``name``; port None marks a control input."""
        return self._inputs[name]

    def data_inputs(self, name):
        return [Tensor(s, p) for s, p in self._inputs[name] if p is not None]

    def consumers(self, name):
        """(consumer, port) pairs reading node ``name`` (port None: a control edge)."""
        return self._consumers.get(name, [])

    def op(self, name):
        return self.nodes[name].op

    # ---- editing ---------------------------------------------------------------------------
    def unique_name(self, base: str) -> str:
        name, k = base, 0
        while name in self.nodes:
            k += 1
            name = '{}_{}'.format(base, k)
        return name

    def _set_inputs(self, name, texts):
        for src, port in self._inputs.get(name, ()):
            self._consumers[src].remove((name, port))
        pb = self.nodes[name]
        del pb.input[:]
        pb.input.extend(texts)
        self._inputs[name] = [parse_input(text, name) for text in texts]
        for src, port in self._inputs[name]:
            self._consumers[src].append((name, port))

    def _delete(self, name):
        self._set_inputs(name, [])
        del self.nodes[name]
        del self._inputs[name]

    def replace(self, removed, added, remap, where: str) -> set:
        """Delete nodes ``removed``, append ``added``; returns every node deleted.

        ``remap`` maps a removed node's (name, port) to the input string that replaces it in
        the remaining nodes (port None: control inputs; a missing entry drops a control input
        and is an error for a data input). Inputs left without readers are pruned afterwards
        (and returned too).
        """
        removed = set(removed)
        orphans = set()
        readers = set()
        for name in removed:
            orphans.update(src for src, _ in self._inputs[name] if src not in removed)
            readers.update(dst for dst, _ in self.consumers(name) if dst not in removed)
        for name in sorted(readers):
            texts = []
            for src, port in self._inputs[name]:
                if src not in removed:
                    texts.append(format_input(src, port))
                    continue
                new = remap.get((src, port))
                if new is None:
                    if port is None:
                        continue
                    raise Error('{}: node "{}" ({}) reads "{}", which lies inside the construct', where, name,
                                self.op(name), format_input(src, port))
                if new not in texts:
                    texts.append(new)
            # control inputs must follow data inputs
            self._set_inputs(name, [t for t in texts if not t.startswith('^')] +
                             [t for t in texts if t.startswith('^')])
        for name in removed:
            self._delete(name)
        for pb in added:
            self.nodes[pb.name] = pb
            self._inputs[pb.name] = []
            self._set_inputs(pb.name, list(pb.input))
        return removed | self._prune(orphans)

    def _prune(self, candidates) -> set:
        """Drop nodes the rewrite left unread (never Placeholders: they are the model's inputs)."""
        pruned = set()
        todo = [c for c in candidates if c in self.nodes]
        while todo:
            name = todo.pop()
            if name not in self.nodes or self.op(name) == 'Placeholder' or self.consumers(name):
                continue
            sources = [src for src, _ in self._inputs[name]]
            self._delete(name)
            pruned.add(name)
            todo.extend(s for s in sources if s in self.nodes)
        return pruned

    def write_back(self):
        del self.graph_def.node[:]
        self.graph_def.node.extend(self.nodes.values())


def assign_frames(flat: FlatGraph) -> dict:
    """Node name -> frame path (tuple of frame names, ``()`` for the root), as TF's executor sees it.

    An ``Enter`` and what it feeds are in its ``frame_name`` frame, nested in the frame of its
    input; what an ``Exit`` feeds is back in the parent frame. Nodes without inputs are root nodes.
    """
    frames = {}
    queue = collections.deque()
    for name in flat.nodes:
        if not flat.nodes[name].input:
            frames[name] = ()
            queue.append(name)
    while queue:
        name = queue.popleft()
        frame = frames[name]
        base = frame[:-1] if flat.op(name) == 'Exit' else frame
        for dst, _ in flat.consumers(name):
            if dst in frames:
                continue
            pb = flat.nodes[dst]
            frames[dst] = base + (pb.attr['frame_name'].s.decode('utf-8', 'replace'),) if pb.op == 'Enter' else base
            queue.append(dst)
    for name in flat.nodes:  # unreachable from any source: only inside a cycle
        frames.setdefault(name, ())
    return frames


def tensor_text(tensor: Tensor) -> str:
    return format_input(tensor.node, tensor.port)
