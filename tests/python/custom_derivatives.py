# custom_jvp, custom_vjp and stop_gradient from Python, JAX's documented
# examples first (tests/js/python_scripts.test.js runs it with `shardlab run`
# and compares its output with custom_derivatives.expected; the values are
# worked out in the comments). The rules differ from the functions' own
# derivatives where a test could otherwise pass without them.
from functools import partial

import jax
import jax.numpy as jnp


def show(name, x):
    print(name, [round(v, 4) for v in jnp.reshape(x, (-1,)).tolist()])


# JAX's tutorial: log(1 + e^x) is nan to differentiate at 100 in float32; the stable rule gives 1.
@jax.custom_jvp
def log1pexp(x):
    return jnp.log(1.0 + jnp.exp(x))


@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    return log1pexp(x), x_dot * (1.0 - 1.0 / (1.0 + jnp.exp(x)))


print("log1pexp grad at 100", float(jax.grad(log1pexp)(100.0)))
plain = jax.grad(lambda x: jnp.log(1.0 + jnp.exp(x)))(100.0)
print("plain grad at 100 is nan", bool(plain != plain))


# defjvps with a rule that is not f's derivative: f = x^3, rule 5 x^2 t; hessian = 10 x = 20 at 2.
@jax.custom_jvp
def cube(x):
    return x * x * x


cube.defjvps(lambda t, ans, x: 5.0 * x * x * t)
print("cube grad, hessian at 2", float(jax.grad(cube)(2.0)), float(jax.hessian(cube)(2.0)))


# JAX's tutorial: gradient clipping with nondiff_argnums.
@partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def clip_gradient(lo, hi, x):
    return x


def clip_gradient_fwd(lo, hi, x):
    return x, None


def clip_gradient_bwd(lo, hi, _, g):
    return (jnp.clip(g, lo, hi),)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
# d/dx sum(clip(3 x)): the cotangent 1 clipped to 0.5, times 3.
show("clip_gradient grad", jax.grad(lambda x: jnp.sum(clip_gradient(-0.5, 0.5, 3.0 * x)))(jnp.array([1.0, 2.0])))


# A straight-through estimator: round forward, identity backward; d/dx sum(ste(x) * x) = x + round(x).
@jax.custom_vjp
def ste(x):
    return jnp.round(x)


ste.defvjp(lambda x: (ste(x), None), lambda _, g: (g,))
show("straight-through grad", jax.grad(lambda x: jnp.sum(ste(x) * x))(jnp.array([0.4, 1.6])))


# Residuals as a dict; vmap of grad gives per-example cotangents (7 times the true ones, from bwd).
@jax.custom_vjp
def dot(x, w):
    return jnp.sum(x * w)


def dot_fwd(x, w):
    return dot(x, w), {"x": x, "w": w}


def dot_bwd(res, g):
    return 7.0 * g * res["w"], 7.0 * g * res["x"]


dot.defvjp(dot_fwd, dot_bwd)
xs = jnp.array([[1.0, 2.0], [3.0, 4.0]])
w = jnp.array([0.5, -1.0])
dx, dw = jax.vmap(jax.grad(dot, argnums=(0, 1)), in_axes=(0, None))(xs, w)
show("vmap(grad) dx", dx)  # 7 w per row: 3.5, -7
show("vmap(grad) dw", dw)  # 7 x per row
try:
    jax.jvp(dot, (w, w), (w, w))
except TypeError as e:
    print("jvp of custom_vjp:", e)

# stop_gradient: d/dx sum(x * stop_gradient(x)) = x.
show("stop_gradient grad", jax.grad(lambda x: jnp.sum(x * jax.lax.stop_gradient(x)))(jnp.array([1.0, -2.0])))
# relu's derivative at 0 is 0 in JAX.
show("relu grad", jax.grad(lambda x: jnp.sum(jax.nn.relu(x)))(jnp.array([-1.0, 0.0, 2.0])))
# As JAX prints it: the call of the function's program, the rule by name.
print(jax.make_jaxpr(log1pexp)(1.0))

# Which Python functions run where (JAX's "Custom derivative rules" notebook):
# under grad, jvp and vjp JAX's JVP trace calls the rule (custom_vjp's fwd) and
# never the function; under jit the function is traced first and the rule
# when the derivative is taken; bwd runs when the pullback does.
@jax.custom_jvp
def loud_sin(x):
    print("  called loud_sin")
    return jnp.sin(x)


@loud_sin.defjvp
def loud_sin_jvp(primals, tangents):
    print("  called loud_sin_jvp")
    (x,), (t,) = primals, tangents
    return loud_sin(x), jnp.cos(x) * t


print("jvp:")
jax.jvp(loud_sin, (3.0,), (1.0,))
print("grad of grad:")
print(round(float(jax.grad(jax.grad(loud_sin))(3.0)), 5))  # -sin(3)
print("grad of jit:")
jax.grad(jax.jit(loud_sin))(2.0)


@jax.custom_vjp
def loud_cos(x):
    print("  called loud_cos")
    return jnp.cos(x)


def loud_cos_fwd(x):
    print("  called loud_cos_fwd")
    return loud_cos(x), jnp.sin(x)


def loud_cos_bwd(sin_x, g):
    print("  called loud_cos_bwd")
    return (-sin_x * g,)


loud_cos.defvjp(loud_cos_fwd, loud_cos_bwd)
print("vjp:")
y, pullback = jax.vjp(loud_cos, 1.0)
print("pullback:")
print(round(float(pullback(2.0)[0]), 5))  # -2 sin(1) = -1.68294
print("pullback again:")
print(round(float(pullback(1.0)[0]), 5))  # -sin(1)
print("jvp of custom_vjp:")
try:
    jax.jvp(loud_cos, (3.0,), (1.0,))
except TypeError as e:
    print("  TypeError:", e)

# A rule's primal outputs may not read the tangents.
@jax.custom_jvp
def bad_rule(x):
    return x


bad_rule.defjvp(lambda p, t: (p[0] + t[0], t[0]))
try:
    jax.grad(bad_rule)(1.0)
except ValueError as e:
    print("ValueError:", e)

# A custom_vjp under jit under grad: the jit's derivative keeps the custom
# linear map for the transpose (d/dx 2x·x by the rule: 2x + 2x = 4x).
@jax.custom_vjp
def twice(x):
    return 2.0 * x


twice.defvjp(lambda x: (twice(x), None), lambda _, g: (2.0 * g,))
show("grad of jit(custom_vjp)", jax.grad(lambda x: jax.jit(lambda x: twice(x) * x)(x).sum())(jnp.arange(4.0)))
# A bwd rule may return a numpy constant (JAX's test_backward_pass_ref_dropping).
import numpy as np

twice.defvjp(lambda x: (twice(x), None), lambda _, g: (np.zeros(()),))
print("constant cotangent", float(jax.grad(lambda x: twice(twice(x)))(1.0)))
twice.defvjp(lambda x: (twice(x), None), lambda _, g: (np.arange(3.0),))
try:
    jax.grad(lambda x: twice(x).sum())(jnp.ones(3))
except ValueError as e:
    print("ValueError:", e)
