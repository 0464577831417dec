"""The module ``__getattr__`` of a live ``mo/ops`` module that lacks some of the Model Optimizer's classes of the
same path (``mo.ops.pad.ONNXPad``): the stand-ins of ``mo.compat.op_modules``, made on first use. A module of its
own, so that a live op module's import of it pulls in nothing until a legacy name is asked for."""


def legacy_op_names(module_name: str):
    """``__getattr__`` for live module ``module_name``: its names of ``mo.compat.op_modules.OP_MODULES``."""
    def __getattr__(name):
        if name.startswith('__'):
            raise AttributeError('module {!r} has no attribute {!r}'.format(module_name, name))
        from mo.compat import op_modules
        return op_modules.legacy_attribute(module_name, name)
    return __getattr__
