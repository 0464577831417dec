"""Paddle 3's PIR program, serialized as JSON (``model.json``, ``inference.json``), read into ``model.Program``.

The file is ``{"base_code": {"magic": "pir", "version": N, "trainable": bool}, "program": {"regions": [...]}}``.
A region holds blocks; a block holds its arguments (``"args"``, values with negative ids) and its ops. An op
is ``{"#": name, "I": operands, "O": results, "A": attributes, "OA": result attributes, "regions": [...]}``
with its name compressed to ``<dialect id>.<op>`` (``1.conv2d`` is ``pd_op.conv2d``; see ``pir_values``); a
value is ``{"%": id, "TT": type}`` and an operand ``{"%": id}`` (id 0: no value); files of PIR version 0 to 1
write ``"#"`` for the id. ``builtin.parameter`` ops are compressed to ``{"#": "p", "A": [is_distributed,
is_parameter, need_clip, name], "O": value, "OA": [persistable, stop_gradient, trainable]}``.

Blocks are numbered in the order they appear (the top block 0, then each op's region blocks as the op is
met), which is the order of a classic program's blocks for the same control flow. A value is named by what
names it (a parameter's ``parameter_name``, an input's ``name``) and otherwise ``%<id>``.
"""
import json

from mo.front.paddle.model import Block, Op, Program, Var
from mo.front.paddle.pir_values import decode_attr, decode_type, split_tag
from mo.utils.error import Error

#: the newest ``base_code.version`` this reader knows: Paddle 3.0 .. 3.3 write 1 .. 4
MAX_PIR_VERSION = 4

#: ops that are no computation: they become the program's inputs, outputs and persistable vars
_DATA, _FEED, _FETCH, _PARAMETER = 'pd_op.data', 'pd_op.feed', 'pd_op.fetch', 'builtin.parameter'


def load_json(data, path: str) -> dict:
    """The JSON object in ``data`` (bytes or str); an ``Error`` naming ``path`` for anything else."""
    try:
        text = data.decode('utf-8') if isinstance(data, (bytes, bytearray, memoryview)) else data
        loaded = json.loads(text)
    except UnicodeDecodeError as e:
        raise Error('Paddle PIR program "{}" is not UTF-8 text (byte {}): it is damaged or no PIR program', path,
                    e.start) from None
    except json.JSONDecodeError as e:
        raise Error('Paddle PIR program "{}" is not valid JSON ({} at line {} column {}): it is truncated, '
                    'damaged or no PIR program', path, e.msg, e.lineno, e.colno) from None
    if not isinstance(loaded, dict) or not isinstance(loaded.get('base_code'), dict) \
            or loaded['base_code'].get('magic') != 'pir' or not isinstance(loaded.get('program'), dict):
        raise Error('Paddle PIR program "{}" is JSON, but no PIR program: it lacks "base_code" with magic "pir" '
                    'or "program"', path)
    return loaded


def _var(name, decoded, persistable=False) -> Var:
    """A ``Var`` from ``pir_values.decode_type``'s tuple; a vector's members are named ``name[i]``."""
    dtype, shape, kind, items = decoded
    return Var(name, dtype, shape, persistable, kind,
               [_var('{}[{}]'.format(name, i), item) for i, item in enumerate(items)])


def _items(obj, key, what) -> list:
    """``obj[key]``, a list (empty when absent); an ``Error`` when it is something else."""
    found = obj.get(key)
    if found is None:
        return []
    if not isinstance(found, list):
        raise Error('{} has "{}" that is no list: {!r}', what, key, found)
    return found


class _Reader:
    """Walks the regions of one program, numbering blocks and naming values."""

    def __init__(self, path):
        self.path = path
        self.blocks = []
        self.names = {}          # value id -> name
        self.taken = set()       # names in use
        self.inputs = []         # (order key, name)
        self.fetches = []        # (col, value name, label)
        self.at = 'Paddle PIR program "{}"'.format(path)  # where the walk is, for the last-resort message

    def where(self, block, op_name=None):
        text = 'Paddle PIR program "{}", block {}'.format(self.path, block.idx)
        return text + (', op {}'.format(op_name) if op_name else '')

    # values ---------------------------------------------------------------------------------------
    def define(self, value, block, what, name=None, persistable=False):
        """Registers a result or block argument ``{"%": id, "TT": type}``; returns its name (None for id 0)."""
        if not isinstance(value, dict):
            raise Error('{} has the value {!r}, which is no value object', what, value)
        vid = value.get('%', value.get('#'))
        if not isinstance(vid, int) or isinstance(vid, bool):
            raise Error('{} has a value without an integer id: {!r}', what, value)
        if vid == 0:
            return None
        if vid in self.names:
            raise Error('{} defines value %{} a second time: the file is damaged', what, vid)
        if name is None or name in self.taken:
            name = '%{}'.format(vid)
        var = _var(name, decode_type(value.get('TT', {'#': 'NULL'}), what), persistable)
        self.names[vid] = name
        self.taken.add(name)
        block.vars[name] = var
        return name

    def use(self, operand, what):
        """The name of the value an operand ``{"%": id}`` refers to (None for id 0)."""
        vid = operand.get('%', operand.get('#')) if isinstance(operand, dict) else None
        if not isinstance(vid, int) or isinstance(vid, bool):
            raise Error('{} has the operand {!r}, which is no value reference', what, operand)
        if vid == 0:
            return None
        if vid not in self.names:
            raise Error('{} uses value %{}, which is defined nowhere before it: the file is damaged or '
                        'truncated', what, vid)
        return self.names[vid]

    # structure ------------------------------------------------------------------------------------
    def region(self, region, parent_idx, what):
        if not isinstance(region, dict) or not isinstance(region.get('blocks'), list):
            raise Error('{} has a region without "blocks"', what)
        return [self.block(block, parent_idx) for block in region['blocks']]

    def block(self, obj, parent_idx):
        block = Block(len(self.blocks), parent_idx)
        self.blocks.append(block)
        what = self.where(block)
        if not isinstance(obj, dict) or not isinstance(obj.get('ops'), list):
            raise Error('{} has no list of ops', what)
        for arg in _items(obj, 'args', what):
            block.args.append(self.define(arg, block, what + ', argument'))
        for arg in _items(obj, 'kwargs', what):
            if isinstance(arg, dict) and arg.get('%', arg.get('#')) in self.names:
                continue  # Paddle 3.0 .. 3.3 write the positional arguments again under "kwargs"
            name = arg.get('key') if isinstance(arg, dict) else None
            self.define(arg, block, what + ', keyword argument', name if isinstance(name, str) else None)
        for op_obj in obj['ops']:
            op = self.op(op_obj, block)
            if op is not None:
                block.ops.append(op)
        return block.idx

    def attrs(self, items, what):
        found, types = {}, {}
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get('N'), str):
                raise Error('{} has the attribute {!r}, which lacks a name ("N")', what, item)
            name = item['N']
            found[name] = decode_attr(item.get('AT'), '{}, attribute "{}"'.format(what, name))
            types[name] = item['AT'].get('#') if isinstance(item.get('AT'), dict) else None
        return found, types

    def parameter(self, obj, block):
        """A compressed ``builtin.parameter`` op: declares a persistable var and no op."""
        what = self.where(block, _PARAMETER)
        flags = obj.get('A')
        if not isinstance(flags, list) or len(flags) < 4 or not isinstance(flags[3], str):
            raise Error('{} has the attributes {!r}; expected [is_distributed, is_parameter, need_clip, name]',
                        what, flags)
        # OA is [persistable, stop_gradient, trainable], written for trainable programs only; a missing one means
        # Paddle's default, persistable. A parameter that is not persistable (an RNN's dropout state) has no record
        # in the params file.
        result_flags = obj.get('OA')
        persistable = bool(result_flags[0]) if isinstance(result_flags, list) and result_flags else True
        self.define(obj.get('O'), block, what, flags[3], persistable=persistable)

    def op(self, obj, block):
        if not isinstance(obj, dict) or '#' not in obj:
            raise Error('{} has the op {!r}, which is no op object', self.where(block), obj)
        if obj['#'] == 'p':
            return self.parameter(obj, block)
        dialect, short = split_tag(obj['#'], self.where(block) + ', an op')
        name = '{}.{}'.format(dialect, short)
        what = self.at = self.where(block, name)
        op = Op(name)
        op.attrs, op.attr_types = self.attrs(_items(obj, 'A', what), what)
        extra, extra_types = self.attrs(_items(obj, 'OA', what) + _items(obj, 'QA', what), what)
        persistable = extra.get('persistable')
        persistable = bool(persistable[0]) if isinstance(persistable, list) and persistable else False
        for key in extra:  # stop_gradient and persistable describe the results; struct_name is a scope
            if key not in ('stop_gradient', 'persistable'):
                op.attrs[key], op.attr_types[key] = extra[key], extra_types[key]
        op.operands = [self.use(operand, what) for operand in _items(obj, 'I', what)]
        results = _items(obj, 'O', what)
        if name in (_PARAMETER, _DATA, _FEED) and len(results) != 1:
            raise Error('{} has {} results; it has one', what, len(results))
        if name == _PARAMETER:  # the uncompressed form of PIR version 0
            self.define(results[0], block, what, op.attrs.get('parameter_name'),
                        persistable='persistable' not in extra or persistable)
            return None
        if name in (_DATA, _FEED) and block.idx == 0:
            label = op.attrs.get('name')
            var_name = self.define(results[0], block, what, label, persistable)
            if not persistable:  # a persistable data op is a saved var (an optimizer state), not an input
                order = (1, op.attrs.get('col', 0)) if name == _FEED else (0, len(self.inputs))
                self.inputs.append((order, var_name))
            if op.attrs.get('shape') is not None and block.vars[var_name].shape is None:
                block.vars[var_name].shape = list(op.attrs['shape'])
            return None
        if name == _FETCH and block.idx == 0:
            for result in results:  # the fetched copy: its id is taken, but nothing uses it
                block.vars.pop(self.define(result, block, what) or '', None)
            self.fetches.append((op.attrs.get('col', len(self.fetches)), op.operands[0] if op.operands else None,
                                 op.attrs.get('name')))
            return None
        op.results = [self.define(result, block, what) for result in results]
        for region in _items(obj, 'regions', what):
            op.regions.append(self.region(region, block.idx, what))
        return op


def read_pir(data, path: str = '') -> Program:
    """The PIR program in ``data`` (the bytes or text of a ``.json`` file at ``path``).

    Raises ``Error`` for text that is no JSON or no PIR program, a ``base_code.version`` above
    ``MAX_PIR_VERSION``, types and attributes this reader does not know, and operands that use values
    defined nowhere before them.
    """
    loaded = load_json(data, path)
    version = loaded['base_code'].get('version')
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise Error('Paddle PIR program "{}" has the version {!r}, which is no PIR version', path, version)
    if version > MAX_PIR_VERSION:
        raise Error('Paddle PIR program "{}" has PIR version {}, written by a Paddle newer than this reader '
                    'knows (PIR versions up to {}, Paddle 3.3)', path, version, MAX_PIR_VERSION)
    regions = loaded['program'].get('regions')
    if not isinstance(regions, list) or not regions:
        raise Error('Paddle PIR program "{}" has no regions', path)
    reader = _Reader(str(path))
    try:
        for region in regions:  # the module op's region: one block, the top block
            reader.region(region, -1, 'Paddle PIR program "{}"'.format(path))
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as e:
        # the checks above cover what Paddle writes; this is for the shapes no writer makes (data lists too short,
        # objects where numbers belong), which must still end as a message, not a traceback
        raise Error('{} has an unexpected structure ({}: {}): the file is damaged or of a format this reader does '
                    'not know', reader.at, type(e).__name__, e) from None
    cols = sorted(col for col, _, _ in reader.fetches)
    if cols != list(range(len(cols))) or any(value is None for _, value, _ in reader.fetches):
        raise Error('Paddle PIR program "{}": its fetch ops do not number their columns 0..{} or lack a value',
                    path, len(cols) - 1)
    fetches = sorted(reader.fetches, key=lambda item: item[0])
    inputs = [name for _, name in sorted(reader.inputs, key=lambda item: item[0])]
    return Program(reader.blocks, inputs, [value for _, value, _ in fetches],
                   [label if isinstance(label, str) else value for _, value, label in fetches],
                   'pir', version, {}, str(path))
