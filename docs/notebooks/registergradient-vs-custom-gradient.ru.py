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

# %% [markdown]
# ## Встроенный градиент `round` <a id="built-in-gradient"></a>
#
# Функция `round` почти везде постоянна, и градиент, который TensorFlow регистрирует для `Round`, возвращает
# `None`, поэтому лента тоже возвращает `None`.
# Поэтому straight-through-оценке и нужен пользовательский градиент.

# %%

# %% [markdown]
# ## `tf.custom_gradient`: декоратор на Python-функцию <a id="custom-gradient"></a>
#
# Прямой проход и его градиент описаны вместе, в одной функции. Это одинаково работает в eager-режиме и внутри
# `tf.function`, с `GradientTape` и с `tf.gradients`.

# %%

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

# %% [markdown]
# ## Лента в eager-режиме ту же подмену игнорирует <a id="override-ignored-eagerly"></a>
#
# В eager-режиме нет графа, к которому можно привязать подмену: лента ищет градиент `Round` по типу операции
# и берёт встроенный, а он возвращает `None` — без всякого предупреждения. Именно на это натыкаются, когда рецепт
# из TF1 (например, guided backpropagation) в TF 2 «ничего не делает».

# %%

# %% [markdown]
# ## Где работает каждый способ <a id="where-each-applies"></a>
#
# Одна и та же функция потерь, продифференцированная четырьмя способами. Каждую строку объясняет глава
# (https://custom-gradients-faq.github.io/custom-gradients-faq/ru/registergradient-vs-custom-gradient/#where-override-applies).

# %%

# %% [markdown]
# ## Классическая ошибка в ноутбуке: имя зарегистрировано дважды <a id="register-twice"></a>
#
# Повторный запуск ячейки с `@tf.RegisterGradient("Name")` выбрасывает `KeyError`: реестр хранит первую функцию,
# пока жив процесс Python. Перезапустите ядро, возьмите новое имя или оберните регистрацию, как это делает
# `register_once` выше.

# %%

# %% [markdown]
# ## Что выбрать <a id="which-one"></a>
#
# - В TensorFlow 2 берите `tf.custom_gradient`: он привязан к вашей Python-функции, работает в eager-режиме,
#   в `tf.function`, с лентами и с `tf.gradients`, а его `grad` видит значения прямого прохода через замыкание.
# - `tf.RegisterGradient` нужен для **типа операции**: для своей C++-операции, у которой ещё нет градиента, или для
#   графового кода (`tf.function`, графы в стиле TF1), где нужно заменить градиент всех операций одного типа.
