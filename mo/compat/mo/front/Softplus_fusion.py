"""The Model Optimizer's ``openvino.tools.mo.front.Softplus_fusion`` (releases 2022-2024) under mo's import rename:
mo's built-in step ``extensions.front.Softplus_fusion.SoftplusFusion`` itself (importing it here adds no step)."""
from extensions.front.Softplus_fusion import SoftplusFusion  # noqa: F401

__all__ = ['SoftplusFusion']
