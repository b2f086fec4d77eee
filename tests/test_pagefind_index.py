"""hooks/pagefind_index.py: what the search index is given beside the page's own words."""

from pagefind_index import _INLINE_CODE, _name_parts


def indexed(html):
    return _INLINE_CODE.sub(_name_parts, html)


def test_an_inline_dotted_name_is_indexed_with_its_snake_case_parts():
    assert indexed("<p>use <code>tf.numpy_function</code> here</p>") == (
        '<p>use <code data-cg-names="numpy_function" data-pagefind-index-attrs="data-cg-names">'
        "tf.numpy_function</code> here</p>"
    )


def test_a_name_without_a_dot_or_an_underscore_is_left_as_written():
    for html in ("<p><code>numpy_function</code></p>", "<p><code>tf.gradients</code></p>"):
        assert indexed(html) == html


def test_a_code_block_is_left_as_built_so_its_output_reads_back_unchanged():
    for html in (
        "<pre><span></span><code>tf.custom_gradient.__doc__ in TensorFlow 2.21.0:\n</code></pre>",
        "<pre><code>tf.custom_gradient.__doc__\n</code></pre>",
    ):
        assert indexed(html) == html
