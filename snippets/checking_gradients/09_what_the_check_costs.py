"""How many times tf.test.compute_gradient runs your function and your grad."""

import tensorflow as tf

calls = {"function": 0, "grad": 0}


@tf.custom_gradient
def three_outputs(x):  # n_in inputs -> 3 outputs: sum, sum of squares, 2 * x[0]
    calls["function"] += 1

    def grad(dy):
        calls["grad"] += 1
        first = tf.one_hot(0, tf.size(x), dtype=x.dtype)
        return dy[0] + dy[1] * 2 * x + dy[2] * 2 * first

    y = tf.stack([tf.reduce_sum(x), tf.reduce_sum(x**2), 2 * x[0]])
    return y, grad


print("n_in  n_out  function ran  grad ran  1 + n_out + 2*n_in")
for n_in in [1, 2, 5]:
    calls.update(function=0, grad=0)
    tf.test.compute_gradient(three_outputs, [tf.ones([n_in], tf.float64)])
    formula = 1 + 3 + 2 * n_in
    print(
        f"{n_in:4}  {3:5}  {calls['function']:12}  {calls['grad']:8}"
        f"  {formula:18}"
    )
