"""The Model Optimizer's module path of the config-driven replacers, which serve every framework
(``mo.front.common.config_replacement``)."""
from mo.front.common.config_replacement import (FrontReplacementFromConfigFileGeneral,  # noqa: F401
                                                FrontReplacementFromConfigFileOp,
                                                FrontReplacementFromConfigFileSubGraph, SubgraphShapes,
                                                replace_with_op)
