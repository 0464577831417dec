"""The model file is read ahead by the kernel during start-up, and a big GraphDef is mapped, not copied."""
import numpy as np

from mo.front.tf import graphdef_io
from mo.front.tf.proto import GraphDef
from mo.front.tf.tensor import numpy_to_tensor
from mo.utils import prefetch


def test_read_ahead_of_any_path_changes_nothing(tmp_path):
    path = tmp_path / 'model.pb'
    path.write_bytes(b'abc' * 1000)
    for target in (path, tmp_path / 'missing.pb', tmp_path):
        assert prefetch.start(str(target)) is None
    assert path.read_bytes() == b'abc' * 1000


def _graph_def_with_weights(size: int) -> bytes:
    graph_def = GraphDef()
    node = graph_def.node.add(name='w', op='Const')
    node.attr['dtype'].type = 1
    node.attr['value'].tensor.CopyFrom(numpy_to_tensor(np.arange(size, dtype=np.float32)))
    graph_def.node.add(name='y', op='Relu', input=['w']).attr['T'].type = 1
    return graph_def.SerializeToString()


def test_a_big_graph_def_is_mapped_and_its_weights_view_the_mapping(tmp_path):
    """A file of MAPPED_MIN_BYTES or more is read as a view of the mapped file: the weights are not copied."""
    big = tmp_path / 'big.pb'
    big.write_bytes(_graph_def_with_weights(graphdef_io.MAPPED_MIN_BYTES // 4 + 10))
    small = tmp_path / 'small.pb'
    small.write_bytes(_graph_def_with_weights(10))
    read = graphdef_io.read_graph_def_in_parts(big, weights_apart_from=1024)
    assert isinstance(read.data, memoryview) and read.binary
    weights = np.frombuffer(read.contents['w'], np.float32)
    assert np.array_equal(weights, np.arange(graphdef_io.MAPPED_MIN_BYTES // 4 + 10, dtype=np.float32))
    assert np.shares_memory(weights, np.frombuffer(read.data, np.uint8))
    assert isinstance(graphdef_io.read_graph_def_in_parts(small).data, bytes)
    # the GraphDef itself is the one protobuf reads from the bytes
    assert graphdef_io.read_graph_def(big) == GraphDef.FromString(big.read_bytes())


def test_model_path_in_a_command_line():
    assert prefetch.model_path_in(['convert', '--input_model', 'a.pb', '--output_dir', 'o']) == 'a.pb'
    assert prefetch.model_path_in(['convert', '--input_model=b.pb']) == 'b.pb'
    assert prefetch.model_path_in(['transform', '--in_graph', 'a.pb', '--out_graph', 'b.pb']) == 'a.pb'
    assert prefetch.model_path_in(['summarize', '--in_graph=c.pb']) == 'c.pb'
    assert prefetch.model_path_in(['transform', '--input_model', 'a.pb']) is None
    assert prefetch.model_path_in(['transforms', '--in_graph', 'a.pb']) is None
    assert prefetch.model_path_in(['convert', '--input_model']) is None
    assert prefetch.model_path_in([]) is None
