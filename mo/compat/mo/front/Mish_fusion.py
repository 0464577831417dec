"""The Model Optimizer's ``openvino.tools.mo.front.Mish_fusion`` (releases 2022-2024) under mo's import rename: mo's
built-in step ``extensions.front.Mish_fusion.MishFusion`` itself (importing it here adds no step)."""
from extensions.front.Mish_fusion import MishFusion  # noqa: F401

__all__ = ['MishFusion']
