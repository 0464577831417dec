"""Small back-phase graphs for the IR writer tests (also imported by a subprocess in them)."""
import numpy as np

from mo.middle.partial_infer import create_data_nodes, partial_infer
from mo.utils.graph_builder import build_graph
from mo.utils.import_extensions import load_builtin

WEIGHTS = np.array([[0.5, -2.0, 3.25]], dtype=np.float32)


def back_graph(nodes, edges):
    """build_graph + data nodes + shape inference, staged as 'back' like the convert driver hands it over."""
    load_builtin()
    graph = build_graph(nodes, edges)
    create_data_nodes(graph)
    partial_infer(graph)
    graph.stage = 'back'
    return graph


def add_relu():
    """x[?,3] -> Add(x, WEIGHTS) -> ReLU -> Result."""
    return back_graph(
        [('x', 'Parameter', {'shape': [-1, 3]}), ('w', 'Const', {'value': WEIGHTS}),
         ('add', 'Add'), ('relu', 'ReLU'), ('out', 'Result')],
        [('x', 'add', 0), ('w', 'add', 1), ('add', 'relu'), ('relu', 'out')])


def shared_consts():
    """One Const used twice and two equal Consts: (x + c) * c + c1 + c2 with c == c1 == c2."""
    c = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    return back_graph(
        [('x', 'Parameter', {'shape': [2, 3]}), ('c', 'Const', {'value': c}),
         ('c1', 'Const', {'value': c.copy()}), ('c2', 'Const', {'value': c.copy()}),
         ('add', 'Add'), ('mul', 'Mul'), ('add1', 'Add'), ('add2', 'Add'), ('out', 'Result')],
        [('x', 'add', 0), ('c', 'add', 1), ('add', 'mul', 0), ('c', 'mul', 1), ('mul', 'add1', 0),
         ('c1', 'add1', 1), ('add1', 'add2', 0), ('c2', 'add2', 1), ('add2', 'out')])


def mixed(seed: int = 0):
    """A graph with several layers, constants of several types and two outputs (determinism checks)."""
    rng = np.random.RandomState(seed)
    return back_graph(
        [('a', 'Parameter', {'shape': [1, 4]}), ('b', 'Parameter', {'shape': [1, 4]}),
         ('w', 'Const', {'value': rng.randn(1, 4).astype(np.float32)}),
         ('axes', 'Const', {'value': np.array([0], np.int64)}),
         ('concat', 'Concat', {'axis': 1}), ('mul', 'Mul'), ('sig', 'Sigmoid'),
         ('unsq', 'Unsqueeze'), ('relu', 'ReLU'), ('out0', 'Result'), ('out1', 'Result')],
        [('a', 'mul', 0), ('w', 'mul', 1), ('mul', 'sig'), ('sig', 'concat', 0), ('b', 'concat', 1),
         ('concat', 'unsq', 0), ('axes', 'unsq', 1), ('unsq', 'out0'), ('b', 'relu'), ('relu', 'out1')])
