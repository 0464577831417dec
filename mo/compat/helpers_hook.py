"""The module ``__getattr__`` of the live loader modules whose Model Optimizer namesakes held helpers its
extractors import (``mo.front.onnx.loader.node_id``, ``mo.front.extractor.extract_node_attrs``): served from
``mo.compat.loader_helpers`` on first use."""


def legacy_helper_names(module_name: str):
    """``__getattr__`` for live module ``module_name``: its names of ``mo.compat.loader_helpers.SERVED``."""
    def __getattr__(name):
        from mo.compat import loader_helpers
        if name not in loader_helpers.SERVED.get(module_name, ()):
            raise AttributeError('module {!r} has no attribute {!r}'.format(module_name, name))
        return getattr(loader_helpers, name)
    return __getattr__
