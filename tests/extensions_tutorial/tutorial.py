"""Reading docs/extensions.md as a script: its code blocks, its headings' anchors, and running it.

A ``python`` block whose first line is ``# path: ...`` (or ``# path``) is a file to write at that path;
an ``sh`` block is commands to run, one a line, with ``mo`` and ``python`` meaning this checkout's;
a ``text`` block is what the ``sh`` block before it must print (each of its lines, in any order).
"""
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / 'docs' / 'extensions.md'

_BLOCK = re.compile(r'^```(\w+)\n(.*?)^```\s*$', re.S | re.M)
_PATH = re.compile(r'^# ([\w./]+\.py)\b')


@dataclass
class Block:
    lang: str
    text: str

    @property
    def path(self) -> str:
        """The file a python block is written to (its first line says), or ''."""
        found = _PATH.match(self.text)
        return found.group(1) if found else ''


@dataclass
class Run:
    """One command of an sh block and what it did."""
    command: str
    returncode: int
    output: str
    expected: List[str] = field(default_factory=list)


def blocks(text: str = None) -> List[Block]:
    """The fenced code blocks of the tutorial, in order."""
    text = TUTORIAL.read_text() if text is None else text
    return [Block(lang, body) for lang, body in _BLOCK.findall(text)]


def anchors(text: str) -> set:
    """The anchors GitHub gives the headings of a markdown text (lower case, punctuation dropped, spaces to -)."""
    slugs = set()
    for heading in re.findall(r'^#+ (.+)$', text, re.M):
        slugs.add(re.sub(r'[^\w\- ]', '', heading.strip().lower()).replace(' ', '-'))
    return slugs


def _command(line: str) -> tuple:
    """``VAR=value ... mo args`` -> (environment additions, argv)."""
    words = shlex.split(line)
    env = {}
    while words and re.match(r'^[A-Z_]+=', words[0]):
        key, value = words.pop(0).split('=', 1)
        env[key] = value
    if words[0] == 'mo':
        words = [sys.executable, '-m', 'mo'] + words[1:]
    elif words[0] == 'python':
        words = [sys.executable] + words[1:]
    return env, words


def run_tutorial(workdir: Path) -> List[Run]:
    """Write every file block into ``workdir``, then run the sh blocks in order there."""
    items = blocks()
    for block in items:
        if block.lang == 'python':
            if not block.path:
                raise AssertionError('a python block of the tutorial names no file:\n' + block.text[:200])
            target = workdir / block.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text)
    runs, last = [], []
    for block in items:
        if block.lang == 'sh':
            last = []
            for line in block.text.splitlines():
                if not line.strip():
                    continue
                extra, argv = _command(line)
                env = dict(os.environ, PYTHONPATH=str(ROOT), **extra)
                proc = subprocess.run(argv, cwd=str(workdir), env=env, capture_output=True, text=True, timeout=600)
                last.append(Run(line, proc.returncode, proc.stdout + proc.stderr))
            runs.extend(last)
        elif block.lang == 'text':
            assert last, 'a text block with no sh block before it'
            last[-1].expected = [line for line in block.text.splitlines() if line.strip()]
    return runs
