"""``python -m mo``: the ``mo`` command."""
from mo.main import cli

cli()
