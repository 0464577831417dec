"""Shared helpers of the ``mo convert`` end-to-end tests: convert once per session, IR facts, timings."""
import collections
import os
import re
import time

import pytest

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

# the built-in extractors must be registered before the first test's registry snapshot
from mo.utils.import_extensions import load_builtin  # noqa: E402

load_builtin()

#: max|ov - tf| / max|tf| every converted model must stay below (issue 4)
TOLERANCE = 1e-4

def layer_types(xml_text: str) -> collections.Counter:
    """Opset type -> count of the layers of an IR."""
    return collections.Counter(re.findall(r'<layer [^>]*type="([A-Za-z0-9_]+)"', xml_text))


def parameter_shapes(xml_text: str) -> list:
    """The ``shape`` attribute of every Parameter, as lists of ints (-1 = dynamic)."""
    shapes = []
    for match in re.finditer(r'<layer [^>]*type="Parameter"[^>]*>\s*<data ([^>]*)/>', xml_text):
        shape = re.search(r'shape="([^"]*)"', match.group(1)).group(1)
        shapes.append([-1 if d.strip() == '?' else int(d) for d in shape.split(',') if d.strip()])
    return shapes


class Converted:
    """One conversion: the IR paths and text, its wall time and node count."""

    def __init__(self, xml, bin_path, seconds, graph):
        self.xml = xml
        self.bin = bin_path
        self.seconds = seconds
        with open(xml) as f:
            self.text = f.read()
        self.types = layer_types(self.text)
        self.nodes = sum(self.types.values())


def convert_bytes(graph_def: bytes, output_dir, name='model', **options) -> Converted:
    """``mo convert`` through the Python API (the same ``convert()`` the CLI runs)."""
    from mo.pipeline.convert import convert
    start = time.perf_counter()
    opts = dict(options, graph_def_bytes=graph_def, output_dir=str(output_dir), model_name=name)
    graph, xml, bin_path, _ = convert(opts)
    return Converted(xml, bin_path, time.perf_counter() - start, graph)


@pytest.fixture(scope='session')
def session_dir(tmp_path_factory):
    return tmp_path_factory.mktemp('mo_convert')


def max_error(actual_list, expected_list) -> float:
    from tests.support.oracles import compare
    return max(compare(a, e) for a, e in zip(actual_list, expected_list))


__all__ = ['TOLERANCE', 'Converted', 'convert_bytes', 'layer_types', 'parameter_shapes', 'max_error']
