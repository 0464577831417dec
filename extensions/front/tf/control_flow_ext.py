"""Extractors for TensorFlow's functional control flow: While/StatelessWhile -> Loop,
If/StatelessIf -> If and Case/StatelessCase -> a chain of If, their bodies still TF functions
(converted when the op is inferred, see ``mo.ops.loop``)."""
import numpy as np

from mo.front.common.rule import Builder, OpRule
from mo.graph.graph import Node
from mo.ops.convert import Convert
from mo.ops.elementwise import Equal
from mo.front.extractor import FrontExtractorOp
from mo.front.tf.dtypes import DT_RESOURCE, is_known, np_dtype
from mo.front.tf.function_graph import declared_shapes, if_branch, passthrough_outputs, while_body
from mo.ops.loop import If, Loop
from mo.utils.error import Error


def _library(node) -> dict:
    library = node.graph.graph.get('tf_library')
    return {f.signature.name: f for f in library.function} if library is not None else {}


def _function(node, attr: str, functions: dict) -> str:
    name = node.pb.attr[attr].func.name if attr in node.pb.attr else ''
    if name not in functions:
        raise Error('{} "{}": its {} function "{}" is not in the graph\'s function library', node.op,
                    node.soft_get('name', node.id), attr, name)
    return name


def _types(node, attr: str) -> list:
    """The numpy types of a type-list attribute; None for TF's variant (a tensor list, dense after the
    front phase: its tensor's type is inferred) and other types numpy has not."""
    if attr not in node.pb.attr:
        return []
    return [np_dtype(t) if is_known(t) else None for t in node.pb.attr[attr].list.type]


class WhileExtractor(FrontExtractorOp):
    """While -> Loop (opset5): body = the While's body, then its cond; the first cond runs outside
    (see ``extensions.load.tf.while_loop``); variables the body returns unchanged stay outside it
    (constants among them are folded into it)."""
    op = 'While'

    @classmethod
    def extract(cls, node):
        functions = _library(node)
        body = _function(node, 'body', functions)
        cond = _function(node, 'cond', functions)
        invariant = passthrough_outputs(functions[body])
        for k, dtype in enumerate(node.pb.attr['T'].list.type if 'T' in node.pb.attr else []):
            if dtype == DT_RESOURCE and k not in invariant:  # a TensorArray's handle passes through: fine
                raise Error('{} "{}": loop variable {} is a resource that its body function "{}" changes, which '
                            'mo cannot express', node.op, node.soft_get('name', node.id), k, body)
        Loop.update_node_stat(node, {'build_body': while_body, 'tf_functions': functions, 'body_function': body,
                                     'cond_function': cond,
                                     'variable_types': _types(node, 'T'),
                                     'declared_shapes': declared_shapes(node.pb) or None,
                                     'invariant_variables': invariant})
        return True


class StatelessWhileExtractor(WhileExtractor):
    """StatelessWhile -> Loop (opset5), as While."""
    op = 'StatelessWhile'


class IfExtractor(FrontExtractorOp):
    """If -> If (opset8): then_branch and else_branch become then_body and else_body."""
    op = 'If'

    @classmethod
    def extract(cls, node):
        functions = _library(node)
        If.update_node_stat(node, {'build_branch': if_branch, 'tf_functions': functions,
                                   'then_branch': ('call', _function(node, 'then_branch', functions), 0),
                                   'else_branch': ('call', _function(node, 'else_branch', functions), 0),
                                   'input_types': _types(node, 'Tin'), 'output_types': _types(node, 'Tout')})
        return True


class StatelessIfExtractor(IfExtractor):
    """StatelessIf -> If (opset8), as If."""
    op = 'StatelessIf'


class CaseExtractor(FrontExtractorOp):
    """Case -> If(index == 0, branch 0, the rest of the Case with index - 1): a chain of If (opset8),
    the last branch taken for any index out of range as in TF."""
    op = 'Case'

    @classmethod
    def extract(cls, node):
        functions = _library(node)
        branches = [f.name for f in node.pb.attr['branches'].list.func] if 'branches' in node.pb.attr else []
        for name in branches:
            if name not in functions:
                raise Error('Case "{}": its branch function "{}" is not in the graph\'s function library',
                            node.soft_get('name', node.id), name)
        if not branches:
            raise Error('Case "{}" has no branches', node.soft_get('name', node.id))
        node['tf_functions'] = functions
        node['branches'] = branches
        node['input_types'] = _types(node, 'Tin')
        node['output_types'] = _types(node, 'Tout')
        return True


class StatelessCaseExtractor(CaseExtractor):
    """StatelessCase -> a chain of If (opset8), as Case."""
    op = 'StatelessCase'


class CaseToIf(OpRule):
    """Case(index, args) -> If(index == 0, branches[0](args), Case(index - 1, args) over the other branches)."""
    op = 'Case'

    def rewrite(self, node: Node, b: Builder):
        branches = node.branches
        index = b.op(Convert, [node.in_port(0)], 'index', dst_type=np.int32)
        first = b.op(Equal, [index, b.const(0, 'zero', np.int32)], 'is_first')
        if len(branches) == 1:  # TF runs the only branch whatever the index
            first = b.const(True, 'always', np.bool_)
        args = [node.in_port(p) for p in sorted(p for p in node.in_ports() if p > 0 and node.is_in_port_connected(p))]
        return b.op(If, [first, index] + args, 'if', build_branch=if_branch, tf_functions=node.tf_functions,
                    then_branch=('call', branches[0], 1), else_branch=('case', branches[1:] or branches, 1),
                    input_types=[np.dtype(np.int32)] + list(node.input_types), output_types=node.output_types)


class StatelessCaseToIf(CaseToIf):
    """StatelessCase -> a chain of If, as Case."""
    op = 'StatelessCase'


class AssertExtractor(FrontExtractorOp):
    """Assert -> nothing: a check at run time that inference does without (removed with its inputs
    when nothing else reads them)."""
    op = 'Assert'

    @classmethod
    def extract(cls, node):
        return True


class AssertEraser(OpRule):
    """Assert(condition, data...) -> removed, with the control edges that ordered other nodes after it."""
    op = 'Assert'

    def rewrite(self, node: Node, b: Builder):
        return []
