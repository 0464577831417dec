"""``LegacyOp``: a stand-in for one of the Model Optimizer's op classes, which creates what mo's own extractor
creates for that op (see ``mo.compat.op_modules``)."""
import importlib
import pkgutil

from mo.front.extractor import FrontExtractorOp
from mo.graph.graph import Graph, Node
from mo.ops.op import Op
from mo.utils.class_registration import is_builtin
from mo.utils.error import Error

#: the Model Optimizer's op name -> mo's, where mo registers the same op under another name
OUR_OP_NAMES = {'ReduceLogicalAnd': 'ReduceAnd', 'ReduceLogicalOr': 'ReduceOr', 'StopGradient': 'Identity',
                'copy': 'Identity'}
#: the ONNX domains whose op types mo's built-in ONNX extractors are registered under
_ONNX_DEFAULT_DOMAINS = ('', 'ai.onnx')


def _all_subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _all_subclasses(sub)


def builtin_extractor(framework: str, op_type: str):
    """mo's own extractor class for ``framework``'s ``op_type``, or None. Read from the classes, not the registry:
    an author's extractor that takes over the op type (and calls a stand-in) is the registry's entry then."""
    for cls in _all_subclasses(FrontExtractorOp):
        if not is_builtin(cls) or cls.__dict__.get('op') is None or getattr(cls, 'framework', None) != framework:
            continue
        ops = cls.op if isinstance(cls.op, (list, tuple)) else [cls.op]
        if op_type in ops:
            return cls
    return None


def _load_builtin_ops():
    """Import every built-in op module (``mo/ops``, ``extensions/ops``): a stand-in used outside a conversion (an
    author's unit test) still finds mo's op class."""
    import extensions.ops
    import mo.ops
    for package in (mo.ops, extensions.ops):
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module('{}.{}'.format(package.__name__, info.name))


class LegacyOp(Op):
    """Base of the stand-ins; ``mo.compat.op_modules`` makes one subclass per class of the Model Optimizer's op
    modules and sets, after the class is made (so that it never registers): ``op`` (the Model Optimizer's op name),
    ``our_op`` (mo's name of that op), ``onnx_types``/``tf_types`` (the op types the Model Optimizer's extractors
    made this class of) and ``legacy_path``."""
    our_op = None
    onnx_types = frozenset()
    tf_types = frozenset()
    legacy_path = None

    def __new__(cls, graph: Graph = None, attrs: dict = None, *more):
        if 'legacy_path' not in cls.__dict__:
            return super().__new__(cls)  # an author's subclass is an op class of its own
        merged = dict(attrs or {})
        for extra in more:
            merged.update(extra or {})
        return cls.our_class()(graph, merged)

    @classmethod
    def our_class(cls):
        """mo's op class for this op; an Error when mo has none."""
        name = cls.our_op
        if name is not None and name not in Op.registered_ops:
            _load_builtin_ops()
        if name is None or name not in Op.registered_ops:
            made_of = sorted(cls.onnx_types | cls.tf_types)
            hint = ' (mo builds it from a node of type {} through its own extractor)'.format(
                ', '.join(made_of)) if made_of else ''
            raise Error("The Model Optimizer's {}.{} (op \"{}\") has no counterpart in mo{}", cls.legacy_path,
                        cls.__name__, cls.op, hint)
        return Op.registered_ops[name]

    @classmethod
    def extractor_for(cls, node: Node):
        """mo's built-in extractor for ``node``'s framework op type when the Model Optimizer made this class of that
        op type, else None."""
        pb = node.soft_get('pb', None)
        if pb is None:
            return None
        # the graph says which framework read it; a graph without the mark (a body) is told by its protos
        framework = node.graph.graph.get('source_format') or ('onnx' if hasattr(pb, 'op_type') else 'tf')
        if framework == 'onnx' and hasattr(pb, 'op_type'):  # an ONNX NodeProto
            if getattr(pb, 'domain', '') not in _ONNX_DEFAULT_DOMAINS or pb.op_type not in cls.onnx_types:
                return None
            return builtin_extractor('onnx', pb.op_type)
        op_type = getattr(pb, 'op', None)  # a TensorFlow NodeDef
        if framework == 'tf' and isinstance(op_type, str) and op_type in cls.tf_types:
            return builtin_extractor('tf', op_type)
        return None

    @classmethod
    def update_node_stat(cls, node: Node, attrs: dict = None):
        """Give ``node`` what mo's own extractor gives it (see the module's docstring)."""
        if 'legacy_path' not in cls.__dict__:
            return super().update_node_stat(node, attrs)
        extractor = cls.extractor_for(node)
        if extractor is not None:
            if extractor.extract(node) is False:
                raise Error('Node "{}": mo\'s extractor {} cannot extract it', node.soft_get('name', node.id),
                            extractor.__name__)
            return
        cls.our_class().update_node_stat(node, attrs)


def make_class(module: str, name: str, entry) -> type:
    """The stand-in ``module.name`` for a table entry of ``mo.compat.op_modules.OP_MODULES``."""
    op, onnx_types, tf_types = entry if isinstance(entry, tuple) else (entry, '', '')
    cls = type(name, (LegacyOp,), {
        '__module__': module,
        '__doc__': "The Model Optimizer's ``{}.{}``: mo's own op for it (``mo.compat.legacy_op``).".format(
            module, name)})
    # set after the class exists: an ``op`` in the class body would register the stand-in
    cls.op = op
    cls.our_op = OUR_OP_NAMES.get(op, op)
    cls.onnx_types = frozenset(onnx_types.split())
    cls.tf_types = frozenset(tf_types.split())
    cls.legacy_path = module
    return cls
