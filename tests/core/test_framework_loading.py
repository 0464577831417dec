"""``mo convert`` imports only the model's framework's folders: the same steps run, in the same order, with the
same IR bytes, and no step or extractor in one framework's folders serves another."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mo.front.extractor import FrontExtractorOp
from mo.utils.class_registration import pipeline, registered_classes
from mo.front.frameworks import folder_framework
from mo.utils.import_extensions import FRAMEWORK_SUBDIRS, load_builtin
from mo.utils.replacement import frameworks_of

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = sorted(FRAMEWORK_SUBDIRS)


def _builtin(module: str) -> bool:
    return module.split('.')[0] == 'extensions'


def _served_elsewhere() -> dict:
    """framework -> the built-in modules in another framework's folders that have a step or extractor for it."""
    load_builtin(with_transforms=False)
    served = {fw: set() for fw in FRAMEWORKS}
    for cls in registered_classes():
        home = folder_framework(cls.__module__)
        if _builtin(cls.__module__) and home:
            for fw in frameworks_of(cls) - {home}:
                served[fw].add(cls.__module__)
    for fw, table in FrontExtractorOp.registry.items():
        for cls in table.values():
            home = folder_framework(cls.__module__)
            if _builtin(cls.__module__) and home and home != fw:
                served[fw].add(cls.__module__)
    return served


def test_no_module_in_a_frameworks_folders_serves_another_framework():
    """A step for several frameworks lives in a shared folder: loading one framework's folders is enough."""
    assert {fw: sorted(modules) for fw, modules in _served_elsewhere().items()} == {fw: [] for fw in FRAMEWORKS}


def _partial_pipeline(framework: str) -> list:
    """``[class name, enabled]`` of the pipeline that a fresh process builds from one framework's load."""
    code = textwrap.dedent('''
        import json
        from mo.utils.import_extensions import load_builtin
        from mo.utils.class_registration import pipeline
        load_builtin(with_transforms=False, framework={!r})
        print(json.dumps([[info.name, info.enabled] for info in pipeline()]))
    ''').format(framework)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, cwd=str(ROOT))
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize('framework', FRAMEWORKS)
def test_one_frameworks_load_runs_the_full_pipelines_steps_in_its_order(framework):
    partial = _partial_pipeline(framework)
    load_builtin(with_transforms=False)
    full = pipeline()
    names = {name for name, _ in partial}
    assert [[info.name, info.enabled] for info in full if info.name in names] == partial
    # what the partial load leaves out is what a full load's graph_condition skips on this framework's graphs
    for info in full:
        if info.name not in names:
            served = frameworks_of(info.cls)
            assert served and framework not in served, info.name


def _onnx_model(path: Path):
    onnx = pytest.importorskip('onnx')
    from onnx import TensorProto, helper, numpy_helper
    import numpy as np
    weights = numpy_helper.from_array(np.linspace(-1, 1, 4 * 3 * 3 * 3, dtype=np.float32).reshape(4, 3, 3, 3), 'w')
    nodes = [helper.make_node('Conv', ['x', 'w'], ['c'], pads=[1, 1, 1, 1]),
             helper.make_node('Identity', ['c'], ['i']),  # IdentityEraser lives in front/tf and serves ONNX
             helper.make_node('LRN', ['i'], ['l'], size=3),  # so does the LRN lowering
             helper.make_node('Relu', ['l'], ['y'])]
    graph = helper.make_graph(nodes, 'g', [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1, 4, 8, 8])], [weights])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)]), str(path))


@pytest.mark.parametrize('kind', ['tf', 'onnx'])
def test_the_cli_writes_the_ir_bytes_of_a_full_load(tmp_path, kind):
    if kind == 'tf':
        model = ROOT / 'examples' / 'small_cnn.pb'
    else:
        model = tmp_path / 'model.onnx'
        _onnx_model(model)
    cli = tmp_path / 'cli'
    subprocess.run([sys.executable, '-m', 'mo', 'convert', '--input_model', str(model), '--output_dir', str(cli),
                    '--model_name', 'm'], check=True, capture_output=True, cwd=str(ROOT))
    load_builtin(with_transforms=False)  # in this process every framework's folders are loaded
    from mo.pipeline.convert import convert
    full = tmp_path / 'full'
    convert({'input_model': str(model), 'output_dir': str(full), 'model_name': 'm', 'silent': True})
    for name in ('m.xml', 'm.bin'):
        assert (cli / name).read_bytes() == (full / name).read_bytes(), name


def test_the_legacy_path_modules_that_loading_skips_register_nothing():
    """The Model Optimizer's module paths (``mo.compat``) are never imported by ``load_builtin``: importing them
    afterwards (as an author's code does) changes no registry, and a TF conversion's load then needs no
    ``numpy.ma`` (only authors' masked API does)."""
    code = textwrap.dedent('''
        import importlib, json, sys
        from mo.compat import served_modules
        from mo.front.extractor import FrontExtractorOp
        from mo.ops.op import Op
        from mo.utils.class_registration import full_name, registered_classes
        from mo.utils.import_extensions import load_builtin

        def registries():
            return [sorted(full_name(c) for c in registered_classes()),
                    {fw: sorted(table) for fw, table in FrontExtractorOp.registry.items()},
                    sorted(Op.registered_ops)]
        legacy = served_modules()
        load_builtin(with_transforms=False, framework='tf')
        masked = 'numpy.ma' in sys.modules
        skipped = sorted(m for m in legacy if m in sys.modules)
        load_builtin(with_transforms=False)
        before = registries()
        for module in legacy:
            importlib.import_module(module)
        print(json.dumps({'masked': masked, 'skipped': skipped, 'same': registries() == before,
                          'count': len(legacy)}))
    ''')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, cwd=str(ROOT))
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result.pop('count') > 60
    assert result == {'masked': False, 'skipped': [], 'same': True}


def test_every_module_with_a_legacy_only_class_is_in_the_compat_wing():
    """A ``legacy_only`` class stands only in ``mo/compat``, apart from the live code, under a path it serves."""
    from mo.compat import WING, served_files

    def marked(paths):
        return {path for path in paths if 'legacy_only = True' in path.read_text()}
    wing = Path(WING)
    live = [path for package in ('mo', 'extensions') for path in (ROOT / package).rglob('*.py')
            if wing not in path.parents]
    assert not marked(live)
    in_wing = {'.'.join(path.relative_to(wing).with_suffix('').parts) for path in marked(wing.rglob('*.py'))}
    assert in_wing and in_wing <= set(served_files())
