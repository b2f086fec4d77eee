"""The error index: every error snippet still raises the same exception type with the same key message.

The symptom index (docs/errors/) promises a reader that pasting TensorFlow's message into the search finds the entry.
If a TensorFlow upgrade changes a type or the wording, the test below names the snippet and what changed, so
the page (heading phrase, cause, fix) can be updated with the new output.
"""

import pytest

from tests.harness import run_snippet

DIR = "snippets/errors"

# snippet -> the (exception type, key part of the message) each printed error line must show.
ERRORS = {
    "01_wrong_number_of_gradients_eager.py": [
        ("ValueError", "custom_gradient function expected to return 2 gradients, but returned 1 instead"),
    ],
    "02_wrong_number_of_gradients_tf_function.py": [
        ("InternalError", "Recorded operation 'too_few' returned too few gradients. Expected 3 but received 2"),
        ("InternalError", "Recorded operation 'too_many' returned too few gradients. Expected 3 but received 4"),
        (
            "InternalError",
            "Recorded operation 'too_few_with_variable' returned too few gradients. Expected 4 but received 3",
        ),
    ],
    "03_wrong_number_of_gradients_tape_outside.py": [
        ("ValueError", 'Num gradients 2 generated for op name: "IdentityN"'),
        ("ValueError", "do not match num inputs 3"),
    ],
    "04_variables_without_argument.py": [
        (
            "TypeError",
            "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function uses variables",
        ),
    ],
    "05_variables_wrong_return.py": [
        ("TypeError", "Cannot iterate over a scalar tensor"),
        ("ValueError", "too many values to unpack (expected 2)"),
        ("ValueError", "Must return gradient for each variable from @custom_gradient grad_fn"),
    ],
    "07_no_gradients_provided.py": [
        ("ValueError", "No gradients provided for any variable"),
    ],
    "08_duplicate_registration.py": [
        ("KeyError", "Registering two gradient with name 'HalfReluGrad'"),
    ],
    "09_savedmodel_without_custom_gradients.py": [
        ("LookupError", "No gradient defined for operation'IdentityN' (op type: IdentityN)"),
        ("WARNING", "with ops with unsaved custom gradients. Will likely fail if a gradient is requested"),
    ],
    "14_python_float_gradient.py": [
        ("AssertionError", "message: ''"),
    ],
    "15_wrong_dtype_or_shape.py": [
        (
            "InvalidArgumentError",
            "cannot compute AddN as input #1(zero-based) was expected to be a float tensor but is a double tensor",
        ),
        ("InvalidArgumentError", "Inputs to operation AddN of type AddN must have the same size and shape"),
    ],
    "16_numpy_in_grad_tf_function.py": [
        ("AttributeError", "'SymbolicTensor' object has no attribute 'numpy'"),
    ],
    "17_keyword_arguments.py": [
        (
            "tf.function: ValueError",
            "The custom_gradient decorator currently supports keywords arguments only when eager execution is enabled",
        ),
    ],
    "18_keyword_arguments_fixed.py": [
        ("eager mode:  ValueError", "expected to return 1 gradients, but returned 2 instead"),
    ],
    "20_tf_gradients_in_eager_mode.py": [
        ("RuntimeError", "tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead"),
    ],
    "60_k_gradients_by_module.py": [
        ("K = tf.keras.backend: RuntimeError", "tf.gradients is not supported when eager execution is enabled"),
        ("K = keras.backend: AttributeError", "module 'keras.backend' has no attribute 'gradients'"),
    ],
    "24_non_persistent_tape_twice.py": [
        ("RuntimeError", "A non-persistent GradientTape can only be used to compute one set of gradients"),
    ],
    "25_gradients_do_not_exist_warning.py": [
        ("UserWarning", "Gradients do not exist for variables"),
        ("UserWarning", "when minimizing the loss"),
    ],
    "27_keras_variable_tape_watch.py": [
        ("ValueError", "Passed in object <Variable path=dense/kernel"),
        ("of type", "of type 'Variable', not tf.Tensor or tf.Variable or ExtensionType"),
    ],
    "28_forward_accumulator_keras_variables.py": [
        ("AttributeError", "'str' object has no attribute 'is_floating'"),
    ],
    "29_recompute_grad_keras_input.py": [
        ("ValueError", "A KerasTensor cannot be used as input to a TensorFlow function"),
    ],
    "30_python_float_around_tf_function.py": [
        ("AttributeError", "'float' object has no attribute 'name'"),
    ],
    "31_wrong_dtype_or_shape_around_tf_function.py": [
        ("TypeError", "Tensors in list passed to 'inputs' of 'AddN' Op have types [float32, float64]"),
        ("ValueError", "Dimension 0 in both shapes must be equal"),
        (
            "ValueError",
            "Incompatible shapes between op input and calculated input gradient. Forward operation: IdentityN",
        ),
    ],
    "19_keras_weight_as_argument.py": [
        (
            "Keras weight, eager mode:",
            "TypeError: @tf.custom_gradient grad_fn must accept keyword argument 'variables'",
        ),
        (
            "Keras fit, run_eagerly=True:",
            "TypeError: @tf.custom_gradient grad_fn must accept keyword argument 'variables'",
        ),
        (
            "Keras predict, run_eagerly=True:",
            "TypeError: @tf.custom_gradient grad_fn must accept keyword argument 'variables'",
        ),
        (
            "Keras layer called eagerly, no tape:",
            "TypeError: @tf.custom_gradient grad_fn must accept keyword argument 'variables'",
        ),
    ],
    "33_non_differentiable_op.py": [
        ("Keras fit, tf.round in the loss: ValueError", "No gradients provided for any variable"),
    ],
    "34_python_number_in_tape.py": [
        ("AttributeError", "'SymbolicTensor' object has no attribute 'numpy'"),
        ("NotImplementedError", "Cannot convert a symbolic tf.Tensor (mul:0) to a numpy array"),
    ],
    "35_integer_source.py": [
        ("WARNING:tensorflow", "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32"),
    ],
    "39_several_outputs_grad_arguments.py": [
        ("TypeError", "two_outputs.<locals>.grad() takes 1 positional argument but 2 were given"),
    ],
    "40_custom_gradient_keras_input.py": [
        ("ValueError", "A KerasTensor cannot be used as input to a TensorFlow function"),
    ],
    "44_gradient_reversal_hyperparameter.py": [
        ("eager: ValueError", "expected to return 2 gradients, but returned 1 instead"),
        ("tf.function: InternalError", "returned too few gradients. Expected 3 but received 2"),
    ],
    "45_variable_in_grad_under_cond.py": [
        ("AttributeError", "Tensor.graph is undefined when eager execution is enabled"),
        ("ValueError", "is in list of internal_captures but not in internal_capture_to_output"),
    ],
    "47_variable_created_inside_custom_gradient.py": [
        ("eager: TypeError", "grad_fn must accept keyword argument 'variables'"),
        ("tf.function: TypeError", "grad_fn must accept keyword argument 'variables'"),
    ],
    "49_nan_second_derivative_reported_as_zero.py": [
        ("InvalidArgumentError", "value of the loss : Tensor had NaN values"),
    ],
    "56_wrong_shape_unknown_static_shape.py": [
        ("ValueError", "Incompatible shapes between op input and calculated input gradient"),
    ],
    "59_float_in_tf_function_is_float32.py": [
        ("TypeError", "Input 'y' of 'Mul' Op has type float64 that does not match type float32 of argument 'x'"),
    ],
    "50_batch_jacobian_needs_persistent_tape.py": [
        (
            "RuntimeError",
            "GradientTape must be created with persistent=True to compute the batch_jacobian with parallel_it",
        ),
        (
            "RuntimeError",
            "persistent=True to compute the jacobian with eager execution enabled and with experimental_use_pfor",
        ),
        (
            "ValueError",
            "Encountered an exception while vectorizing the jacobian computation. Vectorization can be disabled",
        ),
    ],
    # issue 23's mined symptoms (their behaviour: tests/errors/test_mined_symptoms.py)
    "62_indexedslices_gradient.py": [("AttributeError", "'IndexedSlices' object has no attribute 'numpy'")],
    "63_tensor_item_assignment.py": [("TypeError", "EagerTensor' object does not support item assignment")],
    "66_pool_lrn_second_order.py": [
        ("LookupError", "gradient registry has no entry for: MaxPoolGradWithArgmax"),
        ("LookupError", "gradient registry has no entry for: LRNGrad"),
    ],
    "69_lstsq_fast_false.py": [("ValueError", "Gradient not defined for fast=False")],
    "70_qr_lu_no_gradient.py": [
        ("NotImplementedError", "QrGrad not implemented when nrows > ncols and full_matrices is true"),
        ("LookupError", "gradient registry has no entry for: Lu"),
    ],
    "71_sparse_reduce_max.py": [("LookupError", "gradient registry has no entry for: SparseReduceMax")],
    "72_jacobian_cond_tf_function.py": [
        ("tf.function: ValueError", "Encountered an exception while vectorizing the jacobian computation"),
    ],
    "80_grad_calls_custom_gradient_out_of_scope.py": [
        ("tapes around tf.function(f)     TypeError", "is out of scope"),
        ("tf.function(f) in tf.function   InaccessibleTensorError", "is out of scope"),
        ("...", "cannot be accessed from here, because it was defined in FuncGraph(name=my_exp, id=...)"),
    ],
}


def stdout_of(name):
    path = f"{DIR}/{name}"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return path, result.stdout


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_snippet_shows_type_and_key_message(name):
    path, out = stdout_of(name)
    for error_type, key in ERRORS[name]:
        lines = [line for line in out.splitlines() if f"{error_type}" in line and key in line]
        assert lines, (
            f"{path}: expected a line with the exception type {error_type!r} and the message part {key!r}; "
            f"TensorFlow's error changed (update its entry under docs/errors/ and the Russian twin). The snippet printed:\n{out}"
        )


def test_every_error_snippet_is_checked():
    from tests.harness import ROOT

    behaviour_only = {  # symptoms without an exception; tests/errors/test_error_behaviour.py checks them
        "06_gradient_is_none.py",
        "10_savedmodel_same_process_hides_loss.py",
        "11_gradient_override_map_ignored.py",
        "12_pass_through_all_ones.py",
        "13_grad_ignores_dy.py",
        "21_where_nan_gradient.py",
        "23_second_derivative_none_nested_tapes.py",
        "26_numpy_function_no_gradient.py",
        "79_py_function_gradient.py",  # test_context_dependent_behaviour.py
        "32_source_not_watched.py",
        "36_nested_gradient_not_hessian.py",
        "37_hessian_zeros_same_tape.py",
        # tests/errors/test_graph_only_behaviour.py, test_forward_and_second_order.py, test_no_longer_happens.py,
        # test_reduce_prod_second_derivative.py
        "46_tape_outside_tf_function_intermediate.py",
        "48_forward_mode_jvp_none.py",
        "51_jacobian_pfor_keras_layers.py",
        "52_jacobian_inside_tape.py",
        "53_reduce_prod_second_derivative.py",
        "54_recompute_grad_same_tensor_twice.py",
        "55_jacobian_empty_batch.py",
        # tests/errors/test_context_dependent_behaviour.py
        "57_dict_argument_gradient_order.py",
        "58_integer_source_warning_count.py",
        "61_numpy_in_grad_run_functions_eagerly.py",
        # tests/errors/test_mined_symptoms.py
        "64_assign_cuts_gradient.py",
        "65_svd_repeated_singular_values.py",
        "67_masked_softmax_nan.py",
        "68_logcosh_overflow.py",
        "73_custom_gradient_retrace_leak.py",
        "74_old_gradient_errors_fixed.py",
        "75_sparse_xent_second_order.py",
        "76_eigh_repeated_eigenvalues.py",
        "77_ms_ssim_nan.py",
        "78_masked_softmax_underflow.py",
    }
    names = {p.name for p in (ROOT / DIR).glob("*.py")}
    unchecked = names - set(ERRORS) - behaviour_only
    assert not unchecked, f"error snippets no test checks (add them to ERRORS above): {sorted(unchecked)}"


# --- the symptoms without an exception ------------------------------------------------------------


def test_none_gradient_is_returned_not_raised():
    path, out = stdout_of("06_gradient_is_none.py")
    assert "dy/dx      = 3.0" in out, f"{path}: gradient for x should be dy * factor = 3.0:\n{out}"
    assert "dy/dfactor = None" in out, f"{path}: a None from grad should come back as None:\n{out}"
    assert "['3.0', '0.0']" in out, f"{path}: unconnected_gradients=ZERO should turn None into 0:\n{out}"


def test_savedmodel_keeps_custom_gradient_by_default_and_loses_it_with_false():
    path, out = stdout_of("09_savedmodel_without_custom_gradients.py")
    lines = {line.split(":")[0].strip(): line for line in out.splitlines()}
    assert "gradient: [0.1 0.1]" in lines["no options"], (
        f"{path}: in TF 2.21 saving without options keeps the custom gradient (SaveOptions default True); now:\n{out}"
    )
    assert "gradient: [0.1 0.1]" in lines["experimental_custom_gradients=True"], f"{path}:\n{out}"
    assert "unsaved custom gradients" not in out.split("experimental_custom_gradients=True")[1], (
        f"{path}: a model saved with its custom gradients should load without the warning:\n{out}"
    )
    assert "LookupError" in lines["experimental_custom_gradients=False"], (
        f"{path}: with experimental_custom_gradients=False the loaded model should fail to differentiate:\n{out}"
    )


def test_same_process_load_hides_the_missing_gradient():
    path, out = stdout_of("10_savedmodel_same_process_hides_loss.py")
    assert "[0.1 0.1]" in out, (
        f"{path}: loading in the saving process used to find the custom gradient in the registry; now:\n{out}"
    )


def test_gradient_override_map_is_ignored_by_eager_and_inner_tapes_only():
    path, out = stdout_of("11_gradient_override_map_ignored.py")
    lines = out.splitlines()
    assert lines[0].endswith("[0. 1.]") and lines[1].endswith("[0. 1.]"), (
        f"{path}: an eager tape and a tape inside tf.function used to ignore gradient_override_map "
        f"(ReLU's own gradient [0, 1]); now:\n{out}"
    )
    assert lines[2].endswith("[0.5 0.5]"), f"{path}: tf.gradients in a graph should honour the override:\n{out}"
    assert lines[3].endswith("[0.5 0.5]"), f"{path}: a tape outside the tf.function should honour it:\n{out}"


def test_keyword_snippet_shows_the_silent_bypass_and_the_working_fix():
    path, out = stdout_of("17_keyword_arguments.py")
    assert "eager mode:  dy/dx = -3.0, dy/dw = None, grad called: yes" in out, f"{path}:\n{out}"
    assert "eager mode:  dy/dx = 1.0, dy/dw = None, grad called: NO" in out, f"{path}:\n{out}"
    path, out = stdout_of("18_keyword_arguments_fixed.py")
    lines = out.splitlines()
    for i in (1, 2, 7, 8):
        assert lines[i].endswith("dy/dx = -3.0, dy/dw = None"), (
            f"{path}: line {i + 1} should show the fix working:\n{out}"
        )


def test_keras_weight_snippet_shows_where_variables_is_needed():
    path, out = stdout_of("19_keras_weight_as_argument.py")
    assert "isinstance(layer.w, tf.Variable): False" in out, f"{path}:\n{out}"
    for label in [
        "tf.Variable, eager mode:",
        "tf.Variable, tf.function:",
        "Keras weight, tf.function:",
        "Keras weight's .value, eager mode:",
        "Keras weight's .value, tf.function:",
    ]:
        line = next(line for line in out.splitlines() if line.startswith(label))
        assert line.endswith("dy/dx = 2.0, dy/dw = 3.0"), f"{path}: {label} should work without `variables`:\n{out}"
    assert "Keras predict, run_eagerly=False:    predicted [[2.0]]" in out, (
        f"{path}: a compiled predict should work without `variables`:\n{out}"
    )


def test_pass_through_gives_ones_for_y_and_loss_gradient_for_loss():
    path, out = stdout_of("12_pass_through_all_ones.py")
    assert "target y:     [1. 1. 1.]" in out, f"{path}: default dy should be all ones:\n{out}"
    assert "target loss:  [-4.  0.  2.]" in out, f"{path}: dy should be 2 * (sign(x) - t):\n{out}"


def test_grad_ignoring_dy_is_wrong_by_the_factor():
    path, out = stdout_of("13_grad_ignores_dy.py")
    assert "square_ignoring_dy: d(y)/dx = 6.0, d(10*y)/dx = 6.0" in out, f"{path}:\n{out}"
    assert "square: d(y)/dx = 6.0, d(10*y)/dx = 60.0" in out, f"{path}:\n{out}"


def test_wrong_gradients_around_tf_function_by_context():
    found, outs, heading = {}, "", None
    for name in ["30_python_float_around_tf_function.py", "31_wrong_dtype_or_shape_around_tf_function.py"]:
        outs += stdout_of(name)[1]
    for line in outs.splitlines():
        if not line.startswith(" "):
            heading = line.rstrip(":")
        else:
            use, result = (part.strip() for part in line.split("->"))
            found[f"{heading}, {use}"] = result.split(":")[0]
    inside, graph, outside = "tape inside tf.function", "tf.gradients in tf.function", "tape outside tf.function"
    expected = {
        f"python_float, {inside}, alone": "no error, float32 ()",
        f"python_float, {inside}, used_twice": "AssertionError",
        f"python_float, {graph}, alone": "AttributeError",
        f"python_float, {graph}, used_twice": "AttributeError",
        f"python_float, {outside}, alone": "AttributeError",
        f"python_float, {outside}, used_twice": "AttributeError",
        f"wrong_dtype, {inside}, alone": "no error, float64 (3,)",
        f"wrong_dtype, {inside}, used_twice": "TypeError",
        f"wrong_dtype, {graph}, alone": "no error, float64 (3,)",
        f"wrong_dtype, {graph}, used_twice": "TypeError",
        f"wrong_dtype, {outside}, alone": "no error, float64 (3,)",
        f"wrong_dtype, {outside}, used_twice": "InvalidArgumentError",
        f"wrong_shape, {inside}, alone": "no error, float32 (1,)",
        f"wrong_shape, {inside}, used_twice": "ValueError",
        f"wrong_shape, {graph}, alone": "ValueError",
        f"wrong_shape, {graph}, used_twice": "ValueError",
        f"wrong_shape, {outside}, alone": "ValueError",
        f"wrong_shape, {outside}, used_twice": "ValueError",
    }
    assert found == expected, (
        f"{DIR}/20_*.py, 21_*.py: where TensorFlow checks a wrong gradient changed; update the entries "
        f"#assertion-error-python-float and #addn-dtype-or-shape in docs/errors/error-message.md (and .ru.md):\n{outs}"
    )
