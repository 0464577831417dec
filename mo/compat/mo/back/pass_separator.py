"""The Model Optimizer's ``openvino.tools.mo.back.pass_separator`` (releases 2022-2024) under mo's import rename: its
phase anchors, which authors' replacers order themselves against, are mo's anchors (``mo.utils.anchors``), the same
classes: importing them here adds no step."""
from mo.utils.anchors import BackStart, BackFinish  # noqa: F401

__all__ = ['BackStart', 'BackFinish']
