"""The Model Optimizer's ``ops/`` modules that mo has no file for, declared (filled in by the next step)."""

#: module path -> {class name: how to build it}
OP_MODULES = {}


def find_spec(fullname: str):
    return None
