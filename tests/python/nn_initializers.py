# jax.nn.initializers as JAX 0.11 defines them (jax/_src/nn/initializers.py
# at jax-v0.11.0). No JAX runs here, so what is printed is justified so:
# - zeros, ones and constant: the outputs JAX's own docstring examples print
#   (the only ones of the module not marked +SKIP);
# - every variance-scaling initializer is JAX's formula over jax.random with
#   the same key, compared bitwise ("True") with that formula written out
#   here, the fans worked out by hand in the comments (JAX's _compute_fans:
#   fan_in = in_size * receptive field, fan_out = out_size * receptive field,
#   the receptive field the product of the other axes but batch_axis);
# - sample statistics against the formulas' variances, rounded to 1 decimal
#   with at least 10 standard errors of margin (60000 draws: the standard
#   error of a variance ratio is sqrt((2 + excess kurtosis) / n) < 0.006);
# - JAX's errors and messages, shapes and dtypes;
# - orthogonal and delta_orthogonal: their matrices' columns (rows when
#   wider than tall) orthonormal to float32 rounding, times `scale`, and
#   JAX's recipe (jax.random.orthogonal: the QR of a normal matrix, its
#   columns signed by r's diagonal) written out here, bitwise; an empty shape
#   is zeros, as JAX's.
import inspect

import jax
import jax.nn.initializers
import jax.numpy as jnp
from jax.nn import initializers

# The three import forms reach one module.
print("module", initializers is jax.nn.initializers, jax.nn.initializers.glorot_normal is initializers.glorot_normal)

# JAX's docstring examples.
print(repr(jax.nn.initializers.zeros(jax.random.key(42), (2, 3), jnp.float32)))
print(repr(jax.nn.initializers.ones(jax.random.key(42), (3, 2), jnp.float32)))
initializer = jax.nn.initializers.constant(-7)
print(repr(initializer(jax.random.key(42), (2, 3), jnp.float32)))

# Signatures: the builders' and the initializer's (dtype defaults to the builder's, None: float32).
print(inspect.signature(initializers.glorot_normal))
print(inspect.signature(initializers.variance_scaling))
print(inspect.signature(initializers.glorot_normal()))
print(inspect.signature(initializers.zeros))
print("protocol", isinstance(initializers.he_uniform(), initializers.Initializer))

k = jax.random.key(0)


def same(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and bool(jnp.all(a == b))


TRUNC = 0.87962566103423978  # the stddev of a standard normal truncated to (-2, 2), which JAX divides out

# A dense layer (64, 32): in_axis -2, out_axis -1, no receptive field: fan_in 64, fan_out 32, fan_avg 48.
shape = (64, 32)
tn = jax.random.truncated_normal(k, -2, 2, shape, jnp.float32)
un = jax.random.uniform(k, shape, jnp.float32, -1)
nm = jax.random.normal(k, shape, jnp.float32)


def tn_scaled(variance):
    return tn * (jnp.sqrt(jnp.array(variance, jnp.float32)) / jnp.array(TRUNC, jnp.float32))


def un_scaled(variance):
    return un * jnp.sqrt(3 * jnp.array(variance, jnp.float32))


print("glorot_normal", same(initializers.glorot_normal()(k, shape), tn_scaled(1.0 / 48)))
print("glorot_uniform", same(initializers.glorot_uniform()(k, shape), un_scaled(1.0 / 48)))
print("lecun_normal", same(initializers.lecun_normal()(k, shape), tn_scaled(1.0 / 64)))
print("lecun_uniform", same(initializers.lecun_uniform()(k, shape), un_scaled(1.0 / 64)))
print("he_normal", same(initializers.he_normal()(k, shape), tn_scaled(2.0 / 64)))
print("he_uniform", same(initializers.he_uniform()(k, shape), un_scaled(2.0 / 64)))
print("aliases", initializers.xavier_normal is initializers.glorot_normal, initializers.xavier_uniform is initializers.glorot_uniform,
      initializers.kaiming_normal is initializers.he_normal, initializers.kaiming_uniform is initializers.he_uniform)
# variance_scaling's other modes and its normal distribution: fan_out 32; fan_geo_avg sqrt(64 * 32).
print("fan_out normal", same(initializers.variance_scaling(3.0, "fan_out", "normal")(k, shape), nm * jnp.sqrt(jnp.array(3.0 / 32, jnp.float32))))
print("fan_geo_avg normal", same(initializers.variance_scaling(1.0, "fan_geo_avg", "normal")(k, shape),
                                 nm * jnp.sqrt(jnp.array(1.0 / (64.0 * 32.0) ** 0.5, jnp.float32))))
# A shape given as a list is canonicalized as JAX's core.canonicalize_shape does.
print("list shape", same(initializers.glorot_normal()(k, [64, 32]), tn_scaled(1.0 / 48)))

# A convolution kernel (3, 3, 16, 32), HWIO: receptive field 9, fan_in 16 * 9 = 144, fan_out 32 * 9 = 288.
conv = (3, 3, 16, 32)
print("conv he_normal", same(initializers.he_normal()(k, conv),
                             jax.random.truncated_normal(k, -2, 2, conv) * (jnp.sqrt(jnp.array(2.0 / 144, jnp.float32)) / jnp.array(TRUNC, jnp.float32))))
print("conv glorot_uniform", same(initializers.glorot_uniform()(k, conv),
                                  jax.random.uniform(k, conv, jnp.float32, -1) * jnp.sqrt(3 * jnp.array(1.0 / 216, jnp.float32))))
# batch_axis=0 of (4, 10, 20): in 10, out 20, batch 4, receptive field 800 / 10 / 20 / 4 = 1: fan_in 10.
print("batch_axis", same(initializers.lecun_normal(batch_axis=0)(k, (4, 10, 20)),
                         jax.random.truncated_normal(k, -2, 2, (4, 10, 20)) * (jnp.sqrt(jnp.array(1.0 / 10, jnp.float32)) / jnp.array(TRUNC, jnp.float32))))
# Axes as tuples: (2, 3, 4, 5) with in_axis (0, 1), out_axis (2, 3): fan_in 6, fan_out 20, fan_avg 13.
print("axis tuples", same(initializers.glorot_uniform(in_axis=(0, 1), out_axis=(2, 3))(k, (2, 3, 4, 5)),
                          jax.random.uniform(k, (2, 3, 4, 5), jnp.float32, -1) * jnp.sqrt(3 * jnp.array(1.0 / 13, jnp.float32))))

# The plain builders: uniform(scale) is uniform * scale in [0, scale); normal(stddev); truncated_normal(stddev, lower, upper).
print("uniform", same(initializers.uniform(10.0)(k, (5, 4)), jax.random.uniform(k, (5, 4)) * jnp.array(10.0, jnp.float32)))
print("normal", same(initializers.normal(5.0)(k, (5, 4)), jax.random.normal(k, (5, 4)) * jnp.array(5.0, jnp.float32)))
print("truncated_normal", same(initializers.truncated_normal(0.5, lower=-1.0, upper=3.0)(k, (5, 4)),
                               jax.random.truncated_normal(k, -1.0, 3.0, (5, 4)) * jnp.array(0.5, jnp.float32)))
print("default scale", same(initializers.normal()(k, (3,)), jax.random.normal(k, (3,)) * jnp.array(1e-2, jnp.float32)))

# Statistics over 60000 weights of a (300, 200) layer: fan_in 300, fan_out 200, fan_avg 250.
big = (300, 200)
for name, init, variance in [
    ("glorot_uniform", initializers.glorot_uniform(), 1 / 250),
    ("glorot_normal", initializers.glorot_normal(), 1 / 250),
    ("he_normal", initializers.he_normal(), 2 / 300),
    ("lecun_uniform", initializers.lecun_uniform(), 1 / 300),
    ("normal fan_out", initializers.variance_scaling(0.5, "fan_out", "normal"), 0.5 / 200),
]:
    w = init(jax.random.key(7), big)
    print(name, w.shape, w.dtype, "variance / formula", round(float(jnp.var(w)) / variance, 1), "mean ~ 0", abs(float(jnp.mean(w))) < 0.05 * variance ** 0.5)
# Bounds: uniform within sqrt(3 variance); truncated normal within 2 stddevs (stddev = sqrt(variance) / TRUNC).
w = initializers.glorot_uniform()(k, big)
print("uniform bound", float(jnp.max(jnp.abs(w))) <= (3 / 250) ** 0.5)
w = initializers.he_normal()(k, big)
print("truncation", float(jnp.max(jnp.abs(w))) <= 2 * (2 / 300) ** 0.5 / TRUNC)

# dtypes: the default is float32, the builder's dtype is the initializer's default, the call's wins.
print(initializers.zeros(k, (2,)).dtype, initializers.zeros(k, (2,), jnp.int32).dtype, initializers.constant(3, dtype=jnp.int32)(k, (2,)))
print(initializers.glorot_normal(dtype=jnp.float32)(k, (2, 2)).dtype)
# jit gives the eager weights.
print("jit", same(jax.jit(lambda key: initializers.he_uniform()(key, (8, 8)))(k), initializers.he_uniform()(k, (8, 8))))


def error(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ":", e)


# JAX's errors.
error(lambda: initializers.lecun_normal()(k, (5,)))
error(lambda: initializers.variance_scaling(1.0, "fan_max", "normal")(k, (2, 2)))
error(lambda: initializers.variance_scaling(1.0, "fan_in", "cauchy")(k, (2, 2)))
error(lambda: initializers.orthogonal()(k, (3,)))
error(lambda: initializers.delta_orthogonal()(k, (3, 3)))
error(lambda: initializers.delta_orthogonal()(k, (3, 4, 2)))
# An empty shape needs no QR: zeros, as JAX returns.
print(initializers.orthogonal()(k, (0, 3)).shape, initializers.delta_orthogonal()(k, (3, 0, 0)).shape)
# Orthonormal columns (rows when n < m), scaled; along column_axis 0 the transpose's.
def orthonormal(q):
    small = q if q.shape[0] >= q.shape[1] else q.T
    return bool(jnp.allclose(small.T @ small, jnp.eye(small.shape[1]), atol=1e-5))


w = initializers.orthogonal()(k, (5, 3))
print("orthogonal", w.shape, w.dtype, orthonormal(w), orthonormal(initializers.orthogonal()(k, (3, 5))))
print("scaled", orthonormal(initializers.orthogonal(scale=2.0)(k, (4, 4)) / 2.0))
print("column_axis 0", orthonormal(initializers.orthogonal(column_axis=0)(k, (3, 6)).T))
z = jax.random.normal(k, (5, 3))
q, r = jnp.linalg.qr(z)
print("recipe", bool((w == q * jnp.sign(jnp.diagonal(r))[None, :]).all()))
d = initializers.delta_orthogonal()(k, (3, 3, 2, 4))
print("delta", d.shape, orthonormal(d[1, 1]), bool((d[0] == 0).all()), bool((d[2] == 0).all()))
