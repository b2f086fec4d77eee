# %% [markdown]
# # Производные второго порядка с `tf.custom_gradient`: ноутбук для запуска <a id="second-order"></a>
#
# Практическое дополнение к главе «Производные второго порядка с `tf.custom_gradient`»
# (https://custom-gradients-faq.github.io/custom-gradients-faq/ru/second-order/).
# Запускайте ячейки сверху вниз: каждая печатает результат рядом с аналитической формулой.
#
# Во всех ячейках одна функция — softplus, y = log(1 + eˣ), у которой производные легко выписать:
# y′ = σ(x) и y″ = σ(x)·(1 − σ(x)). При x = 0 это 0.5 и 0.25.

# %% [markdown]
# ## Две вложенные ленты дают вторую производную <a id="nested-tapes"></a>
#
# Внутренняя лента дифференцирует y, а внешняя записывает и это вычисление, поэтому может продифференцировать
# первую производную ещё раз.

# %%
import tensorflow as tf


def second_derivative(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)  # recorded by the outer tape
    return outer.gradient(dy_dx, x)


def show(label, values):
    if values is None:
        print(f"{label:<36}None")
    else:
        print(f"{label:<36}" + "".join(f"{v:9.4f}" for v in values.numpy()))


x = tf.constant([-2.0, 0.0, 3.0])
s = tf.sigmoid(x)
show("x", x)
show("closed form sigmoid*(1-sigmoid)", s * (1 - s))
show("nested tapes on tf.math.softplus", second_derivative(tf.math.softplus, x))

# %% [markdown]
# ## Пользовательская первая производная из операций TF: больше ничего не нужно <a id="no-custom-second-order"></a>
#
# `log1pexp` со страницы API выражает свой `grad` через обычные операции TensorFlow над `e = exp(x)`. Внешняя лента
# записывает эти операции, как любые другие, поэтому вторая производная получается сама собой.

# %%
@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))  # TF ops: the outer tape records them

    return tf.math.log(1 + e), grad


show("log1pexp, nested tapes", second_derivative(log1pexp, x))

# %% [markdown]
# ## Если первая производная непрозрачна, вторая теряется <a id="opaque-first-derivative"></a>
#
# `fused_op` из docstring — это одно ядро, которое сразу возвращает y и его производную; заглянуть внутрь
# TensorFlow не может. Мы имитируем его с помощью `tf.stop_gradient`. Теперь для ленты первая производная —
# константа, и вторая производная возвращается как `None`: вот тут вторую производную и приходится писать самим.

# %%
def fused_op(x):  # ONE opaque kernel: softplus(x) and sigmoid(x)
    y, x_grad = tf.math.softplus(x), tf.math.sigmoid(x)
    return tf.stop_gradient(y), tf.stop_gradient(x_grad)


@tf.custom_gradient
def softplus_first_order_only(x):
    y, x_grad = fused_op(x)

    def grad(dy):
        return dy * x_grad  # right first derivative, but x_grad is opaque

    return y, grad


show("first order only: 2nd derivative", second_derivative(softplus_first_order_only, x))

# %% [markdown]
# ## Схема из docstring, вариант 1: один вход, одно возвращаемое значение <a id="version-1"></a>
#
# `first_order_gradient(dy)` возвращает `dy * first_order_custom(x)`. `first_order_custom` — тоже функция
# с пользовательским градиентом: её значение на прямом проходе — первая производная `x_grad`, а её собственный
# `grad` даёт производную от `x_grad`, то есть вторую производную. Вход у неё один (`unused_x`: значение не используется,
# важна только связь с x), поэтому её `grad` возвращает одно значение.

# %%
@tf.custom_gradient
def softplus_v1(x):
    y, x_grad = fused_op(x)  # x_grad = sigmoid(x) = softplus'(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x):
            def second_order(ddy):
                return ddy * x_grad * (1 - x_grad)  # ddy * softplus''(x)

            return x_grad, second_order

        return dy * first_order_custom(x)

    return y, first_order_gradient


show("version 1, eager", second_derivative(softplus_v1, x))
show("version 1, tf.function", tf.function(lambda v: second_derivative(softplus_v1, v))(x))

# %% [markdown]
# ## Вариант 2: `dy` как вход, два возвращаемых значения <a id="version-2"></a>
#
# Такая форма у `second_order_and_transpose` из docstring. Если `dy` тоже вход внутренней функции, её `grad`
# должен вернуть два значения: производную по x (член второго порядка) и производную по `dy` («транспонированная»
# часть, здесь σ(x)). Второе значение нужно прямому режиму автоматического дифференцирования и вычислению
# якобиана через градиент; внешняя лента ниже запрашивает оба.

# %%
@tf.custom_gradient
def softplus_v2(x):
    y, x_grad = fused_op(x)

    def first_order_gradient(dy):
        @tf.custom_gradient
        def first_order_custom(unused_x, dy):
            def second_order_and_transpose(ddy):
                return ddy * dy * x_grad * (1 - x_grad), ddy * x_grad  # for x, for dy

            return dy * x_grad, second_order_and_transpose

        return first_order_custom(x, dy)

    return y, first_order_gradient


dy = tf.ones_like(x)  # the dy that tape.gradient would start with; watched too
with tf.GradientTape(persistent=True) as outer:
    outer.watch([x, dy])
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = softplus_v2(x)
    dy_dx = inner.gradient(y, x, output_gradients=dy)
show("version 2: second derivative", outer.gradient(dy_dx, x))
show("version 2: gradient w.r.t. dy", outer.gradient(dy_dx, dy))
show("closed form sigmoid", s)

# %% [markdown]
# ## Ловушка: декоратор на сам `grad` <a id="decorating-grad"></a>
#
# Хочется повесить `@tf.custom_gradient` прямо на `grad` и считать его внутреннюю функцию второй производной
# (tensorflow/tensorflow#34503). Но единственный вход `grad` — это `dy`, поэтому `grad_grad` — градиент по `dy`,
# а не по x. В eager-режиме TensorFlow его вообще не вызывает (метка 100 нигде не появляется), а в `tf.function`
# вызывает, и вторая производная становится `None`.

# %%
calls = []


@tf.custom_gradient
def sin(x):
    @tf.custom_gradient
    def grad(dy):
        def grad_grad(ddy):
            calls.append("grad_grad")
            return ddy * 100.0  # a marker

        return dy * tf.cos(x), grad_grad

    return tf.sin(x), grad


def first_and_second(v):
    with tf.GradientTape() as outer:
        outer.watch(v)
        with tf.GradientTape() as inner:
            inner.watch(v)
            y = sin(v)
        d1 = inner.gradient(y, v)
    return d1, outer.gradient(d1, v)


v = tf.constant(1.0)  # cos(1) = 0.5403, -sin(1) = -0.8415
modes = [("eager", first_and_second), ("tf.function", tf.function(first_and_second))]
for mode, run in modes:
    calls.clear()
    d1, d2 = run(v)
    d2 = "None" if d2 is None else f"{d2.numpy():.4f}"
    print(f"{mode:<12} first: {d1.numpy():.4f}  second: {d2:<8} "
          f"grad_grad called {len(calls)} time(s)")

# %% [markdown]
# ## Попробуйте сами <a id="try-it"></a>
#
# - В варианте 1 замените `x_grad * (1 - x_grad)` на неверную формулу (например, `x_grad`) и сравните с аналитической:
#   первая производная останется верной, сдвинется только вторая.
# - Проверьте любой вариант с помощью `tf.test.compute_gradient` в `float64`, как показано в главе
#   «Как проверить пользовательский градиент».
