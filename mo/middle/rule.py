"""The rule contract (``mo.front.common.rule``) in the middle and back phases, where op and data nodes alternate.

A ``MiddleOpRule`` or ``BackOpRule`` rewrites every node whose ``op`` is the class's ``op`` (a tuple names
several) with ``rewrite(node, b)`` as a front ``OpRule`` does; after the replacement is wired, the new nodes
are inferred in the order they were made (and the node itself when it was edited in place), so the graph
stays inferred for the steps that follow.
"""
from mo.back.replacement import BackReplacementPattern
from mo.front.common.rule import Builder, apply_rule
from mo.front.common.tree_pattern import match_tree, op_alternatives, root_ops
from mo.graph.graph import Graph, Node
from mo.middle.partial_infer import infer_node
from mo.middle.replacement import MiddleReplacementPattern


def _infer_replacement(b: Builder, result):
    for node_id in b.created:
        if node_id in b.graph:
            infer_node(Node(b.graph, node_id))
    if result is b.node:
        infer_node(b.node)


class _InferredOpRule:
    """Applies ``rewrite`` to every node of ``op`` and counts the nodes it did not decline."""
    _abstract = True
    enabled = True
    op = None

    @classmethod
    def is_abstract(cls):
        return super().is_abstract() or cls.op is None

    def matches(self, node: Node) -> bool:
        """True for the nodes of ``op`` this rule is about (the others are left alone, silently)."""
        return True

    def rewrite(self, node: Node, b: Builder):
        raise NotImplementedError('{} must define rewrite(node, b)'.format(type(self).__name__))

    def find_and_replace_pattern(self, graph: Graph):
        ops = self.op if isinstance(self.op, (tuple, list)) else (self.op,)
        for op in ops:
            for node in graph.get_op_nodes(op=op):
                if node.id in graph and self.matches(node) and \
                        apply_rule(self, node, self.rewrite, after=_infer_replacement):
                    self.match_count += 1


class MiddleOpRule(_InferredOpRule, MiddleReplacementPattern):
    """A middle-phase rule on every node of ``op``."""
    _abstract = True


class BackOpRule(_InferredOpRule, BackReplacementPattern):
    """A back-phase rule on every node of ``op``."""
    _abstract = True


class BackPatternRule(BackReplacementPattern):
    """A back-phase rule on what one of its tree ``patterns`` (``mo.front.common.tree_pattern``) matches:
    ``rewrite(match, b)`` builds the replacement of ``match.root`` (or calls ``b.reject``); the new nodes are
    inferred once wired. A Const of the pattern (``'name=Const'``) may feed other nodes too."""
    _abstract = True
    enabled = True
    patterns = ()

    def find_and_replace_pattern(self, graph: Graph):
        for pattern in self.patterns:
            if any(not any(graph.count_by_attr('op', op) for op in ops) for ops in op_alternatives(pattern)):
                continue
            for op in root_ops(pattern):
                for node in graph.get_op_nodes(op=op):
                    if node.id not in graph:
                        continue
                    match = match_tree(pattern, node, shared_constants=True)
                    if match is not None and apply_rule(self, node, lambda _, b, m=match: self.rewrite(m, b),
                                                        after=_infer_replacement):
                        self.match_count += 1

    def rewrite(self, match, b: Builder):
        raise NotImplementedError('{} must define rewrite(match, b)'.format(type(self).__name__))
