"""Slot names of the Paddle ops of the interpolate, recurrent, detection and control-flow families, for
``op_slots.SLOTS``: ``{op_type: (input_slots, output_slots)}`` in Paddle's classic names, in the order of a PIR
op's operands and results (which is the order of the classic op's proto)."""

_INTERP = (('X', 'OutSize', 'SizeTensor', 'Scale'), ('Out',))

SLOTS_MORE = {
    # PIR: rnn(x, pre_state[], weight_list[], sequence_length, dropout_state_in) ->
    # (out, dropout_state_out, state[], reserve)
    'rnn': (('Input', 'PreState', 'WeightList', 'SequenceLength', 'DropoutState'),
            ('Out', 'DropoutState', 'State', 'Reserve')),
    **{name + suffix: _INTERP for name in ('nearest_interp', 'bilinear_interp', 'bicubic_interp', 'linear_interp',
                                           'trilinear_interp') for suffix in ('', '_v2')},
}
