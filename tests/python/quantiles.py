# jnp.quantile, nanquantile, percentile, nanpercentile, median, nanmedian and
# jax.lax.sort / sort_key_val from Python (run by tests/js/python_scripts.test.js).
# The first lines are JAX 0.11's docstring examples (jax/_src/numpy/reductions.py),
# printed as JAX prints them; the other values are worked out in the comments.
import jax
import jax.numpy as jnp

x = jnp.arange(10)
q = jnp.array([0.25, 0.5, 0.75])
print(repr(jnp.quantile(x, q)))  # docstring: Array([2.25, 4.5 , 6.75], dtype=float32)
print(repr(jnp.quantile(x, q, method='nearest')))  # docstring: Array([2., 4., 7.], dtype=float32)
w = jnp.array([1, 1, 2, 1, 1])
print(repr(jnp.quantile(jnp.array([1, 2, 3, 4, 5]), 0.5, weights=w, method='inverted_cdf')))  # Array(3., dtype=float32)
xn = jnp.array([0, 1, 2, jnp.nan, 3, 4, 5, 6])
print(repr(jnp.quantile(xn, q)), repr(jnp.nanquantile(xn, q)))  # [nan, nan, nan] and [1.5, 3., 4.5]
p = jnp.array([25, 50, 75])
print(repr(jnp.percentile(jnp.array([0, 1, 2, 3, 4, 5, 6]), p)))  # Array([1.5, 3. , 4.5], dtype=float32)
print(repr(jnp.percentile(jnp.array([0, 1, 2, 3, 4, 5, 6]), p, method='nearest')))  # Array([1., 3., 4.], dtype=float32)
m = jnp.array([[2, 4, 7, 1], [3, 5, 9, 2], [6, 1, 8, 3]])
print(repr(jnp.median(m)), repr(jnp.median(m, axis=1)))  # Array(3.5, dtype=float32) Array([3. , 4. , 4.5], dtype=float32)
print(repr(jnp.median(m, axis=1, keepdims=True)))

# Each method at q = 0.25 and 0.5 of 8 numbers, sorted 1 1 2 3 4 5 6 9: p = q * 7 = 1.75 and 3.5
# (exact in float32). linear: 1 * 0.25 + 2 * 0.75 = 1.75 and 3 * 0.5 + 4 * 0.5 = 3.5; lower x[1] = 1, x[3] = 3;
# higher x[2] = 2, x[4] = 4; nearest: hw 0.75 > 0.5 takes x[2] = 2, hw 0.5 <= 0.5 takes x[3] = 3;
# midpoint (1 + 2) / 2, (3 + 4) / 2; inverted_cdf: the number of cumulative counts 1..8 below
# q * 8 = 2 and 4 is 1 and 3: x[1] = 1, x[3] = 3.
v = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
for method in ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf"]:
    print(method, jnp.quantile(v, jnp.array([0.25, 0.5]), method=method).tolist())

# A tuple of axes: m3[i, j, k] = 12 i + 4 j + k; over (0, 2) slice j holds 4j..4j+3 and 12+4j..15+4j,
# whose median is (4j + 3 + 12 + 4j) / 2 = 7.5 + 4j.
m3 = jnp.arange(24.0).reshape(2, 3, 4)
print("axes", jnp.median(m3, axis=(0, 2)).tolist(), jnp.median(m3, axis=(2, 0), keepdims=True).shape)
# Weights along axis 1, by inverted_cdf: row 0 weighs 1 0 1, cumulative 1 1 2, target 0.5 * 2 = 1: none below, x[0].
print("weights", jnp.percentile(jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), 50, axis=1, weights=jnp.array([1.0, 0.0, 1.0]), method='inverted_cdf').tolist())
# A row of NaNs only: NaN; the other row's numbers 1 and 3: 2.
print("nanmedian", jnp.nanmedian(jnp.array([[jnp.nan, jnp.nan], [1.0, 3.0]]), axis=1).tolist())
# The median of 4 1 3 2 is (2 + 3) / 2: half the gradient to the 3 (position 2) and half to the 2 (position 3).
print("grad median", jax.grad(jnp.median)(jnp.array([4.0, 1.0, 3.0, 2.0])).tolist())
# Under jit: 10 4 7 1 sorted 1 4 7 10, p = 0.5 * 3 = 1.5 -> 4 * 0.5 + 7 * 0.5.
print("jit", jax.jit(lambda a: jnp.nanpercentile(a, 50.0))(jnp.array([10.0, 4.0, jnp.nan, 7.0, 1.0])).tolist())

# lax.sort of a tuple by two keys: (1, 0.25, 20) (1, 1.0, 40) (2, 0.125, 30) (2, 0.5, 10).
out = jax.lax.sort((jnp.array([2, 1, 2, 1]), jnp.array([0.5, 0.25, 0.125, 1.0]), jnp.array([10, 20, 30, 40])), num_keys=2)
print("sort", type(out).__name__, [o.tolist() for o in out])
print("sort one", jax.lax.sort(jnp.array([[3.0, jnp.nan, 1.0], [2.0, 0.0, 5.0]]), dimension=1).tolist())
keys, vals = jax.lax.sort_key_val(jnp.array([3, 1, 2]), jnp.array([30.0, 10.0, 20.0]))
print("sort_key_val", keys.tolist(), vals.tolist())
print(jax.make_jaxpr(lambda a, b: jax.lax.sort([a, b], 0, False, 2))(jnp.array([1.0, 2.0]), jnp.array([3, 4])))

# JAX's errors (a weighted quantile by another method: JAX's NotImplementedError).
x2 = jnp.array([[1.0, 2.0], [3.0, 4.0]])
for name, f in [
    ("int q", lambda: jnp.quantile(x2, 1)),
    ("overwrite", lambda: jnp.median(x2, overwrite_input=True)),
    ("out", lambda: jnp.nanpercentile(x2, 50, out=x2)),
    ("method", lambda: jnp.quantile(x2, 0.5, method="hazen")),
    ("q rank", lambda: jnp.quantile(x2, x2)),
    ("weights shape", lambda: jnp.quantile(x2, 0.5, axis=1, method="inverted_cdf", weights=jnp.ones(3))),
    ("axis", lambda: jnp.median(x2, axis=2)),
    ("sort empty", lambda: jax.lax.sort([])),
    ("num_keys", lambda: jax.lax.sort([x2, x2], num_keys=3)),
    ("num_keys one", lambda: jax.lax.sort(x2, num_keys=2)),
    ("shapes", lambda: jax.lax.sort_key_val(x2, jnp.ones(3))),
    ("dimension", lambda: jax.lax.sort(x2, dimension=-3)),
]:
    try:
        f()
    except (TypeError, ValueError) as e:
        print(name, type(e).__name__, e)
try:
    jnp.quantile(x2, 0.5, weights=x2)
except NotImplementedError as e:
    print("weights method", type(e).__name__, e)
