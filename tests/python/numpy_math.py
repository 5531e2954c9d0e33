# jax.numpy's trigonometric, hyperbolic and exponential functions from Python
# (tests/js/python_scripts.test.js runs it with `shardlab run` and compares
# its output with numpy_math.expected: Python's float64 math module, rounded
# to 5 places, which float32 results agree with; ceil and trunc of -0.5 are
# IEEE's -0.0, as in JAX).
import jax
import jax.numpy as jnp
from jax import lax


def show(name, x):
    print(name, [round(v, 5) for v in jnp.reshape(x, (-1,)).tolist()])


xs = jnp.array([-0.5, 0.0, 0.25, 0.75])
for name in ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "expm1", "exp2", "ceil", "trunc"]:
    show(name, getattr(jnp, name)(xs))
ps = jnp.array([0.5, 1.0, 4.0])
for name in ["log1p", "log2", "log10", "reciprocal"]:
    show(name, getattr(jnp, name)(ps))
# atan2 in the four quadrants: 3pi/4, -3pi/4, -pi/4, pi/4.
show("arctan2", jnp.arctan2(jnp.array([1.0, -1.0, -1.0, 1.0]), jnp.array([-1.0, -1.0, 1.0, 1.0])))
# d/dx sin at 0.5 = cos 0.5; d/dx arctan2(x, 2) at 1 = 2 / 5.
print("grad sin", round(float(jax.grad(jnp.sin)(0.5)), 5))
print("grad arctan2", round(float(jax.grad(lambda x: jnp.arctan2(x, 2.0))(1.0)), 5))
show("lax", jnp.stack([lax.asin(0.5), lax.acos(0.5), lax.atan(1.0), lax.atan2(1.0, 1.0), lax.log1p(1.0)]))
print(jax.make_jaxpr(lambda x: jnp.arctan2(jnp.sinh(x), lax.exp2(x)))(1.0))
# NaN and infinities: isnan is x != x, isinf |x| == inf, isfinite lax.is_finite;
# nan_to_num's defaults are 0 and the largest finite float32s.
v = jnp.array([1.0, jnp.nan, jnp.inf, -jnp.inf])
print("isnan", jnp.isnan(v).tolist())
print("isinf", jnp.isinf(v).tolist())
print("isfinite", jnp.isfinite(v).tolist())
print("nan_to_num", jnp.nan_to_num(v).tolist())
print("nan_to_num", jnp.nan_to_num(v, nan=-1.0, posinf=9.0).tolist())
# argmax / argmin (the flattened array by default; the first NaN wins) and cumsum.
m = jnp.array([[3.0, 1.0, 4.0, 4.0], [-2.0, jnp.nan, 7.0, 7.0]])
print("argmax", int(jnp.argmax(m)), jnp.argmax(m, axis=1).tolist(), jnp.argmin(m, 0).tolist())
print("cumsum", jnp.cumsum(jnp.array([[1, 2], [3, 4]])).tolist(), lax.cumsum(jnp.array([1.0, 2.0, 3.0]), reverse=True).tolist())
