"""Mutations of valid inputs and an in-process CLI runner, shared by the fuzz tests and tools/fuzz.py."""
import contextlib
import io
import os
import random

from mo.main import main

#: byte-level mutations of a serialized file
def flip_bits(data: bytes, rng: random.Random, count: int = 4) -> bytes:
    buf = bytearray(data)
    for _ in range(count):
        if buf:
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
    return bytes(buf)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data))] if data else data


def splice_garbage(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16))) + data[i:]


BYTE_MUTATIONS = (flip_bits, truncate, splice_garbage)


def mutate_graph_def(graph_def, rng: random.Random):
    """A structurally odd but parseable GraphDef: dangling inputs, cycles, wrong attr types, duplicates."""
    from mo.front.tf.proto import AttrValue
    gd = type(graph_def)()
    gd.CopyFrom(graph_def)
    nodes = list(gd.node)
    if not nodes:
        return gd
    kind = rng.randrange(6)
    node = nodes[rng.randrange(len(nodes))]
    if kind == 0:
        node.input.append('no_such_node_{}'.format(rng.randrange(100)))
    elif kind == 1 and len(nodes) > 1:
        other = nodes[rng.randrange(len(nodes))]
        other.input.append(node.name)
        node.input.append(other.name)  # very likely a cycle
    elif kind == 2 and node.attr:
        key = sorted(node.attr)[rng.randrange(len(node.attr))]
        node.attr[key].CopyFrom(rng.choice([AttrValue(s=b'junk'), AttrValue(i=-7), AttrValue(f=1.5),
                                            AttrValue(b=True)]))
    elif kind == 3:
        gd.node.add().CopyFrom(node)  # duplicate name
    elif kind == 4:
        node.op = rng.choice(['NoSuchOp', 'Const', 'Placeholder', 'Conv2D', ''])
    else:
        del node.input[:]
    return gd


def mutate_text(text: str, rng: random.Random) -> str:
    """Character-level mutation of a transform string or JSON document."""
    if not text:
        return rng.choice('(),="{}[]:x')
    i = rng.randrange(len(text))
    op = rng.randrange(3)
    if op == 0:
        return text[:i] + text[i + 1:]
    if op == 1:
        return text[:i] + rng.choice('(),="{}[]: \\x0-') + text[i:]
    return text[:i] + rng.choice('(),="{}[]: x0') + text[i + 1:]


def run_cli(args) -> tuple:
    """Run ``mo`` in-process; returns (exit code, stdout, stderr). Never raises."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def check_outcome(code: int, err: str, outputs, what: str):
    """The house rule: exit 0 with whole outputs, or 1/2 with an [ ERROR ] line, never a traceback."""
    assert code in (0, 1, 2), '{}: exit code {}\n{}'.format(what, code, err)
    assert 'Traceback' not in err, '{}: traceback\n{}'.format(what, err)
    assert 'Internal error' not in err, '{}: internal error\n{}'.format(what, err)
    if code != 0:
        assert '[ ERROR ]' in err, '{}: failed without an [ ERROR ] line\n{}'.format(what, err)
        for path in outputs:
            assert not os.path.exists(path), '{}: failed but left {}'.format(what, path)
    for path in outputs:
        directory = os.path.dirname(path) or '.'
        if os.path.isdir(directory):
            leftovers = [f for f in os.listdir(directory) if f.endswith('.tmp')]
            assert not leftovers, '{}: temporary files left: {}'.format(what, leftovers)
