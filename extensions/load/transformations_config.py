"""Loads ``--transformations_config`` descriptions and checks that every id has a replacer."""
from mo.front.loader_replacement import LoadReplacementPattern
from mo.graph.graph import Graph
from mo.utils.class_registration import registered_classes
from mo.utils.custom_replacement_config import load_configs
from mo.utils.error import Error


def _config_paths(graph: Graph) -> list:
    value = (graph.graph.get('cmd_params') or {}).get('transformations_config') or ''
    return [p.strip() for p in value.split(',') if p.strip()]


class LoadTransformationsConfig(LoadReplacementPattern):
    """Reads the config files into ``graph.graph['custom_replacement_descriptions']``."""
    id = 'LoadTransformationsConfig'
    graph_condition = [lambda graph: bool(_config_paths(graph))]

    def find_and_replace_pattern(self, graph: Graph):
        descriptions = load_configs(_config_paths(graph))
        known = {getattr(cls, 'replacement_id', None) for cls in registered_classes()}
        for desc in descriptions:
            if desc.id not in known and not (desc.op and desc.match_kind in ('scope', 'points')):
                raise Error('{}: no replacer has replacement_id "{}" and the description has no "op"', desc.where(),
                            desc.id, hint='load the replacer with --extensions, or give "op" to replace the '
                                          'sub-graph with one node')
        graph.graph['custom_replacement_descriptions'] = descriptions
        self.match_count = len(descriptions)
