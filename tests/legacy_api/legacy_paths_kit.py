"""What the legacy-module-path tests share: the classes one name resolves to under each of its paths, and a
front-phase graph in the Model Optimizer's idiom."""
import importlib

from mo.utils.unittest.graph import build_graph


def classes_at(paths: dict, name: str) -> list:
    """Class ``name`` imported from each module ``paths[name]`` lists."""
    return [getattr(importlib.import_module(module), name) for module in paths[name]]


def front_graph(nodes, edges, **kwargs):
    """``build_graph`` of the nodes the edges mention, in the front phase."""
    graph = build_graph(nodes, edges, nodes_with_edges_only=True, **kwargs)
    graph.stage = 'front'
    return graph
