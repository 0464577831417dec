"""The Model Optimizer's ``extensions.back.pass_separator`` (releases 2020-2021): its phase anchors, which authors'
replacers order themselves against, are mo's anchors (``mo.utils.anchors``), the same classes: importing them here
adds no step."""
from mo.utils.anchors import BackStart, BackFinish  # noqa: F401

__all__ = ['BackStart', 'BackFinish']
