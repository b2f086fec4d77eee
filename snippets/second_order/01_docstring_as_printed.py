"""The docstring's op_with_fused_backprop, run as printed (softplus filled in): eager and tf.function."""
import tensorflow as tf


def fused_op(x):  # stands for ONE kernel returning softplus(x) and its derivative sigmoid(x)
    return tf.stop_gradient(tf.math.softplus(x)), tf.stop_gradient(tf.math.sigmoid(x))


def second_order_for_x(x, ddy):  # ddy * softplus''(x)
    return ddy * tf.math.sigmoid(x) * (1 - tf.math.sigmoid(x))


def gradient_wrt_dy(x, ddy):  # ddy * softplus'(x)
    return ddy * tf.math.sigmoid(x)


# --8<-- [start:docstring]
@tf.custom_gradient
def op_with_fused_backprop(x):
  y, x_grad = fused_op(x)
  def first_order_gradient(dy):
    @tf.custom_gradient
    def first_order_custom(unused_x):
      def second_order_and_transpose(ddy):
        return second_order_for_x(x, ddy), gradient_wrt_dy(x, ddy)
      return x_grad, second_order_and_transpose
    return dy * first_order_custom(x)
  return y, first_order_gradient
# --8<-- [end:docstring]


def first(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = op_with_fused_backprop(x)
    return tape.gradient(y, x)  # calls first_order_gradient(dy=1.0)


def second(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        dy_dx = first(x)
    return tape.gradient(dy_dx, x)  # calls second_order_and_transpose(ddy=1.0)


def key_line(e):  # tf.function puts a traceback above the message: keep its last line
    line = str(e).strip().splitlines()[-1].strip()
    return f"{type(e).__name__}: {line.removeprefix(type(e).__name__ + ': ')}"


x = tf.constant(0.0)
for mode, wrap in [("eager", lambda f: f), ("tf.function", tf.function)]:
    print(f"{mode}: first derivative at x = 0 is {wrap(first)(x).numpy():.4f}")
    try:
        print(f"{mode}: second derivative is {wrap(second)(x).numpy():.4f}")
    except Exception as e:
        print(f"{mode}: second derivative fails with {key_line(e)}")
