"""Rules: built-in rewrites of one node that return their replacement and leave the wiring to the framework.

A rule reads like its docstring::

    class WhereLowering(OpRule):
        \"\"\"Where(x) = Transpose(NonZero(x), [1, 0]): the coordinates of the non-zero elements, one per row.\"\"\"
        op = 'Where'

        def rewrite(self, node, b):
            non_zero = b.op(NonZero, [node.in_port(0)], 'non_zero', output_type=np.int64)
            return b.op(Transpose, [non_zero, b.const([1, 0], 'order', np.int64)], 'transpose')

``rewrite(node, b)`` builds the formula with the builder ``b`` and returns what takes the node's place: a
node (its output 0), an output port, or a list of those (one per output of ``node``, None for an output
nothing replaces; an empty list removes a node nothing reads); ``node`` itself when it edited the node in
place. The framework then

* names every new node ``<node name>/<suffix>`` (``b.op``/``b.const`` take the suffix);
* gives the node's own name to the new node that produces the replacement's first output (or to the
  one ``b.inherit_name`` names), so the IR keeps TensorFlow's name (the replaced node is renamed
  ``<name>/TBR`` and removed);
* moves the consumers and the tensor names of each output to the replacement, and counts the match.

The nodes a rule is about are those of its ``op`` for which ``matches(node)`` is true (default: all; a cheap
structural test such as "its axes are an empty constant"). A candidate the rule then finds it cannot take
after all is declined with ``b.reject(reason)``: the node stays as it is, and the reason is shown by
``--report`` (the step's ``rejected`` list) and at ``--log_level=DEBUG``. A node the rule must convert but
cannot is an ``Error``, as anywhere else.

Extension authors' ``FrontReplacementOp`` (``replace_op`` returning node ids) works as before; ``OpRule``
is a ``FrontReplacementOp``, so a user's replacer for the same op still takes over from the built-in rule.
"""
from typing import List, Sequence, Union

import numpy as np

from mo.front.common.builder_formulas import FormulaMethods
from mo.front.common.replacement import FrontReplacementOp
from mo.front.common.tree_pattern import match_tree, op_alternatives, root_ops
from mo.graph.graph import Node, rename_nodes
from mo.graph.port import Port
from mo.ops.const import Const
from mo.ops.convert import ConvertLike
from mo.utils.error import FrameworkError


class Rejected(Exception):
    """Raised by ``Builder.reject``: the rule does not apply to this node, for ``reason``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def node_dtype(node: Node, default=np.float32) -> np.dtype:
    """The element type the framework node declared (its ``data_type``), else ``default``."""
    return np.dtype(node.soft_get('data_type', None) or default)


def _source_of(item):
    """The output port ``item`` stands for: a node (its output 0), an output port, or an input port
    (the output that feeds it)."""
    if isinstance(item, Port):
        return item.get_source() if item.type == 'in' else item
    return item.out_port(0)


class Builder(FormulaMethods):
    """Makes the nodes of one node's replacement, each named ``<node name>/<suffix>``; the formulas rules share
    (``b.dim_of(x, axis, suffix)``, ...) are its methods (``mo.front.common.builder_formulas``)."""

    def __init__(self, node: Node):
        self.node = node
        self.graph = node.graph
        self.name = node.soft_get('name', node.id)
        #: ids of the nodes this builder made, in order
        self.created: List[str] = []
        #: the new node that takes the replaced node's name (default: the producer of the first output)
        self.heir = None

    def input(self, index: int) -> Port:
        """The output port that feeds the node's input ``index`` (None when unconnected)."""
        return self.node.in_port(index).get_source() if self.node.is_in_port_connected(index) else None

    def const(self, value, suffix: str, dtype=None) -> Node:
        """A Const holding ``value`` as ``dtype``; by default a numpy array keeps its own element type and a
        Python number or list takes the node's (``node_dtype``), as a formula's constants do."""
        if dtype is None:
            dtype = value.dtype if isinstance(value, (np.ndarray, np.generic)) else node_dtype(self.node)
        return self._add(Const(self.graph, {'name': self._name(suffix), 'value': np.array(value, dtype=dtype)}))

    def const_like(self, value, reference, suffix: str) -> Node:
        """The constant ``value`` in the element type of ``reference`` (a node or port): a Const of the node's own
        type when the framework states it (TensorFlow's ``T``), else a ConvertLike of it to ``reference``'s type,
        which folds to a Const once types are inferred (an ONNX node states none)."""
        if self.node.soft_get('data_type', None) is not None:
            return self.const(value, suffix)
        return self.op(ConvertLike, [self.const(np.array(value, np.float64), suffix + '/value'), reference], suffix)

    def op(self, op_class, inputs: Sequence, suffix: str, **attrs) -> Node:
        """A new ``op_class`` node fed by ``inputs`` in port order: nodes (their output 0), output ports, or
        input ports (their current source); ``None`` leaves that port unconnected."""
        new = self._add(op_class(self.graph, dict({'name': self._name(suffix)}, **attrs)))
        for index, item in enumerate(inputs):
            if item is not None:
                _source_of(item).connect(new.in_port(index))
        return new

    def inherit_name(self, new_node: Node) -> Node:
        """Give the replaced node's name to ``new_node`` rather than to the producer of the first output
        (a Split whose outputs are each squeezed, say); returns ``new_node``."""
        self.heir = new_node
        return new_node

    def reject(self, reason: str):
        """Decline the node: the rule does not apply to it, for ``reason`` (it stays as it is)."""
        raise Rejected(reason)

    def _name(self, suffix: str) -> str:
        return '{}/{}'.format(self.name, suffix)

    def _add(self, op) -> Node:
        node = op.create_node()
        self.created.append(node.id)
        return node


Replacement = Union[Node, Port, Sequence[Union[Node, Port]]]


class OpRule(FrontReplacementOp):
    """Base of the built-in rules that rewrite every node whose ``op`` is the class's ``op``.

    Subclasses define ``op`` and ``rewrite(node, b)`` (see the module docstring); they are enabled by default.
    """
    _abstract = True
    enabled = True

    def matches(self, node: Node) -> bool:
        """True for the nodes of ``op`` this rule is about (the others are left alone, silently)."""
        return True

    def rewrite(self, node: Node, b: Builder) -> Replacement:
        raise NotImplementedError('{} must define rewrite(node, b)'.format(type(self).__name__))

    def replace_sub_graph(self, graph, match: dict):
        node = match['op']
        return self.matches(node) and apply_rule(self, node, self.rewrite)


class PatternRule(OpRule):
    """Base of the built-in rules that rewrite what a tree pattern (``mo.front.common.tree_pattern``) matches::

        class MishFusion(PatternRule):
            \"\"\"Mul(x, Tanh(SoftPlus(x))) = Mish(x).\"\"\"
            pattern = ('Mul', ['x', ('Tanh', [('SoftPlus', ['x'])])])

            def rewrite(self, match, b):
                return b.op(Mish, [match.x], 'Mish')

    ``rewrite(match, b)`` gets the match (``match.x``: a captured tensor, ``match.root``: the node matched at,
    whose place the replacement takes); ``b`` and the return value are as for ``OpRule``.
    """
    _abstract = True
    pattern = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get('pattern') is not None:
            cls.op = root_ops(cls.pattern)[0] if len(root_ops(cls.pattern)) == 1 else tuple(root_ops(cls.pattern))

    @classmethod
    def replaced_key(cls):
        return None  # a pattern is not "the" replacer of its root op: a user's op replacer leaves it be

    def find_and_replace_pattern(self, graph):
        # one index lookup per pattern node: most graphs lack some op of most fusions (no SoftPlus, no Mish)
        if any(not any(graph.count_by_attr('op', op) for op in ops) for ops in op_alternatives(self.pattern)):
            return
        for op in root_ops(self.pattern):
            for node in graph.get_op_nodes(op=op):
                if node.id not in graph:
                    continue
                match = match_tree(self.pattern, node)
                if match is not None and apply_rule(self, node, lambda _, b, match=match: self.rewrite(match, b)):
                    self.match_count += 1


def apply_rule(rule, node: Node, rewrite, after=None) -> bool:
    """Run ``rewrite(node, b)`` for ``rule`` and put the replacement in ``node``'s place (``rewrite_node``);
    False, with the reason recorded, when the rule declined the node."""
    try:
        return rewrite_node(node, rewrite, type(rule).__name__ + '.rewrite', after)
    except Rejected as rejection:
        rule.reject(node, rejection.reason)
        return False


def rewrite_node(node: Node, rewrite, who: str = 'rewrite', after=None) -> bool:
    """Replace ``node`` by what ``rewrite(node, b)`` builds, as rules do (naming, renaming, rewiring, tensor
    names): also for passes that rewrite nodes they pick themselves. ``after(b, result)``, when given, runs once
    the replacement is wired (the middle phase infers the new nodes there). ``Rejected`` from ``b.reject``
    reaches the caller once the half-built formula is removed."""
    graph = node.graph
    b = Builder(node)
    try:
        result = rewrite(node, b)
    except Rejected:
        if b.created:
            graph.remove_nodes_from(b.created)  # a half-built formula must not stay behind
        raise
    if result is None:
        raise FrameworkError('{} returned None for "{}": return the replacement, the node itself '
                             '(edited in place), or call b.reject(reason)', who, b.name)
    if result is not node:
        outputs = [result] if isinstance(result, (Node, Port)) else list(result)
        heir = b.heir
        if heir is None and outputs and outputs[0] is not None:
            heir = _source_of(outputs[0]).node
        if heir is not None and heir.id in b.created:
            rename_nodes([(node, b.name + '/TBR'), (heir, b.name)])
        for index, item in enumerate(outputs):
            if item is not None and (node.is_out_port_connected(index) or node.out_port(index).get_tensor_names()):
                node.out_port(index).get_connection().set_source(_source_of(item))
        graph.remove_node(node.id)
    if after is not None:
        after(b, result)
    return True
