"""Raise TensorFlow's lowered control flow to its functional form, GraphDef to GraphDef.

TF1 graph-mode code, and ``convert_variables_to_constants_v2`` with its default
``lower_control_flow=True``, write loops as frames of ``Enter``/``Merge``/``Switch``/
``NextIteration``/``LoopCond``/``Exit`` nodes and conditionals as ``Switch``/``Merge`` pairs.
:func:`raise_control_flow` rewrites them into what TensorFlow writes with
``lower_control_flow=False``: ``While`` nodes with ``cond``/``body`` functions and ``If`` nodes
with ``then_branch``/``else_branch`` functions in ``graph_def.library``, and a lowered
``switch_case`` (``_SwitchN``/``Merge``) into a ``Case`` node with ``branches`` (a conditional
whose predicate or branch index is a constant becomes the taken branch). The rest of mo then only meets the
functional form. Pure protobuf: no TensorFlow at run time.
"""
from mo.front.tf.control_flow.raising import CONTROL_FLOW_OPS, has_control_flow, raise_control_flow

__all__ = ['CONTROL_FLOW_OPS', 'has_control_flow', 'raise_control_flow']
