"""Apache MXNet models: the readers of a model's two files, ``NAME-symbol.json`` (the graph, ``symbol``) and
``NAME-EPOCH.params`` (the weights, ``params``). Nothing here is wired into the conversion pipeline yet."""
