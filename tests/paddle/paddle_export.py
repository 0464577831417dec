"""Exports small Paddle models and records what Paddle Inference computes from them: the numeric reference of
the Paddle op tests.

Run as a script in a child process, ``python paddle_export.py FORMAT OUT_DIR MODULE [CASE...]`` (FORMAT ``pir``
or ``classic``; which program Paddle writes is fixed by ``FLAGS_enable_pir_api`` when ``paddle`` is imported,
and Paddle's native libraries stay out of the pytest worker). ``MODULE`` is a module of this folder whose
``setup()`` defines its layer classes (so that the tests list the cases without importing paddle) and whose
``CASES`` maps a case name to a function returning ``(layer, specs, feeds)``: a ``paddle.nn.Layer``, its input
specs ``[(name, shape, dtype)]`` (-1 for a dynamic dimension) and the numpy arrays to feed. For each case this
writes ``OUT_DIR/<case>.json`` or ``.pdmodel`` (with ``.pdiparams``), ``OUT_DIR/<case>.feeds.npz`` and
``OUT_DIR/<case>.outputs.npz`` (``o0``, ``o1``... in fetch order) with their names in ``<case>.outputs.txt``;
a case Paddle cannot export or run writes
``OUT_DIR/<case>.error`` with the reason instead.
"""
import importlib
import os
import sys
import traceback


def drop_callstacks(model_file):
    """Remove the Python call stacks the classic exporter stores on every op (``op_callstack``: most of the file,
    and paths of the machine it ran on), with Paddle's own ``framework_pb2``."""
    from paddle.base.proto import framework_pb2
    program = framework_pb2.ProgramDesc()
    with open(model_file, 'rb') as f:
        program.ParseFromString(f.read())
    for block in program.blocks:
        for op in block.ops:
            kept = [a for a in op.attrs if a.name != 'op_callstack']
            del op.attrs[:]
            op.attrs.extend(kept)
    with open(model_file, 'wb') as f:
        f.write(program.SerializeToString())


def export(paddle, case, make, out_dir, fmt):
    import numpy as np
    paddle.seed(7)
    np.random.seed(7)
    layer, specs, feeds = make()
    layer.eval()
    input_spec = [paddle.static.InputSpec(shape, dtype, name) for name, shape, dtype in specs]
    prefix = os.path.join(out_dir, case)
    paddle.jit.save(layer, prefix, input_spec=input_spec)
    model = prefix + ('.json' if fmt == 'pir' else '.pdmodel')
    if not os.path.isfile(model):
        raise RuntimeError('paddle.jit.save wrote no {}'.format(model))
    if fmt != 'pir':
        drop_callstacks(model)
    if os.path.isfile(prefix + '.pdiparams.info'):
        os.remove(prefix + '.pdiparams.info')  # training metadata, read by nothing here
    params = prefix + '.pdiparams'
    if os.path.isfile(params):
        config = paddle.inference.Config(model, params)
    else:  # a model without weights: Paddle writes no params file, and the predictor must not look for one
        config = paddle.inference.Config()
        config.set_prog_file(model)
    config.disable_gpu()
    config.switch_ir_optim(False)  # Paddle's own fusions change results in the last bits: compare with the ops
    config.disable_mkldnn()
    predictor = paddle.inference.create_predictor(config)
    names = predictor.get_input_names()
    by_name = {name: feed for (name, _, _), feed in zip(specs, feeds)}
    for name in names:
        handle = predictor.get_input_handle(name)
        handle.reshape(list(by_name[name].shape))
        handle.copy_from_cpu(np.ascontiguousarray(by_name[name]))
    predictor.run()
    output_names = predictor.get_output_names()
    outputs = [predictor.get_output_handle(n).copy_to_cpu() for n in output_names]
    np.savez(prefix + '.feeds.npz', **{name: by_name[name] for name in names})
    np.savez(prefix + '.outputs.npz', **{'o{}'.format(i): o for i, o in enumerate(outputs)})
    with open(prefix + '.outputs.txt', 'w') as f:  # the fetch names, which the IR's outputs carry too
        f.write('\n'.join(output_names))


def main():
    fmt, out_dir, module = sys.argv[1], sys.argv[2], sys.argv[3]
    os.environ['FLAGS_enable_pir_api'] = '1' if fmt == 'pir' else '0'
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    # numpy.random first: with Paddle 2.6 (built against numpy 1.x) loaded before it, numpy 2's random module
    # crashes in its first call (for the classic fixtures that Paddle 3.3 cannot export)
    import numpy.random  # noqa: F401
    import paddle
    cases_module = importlib.import_module(module)
    cases_module.setup()  # the layer classes: the cases modules import paddle only here
    cases = dict(cases_module.CASES, **getattr(cases_module, 'CASES_P26', {}),
                 **getattr(cases_module, 'CASES_REFUSED', {}))  # those only by name
    for case in sys.argv[4:] or list(cases_module.CASES):
        try:
            export(paddle, case, cases[case], out_dir, fmt)
        except Exception:  # noqa: BLE001 - the test names the case and shows Paddle's reason
            with open(os.path.join(out_dir, case + '.error'), 'w') as f:
                f.write(traceback.format_exc())


if __name__ == '__main__':
    main()
