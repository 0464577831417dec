"""docs/extensions.md, run as a user would: its files written, its commands run, its IRs compared with TensorFlow.

The tutorial's model has a custom op (``Addons>Gelu``) that TensorFlow cannot run; its ``reference.pb``
is the same graph with TensorFlow's own gelu, which is what the IR must compute.
"""
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from mo.front.extractor import EXTENSIONS_TUTORIAL
from tests.extensions_tutorial.tutorial import ROOT, TUTORIAL, anchors, blocks, run_tutorial
from tests.support.oracles import compare, run_openvino, run_tf


@pytest.fixture(scope='module')
def tutorial(tmp_path_factory):
    workdir = tmp_path_factory.mktemp('tutorial')
    return workdir, run_tutorial(workdir)


def layer_types(xml_path) -> list:
    return sorted(layer.get('type') for layer in ET.parse(str(xml_path)).getroot().iter('layer'))


def test_every_block_is_a_file_a_command_or_its_output():
    langs = [block.lang for block in blocks()]
    assert set(langs) == {'python', 'sh', 'text'}
    paths = [block.path for block in blocks() if block.lang == 'python']
    assert all(paths) and len(set(paths)) == len(paths)
    assert {'my_ext/ops/gelu.py', 'my_ext/front/tf/gelu_ext.py', 'my_ext/middle/div_by_constant.py'} <= set(paths)


def test_every_command_does_what_the_tutorial_says(tutorial):
    _, runs = tutorial
    assert len(runs) >= 5
    for run in runs:
        # the first conversion, before the extension exists, is the tutorial's error example
        failing = any(line.startswith('[ ERROR ]') for line in run.expected)
        assert (run.returncode != 0) == failing, '{}\n{}'.format(run.command, run.output[-3000:])
        for line in run.expected:
            assert line in run.output, '{!r} not printed by {}:\n{}'.format(line, run.command, run.output[-3000:])
        # a user's replacer that matched nothing warns: none of the tutorial's may
        assert 'matched nothing' not in run.output, run.output


@pytest.mark.parametrize('ir', ['ir', 'ir_tree'])
def test_the_irs_compute_what_tensorflow_computes(tutorial, ir):
    workdir, _ = tutorial
    xml = workdir / ir / 'model.xml'
    # each extension did its part: Gelu from the op class, no SoftSign, one HSwish, the / 4 a Multiply
    types = layer_types(xml)
    assert {'Gelu', 'Abs', 'HSwish', 'Multiply'} <= set(types) and 'SoftSign' not in types, types
    assert types.count('Divide') == 1 and 'Clamp' not in types, types
    x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32) * 4
    expected = run_tf(workdir / 'reference.pb', {'x': x}, ['out'])[0]
    actual = run_openvino(xml, {'x': x})[0]
    assert compare(actual, expected) < 1e-5


def test_the_tree_form_ran_instead_of_the_dict_form(tutorial):
    """The ir_tree command enabled HSwishFusionTree and disabled HSwishFusion: the HSwish is the tree form's."""
    _, runs = tutorial
    tree = [run for run in runs if 'HSwishFusionTree' in run.command]
    assert len(tree) == 1 and tree[0].returncode == 0


def test_the_links_to_the_tutorial_lead_to_its_sections():
    """The unsupported-op hint, the replace_op error and README link to headings that exist."""
    slugs = anchors(TUTORIAL.read_text())
    path, anchor = EXTENSIONS_TUTORIAL.split('#')
    assert path == 'docs/extensions.md' and anchor in slugs
    assert 'the-replace_op-contract' in slugs
    contents = re.findall(r'\]\(#([\w\-]+)\)', TUTORIAL.read_text())
    assert contents and set(contents) <= slugs
    readme_links = re.findall(r'docs/extensions\.md#([\w\-]+)', (ROOT / 'README.md').read_text())
    assert set(readme_links) <= slugs
    assert 'docs/extensions.md' in (ROOT / 'README.md').read_text()
