"""Benchmark ``mo transform`` against TensorFlow's own C++ Graph Transform Tool.

Both run the same transforms on the same frozen GraphDef in this process; each timing covers
reading the input file, transforming, and writing the result. Prints the best of ``--repeat``
runs, the ratio, and node counts before and after::

    python tools/bench_transform.py                     # a frozen Keras ResNet50, random weights
    python tools/bench_transform.py --model frozen.pb --inputs x --outputs y --profile

Needs TensorFlow (to build the model and for the reference tool); ``mo`` itself does not.
"""
import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

DEFAULT_TRANSFORMS = 'strip_unused_nodes remove_nodes(op=Identity) fold_constants fold_batch_norms fold_old_batch_norms'


def build_resnet50(path, size):
    """Freeze a Keras ResNet50 with random weights and non-trivial BN statistics to ``path``."""
    import numpy as np
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.applications.ResNet50(weights=None, input_shape=(size, size, 3), classes=1000)
    rng = np.random.default_rng(0)
    for layer in model.layers:
        if isinstance(layer, tf.keras.layers.BatchNormalization):
            gamma, beta, mean, var = layer.get_weights()
            layer.set_weights([rng.uniform(0.5, 1.5, gamma.shape).astype(np.float32),
                               rng.normal(0, 0.1, beta.shape).astype(np.float32),
                               rng.normal(0, 0.1, mean.shape).astype(np.float32),
                               rng.uniform(0.5, 1.5, var.shape).astype(np.float32)])
    fn = tf.function(lambda x: model(x, training=False))
    concrete = fn.get_concrete_function(tf.TensorSpec([1, size, size, 3], tf.float32, name='input'))
    frozen = convert_variables_to_constants_v2(concrete)
    graph_def = frozen.graph.as_graph_def()
    with open(path, 'wb') as f:
        f.write(graph_def.SerializeToString())
    inputs = [t.op.name for t in frozen.inputs]
    outputs = [t.op.name for t in frozen.outputs]
    return inputs, outputs


def count_nodes(path):
    from mo.front.tf.graphdef_io import read_graph_def
    return len(read_graph_def(path).node)


def run_mo(src, dst, inputs, outputs, transforms):
    from mo.main import main
    code = main(['transform', '--in_graph', src, '--out_graph', dst, '--inputs', ','.join(inputs),
                 '--outputs', ','.join(outputs), '--transforms', transforms])
    if code != 0:
        sys.exit('mo transform failed (exit code {})'.format(code))


def run_tf_tool(src, dst, inputs, outputs, transforms):
    from tensorflow.python.util._pywrap_transform_graph import TransformGraphWithStringInputs
    with open(src, 'rb') as f:
        data = f.read()
    out = TransformGraphWithStringInputs(data, ','.join(inputs), ','.join(outputs), transforms)
    with open(dst, 'wb') as f:
        f.write(bytes(out))


def best_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--model', help='a frozen GraphDef (default: build a Keras ResNet50)')
    parser.add_argument('--inputs', default='', help="the model's input nodes (with --model)")
    parser.add_argument('--outputs', default='', help="the model's output nodes (with --model)")
    parser.add_argument('--size', type=int, default=224, help='ResNet50 input size')
    parser.add_argument('--transforms', default=DEFAULT_TRANSFORMS)
    parser.add_argument('--repeat', type=int, default=3, help='runs of each tool; the best counts')
    parser.add_argument('--profile', action='store_true', help="print a cProfile of one mo run")
    args = parser.parse_args(argv)

    import tensorflow  # noqa: F401  (loaded before timing: both tools then start warm)
    from mo.utils.import_extensions import load_builtin
    load_builtin()
    work = tempfile.mkdtemp(prefix='bench_transform_')
    if args.model:
        src, inputs, outputs = args.model, args.inputs.split(','), args.outputs.split(',')
    else:
        src = os.path.join(work, 'resnet50.pb')
        inputs, outputs = build_resnet50(src, args.size)
    ours, theirs = os.path.join(work, 'mo.pb'), os.path.join(work, 'tf.pb')

    t_mo = best_time(lambda: run_mo(src, ours, inputs, outputs, args.transforms), args.repeat)
    t_tf = best_time(lambda: run_tf_tool(src, theirs, inputs, outputs, args.transforms), args.repeat)
    before = count_nodes(src)
    print('transforms: {}'.format(args.transforms))
    print('model: {} ({:.1f} MB, {} nodes)'.format(src, os.path.getsize(src) / 1e6, before))
    print('{:<12} {:>10} {:>8} {:>8}'.format('tool', 'best s', 'before', 'after'))
    print('{:<12} {:>10.3f} {:>8} {:>8}'.format('mo', t_mo, before, count_nodes(ours)))
    print('{:<12} {:>10.3f} {:>8} {:>8}'.format('tf (C++)', t_tf, before, count_nodes(theirs)))
    print('ratio mo/tf: {:.2f}'.format(t_mo / t_tf))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run_mo, src, ours, inputs, outputs, args.transforms)
        pstats.Stats(profiler).sort_stats('cumulative').print_stats(30)


if __name__ == '__main__':
    main()
