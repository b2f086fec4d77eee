"""The chapter's snippets, run by the harness, still print what the page's prose relies on.

(tests/test_snippets.py already checks that every snippet's stdout equals its kept .out; these tests check the
meaning: which cell of the printed table says "applied", which exception type a snippet catches, and the
SavedModel behaviour, which needs fresh processes and so is only checked through its snippet.)
"""

import pytest

from tests.harness import run_snippet

DIR = "snippets/registergradient_vs_custom_gradient"


def stdout(name):
    result = run_snippet(f"{DIR}/{name}")
    assert result.returncode == 0, f"{DIR}/{name} exited with {result.returncode}:\n{result.stderr[-2000:]}"
    return result.stdout


def test_override_table_rows():
    rows = {}
    for line in stdout("04_where_override_applies.py").splitlines()[2:]:
        context, override, custom = (cell.strip() for cell in line.split("|"))
        rows[context] = (override.split(" ")[0], custom.split(" ")[0])
    assert rows == {
        "eager_tape": ("IGNORED", "applied"),
        "tape_outside_function": ("applied", "applied"),
        "tape_inside_function": ("IGNORED", "applied"),
        "tape_inside_around_nested": ("applied", "applied"),
        "tape_in_tf1_graph": ("IGNORED", "applied"),
        "tf_gradients_in_function": ("applied", "applied"),
        "tf_gradients_in_graph": ("applied", "applied"),
        "tape_outside_run_eagerly": ("IGNORED", "applied"),
    }, f"{DIR}/04_where_override_applies.py prints a different table now: update the page's prose and picture"


def test_both_mechanisms_give_the_straight_through_gradient():
    out1 = stdout("01_register_gradient_tf_graph.py")
    assert "dL/dx, built-in   = None" in out1 and "dL/dx, overridden = [1. 2.]" in out1
    out2 = stdout("02_register_gradient_tf_function.py")
    assert out2.count("[1. 2.]") == 2
    out3 = stdout("03_custom_gradient_same_effect.py")
    assert out3.count("[1. 2.]") == 3


def test_graph_and_eager_construction_evidence():
    graph = stdout("05_custom_gradient_graph_mode.py")
    assert "IdentityN" in graph and "_gradient_op_type = CustomGradient-<uid>" in graph
    assert "names added by one more trace: 1" in graph
    assert "names added by one trace of a function calling it twice: 2" in graph, (
        f"{DIR}/05_custom_gradient_graph_mode.py: tf.custom_gradient no longer registers one name per call in a graph"
    )
    eager = stdout("06_custom_gradient_eager_mode.py")
    order = ["2) under a tape:", "forward done, grad not called yet", "grad called with dy = [1. 2.]"]
    positions = [eager.index(s) for s in order]
    assert positions == sorted(positions), f"{DIR}/06_custom_gradient_eager_mode.py: grad is called at another time"
    assert eager.count("grad called") == 1
    assert "names registered in eager mode: 0" in eager


@pytest.mark.parametrize(
    "name, expected",
    [
        ("07_error_register_twice.py", "KeyError: Registering two gradient with name 'StraightThroughRound'!"),
        ("08_error_register_builtin_op_type.py", "KeyError: Registering two gradient with name 'Round'!"),
        ("10_error_unregistered_gradient_name.py", "LookupError: No gradient defined for operation'Round'"),
        ("11_error_wrong_number_of_gradients.py", "ValueError: Num gradients 1 generated for op name"),
    ],
)
def test_error_snippets_catch_the_real_error(name, expected):
    assert expected in stdout(name), f"{DIR}/{name} no longer prints {expected!r}"


def test_wrong_key_snippet():
    lines = stdout("09_error_wrong_op_type_key.py").splitlines()
    used = [line.split()[1] for line in lines if line.endswith("USED")]
    assert used == ["'Round'", "'Pow'"], f"{DIR}/09_error_wrong_op_type_key.py: keys that work are now {used}"


def test_savedmodel_keeps_both_gradients_only_when_saved():
    out = stdout("12_savedmodel_export.py")
    kept, dropped = out.split("experimental_custom_gradients=False")
    assert kept.count("dL/dx = [1. 2.]") == 2, f"{DIR}/12_savedmodel_export.py: a gradient is lost by default now"
    assert dropped.count("LookupError") == 2, f"{DIR}/12_savedmodel_export.py: dropped gradients no longer fail"


def test_new_op_type_registration_reaches_tapes():
    # run in its own process by the harness: it registers the op type "SoftsignGrad" for good
    lines = dict(line.split(":", 1) for line in stdout("14_register_gradient_new_op_type.py").splitlines())
    assert lines["before"].strip().startswith("LookupError: gradient registry has no entry for: SoftsignGrad"), (
        f"{DIR}/14_register_gradient_new_op_type.py: TensorFlow now has a gradient for SoftsignGrad (or another "
        "error); pick another op without a gradient for this snippet"
    )
    for key in [
        "eager GradientTape",
        "GradientTape inside tf.function",
        "GradientTape outside tf.function",
        "tf.gradients in tf.function",
    ]:
        assert float(lines[key]) == -0.25, f"{DIR}/14_register_gradient_new_op_type.py: {key} = {lines[key]}"


def test_savedmodel_does_not_keep_a_gradient_registered_under_a_new_op_type():
    out = stdout("15_savedmodel_new_op_type.py")
    unregistered, registered = out.split("@tf.RegisterGradient run: 1")
    assert "LookupError: No gradient defined for operation'SoftsignGrad'" in unregistered, (
        f"{DIR}/15_savedmodel_new_op_type.py: a new op type's gradient now survives a SavedModel: "
        "update the SavedModel section and the decision table"
    )
    assert "dy/dx = -0.25" in registered, f"{DIR}/15_savedmodel_new_op_type.py: re-registering no longer helps"
