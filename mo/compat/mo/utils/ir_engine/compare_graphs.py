"""The Model Optimizer's ``openvino.tools.mo.utils.ir_engine.compare_graphs`` (releases 2022-2024), where its unit
tests imported ``compare_graphs`` from: mo's helper of ``mo.utils.unittest.graph`` (it returns ``(ok, message)``;
the Model Optimizer's returned a list of messages, which ``assertTrue(flag, resp)`` prints alike)."""
from mo.utils.unittest.graph import compare_graphs  # noqa: F401

__all__ = ['compare_graphs']
