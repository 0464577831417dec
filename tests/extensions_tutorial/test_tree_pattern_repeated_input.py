"""compile_tree_pattern with a name used twice: one node, as in hard-swish ``x * Clamp(x + 3) / 6``.

docs/extensions.md uses this form; before, the second ``x`` was read as an op named ``x`` (or, as
``x=*`` twice, rejected as a duplicate alias) and the pattern matched nothing.
"""
import numpy as np
import pytest

from mo.middle.pattern_match import compile_tree_pattern, find_pattern_matches
from mo.utils.graph_builder import build_graph


def hswish_graph(shared: bool = True):
    """x -> Add(x, 3) -> Clamp -> Mul(x, clamp) -> Div(mul, 6); with ``shared`` False the Mul reads y."""
    return build_graph([('x', 'Parameter'), ('y', 'Parameter'), ('three', 'Const', {'value': np.float32(3)}),
                        ('add', 'Add'), ('clamp', 'Clamp'), ('mul', 'Mul'), ('six', 'Const', {'value': np.float32(6)}),
                        ('div', 'Div')],
                       [('x', 'add', 0), ('three', 'add', 1), ('add', 'clamp', 0),
                        ('x' if shared else 'y', 'mul', 0), ('clamp', 'mul', 1), ('mul', 'div', 0), ('six', 'div', 1)])


def matches(graph, tree, **kw):
    return list(find_pattern_matches(graph, **compile_tree_pattern(tree, **kw)))


TREES = [
    # defined first, referred to later
    ('div=Div', [('Mul', ['x=*', ('Clamp', [('Add', ['x', 'Const'])])]), 'Const']),
    # referred to first, defined later
    ('div=Div', [('Mul', ['x', ('Clamp', [('Add', ['x=*', 'Const'])])]), 'Const']),
    # defined twice the same way
    ('div=Div', [('Mul', ['x=*', ('Clamp', [('Add', ['x=*', 'Const'])])]), 'Const']),
    # a bare lower-case name written twice
    ('div=Div', [('Mul', ['x', ('Clamp', [('Add', ['x', 'Const'])])]), 'Const']),
]


@pytest.mark.parametrize('tree', TREES)
def test_a_name_used_twice_is_one_node(tree):
    found = matches(hswish_graph(), tree)
    assert [(m['div'], m['x']) for m in found] == [('div', 'x')]
    pattern = compile_tree_pattern(tree)
    assert [alias for alias, _ in pattern['nodes']].count('x') == 1


@pytest.mark.parametrize('tree', TREES)
def test_two_different_tensors_do_not_match(tree):
    assert matches(hswish_graph(shared=False), tree) == []


def test_a_name_used_twice_in_the_middle_phase_gets_one_data_node():
    from mo.middle.partial_infer import create_data_nodes
    graph = hswish_graph()
    create_data_nodes(graph)
    found = matches(graph, TREES[0], data_nodes=True)
    assert [m['x'] for m in found] == ['x']
    aliases = [alias for alias, _ in compile_tree_pattern(TREES[0], data_nodes=True)['nodes']]
    assert aliases.count('x_d') == 1


def test_a_node_fed_by_the_same_tensor_twice():
    graph = build_graph([('x', 'Parameter'), ('mul', 'Mul'), ('y', 'Parameter'), ('mul2', 'Mul')],
                        [('x', 'mul', 0), ('x', 'mul', 1), ('x', 'mul2', 0), ('y', 'mul2', 1)])
    assert [m['m'] for m in matches(graph, ('m=Mul', ['x=*', 'x']))] == ['mul']


def test_contradictions_are_errors():
    with pytest.raises(ValueError, match='"x" is "Parameter" at one place and "Const" at another'):
        compile_tree_pattern(('Mul', ['x=Parameter', ('Add', ['x=Const', 'Const'])]))
    with pytest.raises(ValueError, match='different inputs'):
        compile_tree_pattern(('Mul', [('a=Add', ['*', 'Const']), ('a=Add', ['Const', '*'])]))


def test_an_op_name_used_twice_is_still_two_ops():
    """Only lower-case names are captures: ``Const`` twice is two constants."""
    pattern = compile_tree_pattern(('Add', ['Const', 'Const']))
    assert len(pattern['nodes']) == 3
