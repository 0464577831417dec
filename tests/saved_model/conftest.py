"""SavedModels, meta graphs and checkpoints built by TensorFlow at test time, and the mo CLI."""
import os
import subprocess
import sys

import numpy as np
import pytest

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: max|ov - tf| / max|tf| a converted model must stay below
TOLERANCE = 1e-4


def run_mo(*args):
    """Run the ``mo`` CLI in a subprocess; returns (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get('PYTHONPATH', ''))
    proc = subprocess.run([sys.executable, '-m', 'mo.main'] + [str(a) for a in args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith('[ ERROR ]') and 'Hint:' not in line]


def random_feeds(specs, seed=0):
    """``{name: array}`` for ``{name: (shape with None, numpy dtype)}``, dynamic dims set to 2."""
    rng = np.random.default_rng(seed)
    return {name: rng.standard_normal([2 if d is None else d for d in shape]).astype(dtype)
            for name, (shape, dtype) in specs.items()}


def relative_error(actual, expected) -> float:
    expected = np.asarray(expected, dtype=np.float64)
    scale = np.abs(expected).max() or 1.0
    return float(np.abs(np.asarray(actual, dtype=np.float64) - expected).max() / scale)


def run_ir(xml, feeds):
    """The IR's outputs ``{every tensor name of the output: array}`` for ``feeds`` by input name (a TF tensor's
    ``op:0`` also answers to ``op``, the name a test feeds and reads)."""
    from tests.support.oracles import compile_openvino
    compiled = compile_openvino(xml)  # exact f32, not the CPU plugin's default (bf16 on some CPUs)
    inputs = {}
    for port in compiled.inputs:
        names = port.get_names()
        matches = [n for n in feeds if n in names or n + ':0' in names]
        assert len(matches) == 1, (names, list(feeds))
        inputs[port] = feeds[matches[0]]
    result = compiled(inputs)
    out = {}
    for port in compiled.outputs:
        for name in port.get_names():
            out[name] = result[port]
            if name.endswith(':0'):
                out.setdefault(name[:-2], result[port])
    return out


def tf_signature_outputs(directory, signature, feeds):
    import tensorflow as tf
    function = tf.saved_model.load(str(directory)).signatures[signature]
    return {k: v.numpy() for k, v in function(**{k: tf.constant(v) for k, v in feeds.items()}).items()}


def signature_specs(directory, signature):
    import tensorflow as tf
    function = tf.saved_model.load(str(directory)).signatures[signature]
    return {name: (tuple(spec.shape.as_list()), spec.dtype.as_numpy_dtype)
            for name, spec in function.structured_input_signature[1].items()}
