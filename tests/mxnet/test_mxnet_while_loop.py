"""MXNet's _while_loop with its per-step outputs read (tools/make_mxnet_models.py ``while_stacked``): the Loop
stacks them along a new axis 0 and pads them to max_iterations rows as MXNet shapes them; the steps that ran must be
MXNet's numbers (MXNet leaves the rows after them uninitialised; mo gives zeros there), the final loop variables
and step counts too."""
import numpy as np

import mo
from tests.mxnet.test_mxnet_convert import head_names, input_option, reference, run_ir, FIXTURES

#: stacked output -> the output that counts the steps its loop ran
STACKED = {0: 2, 1: 2, 4: 5}


def test_while_loop_stacked_outputs_match_mxnet(tmp_path):
    inputs, expected = reference('while_stacked')
    result = mo.convert_model(str(FIXTURES / 'while_stacked-0000.params'), input=input_option(inputs),
                              output_dir=str(tmp_path))
    got = run_ir(result.xml_path, inputs, head_names('while_stacked'))
    assert len(got) == len(expected)
    for index, (actual, want) in enumerate(zip(got, expected)):
        assert actual.shape == want.shape, (index, actual.shape, want.shape)
        if index in STACKED:
            steps = int(expected[STACKED[index]].ravel()[0])
            np.testing.assert_array_equal(actual[steps:], 0, err_msg='output {}: padding'.format(index))
            actual, want = actual[:steps], want[:steps]
        np.testing.assert_allclose(actual, want, rtol=1e-4, atol=1e-5, err_msg='output {}'.format(index))
    assert int(expected[2][0]) == 3 and int(expected[5][0]) == 4  # one loop stops early, one runs to the end
