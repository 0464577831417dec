"""A GraphDef's nodes by name, with the consumer index and loop frames the raising passes need."""
import collections

from mo.front.tf.node_def import format_input, parse_input
from mo.utils.error import Error

Tensor = collections.namedtuple('Tensor', 'node port')


class FlatGraph:
    """The nodes of one GraphDef (``NodeDef`` messages, edited in place) in file order."""

    def __init__(self, graph_def):
        self.graph_def = graph_def
        self.nodes = collections.OrderedDict()
        for pb in graph_def.node:
            if pb.name in self.nodes:
                raise Error('The graph has two nodes named "{}"', pb.name)
            self.nodes[pb.name] = pb
        self._consumers = None

    # ---- inputs and consumers ------------------------------------------------------------
    def inputs(self, name):
        """(source, port) per input of node ``name``; port None marks a control input."""
        return [parse_input(text, name) for text in self.nodes[name].input]

    def data_inputs(self, name):
        return [Tensor(s, p) for s, p in self.inputs(name) if p is not None]

    def consumers(self, name):
        """(consumer, port) pairs reading node ``name`` (port None: a control edge)."""
        if self._consumers is None:
            index = collections.defaultdict(list)
            for dst in self.nodes:
                for src, port in self.inputs(dst):
                    index[src].append((dst, port))
            self._consumers = index
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

    def replace(self, removed, added, remap, where: str):
        """Delete nodes ``removed``, insert ``added`` where the first removed node stood.

        ``remap`` maps a removed node's (name, port) to the input string that replaces it in
        the remaining nodes (port None: control inputs; a missing entry drops a control input
        and is an error for a data input). Inputs left without readers are pruned afterwards.
        """
        removed = set(removed)
        orphans = set()
        for name in removed:
            orphans.update(src for src, _ in self.inputs(name) if src not in removed)
        for name, pb in self.nodes.items():
            if name in removed:
                continue
            texts, changed = [], False
            for text in pb.input:
                src, port = parse_input(text, name)
                if src not in removed:
                    texts.append(text)
                    continue
                changed = True
                new = remap.get((src, port))
                if new is None:
                    if port is None:
                        continue
                    raise Error('{}: node "{}" ({}) reads "{}", which lies inside the construct', where, name,
                                pb.op, text)
                if new not in texts:
                    texts.append(new)
            if changed:
                # control inputs must follow data inputs
                data = [t for t in texts if not t.startswith('^')]
                del pb.input[:]
                pb.input.extend(data + [t for t in texts if t.startswith('^')])
        order, inserted = [], False
        for name, pb in self.nodes.items():
            if name in removed:
                if not inserted:
                    order.extend(added)
                    inserted = True
                continue
            order.append(pb)
        if not inserted:
            order.extend(added)
        self.nodes = collections.OrderedDict((pb.name, pb) for pb in order)
        self._consumers = None
        self._prune(orphans)

    def _prune(self, candidates):
        """Drop nodes the rewrite left unread (never Placeholders: they are the model's inputs)."""
        todo = [c for c in candidates if c in self.nodes]
        while todo:
            name = todo.pop()
            if name not in self.nodes or self.op(name) == 'Placeholder' or self.consumers(name):
                continue
            sources = [src for src, _ in self.inputs(name)]
            del self.nodes[name]
            self._consumers = None
            todo.extend(s for s in sources if s in self.nodes)

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
