"""mo's Paddle readers against Paddle's own view of the same files.

The committed fixtures (``tools/make_paddle_models.py``: Paddle 2.6 classic programs and a Paddle 1.x directory,
Paddle 3 classic and PIR programs) and a fresh export by the installed Paddle are read with
``mo.front.paddle`` and compared with what Paddle loads from them (``paddle_oracle.py``, run in a child
process): blocks, op types and order, input/output slots, attributes, var dtypes and shapes, feeds and
fetches, and every parameter array bit for bit.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from mo.front.paddle.load import read_model

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, 'fixtures')
ORACLE = os.path.join(HERE, 'paddle_oracle.py')
MAKER = os.path.join(HERE, '..', '..', 'tools', 'make_paddle_models.py')

CLASSIC = ['p26/net.pdmodel', 'p26/cf.pdmodel', 'p26/ib.pdmodel', 'p26/mixed.pdmodel', 'p26/seq.pdmodel',
           'p3_classic/net.pdmodel', 'p26_dir/net']
PIR = ['p3_pir/net.json', 'p3_pir/cf.json', 'p3_pir/ib.json', 'p3_pir/mixed.json', 'p3_pir/seq.json']
FRESH = ['fresh/p3_pir/net.json', 'fresh/p3_pir/cf.json', 'fresh/p3_pir/ib.json', 'fresh/p3_pir/mixed.json',
         'fresh/p3_pir/seq.json', 'fresh/p3_classic/net.pdmodel']

#: paddle's pybind names of AttrType values that framework.proto spells differently
_ATTR_TYPE_NAMES = {'BOOL': 'BOOLEAN', 'BOOLS': 'BOOLEANS'}
#: the computation ops do not include these: the reader turns them into inputs, outputs and persistable vars
#: attributes Paddle 3 removes from Paddle 2.6 programs on loading (mo keeps what the file says)
_RETIRED_ATTRS = {'use_mkldnn', 'mkldnn_data_type'}
_NOT_OPS = ('builtin.parameter', 'pd_op.data', 'pd_op.feed', 'pd_op.fetch')


def _run_oracle(mode, paths, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, GLOG_minloglevel='2')
    done = subprocess.run([sys.executable, ORACLE, mode, out_dir] + paths, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    refs = {}
    for i, path in enumerate(paths):
        with open(os.path.join(out_dir, '{}.json'.format(i))) as f:
            structure = json.load(f)
        with open(os.path.join(out_dir, '{}.names.json'.format(i))) as f:
            names = json.load(f)
        with np.load(os.path.join(out_dir, '{}.npz'.format(i))) as arrays:
            structure['weights'] = {name: arrays['a{}'.format(j)] for j, name in enumerate(names)}
        refs[path] = structure
    return refs


@pytest.fixture(scope='module')
def fresh_dir(tmp_path_factory):
    """The fixtures' Paddle 3 models exported again by the installed Paddle: a newer Paddle's format changes
    show up here."""
    out = str(tmp_path_factory.mktemp('fresh'))
    done = subprocess.run([sys.executable, MAKER, '--out', os.path.join(out, 'fresh')], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, GLOG_minloglevel='2'))
    assert done.returncode == 0, done.stderr[-4000:]
    return out


@pytest.fixture(scope='module')
def classic_refs(tmp_path_factory):
    return _run_oracle('classic', [os.path.join(FIXTURES, p) for p in CLASSIC],
                       str(tmp_path_factory.mktemp('classic_ref')))


@pytest.fixture(scope='module')
def pir_refs(tmp_path_factory):
    return _run_oracle('pir', [os.path.join(FIXTURES, p) for p in PIR], str(tmp_path_factory.mktemp('pir_ref')))


@pytest.fixture(scope='module')
def fresh_refs(fresh_dir, tmp_path_factory):
    pir = [os.path.join(fresh_dir, p) for p in FRESH if p.endswith('.json')]
    classic = [os.path.join(fresh_dir, p) for p in FRESH if p.endswith('.pdmodel')]
    refs = _run_oracle('pir', pir, str(tmp_path_factory.mktemp('fresh_pir_ref')))
    refs.update(_run_oracle('classic', classic, str(tmp_path_factory.mktemp('fresh_classic_ref'))))
    return refs


def _same_value(ours, theirs):
    """Attribute equality, floats compared as the float32 the files hold them in."""
    if isinstance(theirs, list):
        return isinstance(ours, list) and len(ours) == len(theirs) and all(map(_same_value, ours, theirs))
    if isinstance(theirs, float) and not isinstance(ours, bool):
        return isinstance(ours, (int, float)) and np.float32(ours) == np.float32(theirs) or \
            (np.isnan(theirs) and np.isnan(ours))
    if isinstance(theirs, str) and theirs.startswith('paddle.'):  # a dtype attribute
        name = theirs.split('.', 1)[1]
        return (ours is None and 'undefined' in name.lower()) or (ours is not None and ours.name == name)
    return ours == theirs and type(ours) is type(theirs)


def _dtype_name(name):
    """paddle's legacy dtype spellings (``FP32``) as numpy's."""
    return {'FP16': 'float16', 'FP32': 'float32', 'FP64': 'float64', 'INT32': 'int32', 'INT64': 'int64',
            'BOOL': 'bool', 'INT8': 'int8', 'UINT8': 'uint8', 'INT16': 'int16'}.get(name, name)


def _check_weights(weights, ref):
    assert sorted(weights) == sorted(ref['weights'])
    for name, theirs in ref['weights'].items():
        ours = weights[name]
        assert ours.dtype == theirs.dtype, name
        assert ours.shape == theirs.shape, name
        assert ours.tobytes() == theirs.tobytes(), name  # bit for bit (NaN payloads too)
        assert not ours.flags.owndata and not ours.flags.writeable, name


def check_classic(program, weights, ref):
    assert program.format == 'program_desc'
    assert program.inputs == ref['feeds']
    assert program.outputs == ref['fetches']
    assert len(program.blocks) == len(ref['blocks'])
    for block, theirs in zip(program.blocks, ref['blocks']):
        assert (block.idx, block.parent_idx) == (theirs['idx'], theirs['parent_idx'])
        their_ops = [op for op in theirs['ops'] if block.idx != 0 or op['type'] not in ('feed', 'fetch')]
        assert [op.type for op in block.ops] == [op['type'] for op in their_ops]
        for op, their_op in zip(block.ops, their_ops):
            assert op.inputs == their_op['inputs'], op.type
            assert op.outputs == their_op['outputs'], op.type
            # Paddle 3 drops attributes it retired when it loads an older program; the file still has them
            assert set(op.attrs) - set(their_op['attrs']) <= _RETIRED_ATTRS, op.type
            assert set(their_op['attrs']) <= set(op.attrs), op.type
            for name, value in their_op['attrs'].items():
                assert _same_value(op.attrs[name], value), (op.type, name, op.attrs[name], value)
                assert op.attr_types[name] == _ATTR_TYPE_NAMES.get(their_op['attr_types'][name],
                                                                   their_op['attr_types'][name]), (op.type, name)
        assert sorted(block.vars) == sorted(theirs['vars'])
        for name, their_var in theirs['vars'].items():
            var = block.vars[name]
            assert var.persistable == their_var['persistable'], name
            assert var.kind == their_var['type'].lower().replace('lod_tensor', 'dense_tensor'), name
            if 'dtype' in their_var:
                assert var.dtype.name == _dtype_name(their_var['dtype']), name
                assert var.shape == their_var['shape'], name
    _check_weights(weights, ref)


def _our_sources(program):
    """Each value name of ours described as the oracle describes PIR values (see ``paddle_oracle.pir``)."""
    sources, counter = {None: ['null']}, [0]
    for name in program.blocks[0].vars:  # a value no op defines and not an input: a parameter's
        sources[name] = ['param', name]
    for name in program.inputs:
        sources[name] = ['data', name]

    def walk(block_idx):
        for op in program.blocks[block_idx].ops:
            n = counter[0]
            counter[0] += 1
            for i, result in enumerate(op.results):
                sources[result] = [op.type, n, i]
            for region in op.regions:
                for idx in region:
                    walk(idx)
    walk(0)
    return sources


def _type_of(var):
    """``[dtype name, shape]`` as the oracle writes a value's type."""
    return ['vector', None] if var.kind == 'vector' else [var.dtype.name, var.shape]


def check_pir(program, weights, ref):
    assert program.format == 'pir'
    sources = _our_sources(program)
    assert program.inputs == ref['feeds']
    assert [sources[name] for name in program.outputs] == ref['fetches']
    arg_stack = []

    def operand(name):
        for depth, args in enumerate(reversed(arg_stack)):
            if name in args:
                return ['arg', depth, args.index(name)]
        return sources[name]

    def compare(block_idx, theirs):
        block = program.blocks[block_idx]
        assert [_type_of(program.var(a, block_idx)) for a in block.args] == \
            [[t['dtype'], t['shape']] for t in theirs['args']]
        arg_stack.append(block.args)
        their_ops = [op for op in theirs['ops'] if op['name'] not in _NOT_OPS]
        assert [op.type for op in block.ops] == [op['name'] for op in their_ops]
        for op, their_op in zip(block.ops, their_ops):
            assert [operand(name) for name in op.operands] == their_op['operands'], op.type
            assert [_type_of(program.var(r, block_idx)) for r in op.results] == \
                [[r['dtype'], r['shape']] for r in their_op['results']], op.type
            for name, value in their_op['attrs'].items():
                assert _same_value(op.attrs[name], value), (op.type, name, op.attrs[name], value)
            ours = [idx for region in op.regions for idx in region]
            assert len(ours) == len(their_op['blocks']), op.type
            for idx, their_block in zip(ours, their_op['blocks']):
                assert program.blocks[idx].parent_idx == block_idx
                compare(idx, their_block)
        arg_stack.pop()
    compare(0, ref['program'])
    _check_weights(weights, ref)


@pytest.mark.parametrize('path', CLASSIC)
def test_classic_program_matches_paddle(path, classic_refs):
    full = os.path.join(FIXTURES, path)
    program, weights = read_model(full)
    check_classic(program, weights, classic_refs[full])


@pytest.mark.parametrize('path', PIR)
def test_pir_program_matches_paddle(path, pir_refs):
    full = os.path.join(FIXTURES, path)
    program, weights = read_model(full)
    check_pir(program, weights, pir_refs[full])


@pytest.mark.parametrize('path', FRESH)
def test_fresh_export_by_installed_paddle_matches_paddle(path, fresh_dir, fresh_refs):
    full = os.path.join(fresh_dir, path)
    program, weights = read_model(full)
    (check_pir if path.endswith('.json') else check_classic)(program, weights, fresh_refs[full])


def test_control_flow_blocks():
    """``if``/``while``: the classic sub_block attributes and the PIR regions point at the right blocks."""
    classic, _ = read_model(os.path.join(FIXTURES, 'p26/cf.pdmodel'))
    subs = [(op.type, op.attrs['sub_block']) for op in classic.blocks[0].ops if 'sub_block' in op.attrs]
    assert subs == [('conditional_block', 1), ('conditional_block', 2), ('while', 3)]
    assert all(classic.blocks[i].parent_idx == 0 for i in (1, 2, 3))
    pir, _ = read_model(os.path.join(FIXTURES, 'p3_pir/cf.json'))
    regions = [(op.type, op.regions) for op in pir.blocks[0].ops if op.regions]
    assert regions == [('pd_op.if', [[1], [2]]), ('pd_op.while', [[3]])]
    assert [op.type for op in pir.blocks[1].ops][-1] == 'cf.yield'
    assert len(pir.blocks[3].args) == 2  # the loop-carried values


def test_dynamic_batch_and_dtypes():
    for path in ('p26/net.pdmodel', 'p3_pir/net.json'):
        program, _ = read_model(os.path.join(FIXTURES, path))
        x = program.var('x')
        assert (x.dtype, x.shape) == (np.dtype('float32'), [-1, 3, 8, 8])
    for path in ('p26/ib.pdmodel', 'p3_pir/ib.json'):
        program, _ = read_model(os.path.join(FIXTURES, path))
        assert [program.var(n).dtype for n in program.inputs] == [np.dtype('int32'), np.dtype(bool)]
        assert [program.var(n).dtype for n in program.outputs] == [np.dtype('int64'), np.dtype('int64')]


def test_pir_op_named_by_slots():
    program, _ = read_model(os.path.join(FIXTURES, 'p3_pir/net.json'))
    conv = program.blocks[0].ops[0]
    assert conv.type == 'pd_op.conv2d' and conv.inputs == {}
    named = conv.named(['input', 'filter'], ['out'])
    assert named.inputs == {'input': ['x'], 'filter': ['conv2d_0.w_0']}
    assert named.output('out') == conv.results[0]
    assert named.attrs is conv.attrs



def test_pir_vectors():
    """``builtin.combine`` results are vectors whose members keep their own types."""
    program, _ = read_model(os.path.join(FIXTURES, 'p3_pir/seq.json'))
    weights = [op for op in program.blocks[0].ops if op.type == 'builtin.combine'
               and op.operands[0] == 'lstm_cell_0.w_0'][0]
    vector = program.var(weights.results[0])
    assert vector.kind == 'vector' and vector.dtype is None
    assert [(v.name, v.dtype, v.shape, v.kind, v.persistable) for v in vector.items] == [
        ('{}[{}]'.format(vector.name, i), np.dtype('float32'), shape, 'dense_tensor', False)
        for i, shape in enumerate([[32, 8], [32, 8], [32], [32]])]
    rnn = [op for op in program.blocks[0].ops if op.type == 'pd_op.rnn'][0]
    assert rnn.operands[3] is None  # the optional sequence length, left out


_MOBILENET = """
import sys
import paddle
from paddle.static import InputSpec
paddle.seed(1)
model = paddle.vision.models.mobilenet_v3_small(scale=0.5)
model.eval()
paddle.jit.save(model, sys.argv[1], input_spec=[InputSpec([None, 3, 64, 64], 'float32', 'image')])
"""


def test_mobilenet_v3_matches_paddle(tmp_path):
    """A real architecture (paddle.vision's MobileNetV3-small at half width, random weights, 3.7 MB), exported by
    the installed Paddle in both formats: 200-odd ops (depthwise convs, hard swish, squeeze-excite) and 210
    parameters read as Paddle reads them."""
    for fmt, flag in (('pir', '1'), ('classic', '0')):
        done = subprocess.run([sys.executable, '-c', _MOBILENET, str(tmp_path / fmt)], capture_output=True, text=True,
                              timeout=600, env=dict(os.environ, FLAGS_enable_pir_api=flag, GLOG_minloglevel='2'))
        assert done.returncode == 0, done.stderr[-4000:]
    pir_path, classic_path = str(tmp_path / 'pir.json'), str(tmp_path / 'classic.pdmodel')
    refs = _run_oracle('pir', [pir_path], str(tmp_path / 'pir_ref'))
    refs.update(_run_oracle('classic', [classic_path], str(tmp_path / 'classic_ref')))
    program, weights = read_model(pir_path)
    check_pir(program, weights, refs[pir_path])
    assert len(weights) == 210
    program, weights = read_model(classic_path)
    check_classic(program, weights, refs[classic_path])
    assert len(weights) == 210
