"""Generate ``mo/front/tf/op_defaults.json`` from TensorFlow's op registry (development time only).

For the ops frozen inference graphs commonly contain, the table records each attribute's
default value (what ``add_default_attributes`` fills in) and each output argument's type rule
(what a transform needs to know a node's output dtypes, e.g. ``insert_logging``). ``mo`` reads
the JSON at run time, so TensorFlow is needed only to regenerate it::

    python tools/gen_op_defaults.py [--out mo/front/tf/op_defaults.json]
"""
import argparse
import json
import os
import sys

#: ops of typical frozen inference graphs (Keras/TF1 vision, NLP, detection post-processing)
COMMON_OPS = """
Abs Acos Acosh Add AddN AddV2 All Any ArgMax ArgMin Asin Asinh Assert Atan Atan2 Atanh AvgPool AvgPool3D
BatchMatMul BatchMatMulV2 BatchMatMulV3 BatchNormWithGlobalNormalization BatchToSpace BatchToSpaceND BiasAdd
BiasAddV1 Bitcast BroadcastArgs BroadcastTo Cast Ceil CheckNumerics ClipByValue Complex ComplexAbs Concat
ConcatV2 Const Conv2D Conv2DBackpropInput Conv3D Conv3DBackpropInputV2 Cos Cosh CropAndResize Cumsum
DepthToSpace DepthwiseConv2dNative Dequantize Div DivNoNan Einsum Elu Enter Equal Erf Erfc Exit Exp ExpandDims
Expm1 ExtractImagePatches FakeQuantWithMinMaxArgs FakeQuantWithMinMaxVars FakeQuantWithMinMaxVarsPerChannel
Fill Floor FloorDiv FloorMod FusedBatchNorm FusedBatchNormV2 FusedBatchNormV3 Gather GatherNd GatherV2 Greater
GreaterEqual Identity IdentityN If InvertPermutation IsFinite IsInf IsNan L2Loss LRN LeakyRelu Less LessEqual
LinSpace Log Log1p LogSoftmax LogicalAnd LogicalNot LogicalOr LoopCond MatMul MatrixBandPart MatrixDiag Max
MaxPool MaxPool3D MaxPoolV2 MaxPoolWithArgmax Maximum Mean Merge Min Minimum MirrorPad Mod Mul MulNoNan Neg
NextIteration NoOp NonMaxSuppressionV2 NonMaxSuppressionV3 NonMaxSuppressionV4 NonMaxSuppressionV5 NotEqual
OneHot OnesLike Pack Pad PadV2 PartitionedCall Placeholder PlaceholderWithDefault Pow Prod QuantizeV2
QuantizedConv2D QuantizedMatMul RandomUniform Range Rank ReadVariableOp RealDiv Reciprocal Relu Relu6 Requantize
RequantizationRange Reshape ResizeArea ResizeBicubic ResizeBilinear ResizeNearestNeighbor Reverse ReverseSequence
ReverseV2 Rint Round Rsqrt ScatterNd Select SelectV2 Selu Shape ShapeN Sigmoid Sign Sin Sinh Size Slice Softmax
Softplus Softsign SpaceToBatch SpaceToBatchND SpaceToDepth Split SplitV Sqrt Square SquaredDifference Squeeze
StatefulPartitionedCall StatelessIf StatelessWhile StopGradient StridedSlice Sub Sum Switch Tan Tanh
TensorArrayGatherV3 TensorArrayReadV3 TensorArrayScatterV3 TensorArraySizeV3 TensorArrayV3 TensorArrayWriteV3
Tile TopKV2 Transpose TruncateDiv Unique Unpack VarHandleOp Where While ZerosLike Print PrintV2 HashTableV2
LookupTableFindV2 LookupTableImportV2 StringJoin
""".split()


def _attr_default(attr):
    """(kind, JSON value) of an OpDef attr's default, or None when it has none we can store."""
    if not attr.HasField('default_value'):
        return None
    value = attr.default_value
    kind = attr.type
    which = value.WhichOneof('value')
    if kind.startswith('list('):
        item = kind[5:-1]
        field = {'string': 's', 'int': 'i', 'float': 'f', 'bool': 'b', 'type': 'type', 'shape': 'shape'}.get(item)
        if field is None:
            return None
        items = list(getattr(value.list, field))
        if field == 's':
            items = [v.decode('utf-8') for v in items]
        elif field == 'shape':
            items = [None if s.unknown_rank else [d.size for d in s.dim] for s in items]
        elif field == 'type':
            items = [int(v) for v in items]
        return kind, items
    if which == 's':
        return kind, value.s.decode('utf-8')
    if which in ('i', 'f', 'b'):
        return kind, getattr(value, which)
    if which == 'type':
        return kind, int(value.type)
    if which == 'shape':
        return kind, None if value.shape.unknown_rank else [d.size for d in value.shape.dim]
    return None


def _output_rule(arg):
    rule = {}
    if arg.type:
        rule['type'] = int(arg.type)
    if arg.type_attr:
        rule['type_attr'] = arg.type_attr
    if arg.number_attr:
        rule['number_attr'] = arg.number_attr
    if arg.type_list_attr:
        rule['type_list_attr'] = arg.type_list_attr
    return rule


def build_table(op_names):
    """``{op: {"defaults": {attr: [kind, value]}, "outputs": [rule, ...]}}`` for the registered ops."""
    os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
    import tensorflow as tf
    from tensorflow.python.framework import op_def_registry
    table = {}
    for name in sorted(set(op_names)):
        op_def = op_def_registry.get(name)
        if op_def is None:
            print('skipped (not registered): {}'.format(name), file=sys.stderr)
            continue
        defaults = {}
        for attr in op_def.attr:
            entry = _attr_default(attr)
            if entry is not None:
                defaults[attr.name] = list(entry)
        table[name] = {'defaults': dict(sorted(defaults.items())),
                       'outputs': [_output_rule(arg) for arg in op_def.output_arg]}
    return {'tensorflow_version': tf.__version__, 'ops': table}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument('--out', default=os.path.join(here, '..', 'mo', 'front', 'tf', 'op_defaults.json'))
    args = parser.parse_args(argv)
    data = build_table(COMMON_OPS)
    with open(args.out, 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write('\n')
    print('{} ops written to {}'.format(len(data['ops']), os.path.normpath(args.out)))


if __name__ == '__main__':
    main()
