"""Apache MXNet models: readers of a model's two files, the framework record and the graph loader.

* ``params.read_params(path) -> Params``: a ``NAME-EPOCH.params`` file's arrays as read-only numpy views of the
  memory-mapped file (``Params.arg_params``, ``aux_params``, ``unprefixed``, ``names``, ``arrays``);
  ``params.sniff(path)`` tells such a file by its first 8 bytes.
* ``symbol.read_symbol(path) -> Symbol``: a ``NAME-symbol.json`` graph (``Symbol.nodes`` in topological order,
  ``variables``, ``aux_variables``, ``heads`` as (node, output) pairs, ``num_outputs``), older files upgraded
  as MXNet upgrades them (``legacy``); ``symbol.sniff(path)`` tells such a file by its keys.
* ``framework.FRAMEWORK``: the record (``mo.front.frameworks``) that claims a ``.params`` or ``-symbol.json`` file;
  ``loader``: which files a conversion reads (``model_files``) and the front graph built from them (``symbol2nx``:
  weights as Consts viewing the params, inputs as Parameters, heads as outputs, params checked against the graph).
* ``attrs.Attrs``: a node's attribute strings read as typed values (``Node.attr``); ``dtypes``: MXNet's type
  flags as numpy dtypes.
"""
