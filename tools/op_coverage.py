"""The ops ``mo convert`` converts, one Markdown table per framework, generated from the extractor registry.

Each row is one op type of the framework with a built-in extractor: what it becomes (the first line of the
extractor class's docstring, ``<ops> -> <opset ops>; <limitations>``, or its ``describe(op)``) and the extractor's
module. README.md carries each framework's table between its ``op-coverage:<framework>`` markers; a test keeps
them current:

    python tools/op_coverage.py [--framework tf]  # print the tables (or one)
    python tools/op_coverage.py --write           # rewrite README.md's tables in place (a new framework's
                                                  # section is added after the last one)
    python tools/op_coverage.py --ovc FILE        # compare with OpenVINO's TF frontend table (a TSV of
                                                  # op, YES/NO, limitation), printed, never written
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def markers(framework: str):
    """The README markers around ``framework``'s table."""
    return '<!-- op-coverage:{}:start -->'.format(framework), '<!-- op-coverage:{}:end -->'.format(framework)


def frameworks() -> list:
    """The framework records (``mo.front.frameworks``), in their order."""
    sys.path.insert(0, ROOT)
    from mo.front.frameworks import frameworks as records
    return list(records())


def builtin_extractors(framework: str = 'tf') -> dict:
    """Op type of ``framework`` -> built-in extractor class."""
    sys.path.insert(0, ROOT)
    from mo.front.extractor import FrontExtractorOp
    from mo.utils.class_registration import is_builtin
    from mo.utils.import_extensions import load_builtin
    load_builtin(with_transforms=False)
    return {op: cls for op, cls in FrontExtractorOp.registry.get(framework, {}).items() if is_builtin(cls)}


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


def table(record) -> str:
    """The Markdown table of the framework ``record``'s op types."""
    extractors = builtin_extractors(record.name)
    lines = ['| {} op | becomes | extractor |'.format(record.title), '|---|---|---|']
    for op in sorted(extractors, key=str.lower):
        cls = extractors[op]
        module = cls.__module__.replace('.', '/') + '.py'
        lines.append('| `{}` | {} | `{}` |'.format(op, _summary(cls, op), module))
    lines.append('')
    lines.append('{} {} op types.'.format(len(extractors), record.title))
    return '\n'.join(lines)


def tables() -> dict:
    """Framework name -> its table, for every framework with built-in extractors."""
    return {record.name: table(record) for record in frameworks() if builtin_extractors(record.name)}


def readme_with_tables(text: str, generated: dict) -> str:
    """``text`` with each framework's table replaced; a framework without markers gets a section after the last."""
    titles = {record.name: record.title for record in frameworks()}
    for name, body in generated.items():
        start, end = markers(name)
        pattern = re.compile(re.escape(start) + '.*?' + re.escape(end), re.S)
        if pattern.search(text):
            text = pattern.sub(lambda _: '{}\n{}\n{}'.format(start, body, end), text)
            continue
        last = max((m.end() for m in re.finditer(r'<!-- op-coverage:\w+:end -->', text)), default=None)
        if last is None:
            raise SystemExit('README.md has no op-coverage section to add {} after'.format(name))
        section = '\n\n### {} ops\n\n{}\n{}\n{}'.format(titles[name], start, body, end)
        text = text[:last] + section + text[last:]
    return text


def compare_with_ovc(path: str) -> str:
    ours = set(builtin_extractors('tf'))
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
    parser.add_argument('--write', action='store_true', help="rewrite README.md's tables")
    parser.add_argument('--framework', help='print only this framework\'s table')
    parser.add_argument('--ovc', metavar='TSV', help="compare with OpenVINO's TF frontend op table")
    args = parser.parse_args(argv)
    if args.ovc:
        print(compare_with_ovc(args.ovc))
        return
    generated = tables()
    if args.write:
        path = os.path.join(ROOT, 'README.md')
        with open(path, encoding='utf-8') as f:
            text = f.read()
        new = readme_with_tables(text, generated)
        tmp = path + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(new)
        os.replace(tmp, path)
    elif args.framework:
        print(generated[args.framework])
    else:
        print('\n\n'.join(generated.values()))


if __name__ == '__main__':
    main()
