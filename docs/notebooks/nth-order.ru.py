# %% [markdown]
# # Производная n-го порядка с любым из декораторов: ноутбук для запуска <a id="nth-order"></a>
#
# Практическое дополнение к главе «Производная n-го порядка в общем случае»
# (https://custom-gradients-faq.github.io/custom-gradients-faq/ru/nth-order/).
# Запускайте ячейки сверху вниз: каждая печатает таблицу и сравнивает её с аналитической формулой.
#
# Тестовая функция — синус: его производные повторяются, и их легко проверить, sin⁽ⁿ⁾(x) = sin(x + n·π/2). Общий
# способ всегда один: **на каждый порядок — ещё одно вложенное вычисление градиента**, а каждый градиент,
# который вы пишете сами, должен состоять из дифференцируемых операций TensorFlow (или сам быть функцией
# с пользовательским градиентом), чтобы следующий уровень мог продифференцировать его ещё раз.

# %% [markdown]
# ## Вложенные ленты: одна функция на любой порядок <a id="nested-tapes"></a>
#
# `nth_derivative(f, x, n)` открывает по одной `GradientTape` на каждый порядок, каждую внутри следующей: n-я лента
# дифференцирует то, что вычислила (n−1)-я. Это одинаково работает в eager-режиме и в `tf.function`.

# %%
import math

import numpy as np
import tensorflow as tf


def nth_derivative(f, x, n):
    """The n-th derivative of f at x: n GradientTapes, each one inside the next."""
    if n == 0:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = nth_derivative(f, x, n - 1)  # inner tapes run while this one records
    return tape.gradient(y, x)


def table(f, orders=range(1, 7)):
    x = tf.constant(0.5, tf.float64)
    graph = tf.function(lambda v: [nth_derivative(f, v, n) for n in orders])(x)
    print("order | eager     | tf.function | closed form")
    for n, in_graph in zip(orders, graph):
        exact = math.sin(0.5 + n * math.pi / 2)
        eager = nth_derivative(f, x, n).numpy()
        print(f"{n:5} | {eager:+.6f} | {in_graph.numpy():+.6f}   | {exact:+.6f}")


table(tf.sin)

# %% [markdown]
# ## `tf.custom_gradient`: пользовательский градиент на каждом порядке <a id="custom-gradient-every-order"></a>
#
# `make_sin(k)` — это k-я производная синуса, а её `grad` вызывает `make_sin(k + 1)`: получается функция
# с пользовательским градиентом, градиент которой — снова функция с пользовательским градиентом. Каждый порядок
# задаёте вы, а вложенные ленты подхватывают их один за другим. (Если ваш `grad` первого порядка состоит
# из обычных операций TF, это не нужно: ленты продифференцируют его сами.)

# %%
def make_sin(k):
    """sin^(k)(x) = sin(x + k*pi/2), with a custom gradient that is sin^(k+1)."""

    @tf.custom_gradient
    def sin_k(x):
        def grad(dy):
            # the next order: again a custom-gradient function
            return dy * make_sin(k + 1)(x)

        return tf.sin(x + k * math.pi / 2), grad

    return sin_k


table(make_sin(0))

# %% [markdown]
# ## `tf.RegisterGradient`: градиент для операции, внутрь которой TensorFlow заглянуть не может <a id="register-gradient"></a>
#
# `tf.numpy_function(np.sin, ...)` — операция типа `PyFunc`: градиента у неё в TensorFlow нет, как и у
# пользовательской операции на C++. Регистрируем градиент под новым именем и подменяем им `PyFunc`.
# Зарегистрированный градиент состоит из операций TF (`tf.cos`), поэтому его можно дифференцировать дальше: каждый
# порядок — это ещё один вызов `tf.gradients` внутри `tf.function`.

# %%
def numpy_sin_grad(op, dy):
    return dy * tf.cos(op.inputs[0])  # TF ops: differentiable again


try:
    tf.RegisterGradient("NotebookNumpySinGrad")(numpy_sin_grad)
except KeyError:
    pass  # this cell ran before: the name is taken for the life of the kernel


def numpy_sin(x):
    graph = tf.compat.v1.get_default_graph()
    with graph.gradient_override_map({"PyFunc": "NotebookNumpySinGrad"}):
        return tf.numpy_function(np.sin, [x], tf.float64)


@tf.function
def orders_0_to_6(x):
    derivatives = [numpy_sin(x)]
    for _ in range(6):
        # differentiate the last gradient once more
        derivatives.append(tf.gradients(derivatives[-1], x)[0])
    return derivatives


values = orders_0_to_6(tf.constant(0.5, tf.float64))
print("order | tf.gradients in tf.function | closed form")
for n in range(1, 7):
    exact = math.sin(0.5 + n * math.pi / 2)
    print(f"{n:5} | {values[n].numpy():+.6f}                   | {exact:+.6f}")

# %% [markdown]
# ## То же вложенными лентами, снаружи `tf.function` <a id="register-gradient-tapes"></a>
#
# Подмену видит только обратный проход по графу: `tf.gradients` или лента снаружи той `tf.function`, в которой
# строится операция; лента в eager-режиме и лента внутри `tf.function` её игнорируют (где именно, показано в главе:
# https://custom-gradients-faq.github.io/custom-gradients-faq/ru/registergradient-vs-custom-gradient/#where-override-applies).
# Поэтому `nth_derivative` работает и здесь, в eager-режиме, если обернуть `numpy_sin` в `tf.function`.

# %%
numpy_sin_function = tf.function(numpy_sin)  # the override is set inside this function's graph
x = tf.constant(0.5, tf.float64)
print("order | nested tapes outside tf.function | closed form")
for n in range(1, 7):
    exact = math.sin(0.5 + n * math.pi / 2)
    print(f"{n:5} | {nth_derivative(numpy_sin_function, x, n).numpy():+.6f}                        | {exact:+.6f}")

# %% [markdown]
# ## Каждый порядок — граф побольше <a id="cost"></a>
#
# Каждый уровень дифференцирует всё вычисление предыдущего, поэтому работа растёт с порядком. Это видно, если
# посчитать операции, которые строит `tf.function` для порядков с 1-го по 5-й у небольшой функции (точные числа
# зависят от версии TensorFlow, важен рост).

# %%
def f(x):
    return tf.sin(x) * tf.exp(x)


counts = []
for n in range(1, 6):
    traced = tf.function(lambda v, n=n: nth_derivative(f, v, n)).get_concrete_function(
        tf.TensorSpec([], tf.float64))
    counts.append(len(traced.graph.get_operations()))
print("ops in the graph, orders 1..5:", counts)
print("grows with the order:", all(a < b for a, b in zip(counts, counts[1:])))

# %% [markdown]
# ## Рецепт <a id="recipe"></a>
#
# 1. Напишите функцию; если TensorFlow может продифференцировать её целиком, вложенные ленты дадут любой порядок.
# 2. Если добавляете свой градиент (`tf.custom_gradient` или `tf.RegisterGradient` для типа операции), стройте его
#    из дифференцируемых операций TF — тогда старшие порядки получатся сами.
# 3. Если градиент должен быть непрозрачным (слитое ядро), дайте ему собственный пользовательский градиент,
#    по уровню на порядок, как это делает `make_sin(k)`.
# 4. Проверяйте каждый порядок по аналитической формуле или с помощью `tf.test.compute_gradient` в `float64`.
