"""The Model Optimizer's ``openvino.tools.mo.front.SqueezeNormalize`` (releases 2022-2024) under mo's import rename:
mo's built-in step ``extensions.front.SqueezeNormalize.SqueezeNormalize`` itself (importing it here adds no step)."""
from extensions.front.SqueezeNormalize import SqueezeNormalize  # noqa: F401

__all__ = ['SqueezeNormalize']
