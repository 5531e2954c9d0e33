# jax.linear_transpose as JAX 0.11 documents it (jax/_src/api.py's
# docstring example: f(x, y) = (0.5 * x - 0.5 * y, x + y) transposes the
# cotangent (1.0, 1.0) to (1.5, 0.5), weakly typed as the Python floats
# given, worked out by hand: 0.5 + 1 and -0.5 + 1), with ShapeDtypeStruct
# primals, pytrees (the second: 2 * 1 + (1 + 2) per element of w), and the
# error for a non-linear function (ShardLab's ValueError naming sin, where
# JAX raises NotImplementedError).
import jax
import jax.numpy as jnp


def f(x, y):
    return (0.5 * x - 0.5 * y, x + y)


f_transpose = jax.linear_transpose(f, 1.0, 1.0)
print(f_transpose((1.0, 1.0)))
g_t = jax.linear_transpose(lambda p: {"a": 2.0 * p["w"], "b": p["w"] @ jnp.ones((3, 2))},
                           {"w": jax.ShapeDtypeStruct((3,), jnp.float32)})
print(g_t({"a": jnp.ones(3), "b": jnp.array([1.0, 2.0])}))
try:
    jax.linear_transpose(jnp.sin, 1.0)(1.0)
except Exception as e:
    print(type(e).__name__, "sin" in str(e))
