"""The Model Optimizer's module path of the graph helpers, which serve every framework (``mo.front.common.graph_utils``)."""
from mo.front.common.graph_utils import create_op_node_with_second_input, create_op_with_const_inputs  # noqa: F401
