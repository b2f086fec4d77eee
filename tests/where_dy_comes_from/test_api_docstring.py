"""What the pages quote from the installed TensorFlow's tf.custom_gradient docstring is still there.

where-dy-comes-from.md#api-page says today's docstring names grad's argument `upstream` and explains
`upstream = dy/dy = 1.0`; registergradient-vs-custom-gradient.md quotes its "See also" sentence. If a TensorFlow
release rewrites the docstring, these fail and name the page to update.
"""

import tensorflow as tf

from tests.harness import run_snippet

DOC = " ".join(tf.custom_gradient.__doc__.split())


def test_docstring_names_the_argument_upstream_and_explains_it():
    assert "def grad(upstream): return upstream * (1 - 1 / (1 + e))" in DOC, (
        "the log1pexp example no longer calls grad's argument `upstream`: update docs/where-dy-comes-from.md#api-page"
    )
    assert "The variable `upstream` is defined as the upstream gradient." in DOC
    assert "therefore `upstream = dy/dy = 1.0`" in DOC, "update docs/where-dy-comes-from.md#api-page"


def test_docstring_compares_the_decorators_in_one_see_also_sentence():
    sentence = (
        "See also `tf.RegisterGradient` which registers a gradient function for a primitive TensorFlow operation. "
        "`tf.custom_gradient` on the other hand allows for fine grained control over the gradient computation of "
        "a sequence of operations."
    )
    assert sentence in DOC, "the See also sentence changed: update docs/registergradient-vs-custom-gradient.md intro"


def test_snippet_prints_the_upstream_explanation():
    path = "snippets/where_dy_comes_from/14_api_docstring_says.py"
    result = run_snippet(path)
    assert result.returncode == 0, f"{path}:\n{result.stderr[-2000:]}"
    assert "therefore `upstream = dy/dy = 1.0`." in result.stdout, f"{path}:\n{result.stdout}"
