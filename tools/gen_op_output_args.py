"""Generate ``mo/front/tf/op_output_args.json`` from TensorFlow's op registry (development time only).

Inside a ``FunctionDef`` a node's output is referenced as ``node:out_arg_name:index``; turning
that into a flat output port needs every op's output argument list: the names, and for list
arguments the attribute that gives their length (``number_attr`` such as ``num_split``, or
``type_list_attr`` such as ``Tout``).  The table covers every public registered op (names not
starting with ``_``).  ``mo`` reads the JSON at run time, so TensorFlow is needed only here::

    python tools/gen_op_output_args.py [--out mo/front/tf/op_output_args.json]

Format: ``{"tensorflow_version": ..., "ops": {op: [arg, ...]}}`` where an ``arg`` is the plain
name for a single tensor, ``[name, "n", attr]`` for ``number_attr`` lists and
``[name, "types", attr]`` for ``type_list_attr`` lists.
"""
import argparse
import json
import os


def _arg_entry(arg):
    if arg.number_attr:
        return [arg.name, 'n', arg.number_attr]
    if arg.type_list_attr:
        return [arg.name, 'types', arg.type_list_attr]
    return arg.name


def build_table():
    """``{op: [output arg entry, ...]}`` for every registered op whose name does not start with ``_``."""
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    import tensorflow as tf
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session
    buf = pywrap_tf_session.TF_GetAllOpList()
    try:
        op_list = op_def_pb2.OpList()
        op_list.ParseFromString(pywrap_tf_session.TF_GetBuffer(buf))
    finally:
        pywrap_tf_session.TF_DeleteBuffer(buf)
    table = {}
    for op_def in op_list.op:
        if op_def.name.startswith('_'):
            continue
        table[op_def.name] = [_arg_entry(arg) for arg in op_def.output_arg]
    return {'tensorflow_version': tf.__version__, 'ops': dict(sorted(table.items()))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument('--out', default=os.path.join(here, '..', 'mo', 'front', 'tf', 'op_output_args.json'))
    args = parser.parse_args(argv)
    data = build_table()
    # one op per line: small diffs when TensorFlow adds ops
    lines = ['{"tensorflow_version": %s, "ops": {' % json.dumps(data['tensorflow_version'])]
    items = list(data['ops'].items())
    for i, (name, outputs) in enumerate(items):
        lines.append(' %s: %s%s' % (json.dumps(name), json.dumps(outputs), ',' if i + 1 < len(items) else ''))
    lines.append('}}')
    with open(args.out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('{} ops written to {}'.format(len(items), os.path.normpath(args.out)))


if __name__ == '__main__':
    main()
