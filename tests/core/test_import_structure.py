"""The modules of mo and extensions import each other without cycles, and say why when they import late.

Read from the source (ast), not by importing: an import inside a function counts as much as one at the top
of the module, since a cycle hidden behind a function-level import is still a cycle.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: function-level imports of our own modules, each deferred on purpose: ``(importer, imported): why``
DEFERRED = {
    ('mo', 'mo.api'): 'import mo stays cheap: the Python API loads on first use',
    ('mo', 'mo.utils.error'): 'import mo stays cheap: mo.Error loads on first use',
    ('mo.main', 'mo.pipeline.listing'): 'the command line loads only the command it runs',
    ('mo.main', 'mo.utils.import_extensions'): 'the command line loads only the command it runs',
    ('mo.utils.import_extensions', 'extensions'): 'loading the built-in extensions is what the function does',
    ('mo.utils.import_extensions', 'mo.ops'): 'loading the built-in op classes is what the function does',
    ('mo.utils.import_extensions', 'mo.utils.anchors'): 'loading the anchors is what the function does',
    ('mo.utils.import_extensions', 'mo.middle.partial_infer'): 'loading PartialInfer is what the function does',
    ('mo.front.tf.model_source', 'mo.front.tf.saved_model'): 'the SavedModel reader loads for SavedModels only',
    ('mo.pipeline.summarize', 'mo.pipeline.tool_model'): 'import mo.api stays cheap: the model reader (loader, '
                                                          'inliner) loads when a model is summarized',
    ('extensions.load.tf.loader', 'mo.front.tf.control_flow'): 'the control-flow raiser loads for loops only',
    ('mo.api', 'mo.front.paddle.layer'): 'the Paddle exporter loads for a paddle.nn.Layer only',
    ('mo.api', 'mo.pipeline.summarize'): 'TensorFlow\'s reader loads for summarize_graph only: a conversion of '
                                         'another framework\'s model imports none of it',
    ('mo.compat', 'mo.compat.op_modules'): "import mo stays cheap: the table of the Model Optimizer's op modules "
                                           'loads when one of them is imported',
    ('mo.compat.ops_hook', 'mo.compat.op_modules'): "a live op module's __getattr__ (PEP 562) loads the Model "
                                                     "Optimizer's stand-ins when one is asked for",
    ('mo.compat.helpers_hook', 'mo.compat.loader_helpers'): "a live loader module's __getattr__ (PEP 562) loads the "
                                                            "Model Optimizer's helpers when one is asked for",
    ('mo.compat.legacy_op', 'mo.ops'): "loading the built-in op classes is what the function does (a stand-in "
                                       "used outside a conversion)",
    ('mo.compat.legacy_op', 'extensions.ops'): 'loading the built-in op classes is what the function does (a '
                                               'stand-in used outside a conversion)',
    ('mo.front.mxnet.framework', 'mo.front.mxnet.symbol'): 'a record imports its reader only for a file that '
                                                           'already looks like its framework\'s',
    ('mo.graph.graph', 'mo.ops.result'): "add_opoutput, the Model Optimizer's name kept in mo.graph.graph: "
                                         'the one import of the graph layer that points up (PEP 562)',
}


def _modules():
    modules = {}
    for package in ('mo', 'extensions'):
        for path in sorted((ROOT / package).rglob('*.py')):
            name = '.'.join(path.relative_to(ROOT).with_suffix('').parts)
            modules[name[:-len('.__init__')] if name.endswith('.__init__') else name] = path
    return modules


def _imports(modules):
    """``{(importer, imported): 'top' | 'function'}`` for every import of one of ``modules`` by another."""
    def resolve(name):
        parts = name.split('.')
        for end in range(len(parts), 0, -1):
            candidate = '.'.join(parts[:end])
            if candidate in modules:
                return candidate
        return None

    edges = {}
    for module, path in modules.items():
        def visit(node, in_function):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import):
                    names = [alias.name for alias in child.names]
                elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                    # ``from pkg import sub`` imports pkg.sub; ``from pkg import name`` imports pkg
                    names = [resolve(child.module + '.' + alias.name) or child.module for alias in child.names]
                else:
                    visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
                    continue
                for name in names:
                    target = resolve(name)
                    # a module of a package reaching a sibling through the package is not a cycle with it
                    if target and target != module and not module.startswith(target + '.'):
                        kind = 'function' if in_function else 'top'
                        if edges.get((module, target)) != 'top':
                            edges[(module, target)] = kind
        visit(ast.parse(path.read_text()), False)
    return edges


def _cycle(edges):
    """One cycle of the directed graph ``edges``, or None."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    state = {}
    for start in sorted(graph):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(graph.get(start, []))))]
        path = [start]
        state[start] = 1
        while stack:
            node, successors = stack[-1]
            nxt = next(successors, None)
            if nxt is None:
                stack.pop()
                path.pop()
                state[node] = 2
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(sorted(graph.get(nxt, [])))))
    return None


def test_no_import_cycles_even_through_function_level_imports():
    edges = _imports(_modules())
    allowed_back_edge = {('mo.graph.graph', 'mo.ops.result')}
    cycle = _cycle([edge for edge in edges if edge not in allowed_back_edge])
    assert cycle is None, 'import cycle: ' + ' -> '.join(cycle)


def test_every_function_level_import_of_our_modules_is_a_declared_deferral():
    edges = _imports(_modules())
    undeclared = sorted(edge for edge, kind in edges.items() if kind == 'function' and edge not in DEFERRED)
    assert not undeclared, ('function-level imports of our own modules that hide nothing and defer nothing '
                            'declared: move them to the top of the module, or add them to DEFERRED with the '
                            'reason: {}'.format(undeclared))
    stale = sorted(edge for edge in DEFERRED if edges.get(edge) != 'function')
    assert not stale, 'DEFERRED lists imports that are no longer function-level: {}'.format(stale)
