"""networkx imported by mo defers its algorithms, yet offers users everything a plain import does."""
import json
import subprocess
import sys
import textwrap

from mo.graph.graph import find_cycle
from mo.graph.lazy_networkx import DEFERRED, _declared_backends, _partial_source


def _run(code: str, **env):
    import os
    environ = dict(os.environ, **env)
    out = subprocess.run([sys.executable, '-c', textwrap.dedent(code)], capture_output=True, text=True, check=True,
                         env=environ)
    return json.loads(out.stdout.strip().splitlines()[-1])


NAMESPACE = '''
    import json, networkx as nx
    print(json.dumps(sorted((k, type(v).__name__) for k, v in vars(nx).items()
                            if k not in ('__getattr__', '__dir__'))))
'''


def test_mo_does_not_import_the_algorithms():
    loaded = _run('''
        import json, sys
        import mo.graph.graph
        print(json.dumps(sorted(m for m in sys.modules if m.startswith('networkx.'))))
    ''')
    assert not any(m.startswith('networkx.' + p) for m in loaded for p in DEFERRED)


def test_first_use_of_a_missing_name_gives_the_whole_networkx_namespace():
    plain = _run(NAMESPACE)
    lazy = _run('import mo.graph.graph, networkx\nnetworkx.topological_sort\n' + textwrap.dedent(NAMESPACE))
    assert lazy == plain


def test_star_import_dir_and_submodule_imports_see_everything():
    result = _run('''
        import json
        import mo.graph.graph
        import networkx.algorithms.isomorphism as iso
        import networkx as nx
        graph = nx.path_graph(4)
        iso_ok = iso.GraphMatcher(graph, graph).is_isomorphic()
        from networkx import *
        print(json.dumps([iso_ok, 'find_cycle' in dir(nx), topological_sort.__name__]))
    ''')
    assert result == [True, True, 'topological_sort']


def test_mo_graph_works_with_networkx_algorithms():
    result = _run('''
        import json
        import networkx as nx
        from mo.graph.graph import Graph
        g = Graph()
        g.add_edges_from([('a', 'b'), ('b', 'c')])
        print(json.dumps(list(nx.topological_sort(g))))
    ''')
    assert result == ['a', 'b', 'c']


BACKEND_STATE = '''
    import json, sys
    import networkx as nx
    from networkx.utils import backends
    print(json.dumps([sorted(backends.backends), sorted(backends.backend_info), repr(nx.config),
                      'importlib.metadata' in sys.modules,
                      sorted(ep.name for ep in backends.entry_points(group='networkx.backends'))]))
'''


def test_without_installed_backends_the_dispatcher_matches_a_plain_import_without_importlib_metadata():
    plain = _run(BACKEND_STATE)
    lazy = _run('import mo.graph.graph\n' + textwrap.dedent(BACKEND_STATE))
    assert plain[3] is True and lazy[3] is False  # before entry_points() is asked again below
    assert lazy[:3] == plain[:3]
    assert lazy[4] == plain[4]  # the dispatcher's entry_points still answers, from importlib.metadata


def test_an_installed_backend_is_seen_as_with_a_plain_import(tmp_path):
    dist = tmp_path / 'nx_fake_backend-1.0.dist-info'
    dist.mkdir()
    (dist / 'METADATA').write_text('Metadata-Version: 2.1\nName: nx-fake-backend\nVersion: 1.0\n')
    (dist / 'entry_points.txt').write_text('[networkx.backends]\nfake = nx_fake_backend:Interface\n')
    plain = _run(BACKEND_STATE, PYTHONPATH=str(tmp_path))
    lazy = _run('import mo.graph.graph\n' + textwrap.dedent(BACKEND_STATE), PYTHONPATH=str(tmp_path))
    assert 'fake' in plain[0]
    assert lazy == plain


def test_backend_entry_points_are_read_from_their_sections():
    text = '[console_scripts]\nfake = x:y\n[networkx.backends]\nnx_loopback = a:b\n gpu = c:d \n[networkx.backend_info]\ngpu=c:e'
    assert _declared_backends(text) == [('networkx.backends', 'nx_loopback'), ('networkx.backends', 'gpu'),
                                        ('networkx.backend_info', 'gpu')]


def test_an_unexpected_networkx_init_falls_back_to_a_plain_import():
    assert _partial_source('from networkx import algorithms\n') is None
    complete = ''.join('from networkx import {0}\nfrom networkx.{0} import *\n'.format(p) for p in DEFERRED)
    assert _partial_source(complete).strip() == ''


def test_find_cycle():
    assert find_cycle({'a': ['b'], 'b': ['c'], 'c': []}) == []
    assert find_cycle({'a': ['b'], 'b': ['c'], 'c': ['a']}) == ['a', 'b', 'c']
    assert find_cycle({'a': ['a']}) == ['a']
    assert find_cycle({'x': ['a'], 'a': ['b', 'd'], 'b': [], 'd': ['e'], 'e': ['d']}) == ['d', 'e']
    chain = {i: [i + 1] for i in range(100000)}
    chain[100000] = [50000]  # deep: no recursion limit
    assert len(find_cycle(chain)) == 50001
