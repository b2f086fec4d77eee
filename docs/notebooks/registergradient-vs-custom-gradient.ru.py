# %% [markdown]
# # `tf.RegisterGradient` или `tf.custom_gradient`: ноутбук для запуска <a id="registergradient-vs-custom-gradient"></a>
#
# Практическое дополнение к главе «`@tf.RegisterGradient` или `@tf.custom_gradient`?»
# (https://custom-gradients-faq.github.io/custom-gradients-faq/ru/registergradient-vs-custom-gradient/).
# Запускайте ячейки сверху вниз: каждая печатает свой результат.
#
# Одна задача, решённая двумя способами: дать `tf.round` straight-through-оценку градиента (на обратном проходе
# округление считается тождественной функцией, то есть dL/dx = dL/dy). Функция потерь
# L = 1·round(x₀) + 2·round(x₁), поэтому straight-through-градиент равен `[1, 2]`.

# %%
import re

import tensorflow as tf

print("TensorFlow", tf.__version__)
x = tf.constant([0.2, 1.7])
w = tf.constant([1.0, 2.0])
print("x =", x.numpy(), " round(x) =", tf.round(x).numpy())

# %% [markdown]
# ## Встроенный градиент `round` <a id="built-in-gradient"></a>
#
# Функция `round` почти везде постоянна, и TensorFlow не регистрирует для неё градиента: лента возвращает `None`.
# Поэтому straight-through-оценке и нужен пользовательский градиент.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(w * tf.round(x))
print("built-in gradient of round:", tape.gradient(loss, x))

# %% [markdown]
# ## `tf.custom_gradient`: декоратор на Python-функцию <a id="custom-gradient"></a>
#
# Прямой проход и его градиент описаны вместе, в одной функции. Это одинаково работает в eager-режиме и внутри
# `tf.function`, с `GradientTape` и с `tf.gradients`.

# %%
@tf.custom_gradient
def round_ste(x):
    def grad(dy):
        return dy  # straight-through: dL/dx = dL/dy

    return tf.round(x), grad


with tf.GradientTape() as tape:
    tape.watch(x)
    loss = tf.reduce_sum(w * round_ste(x))
print("custom_gradient, eager tape      :", tape.gradient(loss, x).numpy())


@tf.function
def gradient_in_function(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(w * round_ste(x))
    return tape.gradient(loss, x)


print("custom_gradient, tf.function tape:", gradient_in_function(x).numpy())

# %% [markdown]
# ## `tf.RegisterGradient`: градиент для типа операции, выбранный по имени <a id="register-gradient"></a>
#
# `tf.RegisterGradient("Name")` кладёт функцию в реестр градиентов TensorFlow (он один на весь процесс Python)
# под **новым** именем. Само по себе это ничего не меняет: графу нужно указать, что для типа операции `Round`
# брать именно её, через `gradient_override_map({"Round": "Name"})`, а такую подмену видит только обратный
# проход по графу (`tf.gradients` или лента снаружи `tf.function`: [ниже](#where-each-applies)).
#
# Имя можно зарегистрировать в процессе только один раз, поэтому повторный запуск ячейки с регистрацией
# выбросит `KeyError`. Маленькая функция `register_once` позволяет перезапускать эту ячейку без ошибки.

# %%
def register_once(name, gradient_function):
    """tf.RegisterGradient(name); a second run keeps the first registration."""
    try:
        tf.RegisterGradient(name)(gradient_function)
    except KeyError:
        pass
    return name


def straight_through(op, dy):  # one input (x), so one gradient
    return dy


register_once("NotebookStraightThroughRound", straight_through)

graph = tf.Graph()
with graph.as_default():
    gx = tf.constant([0.2, 1.7])
    gw = tf.constant([1.0, 2.0])
    with graph.gradient_override_map({"Round": "NotebookStraightThroughRound"}):
        gy = tf.round(gx)
    g_loss = tf.reduce_sum(gw * gy)
    g_grad = tf.gradients(g_loss, gx)[0]

print("op type:", gy.op.type)
print("gradient looked up as:", gy.op.get_attr("_gradient_op_type").decode())
with tf.compat.v1.Session(graph=graph) as session:
    print("RegisterGradient, tf.Graph + tf.gradients:", session.run(g_grad))

# %% [markdown]
# ## Лента в eager-режиме ту же подмену игнорирует <a id="override-ignored-eagerly"></a>
#
# В eager-режиме нет графа, к которому можно привязать подмену: лента ищет градиент `Round` по типу операции
# и берёт встроенный, а он возвращает `None` — без всякого предупреждения. Именно на это натыкаются, когда рецепт
# из TF1 (например, guided backpropagation) в TF 2 «ничего не делает».

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    eager_graph = tf.compat.v1.get_default_graph()
    with eager_graph.gradient_override_map({"Round": "NotebookStraightThroughRound"}):
        y = tf.round(x)
    loss = tf.reduce_sum(w * y)
print("RegisterGradient + override map, eager tape:", tape.gradient(loss, x))

# %% [markdown]
# ## Где работает каждый способ <a id="where-each-applies"></a>
#
# Одна и та же функция потерь, продифференцированная четырьмя способами. Каждую строку объясняет глава
# (https://custom-gradients-faq.github.io/custom-gradients-faq/ru/registergradient-vs-custom-gradient/#where-override-applies).

# %%
def round_override(x):
    graph = tf.compat.v1.get_default_graph()  # inside tf.function: the function's own graph
    with graph.gradient_override_map({"Round": "NotebookStraightThroughRound"}):
        return tf.round(x)


def eager_tape(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(w * f(x))
    return tape.gradient(loss, x)


contexts = {
    "eager tape": lambda f: eager_tape(f, x),
    "tape outside tf.function": lambda f: eager_tape(tf.function(f), x),
    "tape inside tf.function": lambda f: tf.function(lambda v: eager_tape(f, v))(x),
    "tf.gradients in tf.function": lambda f: tf.function(
        lambda v: tf.gradients(tf.reduce_sum(w * f(v)), v)[0])(x),
}


def show(gradient):
    return "ignored (None)" if gradient is None else f"applied {gradient.numpy()}"


print(f"{'context':29}| {'RegisterGradient':17}| custom_gradient")
for name, run in contexts.items():
    print(f"{name:29}| {show(run(round_override)):17}| {show(run(round_ste))}")

# %% [markdown]
# ## Классическая ошибка в ноутбуке: имя зарегистрировано дважды <a id="register-twice"></a>
#
# Повторный запуск ячейки с `@tf.RegisterGradient("Name")` выбрасывает `KeyError`: реестр хранит первую функцию,
# пока жив процесс Python. Перезапустите ядро, возьмите новое имя или оберните регистрацию, как это делает
# `register_once` выше.

# %%
try:
    tf.RegisterGradient("NotebookStraightThroughRound")(straight_through)
except KeyError as error:
    # the part after "(" names a file on this machine: keep the message itself
    message = str(error.args[0]).split("(")[0].strip()
    print("KeyError:", message)

# %% [markdown]
# ## Что выбрать <a id="which-one"></a>
#
# - В TensorFlow 2 берите `tf.custom_gradient`: он привязан к вашей Python-функции, работает в eager-режиме,
#   в `tf.function`, с лентами и с `tf.gradients`, а его `grad` видит значения прямого прохода через замыкание.
# - `tf.RegisterGradient` нужен для **типа операции**: для своей C++-операции, у которой ещё нет градиента, или для
#   графового кода (`tf.function`, графы в стиле TF1), где нужно заменить градиент всех операций одного типа.
