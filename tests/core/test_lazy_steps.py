"""Rule modules that wait for their ops (``mo.utils.lazy_steps``): a conversion that imports them only when its graph
has one of their ops writes the IR bytes a full import writes, runs the full pipeline's steps in its order, and
imports fewer modules; op modules wait for a lookup of their op; an index that no longer describes the files is not
used."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mo.utils import lazy_steps
from mo.utils.import_extensions import FRAMEWORK_SUBDIRS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = {
    'tf': ('examples/small_cnn.pb',),
    'onnx': ('tests/onnx/models/mask_rcnn.onnx',),
    'paddle': ('tests/paddle/fixtures/p26_models/yolo_det.pdmodel',),
}

#: a conversion in a fresh process: the IR, and which built-in modules it imported and stood in for
_CONVERT = textwrap.dedent('''
    import json, sys
    from mo.main import main
    code = main(sys.argv[1:])
    from mo.utils.lazy_steps import StandIn
    from mo.utils.class_registration import snapshot_registry
    print(json.dumps({'code': code,
                      'modules': sorted(m for m in sys.modules if m.split('.')[0] in ('mo', 'extensions')),
                      'stand_ins': sorted(n for n, c in snapshot_registry().items() if issubclass(c, StandIn))}))
''')


def _env(cache: Path, eager: bool) -> dict:
    """A child's environment whose index (and bytecode) go to ``cache``; ``eager``: every module imported."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(cache))
    env.pop('PYTHONDONTWRITEBYTECODE', None)  # the index is kept where bytecode may be written
    for name in ('MO_EAGER_STEPS', 'MO_ENABLED_TRANSFORMS', 'MO_DISABLED_TRANSFORMS', 'MO_SHUFFLE_TIE_BREAK'):
        env.pop(name, None)
    if eager:
        env['MO_EAGER_STEPS'] = '1'
    return env


def _convert(args, cache: Path, eager: bool = False) -> dict:
    out = subprocess.run([sys.executable, '-c', _CONVERT] + ['convert'] + [str(a) for a in args],
                         capture_output=True, text=True, cwd=str(ROOT), env=_env(cache, eager))
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result['code'] == 0, out.stderr[-3000:]
    return result


def _ir(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.suffix in ('.xml', '.bin')}


def _mxnet_args():
    fixtures = ROOT / 'tests' / 'mxnet' / 'fixtures'
    ref = np.load(fixtures / 'gluoncv_ssd.ref.npz')
    inputs = ','.join('{}[{}]'.format(key[3:], ','.join(map(str, ref[key].shape)))
                      for key in ref.files if key.startswith('in:'))
    return [fixtures / 'gluoncv_ssd-0000.params', '--input', inputs]


def _tf_model_of_waiting_ops(path: Path):
    """A frozen graph whose ops are all converted by modules that wait for them (cumulative product, segment sums,
    leaky ReLU, erfc, a MaxPoolV2, a one-hot, square and rsqrt)."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    @tf.function(input_signature=[tf.TensorSpec([4, 6], tf.float32)])
    def model(x):
        y = tf.math.cumprod(x, axis=1, exclusive=True)
        y = tf.math.segment_sum(y, tf.constant([0, 0, 1, 2]))
        y = tf.nn.leaky_relu(y, 0.3) + tf.math.erfc(y * 0.1)
        pooled = tf.raw_ops.MaxPoolV2(input=tf.reshape(y, [1, 3, 6, 1]), ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1],
                                      padding='SAME')
        hot = tf.one_hot(tf.argmax(y, axis=1), 6)
        return tf.math.rsqrt(tf.square(tf.reshape(pooled, [3, 6])) + 1.0) + hot

    frozen = convert_variables_to_constants_v2(model.get_concrete_function())
    path.write_bytes(frozen.graph.as_graph_def().SerializeToString())
    return path


def _models(tmp_path: Path):
    models = [(fw, [ROOT / FIXTURES[fw][0]]) for fw in ('tf', 'onnx', 'paddle')]
    models.append(('mxnet', _mxnet_args()))
    models.append(('tf', [_tf_model_of_waiting_ops(tmp_path / 'waiting_ops.pb')]))
    return models


def test_a_conversion_that_waits_for_ops_writes_a_full_imports_ir(tmp_path):
    """Every framework: the first conversion imports everything and writes the index, the next ones import a rule
    module only for an op the graph has, and all three write the IR a full import writes."""
    cache = tmp_path / 'cache'
    for k, (framework, args) in enumerate(_models(tmp_path)):
        ir = {}
        for run, eager in (('eager', True), ('indexing', False), ('lazy', False)):
            out = tmp_path / '{}_{}'.format(k, run)
            result = _convert(['--input_model'] + args + ['--output_dir', out], cache, eager)
            ir[run] = _ir(out)
            if run == 'eager':
                eager_modules = set(result['modules'])
                assert not result['stand_ins']
            elif run == 'indexing':
                assert list(cache.rglob('step-index-{}.*.json'.format(framework))), framework
            else:
                assert result['stand_ins'], '{}: the index was not used'.format(framework)
                assert set(result['modules']) < eager_modules, framework
        assert ir['lazy'] == ir['eager'] and ir['indexing'] == ir['eager'], (framework, args)


def _pipeline(framework: str, cache: Path, eager: bool):
    """``([step, enabled, id] of the pipeline a fresh process builds for a conversion of ``framework``, how many
    of its steps are stand-ins)``."""
    code = textwrap.dedent('''
        import json
        from mo.utils.import_extensions import load_builtin
        from mo.utils.class_registration import pipeline
        from mo.utils.lazy_steps import StandIn
        load_builtin(with_transforms=False, framework={!r}, lazy=True)
        infos = pipeline()
        print(json.dumps([[[info.name, info.enabled, info.id] for info in infos],
                          sum(issubclass(info.cls, StandIn) for info in infos)]))
    ''').format(framework)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True, cwd=str(ROOT),
                         env=_env(cache, eager))
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize('framework', sorted(FRAMEWORK_SUBDIRS))
def test_stand_ins_take_their_steps_places(framework, tmp_path):
    cache = tmp_path / 'cache'
    full, stand_ins = _pipeline(framework, cache, eager=True)
    assert not stand_ins
    assert _pipeline(framework, cache, eager=False)[1] == 0  # no index yet: everything imported, the index written
    lazy, stand_ins = _pipeline(framework, cache, eager=False)
    assert lazy == full and stand_ins > 10


def test_op_modules_wait_for_a_lookup_of_their_op(tmp_path):
    """An op module (``mo.ops.mvn``) is not imported by a lazy load; the first lookup of its op by name
    (``[name]``, ``in``, ``get``, as extractors and the IR writer look ops up) imports it, and unknown names stay
    unknown. The listing of every op imports them all."""
    code = textwrap.dedent('''
        import json, sys
        from mo.ops.op import Op
        from mo.utils.import_extensions import load_builtin
        load_builtin(with_transforms=False, framework='tf', lazy=True)
        before = 'mo.ops.mvn' in sys.modules
        found = 'MVN' in Op.registered_ops
        cls = Op.registered_ops['MVN']
        print(json.dumps({'before': before, 'found': found, 'module': cls.__module__,
                          'after': 'mo.ops.mvn' in sys.modules,
                          'unknown': ['NoSuchOp' in Op.registered_ops, Op.registered_ops.get('NoSuchOp')]}))
    ''')
    cache = tmp_path / 'cache'
    runs = []
    for _ in range(2):  # the first builds the index, the second uses it
        out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=str(ROOT),
                             env=_env(cache, False))
        assert out.returncode == 0, out.stderr[-3000:]
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0]['before'] is True  # building the index imports everything
    assert runs[1] == {'before': False, 'found': True, 'module': 'mo.ops.mvn', 'after': True,
                       'unknown': [False, None]}
    listing = subprocess.run([sys.executable, '-m', 'mo', 'ops'], capture_output=True, text=True, cwd=str(ROOT),
                             env=_env(cache, False))
    assert listing.returncode == 0 and 'MVN' in listing.stdout, listing.stderr[-2000:]


def test_an_index_that_does_not_describe_the_files_is_replaced(tmp_path):
    """An index built from other files (a module's size or modification time differs) is not used: the conversion
    imports everything and writes the index of the files as they are."""
    cache = tmp_path / 'cache'
    _pipeline('tf', cache, eager=False)
    index_file = next(cache.rglob('step-index-tf.*.json'))
    index = json.loads(index_file.read_text())
    assert index['lazy'] and 'extensions/front/tf/fft_lowering.py' in index['key']
    stale = dict(index, key=dict(index['key'], **{'extensions/front/tf/fft_lowering.py': [1, 2]}))
    index_file.write_text(json.dumps(stale))
    assert _pipeline('tf', cache, eager=False)[1] == 0
    assert json.loads(index_file.read_text()) == index
    assert _pipeline('tf', cache, eager=False)[1] > 10
    index_file.write_text('{"version": 1, "key": ')  # a truncated file is no index either
    assert _pipeline('tf', cache, eager=False)[1] == 0
    assert json.loads(index_file.read_text()) == index


def test_user_extensions_and_named_steps_load_everything(tmp_path):
    """With ``--extensions`` or a variable that names steps, every built-in module is imported (a user's step may
    name any of them)."""
    cache = tmp_path / 'cache'
    ext = tmp_path / 'ext' / 'front'
    ext.mkdir(parents=True)
    (ext / 'mine.py').write_text(textwrap.dedent('''
        from mo.front.common.replacement import FrontReplacementPattern

        class Mine(FrontReplacementPattern):
            enabled = True

            def find_and_replace_pattern(self, graph):
                pass
    '''))
    model = ROOT / FIXTURES['tf'][0]
    _convert(['--input_model', model, '--output_dir', tmp_path / 'a'], cache)  # the index
    assert _convert(['--input_model', model, '--output_dir', tmp_path / 'b'], cache)['stand_ins']
    with_ext = _convert(['--input_model', model, '--output_dir', tmp_path / 'c', '--extensions', tmp_path / 'ext'],
                        cache)
    assert not with_ext['stand_ins']
    # the same IR but for the options it records
    without_options = {name: data.split(b'<rt_info>')[0] for name, data in _ir(tmp_path / 'c').items()}
    assert without_options == {name: data.split(b'<rt_info>')[0] for name, data in _ir(tmp_path / 'b').items()}


def test_the_declared_order_is_the_order_the_steps_run_in():
    """What makes a stand-in's place right: with every built-in step loaded, the pipeline runs them in the order
    ``extensions/pipeline_order.py`` lists (no ``run_before``/``run_after`` edge disagrees with it), so the sort
    places a step without edges, its stand-in, where the step itself would run."""
    from mo.utils.class_registration import _DECLARED_RANK, pipeline
    from mo.utils.import_extensions import load_builtin
    load_builtin(with_transforms=False)
    names = [info.name for info in pipeline()]
    assert names == sorted(names, key=lambda name: _DECLARED_RANK[name])
