"""Every command of the Graph Transform Tool's README (seed 000), flags unchanged but the program
name, on frozen Keras models behind the README's Inception v3 front end (``Mul`` in, ``softmax`` out;
see ``tests.support.gtt_readme``); TF's own C++ tool runs the same string.

Ours must compute what the original computes (lossless recipes: as TF's output does; lossy ones: no
less accurately than TF's output, give or take the rounding noise), write a file no bigger than
TF's, keep no more nodes, and keep nothing alive through control edges alone (a frozen Keras
model's NoOp is a control input of the output and holds every weight read).
"""
import pytest

from tests.gtt_numeric.helpers import mo_transform
from tests.support.gtt_readme import RECIPES, readme_feeds, readme_graph
from tests.support.oracles import GTTError, compare, graph_def_from, run_tf, run_tf_gtt

pytest.importorskip('tensorflow')

#: TF's fold_batch_norms rejects the per-channel Mul constant of Keras 3's BatchNormalization
#: without scale (InceptionV3's), shaped [1, 1, 1, C] rather than [C], and so fails the recipe
TF_BATCH_NORM_SHAPE = 'Mul constant input to batch norm has bad shape'


@pytest.fixture(scope='module', params=['mobilenet_v2', 'resnet50', 'inception_v3'])
def model(request):
    from tests.support.models import get_model
    record = get_model(request.param)
    return record.name, readme_graph(record)


def kept_only_by_control_edges(graph_def, outputs) -> list:
    """Nodes that no output needs through data edges (what only a control input, e.g. a NoOp's, keeps)."""
    nodes = {n.name: n for n in graph_def.node}
    needed, todo = set(), [o.split(':')[0] for o in outputs]
    while todo:
        name = todo.pop()
        if name in needed or name not in nodes:
            continue
        needed.add(name)
        todo.extend(i.split(':')[0] for i in nodes[name].input if not i.startswith('^'))
    return sorted(n for n, node in nodes.items() if n not in needed and node.op not in ('NoOp', 'Placeholder'))


def _tf_tool(graph_def, recipe):
    """TF's tool on the README's string; where its fold_batch_norms rejects a Keras batch norm, the
    same string with that step's error ignored (TF's tool then leaves those batch norms unfolded)."""
    try:
        return run_tf_gtt(graph_def, recipe.inputs, recipe.outputs, recipe.transforms)
    except GTTError as exc:
        assert TF_BATCH_NORM_SHAPE in str(exc)
    transforms = recipe.transforms.replace('fold_batch_norms', 'fold_batch_norms(ignore_errors=true)')
    return run_tf_gtt(graph_def, recipe.inputs, recipe.outputs, transforms)


def _tensor(name: str) -> str:
    return name if ':' in name else name + ':0'


def _error(graph_def, original, feeds, source=None):
    """The largest relative error of ``graph_def``'s softmax against ``original``. Given the ``source``
    graph: where ``graph_def`` has no ``Mul``/``softmax``, they are found by position (TF's
    obfuscate_names renames the nodes ``--inputs=Mul:0 --outputs=softmax:0`` name)."""
    names = {'Mul': 'Mul', 'softmax': 'softmax'}
    if source is not None and 'softmax' not in {n.name for n in graph_def_from(graph_def).node}:
        renamed = dict(zip((n.name for n in graph_def_from(source).node),
                           (n.name for n in graph_def_from(graph_def).node)))
        names = {name: renamed[name] for name in names}
    feeds = {names['Mul']: feeds['Mul']}
    return max(compare(a, e) for a, e in zip(run_tf(graph_def, feeds, [names['softmax']]), original))


@pytest.mark.parametrize('name', [n for n, r in RECIPES.items() if not r.source])
def test_readme_recipe_matches_tensorflows_tool(model, name, tmp_path):
    model_name, graph_def = model
    recipe = RECIPES[name]
    ours = mo_transform(tmp_path, graph_def, [recipe.inputs], [recipe.outputs], recipe.transforms)
    theirs = _tf_tool(graph_def, recipe)
    assert len(ours) <= len(theirs), (len(ours), len(theirs))
    mine, tfs = graph_def_from(ours), graph_def_from(theirs)
    assert len(mine.node) <= len(tfs.node)
    assert kept_only_by_control_edges(mine, ['softmax']) == []
    feeds = readme_feeds(seed=5)
    original = run_tf(graph_def, feeds, ['softmax'])
    ours_error, theirs_error = _error(ours, original, feeds), _error(theirs, original, feeds, graph_def)
    if recipe.lossy:
        # ours folds every batch norm into the weights before rounding them, TF's tool leaves some
        # unfolded and rounds weights and batch-norm constants apart: different rounding noise, which
        # these random-weight networks amplify (TF's own error reaches 10-60%); a wrong quantization
        # would be off by 100%
        assert ours_error <= max(2.5 * theirs_error, 1e-3), (ours_error, theirs_error)
    else:
        # folding a batch norm into the weights rounds each weight once in float32 where the
        # original rounds the convolution and the scale apart: up to 3.3e-5 through ResNet50
        assert ours_error <= max(theirs_error, 1e-4), (ours_error, theirs_error)


def test_obfuscate_names_keeps_inputs_and_outputs(model, tmp_path):
    _, graph_def = model
    recipe = RECIPES['obfuscate_names']
    names = {n.name for n in graph_def_from(mo_transform(tmp_path, graph_def, [recipe.inputs], [recipe.outputs],
                                                         recipe.transforms)).node}
    assert {'Mul', 'softmax'} <= names
    assert max(len(n) for n in names - {'Mul', 'softmax'}) <= 3


def test_insert_logging_recipe(model, tmp_path):
    """The README's insert_logging string keeps a backslash inside its quotes: TF's tool rejects it, so
    does ours (one error line, nothing written); without it, both log every RequantizationRange of
    the eight-bit graph the same way."""
    from mo.main import main
    _, graph_def = model
    recipe = RECIPES['insert_logging']
    source = RECIPES[recipe.source]
    quantized = _tf_tool(graph_def, source)
    with pytest.raises(GTTError, match='found'):
        run_tf_gtt(quantized, recipe.inputs, recipe.outputs, recipe.transforms)
    (tmp_path / 'q.pb').write_bytes(quantized)
    code = main(['transform', '--in_graph', str(tmp_path / 'q.pb'), '--out_graph', str(tmp_path / 'logged.pb'),
                 '--inputs', recipe.inputs, '--outputs', recipe.outputs, '--transforms', recipe.transforms])
    assert code == 2 and not (tmp_path / 'logged.pb').exists()

    transforms = recipe.transforms.replace('\\', '')
    ours = graph_def_from(mo_transform(tmp_path, quantized, [recipe.inputs], [recipe.outputs], transforms))
    theirs = graph_def_from(run_tf_gtt(quantized, recipe.inputs, recipe.outputs, transforms))
    prints = {n.name: n for n in ours.node if n.op == 'Print'}
    assert prints and set(prints) == {n.name for n in theirs.node if n.op == 'Print'}
    for node in theirs.node:
        if node.op == 'Print':
            assert [_tensor(i) for i in prints[node.name].input] == [_tensor(i) for i in node.input]
            assert prints[node.name].attr['message'].s == node.attr['message'].s
            assert node.attr['message'].s.startswith(b';') and node.attr['message'].s.endswith(b';__requant_min_max:')
    feeds = readme_feeds(seed=2)
    for got, expected in zip(run_tf(ours, feeds, ['softmax']), run_tf(quantized, feeds, ['softmax'])):
        assert compare(got, expected) == 0
