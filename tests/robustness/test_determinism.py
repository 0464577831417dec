"""The same model gives byte-identical IR and GraphDef files: across runs, hash seeds and node orders."""
import hashlib
import os
import random
import subprocess
import sys

import pytest

from mo.front.tf.graphdef_io import read_graph_def

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, 'examples', 'small_cnn.pb')


def digest(*paths):
    h = hashlib.sha256()
    for path in paths:
        with open(path, 'rb') as handle:
            h.update(handle.read())
    return h.hexdigest()


def convert_in_subprocess(model, out_dir, hash_seed):
    """Convert ``model`` given by its bare file name from its own directory (the IR records the path)."""
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=ROOT)
    result = subprocess.run([sys.executable, '-m', 'mo.main', 'convert', '--input_model', model.name,
                             '--output_dir', str(out_dir), '--model_name', 'm'],
                            env=env, cwd=str(model.parent), capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return digest(out_dir / 'm.xml', out_dir / 'm.bin')


def shuffled_copy(path, target, seed):
    graph_def = read_graph_def(path)
    nodes = list(graph_def.node)
    random.Random(seed).shuffle(nodes)
    del graph_def.node[:]
    graph_def.node.extend(nodes)
    target.write_bytes(graph_def.SerializeToString())
    return target


def test_convert_is_byte_identical_across_hash_seeds_and_node_orders(tmp_path):
    (tmp_path / 'original').mkdir()
    (tmp_path / 'shuffled').mkdir()
    original = tmp_path / 'original' / 'model.pb'
    original.write_bytes(open(EXAMPLE, 'rb').read())
    reference = convert_in_subprocess(original, tmp_path / 'a', 0)
    assert convert_in_subprocess(original, tmp_path / 'b', 12345) == reference
    shuffled = shuffled_copy(EXAMPLE, tmp_path / 'shuffled' / 'model.pb', 7)
    assert convert_in_subprocess(shuffled, tmp_path / 'c', 99) == reference


def test_transform_is_byte_identical_across_hash_seeds(tmp_path):
    outputs = []
    for seed in (0, 4242):
        out = tmp_path / 'out{}.pb'.format(seed)
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        result = subprocess.run([sys.executable, '-m', 'mo.main', 'transform', '--in_graph', EXAMPLE,
                                 '--out_graph', str(out), '--outputs', 'Identity', '--transforms',
                                 'strip_unused_nodes remove_nodes(op=Identity) fold_constants fold_batch_norms '
                                 'fold_old_batch_norms merge_duplicate_nodes sort_by_execution_order'],
                                env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        outputs.append(digest(out))
    assert outputs[0] == outputs[1]
