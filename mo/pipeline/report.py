"""The ``--report FILE`` of a pipeline run: what each replacer did, as JSON."""
import json

from mo.utils.file_utils import write_text_atomically


def write_report(path: str, steps: list, summary: dict):
    """Write ``{"summary": ..., "steps": [...]}``; seconds rounded so the file reads well."""
    rows = []
    for step in steps:
        row = dict(step)
        row['seconds'] = round(float(row.get('seconds', 0.0)), 6)
        rows.append(row)
    write_text_atomically(path, json.dumps({'summary': summary, 'steps': rows}, indent=2) + '\n')
