"""The ``mo`` command line: ``mo convert | transform | summarize | transforms``.

``mo --input_model ...`` without a command is ``mo convert`` (the Model Optimizer's spelling);
``mo --version`` and ``python -m mo`` work as expected.

Every failure ends as one ``[ ERROR ]`` line (and a hint where one helps) with exit code 1, or 2
for bad command-line usage; a traceback is printed only with ``--log_level=DEBUG``.
"""
import argparse
import gc
import logging as log
import os
import sys

from mo.front.frameworks import framework_names
from mo.pipeline import command_names, progress, registry_of_commands, timing
from mo.utils import prefetch, process_exit
from mo.utils.error import Error, FrameworkError, UsageError
from mo.version import __version__

LOG_LEVELS = ('DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL')


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are ``[ ERROR ]`` lines with exit code 2, whose hint names the help of the
    command being run (and the option meant, for a misspelt one)."""
    #: the parser of the command this run executes (set by ``build_parser``): errors point at its help
    command_parser = None

    #: a function giving the text after the options, called only when help is printed (a command
    #: may list what it would have to import to know)
    epilog_factory = None

    def error(self, message):
        target = self.command_parser or self
        hint = "see '{} --help'".format(target.prog)
        if message.startswith('unrecognized arguments:'):
            unknown = message.partition(':')[2].split()
            options = [name for action in target._actions for name in action.option_strings]
            import difflib  # only for this error: its import costs every run a few milliseconds
            close = difflib.get_close_matches(unknown[0].split('=')[0], options, n=1) if unknown else []
            if close:
                hint = 'did you mean {}? {}'.format(close[0], hint)
        raise UsageError('{}: {}'.format(target.prog, message), hint=hint)

    def format_help(self):
        if self.epilog_factory is not None:
            self.epilog = self.epilog_factory()
        return super().format_help()


def _add_common(parser):
    parser.add_argument('--log_level', default='WARNING', choices=LOG_LEVELS, type=str.upper,
                        help='logging level; DEBUG also prints tracebacks of errors')


def _add_extensions(parser):
    parser.add_argument('--extensions', action='append', default=[], metavar='DIR[,DIR]',
                        help='directories of user replacers (front/, front/tf/, middle/, back/, ops/)')


def build_parser(command: str = None) -> argparse.ArgumentParser:
    """The ``mo`` parser; given the ``command`` about to run, only that command's module is imported
    (the others get a bare sub-parser: their options are never parsed in this run)."""
    parser = _Parser(prog='mo', description='Model conversion to OpenVINO IR, and TensorFlow\'s Graph Transform Tool.')
    parser.add_argument('--version', action='version', version='mo {}'.format(__version__))
    commands = parser.add_subparsers(dest='command', metavar='COMMAND', parser_class=_Parser)

    transforms = commands.add_parser('transforms', help='print the ordered list of replacers')
    _add_common(transforms)
    _add_extensions(transforms)
    transforms.add_argument('--phase', choices=('load', 'front', 'middle', 'back', 'transform'), action='append',
                            help='only this phase (repeatable); "transform" lists the mo transform catalogue')
    transforms.add_argument('--framework', choices=framework_names(),
                            help='list only the replacers that run for this framework\'s models')
    transforms.add_argument('--dot', metavar='FILE', help='also write the dependency graph as Graphviz dot')
    transforms.add_argument('--json', action='store_true', help='print JSON instead of a table')

    names = command_names()
    modules = registry_of_commands(only=[command] if command in names else None)
    for name in names:
        module = modules.get(name)
        if module is None:
            if command in names:
                commands.add_parser(name)
            continue
        sub = commands.add_parser(name, help=module.HELP, description=module.HELP)
        _add_common(sub)
        module.add_arguments(sub)
        if name == command:
            parser.command_parser = sub
    if command == 'transforms':
        parser.command_parser = transforms
    return parser


def _configure_logging(level: str):
    logging_level = getattr(log, level, log.WARNING)
    handler = log.StreamHandler(sys.stderr)
    handler.setFormatter(log.Formatter('[ %(levelname)s ] %(message)s'))
    root = log.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging_level)


def _report_error(exc: BaseException, debug: bool) -> int:
    if isinstance(exc, Error):
        message = str(exc)
        replacer = getattr(exc, 'replacer', None)
        if replacer and not isinstance(exc, FrameworkError) and debug:
            message += ' (in {})'.format(replacer)
        print('[ ERROR ] {}'.format(message), file=sys.stderr)
        if exc.hint:
            print('[ ERROR ] Hint: {}'.format(exc.hint), file=sys.stderr)
        code = 2 if isinstance(exc, UsageError) else 1
    elif isinstance(exc, KeyboardInterrupt):
        print('[ ERROR ] Interrupted; no output was written', file=sys.stderr)
        code = 1
    elif isinstance(exc, MemoryError):
        print('[ ERROR ] Out of memory; try a smaller --max_constant_size or a smaller model', file=sys.stderr)
        code = 1
    else:
        print('[ ERROR ] Internal error in mo: {}: {}'.format(type(exc).__name__, exc), file=sys.stderr)
        print('[ ERROR ] Hint: run again with --log_level=DEBUG for the traceback, and report it', file=sys.stderr)
        code = 1
    if debug:
        import traceback
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    return code


def run_transforms_command(args) -> int:
    from mo.pipeline.listing import print_transforms
    from mo.utils.import_extensions import load_extensions, split_dirs
    load_extensions(split_dirs(args.extensions))
    print_transforms(phases=args.phase, dot_path=args.dot, as_json=args.json, framework=args.framework)
    return 0


def main(argv=None) -> int:
    """Entry point of the ``mo`` console script; returns the exit code."""
    # One command, then the console script exits: the command's garbage is freed by reference
    # counting (peak memory is the same on every benchmark model), while cyclic-GC passes over a
    # graph of 10^5 objects cost about a tenth of a conversion. Restored for callers in-process;
    # left off when the process ends with the command (``cli``): a pass then would only free the graph.
    progress.mark_start()
    timing.mark('start')
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(sys.argv[1:] if argv is None else list(argv))
    finally:
        timing.report()
        if collecting and not process_exit.process_ends_after_command_is_set():
            gc.enable()


def _with_command(argv) -> list:
    """The Model Optimizer's spelling ``mo --input_model m.pb ...`` (no command) means ``mo convert``, and ovc's
    ``mo [convert] model.onnx ...`` (the model first) means ``mo convert --input_model model.onnx ...``."""
    argv = list(argv)
    if argv and argv[0].startswith('-') and argv[0] not in ('-h', '--help', '--version'):
        argv = ['convert'] + argv
    elif argv and argv[0] not in command_names() + ['transforms']:
        argv = ['convert'] + argv
    if len(argv) > 1 and argv[0] == 'convert' and not argv[1].startswith('-'):
        model, rest = argv[1], argv[2:]
        given = [a for a in rest if a in ('--input_model', '-m') or a.startswith('--input_model=')]
        if given:
            raise UsageError('mo convert: the model is given twice: "{}" and {}', model, given[0],
                             hint="see 'mo convert --help'")
        argv = ['convert', '--input_model', model] + rest
    return argv


def _run(argv) -> int:
    if argv == ['--version']:  # answered before the parser imports the commands' modules
        print('mo {}'.format(__version__))
        return 0
    try:
        argv = _with_command(argv)
    except UsageError as exc:
        return _report_error(exc, False)
    debug = any(a.upper() in ('--LOG_LEVEL=DEBUG',) for a in argv) or \
        any(a == '--log_level' and i + 1 < len(argv) and argv[i + 1].upper() == 'DEBUG' for i, a in enumerate(argv))
    model_path = prefetch.model_path_in(argv)
    if model_path:
        prefetch.start(model_path)  # read while the imports below run
    try:
        parser = build_parser(argv[0] if argv else None)
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        _configure_logging('ERROR' if getattr(args, 'silent', False) else args.log_level)
        if args.command == 'transforms':
            return run_transforms_command(args)
        return registry_of_commands(only=[args.command])[args.command].run(args) or 0
    except BrokenPipeError:  # output piped into e.g. `head`, which closed early
        try:
            sys.stdout = open(os.devnull, 'w')
        except OSError:
            pass
        return 0
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    except BaseException as exc:  # noqa: B902 - every failure becomes an [ ERROR ] line
        return _report_error(exc, debug)


def _one_blas_thread():
    """Have numpy's OpenBLAS start one thread, not one per core, unless ``OPENBLAS_NUM_THREADS`` says otherwise.

    OpenBLAS starts its thread pool when numpy is imported, and the new threads spin for a while
    waiting for work: on two cores that is ~0.1 s of CPU taken from the conversion and its writer
    thread, for a pool a conversion has no use for (its numpy work is element-wise; a folded MatMul
    is small). One thread also makes a folded MatMul's sums the same on every machine. The command
    line only: a program that calls ``mo.convert_model`` keeps its own BLAS set-up.
    """
    os.environ.setdefault('OPENBLAS_NUM_THREADS', '1')


def cli():
    """The ``mo`` console script: ``main()``, then exit without tearing the interpreter down.

    Once the command is done and its output flushed, Python's shutdown would only free the
    process's objects one by one (numpy, the graph, ~300 modules): about 50 ms of a MobileNet
    conversion, for memory the operating system takes back at once anyway. Files are closed
    and renamed into place before ``main()`` returns, so nothing is lost.
    """
    process_exit.process_ends_after_command()
    _one_blas_thread()
    code = main()
    try:
        log.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed or broken stream: exit as Python would
        sys.exit(code)
    os._exit(code if isinstance(code, int) else 1)


if __name__ == '__main__':
    cli()
