"""What Paddle itself loads from a model: the reference mo's Paddle readers are checked against.

Run as a script in a child process (``python paddle_oracle.py MODE OUT_DIR MODEL...``), because the IR
Paddle builds is chosen by ``FLAGS_enable_pir_api`` when ``paddle`` is imported, and because Paddle's global
static mode and its native libraries stay out of the pytest worker (which also runs TensorFlow's tests).
MODE ``classic`` loads ``.pdmodel`` files (``x.pdmodel`` or a Paddle 1.x directory) with the legacy IR;
``pir`` loads ``.json`` programs. For model i it writes ``OUT_DIR/i.json`` (program structure) and
``OUT_DIR/i.npz`` (every persistable tensor from Paddle's scope).

Nothing here shares code with mo: it is Paddle's ``load_inference_model``, ``Program``/``Block``/``Operator``
(or PIR ``Operation``/``Value``) API and ``scope.find_var(name).get_tensor()``.
"""
import json
import os
import sys


def _plain(value):
    """A JSON-able form of an attribute value: numbers, strings, lists; anything else (dtypes, places) as str."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def _load(paddle, model, exe):
    if os.path.isdir(model):  # the Paddle 1.x layout: the old keyword arguments select it
        return paddle.static.load_inference_model(model, exe, model_filename='__model__', params_filename=None)
    return paddle.static.load_inference_model(os.path.splitext(model)[0], exe)


def classic(paddle, model, exe, scope):
    program, feeds, fetches = _load(paddle, model, exe)
    from paddle.base import core
    blocks = []
    for block in program.blocks:
        ops = []
        for op in block.ops:
            attrs, attr_types = {}, {}
            for name in op.attr_names:
                if name == 'op_callstack':
                    continue
                kind = op.desc.attr_type(name)
                attr_types[name] = str(kind).split('.')[-1]
                if kind == core.AttrType.BLOCK:
                    attrs[name] = op._block_attr_id(name)
                elif kind == core.AttrType.BLOCKS:
                    attrs[name] = op._blocks_attr_ids(name)
                else:
                    attrs[name] = _plain(op.attr(name))
            ops.append({'type': op.type, 'inputs': {n: op.input(n) for n in op.input_names},
                        'outputs': {n: op.output(n) for n in op.output_names}, 'attrs': attrs,
                        'attr_types': attr_types})
        variables = {}
        for name, var in block.vars.items():
            entry = {'persistable': bool(var.persistable), 'type': str(var.type).split('.')[-1]}
            if entry['type'] in ('DENSE_TENSOR', 'LOD_TENSOR'):
                entry['dtype'] = str(var.dtype).split('.')[-1]
                entry['shape'] = list(var.shape)
            variables[name] = entry
        blocks.append({'idx': block.idx, 'parent_idx': block.parent_idx, 'ops': ops, 'vars': variables})
    persistables = [v.name for v in program.list_vars() if v.persistable and v.name not in ('feed', 'fetch')]
    arrays = {name: np_array(scope.find_var(name).get_tensor()) for name in persistables}
    return {'blocks': blocks, 'feeds': list(feeds), 'fetches': [v.name for v in fetches]}, arrays


def np_array(tensor):
    import numpy as np
    return np.array(tensor)


def pir(paddle, model, exe, scope):
    """The PIR program as nested blocks; an operand is described by its producer: ``['param', name]``,
    ``['data', name]``, ``['arg', depth, i]`` (argument i of the block ``depth`` levels up) or ``[op name, n, i]``
    (result i of the n-th computation op in pre-order, parameter, data, feed and fetch ops not counted)."""
    program, feeds, fetches = _load(paddle, model, exe)
    arg_lists, seq = [], {}
    not_counted = ('builtin.parameter', 'pd_op.data', 'pd_op.feed', 'pd_op.fetch')

    def source(value):
        if not value.initialized():  # an optional operand left out
            return ['null']
        op = value.get_defining_op()
        if op is None:
            for depth, args in enumerate(reversed(arg_lists)):
                for i, arg in enumerate(args):
                    if arg.is_same(value):
                        return ['arg', depth, i]
            return ['?']
        if op.name() == 'builtin.parameter':
            return ['param', op.attrs()['parameter_name']]
        if op.name() in ('pd_op.data', 'pd_op.feed'):
            return ['data', op.attrs()['name']]
        return [op.name(), seq.get(op.id()), value.index()]

    def result(value):
        if value.is_combine():  # a vector of values (builtin.combine): no dtype of its own
            return {'dtype': 'vector', 'shape': None}
        return {'dtype': str(value.dtype).split('.')[-1], 'shape': list(value.shape)}

    def walk(block):
        arg_lists.append(list(block.args()))
        ops = []
        for op in block.ops:
            if op.name() not in not_counted:
                seq[op.id()] = len(seq)
            attrs = {k: _plain(v) for k, v in op.attrs().items()
                     if k not in ('stop_gradient', 'persistable', 'op_callstack', 'place')}
            ops.append({'name': op.name(), 'attrs': attrs,
                        'operands': [source(o.source()) for o in op.operands()],
                        'results': [result(r) for r in op.results()],
                        'blocks': [walk(b) for b in op.blocks()]})
        args = [result(a) for a in arg_lists.pop()]
        return {'args': args, 'ops': ops}

    structure = walk(program.global_block())
    names = [op.attrs()['parameter_name'] for op in program.global_block().ops
             if op.name() == 'builtin.parameter' and op.result(0).persistable]
    arrays = {name: np_array(scope.find_var(name).get_tensor()) for name in names}
    return {'program': structure, 'feeds': list(feeds), 'fetches': [source(v) for v in fetches]}, arrays


def main():
    mode, out_dir, models = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.environ['FLAGS_enable_pir_api'] = '0' if mode == 'classic' else '1'
    import numpy as np
    import paddle
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    for i, model in enumerate(models):
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            structure, arrays = (classic if mode == 'classic' else pir)(paddle, model, exe, scope)
        with open(os.path.join(out_dir, '{}.json'.format(i)), 'w') as f:
            json.dump(structure, f)
        np.savez(os.path.join(out_dir, '{}.npz'.format(i)), **{'a{}'.format(j): a for j, a in
                                                                enumerate(arrays.values())})
        with open(os.path.join(out_dir, '{}.names.json'.format(i)), 'w') as f:
            json.dump(list(arrays), f)


if __name__ == '__main__':
    main()
