"""``mo transforms``: the pipeline order as a table, JSON, or a Graphviz dot file."""
import json

from mo.utils.class_registration import dependency_edges, full_name, pipeline
from mo.utils.error import Error
from mo.utils.replacement import frameworks_of
from mo.utils.file_utils import write_text_atomically
from mo.transforms.base import transforms_by_name


def gtt_table() -> list:
    """The ``mo transform`` catalogue: one dict per transform name, sorted by name."""
    return [{'position': '-', 'id': name, 'class': full_name(cls), 'phase': 'transform', 'enabled': True,
             'anchor': False, 'why': ''} for name, cls in sorted(transforms_by_name().items())]


def transforms_table(phases=None, framework=None) -> list:
    """One dict per replacer in run order (position, id, class, phase, enabled, why disabled),
    then the ``mo transform`` catalogue when no phase is chosen or 'transform' is. ``framework``
    (a name of ``mo.front.frameworks``) keeps the replacers that run for that framework's models."""
    rows = []
    pipeline_phases = [p for p in phases if p != 'transform'] if phases else None
    infos = pipeline(pipeline_phases) if pipeline_phases != [] else []
    if framework:
        infos = [info for info in infos if not frameworks_of(info.cls) or framework in frameworks_of(info.cls)]
    for position, info in enumerate(infos, start=1):
        rows.append({
            'position': position,
            'id': info.id,
            'class': info.name,
            'phase': info.cls.phase,
            'enabled': info.enabled,
            'anchor': bool(info.cls.anchor),
            'why': info.reason if not info.enabled or info.reason.startswith('MO_') else '',
        })
    if not phases or 'transform' in phases:
        rows.extend(gtt_table())
    return rows


def dot_text(infos) -> str:
    """The dependency graph of ``infos`` as Graphviz dot: anchors boxed, disabled ones grey."""
    classes = [info.cls for info in infos]
    lines = ['digraph transforms {', '  rankdir=TB;', '  node [shape=ellipse, fontsize=10];']
    for info in infos:
        style = []
        if info.cls.anchor:
            style.append('shape=box, style=bold')
        if not info.enabled:
            style.append('color=grey, fontcolor=grey')
        lines.append('  "{}" [label="{}\\n{}"{}];'.format(info.name, info.id, info.cls.phase,
                                                          ', ' + ', '.join(style) if style else ''))
    for before, after in sorted(set(dependency_edges(classes)), key=lambda e: (full_name(e[0]), full_name(e[1]))):
        lines.append('  "{}" -> "{}";'.format(full_name(before), full_name(after)))
    lines.append('}')
    return '\n'.join(lines) + '\n'


def print_transforms(phases=None, dot_path=None, as_json=False, out=None, framework=None):
    import sys
    out = out or sys.stdout
    rows = transforms_table(phases, framework)
    if as_json:
        out.write(json.dumps(rows, indent=2) + '\n')
    else:
        widths = {key: max([len(key)] + [len(str(row[key])) for row in rows]) for key in ('id', 'phase')}
        header = '{:>4}  {:<{w_id}}  {:<{w_ph}}  {:<7}  {}'.format('#', 'id', 'phase', 'enabled', 'class / why disabled',
                                                                   w_id=widths['id'], w_ph=widths['phase'])
        out.write(header + '\n')
        for row in rows:
            note = row['class'] + (' ({})'.format(row['why']) if row['why'] else '')
            out.write('{:>4}  {:<{w_id}}  {:<{w_ph}}  {:<7}  {}\n'.format(
                row['position'], row['id'], row['phase'], 'yes' if row['enabled'] else 'no', note,
                w_id=widths['id'], w_ph=widths['phase']))
    if dot_path:
        try:
            write_text_atomically(dot_path, dot_text(pipeline([p for p in phases if p != 'transform'] if phases else None)))
        except OSError as exc:
            raise Error('Cannot write the dot file "{}": {}', dot_path, exc.strerror or exc) from exc
