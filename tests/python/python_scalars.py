# A Python float is a float whatever its value, a Python int an int: JAX
# 0.11's dtypes for Python scalars with arrays and with each other (its
# docs' type promotion table: a weak float with an int32 array is float32,
# a weak int with a uint32 array uint32), in operators, numpy and lax
# functions, jit arguments and a jaxpr's literals.
import jax
import jax.numpy as jnp
from jax import lax

i = jnp.array([1, 2])
u = jnp.array([1, 2], dtype=jnp.uint32)
print("int32 array and 2.0:", (i * 2.0).dtype, (i + 1.0).dtype, jnp.multiply(i, 2.0).dtype, (i * 2.0).tolist())
print("two Python floats:", jnp.add(1.0, 2.0).dtype, jnp.maximum(2.0, 3.0).dtype, lax.max(2.0, 3.0).tolist())
print("Python ints:", jnp.power(4, 3).dtype, jnp.power(4, 3).tolist(), (u + 1).dtype, jnp.add(u, 1).dtype)
print("jit of a * 2.0:", jax.jit(lambda a: a * 2.0)(i).dtype, jax.jit(lambda a, s: a * s)(i, 3.0).dtype)
print("where and clip:", jnp.where(i > 1, i, 0.0).dtype, jnp.clip(jnp.arange(4), 1.0, 2.0).tolist())
print("constructors:", jnp.arange(5.0).dtype, jnp.full((2,), 2.0).dtype, jnp.full((2,), 2).dtype, jnp.array(2.0).dtype)
print("more constructors:", jnp.arange(0, 5, 1.0).dtype, jnp.arange(0, 2.5).dtype, jnp.full((2,), True).dtype, jnp.full((2,), 2, dtype=jnp.float32).dtype)
print(jax.make_jaxpr(lambda x: x * 2.0)(1.0))
print(jax.make_jaxpr(lambda x: jnp.power(x, 3))(jnp.float32(2.0)))
