"""Reading a whole Paddle model: the program file (told apart by content) and its weights.

Layouts:
  * ``x.pdmodel`` + ``x.pdiparams``: a classic ``ProgramDesc`` and its combined params (Paddle 2.x, and 3.x
    with PIR turned off);
  * ``x.json`` + ``x.pdiparams``: a PIR program (Paddle 3.x's default) and its combined params;
  * a directory with ``__model__`` and one file per parameter (Paddle 1.x), or with ``__model__`` and a
    combined ``__params__``.
"""
import os

from mo.front.paddle import params, sniff
from mo.front.paddle.pir import read_pir
from mo.front.paddle.program import read_program
from mo.utils.error import Error

#: where a Paddle 1.x directory keeps its program and, when combined, its params
_DIR_PROGRAM, _DIR_COMBINED = '__model__', '__params__'


def read_program_file(path: str):
    """The ``model.Program`` in the file at ``path``, a ``ProgramDesc`` or a PIR JSON program by its content."""
    kind = sniff.sniff_file(path)
    if kind is None:
        if not os.path.isfile(path):
            raise Error('Paddle model file "{}" does not exist', path)
        raise Error('"{}" is no Paddle model: neither a ProgramDesc (.pdmodel) nor a PIR JSON program (.json)',
                    path)
    with open(path, 'rb') as f:
        data = f.read()
    return read_program(data, path) if kind == 'program_desc' else read_pir(data, path)


def default_params_path(model_path: str) -> str:
    """Where the params of the model at ``model_path`` are when not given: ``x.pdiparams`` beside ``x.pdmodel``
    or ``x.json``; for a Paddle 1.x directory, its ``__params__`` if present, else the directory itself."""
    if os.path.isdir(model_path):
        combined = os.path.join(model_path, _DIR_COMBINED)
        return combined if os.path.isfile(combined) else model_path
    stem, ext = os.path.splitext(model_path)
    return (stem if ext in ('.pdmodel', '.json') else model_path) + '.pdiparams'


def read_model(model_path: str, params_path: str = None):
    """``(program, weights)`` of a Paddle model: ``model_path`` is a program file or a Paddle 1.x directory;
    ``params_path`` defaults to ``default_params_path(model_path)``. ``weights`` maps each persistable var to a
    read-only numpy view of the memory-mapped params."""
    program_path = os.path.join(model_path, _DIR_PROGRAM) if os.path.isdir(model_path) else model_path
    if os.path.isdir(model_path) and not os.path.isfile(program_path):
        raise Error('Paddle model directory "{}" has no {} file', model_path, _DIR_PROGRAM)
    program = read_program_file(program_path)
    if not program.persistable_vars():
        return program, {}
    return program, params.read_params(program, params_path or default_params_path(model_path))
