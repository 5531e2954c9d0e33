# jax.checkpoint / jax.remat as JAX 0.11 (jax/_src/ad_checkpoint.py): the
# printed program (a remat2 equation, as the docs' autodiff_remat notebook
# prints it), gradients equal to those without it (cos and products worked
# out by hand: d/dx sin(sin(x)) = cos(sin(x)) cos(x)), policies by JAX's
# names, the decorator forms, static_argnums, and the backward pass
# recomputing under policy None (the sines counted in the gradient's program).
import functools
import math

import jax
import jax.numpy as jnp


def g(x):
    return jnp.sin(jnp.sin(x))


print(jax.make_jaxpr(jax.checkpoint(g))(1.0))
d = jax.grad(jax.checkpoint(g))(0.5)
print(bool(abs(d - math.cos(math.sin(0.5)) * math.cos(0.5)) < 1e-6), d == jax.grad(g)(0.5))
print(jax.remat is jax.checkpoint)

for policy in [None, jax.checkpoint_policies.nothing_saveable, jax.checkpoint_policies.dots_saveable,
               jax.checkpoint_policies.everything_saveable, jax.checkpoint_policies.checkpoint_dots]:
    f = jax.checkpoint(lambda w, x: jnp.sum(jnp.tanh(x @ w)), policy=policy)
    w = jnp.ones((3, 2)) / 4
    x = jnp.arange(6.0).reshape(2, 3) / 6
    print(getattr(policy, "__name__", None), bool(jnp.allclose(jax.grad(f)(w, x), jax.grad(lambda w, x: jnp.sum(jnp.tanh(x @ w)))(w, x))))

text = str(jax.make_jaxpr(jax.grad(jax.checkpoint(g)))(1.0))
print("sines in the gradient", text.count("= sin "), "differentiated=True" in text)


@functools.partial(jax.checkpoint, static_argnums=(1,))
def scaled(x, k):
    return jnp.sin(x) * k


print(jax.grad(scaled)(0.0, 3))
# Outside a trace it is the function itself, Python scalars included.
print(jax.checkpoint(lambda x: x * 3)(2.0), jax.checkpoint(lambda x: x[0] + x[1])([1.0, 2.0]))

try:
    jax.checkpoint(g, policy=jax.checkpoint_policies.save_only_these_names("a"))
except NotImplementedError as e:
    print("NotImplementedError", e)
