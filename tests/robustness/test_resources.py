"""Absurd sizes are refused or left unfolded; they never exhaust memory."""
import numpy as np

from mo.front.tf.attrs import encode_attr
from mo.front.tf.node_def import make_node_def
from mo.front.tf.proto import GraphDef, TensorProto
from tests.robustness.fuzzing import check_outcome, run_cli

DT_FLOAT, DT_INT32 = 1, 3


def _const(name, array):
    return make_node_def(name, 'Const', {'dtype': encode_attr(DT_INT32 if array.dtype == np.int32 else DT_FLOAT,
                                                              'type'), 'value': encode_attr(array)})


def fill_plus_input(path, dims, input_shape):
    """A model file computing ``x + Fill(dims, 1.0)``: the Fill folds to a constant of ``dims``."""
    gd = GraphDef()
    gd.node.add().CopyFrom(_const('dims', np.array(dims, np.int32)))
    gd.node.add().CopyFrom(_const('one', np.array(1.0, np.float32)))
    gd.node.add().CopyFrom(make_node_def('fill', 'Fill', {'T': encode_attr(DT_FLOAT, 'type'),
                                                          'index_type': encode_attr(DT_INT32, 'type')},
                                         inputs=['dims', 'one']))
    gd.node.add().CopyFrom(make_node_def('x', 'Placeholder', {'dtype': encode_attr(DT_FLOAT, 'type'),
                                                              'shape': encode_attr(input_shape, 'shape')}))
    gd.node.add().CopyFrom(make_node_def('add', 'AddV2', {'T': encode_attr(DT_FLOAT, 'type')}, inputs=['x', 'fill']))
    path.write_bytes(gd.SerializeToString())
    return path


def test_constant_that_would_fold_into_gigabytes_is_left_as_a_computation(tmp_path):
    # Fill([40000, 40000], 1.0) + x: folding would need 6.4 GB
    model = fill_plus_input(tmp_path / 'big.pb', [40000, 40000], [1, 40000])
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'ir')])
    assert code == 0, err
    assert 'max_constant_size' in err  # the warning says what was left unfolded and why
    assert (tmp_path / 'ir' / 'big.bin').stat().st_size < 1 << 20


def test_max_constant_size_option_lowers_the_limit(tmp_path):
    model = fill_plus_input(tmp_path / 'm.pb', [64, 1024], [64, 1024])
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'a')])
    assert code == 0, err
    folded = (tmp_path / 'a' / 'm.bin').stat().st_size
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'b'),
                            '--max_constant_size', '64K'])
    assert code == 0, err
    assert (tmp_path / 'b' / 'm.bin').stat().st_size < folded < 1 << 20 and 'max_constant_size' in err
    code, _, err = run_cli(['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'c'),
                            '--max_constant_size', 'lots'])
    assert code == 2 and '[ ERROR ]' in err


def test_tensor_declaring_an_absurd_size_is_refused(tmp_path):
    tensor = TensorProto(dtype=DT_FLOAT)
    tensor.tensor_shape.dim.add().size = 10 ** 12
    tensor.float_val.append(0.5)  # a "splat": one value claimed to fill 4 TB
    gd = GraphDef()
    gd.node.add().CopyFrom(make_node_def('huge', 'Const', {'dtype': encode_attr(DT_FLOAT, 'type'),
                                                           'value': encode_attr(tensor, 'tensor')}))
    gd.node.add().CopyFrom(make_node_def('out', 'Identity', {'T': encode_attr(DT_FLOAT, 'type')}, inputs=['huge']))
    model = tmp_path / 'huge.pb'
    model.write_bytes(gd.SerializeToString())
    for args in (['convert', '--input_model', str(model), '--output_dir', str(tmp_path / 'ir')],
                 ['transform', '--in_graph', str(model), '--out_graph', str(tmp_path / 'o.pb'), '--outputs', 'out',
                  '--transforms', 'fold_constants'],
                 ['summarize', '--in_graph', str(model)]):
        code, _, err = run_cli(args)
        check_outcome(code, err, [str(tmp_path / 'ir' / 'huge.xml'), str(tmp_path / 'o.pb')] if code else [],
                      ' '.join(args[:1]))
