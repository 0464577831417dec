"""The TensorFlow ops ``mo convert`` converts, as a Markdown table generated from the registry.

Each row is one TF op type with a built-in extractor: what it becomes (the first line of the
extractor class's docstring, ``<TF ops> -> <opset ops>; <limitations>``, or its ``describe(op)``) and the extractor's
module. README.md carries the table between the ``op-coverage`` markers; a test keeps it current:

    python tools/op_coverage.py                 # print the table
    python tools/op_coverage.py --write         # rewrite README.md's table in place
    python tools/op_coverage.py --ovc FILE      # compare with OpenVINO's TF frontend table (a TSV of
                                                # op, YES/NO, limitation), printed, never written
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START, END = '<!-- op-coverage:start -->', '<!-- op-coverage:end -->'


def builtin_extractors() -> dict:
    """TF op type -> built-in extractor class."""
    sys.path.insert(0, ROOT)
    from mo.front.extractor import FrontExtractorOp
    from mo.utils.class_registration import is_builtin
    from mo.utils.import_extensions import load_builtin
    load_builtin(with_transforms=False)
    return {op: cls for op, cls in FrontExtractorOp.registry.get('tf', {}).items() if is_builtin(cls)}


def _summary(cls, op: str) -> str:
    """What ``op`` becomes: the extractor's ``describe(op)`` when it has one (table-driven extractors),
    else the first paragraph of its docstring (the text after '->' when it has the ``A -> B`` form)."""
    describe = getattr(cls, 'describe', None)
    if describe is not None:
        text = describe(op)
    else:
        paragraph = (cls.__doc__ or '').strip().split('\n\n')[0]
        text = ' '.join(line.strip() for line in paragraph.splitlines())
        if '->' in text:
            text = text.split('->', 1)[1].strip()
    return text.replace('|', '\\|')


def table() -> str:
    extractors = builtin_extractors()
    lines = ['| TF op | becomes | extractor |', '|---|---|---|']
    for op in sorted(extractors, key=str.lower):
        cls = extractors[op]
        module = cls.__module__.replace('.', '/') + '.py'
        lines.append('| `{}` | {} | `{}` |'.format(op, _summary(cls, op), module))
    lines.append('')
    lines.append('{} TensorFlow op types.'.format(len(extractors)))
    return '\n'.join(lines)


def readme_with_table(text: str, generated: str) -> str:
    pattern = re.compile(re.escape(START) + '.*?' + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit('README.md has no {} ... {} section'.format(START, END))
    return pattern.sub(lambda _: '{}\n{}\n{}'.format(START, generated, END), text)


def compare_with_ovc(path: str) -> str:
    ours = set(builtin_extractors())
    yes = set()
    with open(path, encoding='utf-8') as f:
        for line in f.read().splitlines()[1:]:
            parts = line.split('\t')
            if len(parts) >= 2 and parts[1].strip() == 'YES':
                yes.add(parts[0].strip())
    return 'ovc YES: {}; mo: {}; both: {}; ovc only: {}; mo only: {}\novc only: {}\nmo only: {}'.format(
        len(yes), len(ours), len(yes & ours), len(yes - ours), len(ours - yes),
        ' '.join(sorted(yes - ours)), ' '.join(sorted(ours - yes)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--write', action='store_true', help="rewrite README.md's table")
    parser.add_argument('--ovc', metavar='TSV', help="compare with OpenVINO's TF frontend op table")
    args = parser.parse_args(argv)
    if args.ovc:
        print(compare_with_ovc(args.ovc))
        return
    generated = table()
    if args.write:
        path = os.path.join(ROOT, 'README.md')
        with open(path, encoding='utf-8') as f:
            text = f.read()
        new = readme_with_table(text, generated)
        tmp = path + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(new)
        os.replace(tmp, path)
    else:
        print(generated)


if __name__ == '__main__':
    main()
