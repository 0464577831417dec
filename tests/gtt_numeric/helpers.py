"""Shared helpers of the numeric-transform tests: run ``mo transform`` in-process, compare with TF."""
from collections import Counter

import numpy as np

from mo.main import main
from tests.support.oracles import compare, graph_def_from, run_tf, run_tf_gtt


def mo_transform(tmp_path, graph_def: bytes, inputs, outputs, transforms: str) -> bytes:
    """``mo transform`` through the CLI; returns the written GraphDef bytes."""
    src, dst = tmp_path / 'in.pb', tmp_path / 'out.pb'
    src.write_bytes(graph_def)
    code = main(['transform', '--in_graph', str(src), '--out_graph', str(dst), '--inputs', ','.join(inputs),
                 '--outputs', ','.join(outputs), '--transforms', transforms])
    assert code == 0
    return dst.read_bytes()


def ops(graph_def: bytes) -> Counter:
    return Counter(n.op for n in graph_def_from(graph_def).node)


def check_against_tf(tmp_path, graph_def, inputs, outputs, transforms, feeds, rtol=1e-5):
    """Ours and TF's tool both keep the outputs; ours leaves no more nodes. Returns our bytes."""
    ours = mo_transform(tmp_path, graph_def, inputs, outputs, transforms)
    theirs = run_tf_gtt(graph_def, inputs, outputs, transforms)
    expected = run_tf(graph_def, feeds, outputs)
    for got in (run_tf(ours, feeds, outputs), run_tf(theirs, feeds, outputs)):
        for g, e in zip(got, expected):
            assert g.shape == e.shape
            assert compare(g, e) <= rtol
    assert sum(ops(ours).values()) <= sum(ops(theirs).values()), (ops(ours), ops(theirs))
    names = [n.name for n in graph_def_from(ours).node]
    assert len(names) == len(set(names))
    return ours


def const(rng, *shape, low=None, high=None):
    if low is not None:
        return rng.uniform(low, high, size=shape).astype(np.float32)
    return rng.normal(size=shape).astype(np.float32)
