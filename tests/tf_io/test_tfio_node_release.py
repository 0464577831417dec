"""TFExtractor lets each node's NodeDef go once the node is extracted (its memory goes while the graph grows),
unless a user's extractor runs: one may read the NodeDef of its node's inputs, extracted before it."""
import textwrap

import numpy as np
import pytest

from tests.convert.conftest import TOLERANCE, max_error

tf = pytest.importorskip('tensorflow')
pytest.importorskip('openvino')

#: a user's Tanh extractor that reads the NodeDef of its input (an AddV2, extracted before it)
_EXTRACTOR = '''
from mo.front.extractor import FrontExtractorOp
from mo.ops.activation_ops import Tanh


class TanhReadingItsInput(FrontExtractorOp):
    op = 'Tanh'

    @classmethod
    def extract(cls, node):
        source = node.in_node(0)
        assert source.pb.op == 'AddV2', 'the input node keeps its NodeDef until extraction ends'
        Tanh.update_node_stat(node, {})
        return True
'''


def _model() -> bytes:
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3], name='x')
        added = tf.add(x, tf.constant(np.float32(0.5), name='c'), name='added')
        tf.tanh(added, name='out')
    return graph.as_graph_def().SerializeToString()


@pytest.mark.parametrize('with_extension', [False, True], ids=['built-in', 'user-extractor'])
def test_extraction_with_and_without_a_users_extractor(tmp_path, with_extension):
    from mo.main import main
    from tests.support import oracles
    graph_def = _model()
    (tmp_path / 'm.pb').write_bytes(graph_def)
    options = []
    if with_extension:
        (tmp_path / 'ext' / 'front' / 'tf').mkdir(parents=True)
        (tmp_path / 'ext' / 'front' / 'tf' / 'tanh_ext.py').write_text(textwrap.dedent(_EXTRACTOR))
        options = ['--extensions', str(tmp_path / 'ext')]
    assert main(['convert', '--input_model', str(tmp_path / 'm.pb'), '--output_dir', str(tmp_path / 'ir'),
                 '--silent', *options]) == 0
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    expected = oracles.run_tf(graph_def, {'x': x}, ['out'])
    compiled = oracles.compile_openvino(str(tmp_path / 'ir' / 'm.xml'))
    assert max_error([compiled({0: x})[compiled.output('out:0')]], expected) < TOLERANCE
