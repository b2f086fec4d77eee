# %% [markdown]
# # Откуда берётся `dy`: ноутбук для запуска <a id="where-dy-comes-from"></a>
#
# Это практическое дополнение к главе «Откуда берётся `dy`?»
# (https://custom-gradients-faq.github.io/custom-gradients-faq/ru/where-dy-comes-from/).
# Запускайте ячейки сверху вниз: каждая печатает то, что вычисляет, так что видно, когда вызывается `grad(dy)`
# и какой `dy` он получает.
#
# Что проверяем: `dy` — это градиент по выходу (upstream gradient) dL/dy, то есть производная **цели** L (того, что передаётся в `tape.gradient`)
# по выходу y вашей функции. После прямого прохода его ещё нет: лента вычисляет его во время обратного прохода
# и передаёт в ваш `grad`.
#
# Нынешняя страница API `tf.custom_gradient` (TensorFlow 2.6 и новее) называет тот же аргумент `upstream` и
# для своего примера пишет `upstream = dy/dy = 1.0`; в этом ноутбуке у него старое имя — `dy`.

# %% [markdown]
# ## Функция с двумя `print` <a id="the-function"></a>
#
# Это `log1pexp` со страницы API `tf.custom_gradient` с двумя добавленными `print`: один в функции прямого прохода,
# другой в `grad`. При `x = 0` числа легко проверить в уме: y = log 2 = 0.6931, а локальная производная
# равна σ(0) = 0.5.

# %%
import numpy as np
import tensorflow as tf


def fmt(t):
    """A tensor as numbers rounded to 4 decimals, for printing."""
    four_decimals = {"float_kind": lambda v: f"{v:.4f}"}
    return np.array2string(np.asarray(t), formatter=four_decimals)


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)
    y = tf.math.log(1 + e)
    print(f"  forward pass: y = {fmt(y)}; grad is stored, not called")

    def grad(dy):
        local = 1 - 1 / (1 + e)  # dy/dx = sigmoid(x)
        print(f"  grad called with dy = {fmt(dy)}, "
              f"returns dy * {fmt(local)} = {fmt(dy * local)}")
        return dy * local

    return y, grad


x = tf.constant(0.0)
print("x =", fmt(x))

# %% [markdown]
# ## Цель — сам выход: `dy = 1` <a id="output-is-the-target"></a>
#
# Сначала выполняется прямой проход и печатает свою строку; `grad` печатает только тогда, когда вызывается
# `tape.gradient`. Лента начинает с цели, где dL/dL = 1; здесь цель — сам y, поэтому `dy = 1`.

# %%
print("1. inside the tape:")
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print("2. tape.gradient(y, x):")
print("dL/dx =", fmt(tape.gradient(y, x)))

# %% [markdown]
# ## `L = 3·y`: `dy = 3` <a id="l-equals-3y"></a>
#
# Теперь цель L = 3y. Прежде чем дойти до `log1pexp`, лента проходит назад через умножение на 3 и приходит
# с dL/dy = 3.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    L = 3.0 * log1pexp(x)
print("dL/dx =", fmt(tape.gradient(L, x)))

# %% [markdown]
# ## `L = y²`: `dy = 2y` <a id="l-equals-y-squared"></a>
#
# dL/dy = 2y = 2 · 0.6931 = 1.3863: `dy` зависит от значения y, полученного на прямом проходе, поэтому
# его и нельзя вычислить раньше, чем закончится прямой проход.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
    L = y * y
print("dL/dx =", fmt(tape.gradient(L, x)))

# %% [markdown]
# ## Первый `dy` можно задать самому: `output_gradients` <a id="output-gradients"></a>
#
# `tape.gradient(y, x, output_gradients=...)` подставляет вместо начальной единицы ваше значение. Если между
# целью и `x` только одна функция, это значение приходит в `grad` без изменений.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
print("dL/dx =", fmt(tape.gradient(y, x, output_gradients=tf.constant(10.0))))

# %% [markdown]
# ## Векторный выход: у `dy` та же форма, что у `y` <a id="vector-output"></a>
#
# Если на входе три числа, то у `y` три элемента, и у `dy` тоже: по одному dL/dy_i на элемент. Цель
# L = 1 · y_0 + 2 · y_1 + 3 · y_2 даёт `dy = [1, 2, 3]`.

# %%
xs = tf.constant([-1.0, 0.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(xs)
    L = tf.reduce_sum(tf.constant([1.0, 2.0, 3.0]) * log1pexp(xs))
print("dL/dx =", fmt(tape.gradient(L, xs)))

# %% [markdown]
# ## Один выход, два потребителя: вклады складываются <a id="two-consumers"></a>
#
# L = 3y + y² использует y дважды. Лента складывает оба вклада, 3 + 2y = 4.3863, и вызывает `grad`
# один раз — уже с суммой.

# %%
with tf.GradientTape() as tape:
    tape.watch(x)
    y = log1pexp(x)
    L = 3.0 * y + y * y
print("dL/dx =", fmt(tape.gradient(L, x)))

# %% [markdown]
# ## Что будет, если `grad` проигнорирует `dy` <a id="ignoring-dy"></a>
#
# `grad`, который возвращает только локальную производную, теряет всё, что было после y. Если цель — сам y
# (`dy = 1`), ошибку не видно; при L = 3y ответ получается в три раза меньше правильного.

# %%
@tf.custom_gradient
def log1pexp_ignores_dy(x):
    e = tf.exp(x)

    def grad(dy):
        return 1 - 1 / (1 + e)  # WRONG: forgets to multiply by dy

    return tf.math.log(1 + e), grad


for name, f in [("multiplies by dy", log1pexp),
                ("ignores dy", log1pexp_ignores_dy)]:
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = 3.0 * f(x)
    print(f"{name:17} -> dL/dx for L = 3y: {fmt(tape.gradient(L, x))}")
print("expected 3 * sigmoid(0) =", fmt(3 * tf.sigmoid(x)))

# %% [markdown]
# ## Попробуйте сами <a id="try-it"></a>
#
# - Поменяйте `x` на `tf.constant(2.0)` и, прежде чем перезапускать ячейки, предскажите каждый `dy`.
# - Соедините две функции в цепочку: `L = log1pexp(log1pexp(x))`. Какой `dy` получит внутренний вызов? (Это
#   локальная производная внешнего.)
# - Перенесите ленту из ячейки в функцию с декоратором `@tf.function`: `print` внутри `grad` сработает один раз,
#   во время трассировки, а значения останутся прежними.
