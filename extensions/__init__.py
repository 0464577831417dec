"""mo's built-in replacers, extractors and ops, loaded by ``mo.utils.import_extensions``.

Importing ``mo.compat`` (through ``mo``) installs the finder of the Model Optimizer's module paths, so that an
author's ``from extensions.front.sub import Sub`` works without importing ``mo`` first: those modules live in
``mo/compat/extensions/``, apart from the live steps here.
"""
import mo.compat  # noqa: F401 - installs mo.compat.LegacyPathFinder (see mo/__init__.py)
