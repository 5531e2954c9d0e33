# jax.nn's activations, one_hot, logsumexp (also jax.scipy.special's) and
# standardize, jnp.var / std with ddof, count_nonzero, roll, split and
# array_split from Python (run by tests/js/python_scripts.test.js; values
# worked out by hand or, rounded to 5 places, from Python's math module:
# silu(-1) = -1 / (1 + e), softplus(0) = ln 2, elu(-1) = 1/e - 1,
# logsumexp([1, 2, 3]) = 3 + ln(1 + e^-1 + e^-2), standardize([1, 2, 3]) = ±sqrt(1.5)).
import jax
import jax.numpy as jnp
import jax.scipy.special
from jax import nn


def show(name, x):
    print(name, [round(v, 5) for v in jnp.reshape(x, (-1,)).tolist()])


x = jnp.array([-1.0, 0.0, 2.0])
show("silu", nn.silu(x))
show("swish", nn.swish(x))
show("softplus", nn.softplus(x))
show("elu", nn.elu(x))
show("leaky_relu", nn.leaky_relu(x, negative_slope=0.1))
print("one_hot", nn.one_hot(jnp.array([0, 2, 5]), 3).tolist())
show("logsumexp", jnp.stack([nn.logsumexp(jnp.array([1.0, 2.0, 3.0])), jax.scipy.special.logsumexp(jnp.array([1.0, 2.0, 3.0]))]))
show("logsumexp axis", nn.logsumexp(jnp.array([[0.0, 0.0], [1.0, 1000.0]]), axis=1))
show("standardize", nn.standardize(jnp.array([1.0, 2.0, 3.0])))
m = jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
show("var", jnp.stack([jnp.var(m), jnp.var(m, ddof=1)]))
show("std axis", jnp.std(m, axis=1, ddof=1))
print("count_nonzero", int(jnp.count_nonzero(jnp.array([[0, 1], [2, 0]]))), jnp.count_nonzero(jnp.array([[0, 1], [2, 3]]), axis=0).tolist())
print("roll", jnp.roll(jnp.array([1, 2, 3, 4, 5]), 2).tolist(), jnp.roll(jnp.array([[1, 2, 3], [4, 5, 6]]), -1, axis=1).tolist())
print("split", [p.tolist() for p in jnp.split(jnp.arange(6), 3)], [p.tolist() for p in jnp.split(jnp.arange(6), [1, 4])])
print("array_split", [p.tolist() for p in jnp.array_split(jnp.arange(5), 3)])
print("grad logsumexp", [round(v, 5) for v in jax.grad(nn.logsumexp)(jnp.array([0.0, 1.0986123])).tolist()])
