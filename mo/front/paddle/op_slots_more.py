"""Slot names of the Paddle ops of the interpolate, recurrent, detection and control-flow families, for
``op_slots.SLOTS``: ``{op_type: (input_slots, output_slots)}`` in Paddle's classic names, in the order of a PIR
op's operands and results (which is the order of the classic op's proto)."""

#: how many numbered slots PIR's control-flow ops get (more names than values is fine, fewer is an error)
_MANY = 64


def _numbered(prefix: str) -> tuple:
    return tuple('{}{}'.format(prefix, k) for k in range(_MANY))


_INTERP = (('X', 'OutSize', 'SizeTensor', 'Scale'), ('Out',))

SLOTS_MORE = {
    # PIR: rnn(x, pre_state[], weight_list[], sequence_length, dropout_state_in) ->
    # (out, dropout_state_out, state[], reserve)
    'rnn': (('Input', 'PreState', 'WeightList', 'SequenceLength', 'DropoutState'),
            ('Out', 'DropoutState', 'State', 'Reserve')),
    **{name + suffix: _INTERP for name in ('nearest_interp', 'bilinear_interp', 'bicubic_interp', 'linear_interp',
                                           'trilinear_interp') for suffix in ('', '_v2')},
    # detection, in PIR's operand order
    'yolo_box': (('X', 'ImgSize'), ('Boxes', 'Scores')),
    'box_coder': (('PriorBox', 'PriorBoxVar', 'TargetBox'), ('OutputBox',)),
    'roi_align': (('X', 'ROIs', 'RoisNum'), ('Out',)),
    'deformable_conv': (('Input', 'Offset', 'Filter', 'Mask'), ('Output',)),
    'deformable_conv_v1': (('Input', 'Offset', 'Filter'), ('Output',)),
    'prior_box': (('Input', 'Image'), ('Boxes', 'Variances')),
    'density_prior_box': (('Input', 'Image'), ('Boxes', 'Variances')),
    'multiclass_nms3': (('BBoxes', 'Scores', 'RoisNum'), ('Out', 'Index', 'NmsRoisNum')),
    'multiclass_nms2': (('BBoxes', 'Scores'), ('Out', 'Index')),
    'multiclass_nms': (('BBoxes', 'Scores'), ('Out',)),
    'matrix_nms': (('BBoxes', 'Scores'), ('Out', 'Index', 'RoisNum')),
    # the classic generate_proposals (v1) names its image input ImInfo (H, W, scale); PIR's is the v2 op
    'generate_proposals': (('Scores', 'BboxDeltas', 'ImShape', 'Anchors', 'Variances', 'ImInfo'),
                           ('RpnRois', 'RpnRoiProbs', 'RpnRoisNum')),
    'generate_proposals_v2': (('Scores', 'BboxDeltas', 'ImShape', 'Anchors', 'Variances'),
                              ('RpnRois', 'RpnRoiProbs', 'RpnRoisNum')),
    # control flow: PIR's if/while have as many results (and while as many operands) as the program needs
    'if': (('Cond',), _numbered('Out')),
    'while': (('Condition',) + _numbered('X'), _numbered('Out')),
    'conditional_block': (('Cond', 'Input'), ('Out', 'Scope')),
    'select_input': (('X', 'Mask'), ('Out',)),
    # tensor arrays: PIR's array_write_(array, x, i) -> out (the array), array_read(array, i) -> out
    'create_array': ((), ('Out',)),
    'write_to_array': (('X', 'I'), ('Out',)),
    'array_write': (('Array', 'X', 'I'), ('Out',)),
    'read_from_array': (('X', 'I'), ('Out',)),
    'array_read': (('X', 'I'), ('Out',)),
    'slice_array_dense': (('X', 'I'), ('Out',)),
    'slice_array': (('X', 'Starts', 'Ends'), ('Out',)),
    'lod_array_length': (('X',), ('Out',)),
    'array_length': (('X',), ('Out',)),
    'tensor_array_to_tensor': (('X',), ('Out', 'OutIndex')),
    'array_to_tensor': (('X',), ('Out', 'OutIndex')),
    # slice assignment: PIR's operands (x, [value,] starts, ends, steps); the classic op's *TensorList inputs
    # and ValueTensor follow the table's slots
    'set_value': (('Input', 'Starts', 'Ends', 'Steps'), ('Out',)),
    'set_value_with_tensor': (('Input', 'ValueTensor', 'Starts', 'Ends', 'Steps'), ('Out',)),
}
