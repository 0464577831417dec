"""The rule contract (mo.front.common.rule): a rule returns its replacement, the framework wires it.

Graphs are built without TensorFlow; each rule runs through the pipeline's own runner
(``run_replacer``), which records matches and declined candidates as ``--report`` shows them.
"""
import numpy as np
import pytest

from mo.front.common.rule import OpRule
from mo.graph.graph import Node
from mo.ops.elementwise import Add, Mul
from mo.utils.class_registration import restore_registry, snapshot_registry
from mo.pipeline.runner import run_replacer
from mo.utils.error import Error, FrameworkError
from mo.utils.graph_builder import build_graph, consumers


def _double_graph():
    """x -> Double -> out, and x -> Double(2) -> out2; the second Double is marked unsupported."""
    graph = build_graph([('x', 'Parameter', {'shape': [2]}), ('d', 'Double'), ('d2', 'Double', {'odd': True}),
                         ('out', 'Result'), ('out2', 'Result')],
                        [('x', 'd'), ('d', 'out'), ('x', 'd2'), ('d2', 'out2')], {'stage': 'front'})
    Node(graph, 'd').out_port(0).add_tensor_names(['d:0'])
    return graph


@pytest.fixture(autouse=True)
def _registry_as_it_was():
    """Each test's rule class registers itself; take it out again so no other test's pipeline sees it."""
    snapshot = snapshot_registry()
    yield
    restore_registry(snapshot)


def _rule(rewrite, op='Double'):
    cls = type('DoubleRule', (OpRule,), {'op': op, 'rewrite': rewrite, 'enabled': False,
                                         '__module__': __name__})
    return cls


def _node_named(graph, name):
    node = graph.get_node_by_name(name)
    assert node is not None, graph.dump()
    return node


def test_the_replacement_takes_the_name_the_consumers_and_the_tensor_names():
    def rewrite(self, node, b):
        if node.soft_get('odd', False):
            b.reject('odd doubles stay')
        two = b.const(2.0, 'two')
        return b.op(Mul, [node.in_port(0), two], 'mul')
    graph = _double_graph()
    record = []
    run_replacer(graph, _rule(rewrite), record)
    mul = _node_named(graph, 'd')
    assert mul.op == 'Mul' and 'd' not in graph  # the new node has the name, the old node is gone
    assert mul.out_port(0).get_tensor_names() == ['d:0']
    assert consumers(graph, mul.id) == [('out', 0)]
    assert mul.in_port(0).get_source().node.id == 'x'
    assert mul.in_port(1).get_source().node.soft_get('name') == 'd/two'
    assert float(mul.in_port(1).get_source().node.value) == 2.0
    assert record[0]['matches'] == 1
    assert record[0]['rejected'] == [{'node': 'd2', 'reason': 'odd doubles stay'}]
    assert _node_named(graph, 'd2').op == 'Double'  # declined: left as it was


def test_a_declined_node_leaves_no_half_built_formula():
    def rewrite(self, node, b):
        b.const(1.0, 'built_before_rejecting')
        b.reject('changed its mind')
    graph = _double_graph()
    before = set(graph.nodes)
    record = []
    run_replacer(graph, _rule(rewrite), record)
    assert set(graph.nodes) == before
    assert record[0]['matches'] == 0 and len(record[0]['rejected']) == 2


def test_returning_an_existing_output_keeps_that_nodes_name():
    def rewrite(self, node, b):
        return node.in_port(0).get_source()  # Double of a value that needs no doubling: pass it through
    graph = _double_graph()
    run_replacer(graph, _rule(rewrite))
    assert consumers(graph, 'x') == [('out', 0), ('out2', 0)]
    assert Node(graph, 'x').soft_get('name') == 'x'
    assert Node(graph, 'x').out_port(0).get_tensor_names() == ['d:0']


def test_returning_the_node_itself_means_edited_in_place():
    def rewrite(self, node, b):
        node['doubled'] = True
        return node
    graph = _double_graph()
    record = []
    run_replacer(graph, _rule(rewrite), record)
    assert Node(graph, 'd').doubled and Node(graph, 'd2').doubled
    assert record[0]['matches'] == 2


def test_several_outputs_each_take_their_consumers():
    def rewrite(self, node, b):
        first = b.op(Add, [node.in_port(0), node.in_port(0)], 'first')
        return [first, node.in_port(0)]
    graph = build_graph([('x', 'Parameter', {'shape': [2]}), ('s', 'Twins'), ('a', 'Result'), ('c', 'Result')],
                        [('x', 's'), ('s', 'a', 0, 0), ('s', 'c', 1, 0)], {'stage': 'front'})
    run_replacer(graph, _rule(rewrite, op='Twins'))
    first = _node_named(graph, 's')
    assert first.op == 'Add' and consumers(graph, first.id) == [('a', 0)]
    assert consumers(graph, 'x') == sorted([(first.id, 0), (first.id, 1), ('c', 0)])


def test_returning_none_is_a_framework_error_naming_the_rule_and_node():
    def rewrite(self, node, b):
        return None
    graph = _double_graph()
    with pytest.raises(FrameworkError, match='DoubleRule.*returned None'):
        run_replacer(graph, _rule(rewrite))


def test_an_error_from_the_rule_reaches_the_user_as_it_is():
    def rewrite(self, node, b):
        raise Error('Double "{}" cannot be converted', b.name)
    with pytest.raises(Error, match='Double "d" cannot be converted'):
        run_replacer(_double_graph(), _rule(rewrite))


def test_a_constant_takes_the_nodes_element_type_unless_told_or_an_array():
    def rewrite(self, node, b):
        made = [b.const(1, 'one'), b.const([1, 2], 'pair'), b.const(1, 'one_int', np.int64),
                b.const(np.array([3], np.int32), 'array')]
        node['made'] = tuple(const.value.dtype for const in made)
        return node
    graph = _double_graph()
    Node(graph, 'd')['data_type'] = np.float16
    run_replacer(graph, _rule(rewrite))
    assert Node(graph, 'd').made == (np.dtype(np.float16), np.dtype(np.float16), np.dtype(np.int64),
                                     np.dtype(np.int32))


# ----- tree patterns (PatternRule) ------------------------------------------------------------
def _mish_graph(x_first=True, other_x=False, tanh_read_elsewhere=False):
    """Mul(x, Tanh(SoftPlus(x))) with the Mul's inputs in either order, or SoftPlus fed another tensor."""
    nodes = [('x', 'Parameter', {'shape': [3]}), ('y', 'Parameter', {'shape': [3]}), ('sp', 'SoftPlus'),
             ('tanh', 'Tanh'), ('mul', 'Mul'), ('out', 'Result'), ('out2', 'Result')]
    edges = [('y' if other_x else 'x', 'sp'), ('sp', 'tanh'), ('x', 'mul', 0 if x_first else 1),
             ('tanh', 'mul', 1 if x_first else 0), ('mul', 'out')]
    if tanh_read_elsewhere:
        edges.append(('tanh', 'out2'))
    return build_graph(nodes, edges, {'stage': 'front'})


@pytest.mark.parametrize('x_first', [True, False])
def test_a_pattern_matches_a_commutative_op_either_way(x_first):
    from extensions.front.Mish_fusion import MishFusion
    graph = _mish_graph(x_first)
    record = []
    run_replacer(graph, MishFusion, record)
    mish = _node_named(graph, 'mul')
    assert mish.op == 'Mish' and mish.in_port(0).get_source().node.id == 'x'
    assert consumers(graph, mish.id) == [('out', 0)] and record[0]['matches'] == 1


def test_a_name_used_twice_in_a_pattern_must_be_one_tensor():
    from extensions.front.Mish_fusion import MishFusion
    graph = _mish_graph(other_x=True)
    run_replacer(graph, MishFusion)
    assert _node_named(graph, 'mul').op == 'Mul'


def test_a_pattern_leaves_alone_what_it_would_compute_twice():
    from extensions.front.Mish_fusion import MishFusion
    graph = _mish_graph(tanh_read_elsewhere=True)
    run_replacer(graph, MishFusion)
    assert _node_named(graph, 'mul').op == 'Mul'


@pytest.mark.parametrize('constant, fused', [(1.0, True), (2.0, False)])
def test_a_pattern_rule_declines_with_its_reason(constant, fused):
    from extensions.front.Softplus_fusion import SoftplusFusion
    graph = build_graph([('x', 'Parameter', {'shape': [3]}), ('exp', 'Exp'),
                         ('c', 'Const', {'value': np.array(constant)}), ('add', 'Add'), ('log', 'Log'), ('out', 'Result')],
                        [('x', 'exp'), ('exp', 'add', 0), ('c', 'add', 1), ('add', 'log'), ('log', 'out')],
                        {'stage': 'front'})
    record = []
    run_replacer(graph, SoftplusFusion, record)
    assert (_node_named(graph, 'log').op == 'SoftPlus') == fused
    assert record[0]['matches'] == int(fused)
    assert record[0].get('rejected', []) == ([] if fused else [
        {'node': 'log', 'reason': 'Exp(x) is added to something other than the constant 1'}])


def test_a_pattern_names_the_ops_a_graph_must_have_for_a_match():
    """A pattern rule skips a graph lacking one of these ops (one index lookup each, no candidate visited)."""
    from mo.front.common.tree_pattern import op_alternatives
    pattern = ('Mul', ['x', ('act=Tanh|Sigmoid', [('SoftPlus', ['x'])]), 'Const'])
    assert op_alternatives(pattern) == [['Mul'], ['Tanh', 'Sigmoid'], ['SoftPlus'], ['Const']]


def test_a_pattern_rule_on_a_graph_without_one_of_its_ops_matches_nothing():
    from extensions.front.Mish_fusion import MishFusion
    graph = _mish_graph(True)
    softplus = [n for n in graph.get_op_nodes(op='SoftPlus')]
    softplus[0]['op'] = 'Exp'  # no SoftPlus anywhere now: the Mul is a candidate no more
    record = []
    run_replacer(graph, MishFusion, record)
    assert _node_named(graph, 'mul').op == 'Mul' and record[0]['matches'] == 0


def test_a_subclass_of_identity_eraser_that_chooses_its_nodes_is_obeyed():
    """IdentityEraser removes plain Identities on the adjacency; a subclass's own ``matches`` still decides."""
    from extensions.front.identity_eraser import IdentityEraser
    graph = build_graph([('x', 'Parameter', {'shape': [2]}), ('keep', 'Identity'), ('drop', 'Identity'),
                         ('out', 'Result')], [('x', 'keep'), ('keep', 'drop'), ('drop', 'out')], {'stage': 'front'})
    cls = type('KeepSome', (IdentityEraser,), {'matches': lambda self, node: node.soft_get('name') != 'keep',
                                               'enabled': False, '__module__': __name__})
    run_replacer(graph, cls)
    assert [node.soft_get('name') for node in graph.get_op_nodes(op='Identity')] == ['keep']
    assert consumers(graph, 'keep') == [('out', 0)]
