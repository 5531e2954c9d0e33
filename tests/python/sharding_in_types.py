# Sharding in types (Explicit mode), as docs.jax.dev's "Distributed arrays and
# automatic parallelization" (docs/new_docs/201/sharding.md at jax-v0.11.0)
# runs it: types print their Explicit axes (the page's comments give them),
# operations propagate them by JAX's rules or raise its ShardingTypeError, a
# contraction over a sharded dimension takes out_sharding=, jax.reshard
# retypes a traced value, and a gradient is typed as its primal (301's rule).
import jax
import jax.numpy as jnp
import numpy as np

jax.set_mesh(jax.make_mesh((4, 2), ('X', 'Y')))  # explicit mode by default

x = jnp.arange(8 * 4.).reshape(8, 4)
x = jax.device_put(x, jax.P('X', 'Y'))
print(jax.typeof(x))  # f32[8@X, 4@Y]

y = jnp.sin(x).T
print(jax.typeof(y))  # f32[4@Y, 8@X]
print(y.sharding.spec, [s.data.shape for s in y.addressable_shards[:2]])

arg0 = jax.device_put(np.arange(4).reshape(4, 1), jax.P("X", None))
arg1 = jax.device_put(np.arange(8).reshape(1, 8), jax.P(None, "Y"))
result = arg0 + arg1
print(f"{jax.typeof(arg0)=!s}")
print(f"{jax.typeof(arg1)=!s}")
print(f"{jax.typeof(result)=!s}")


@jax.jit
def add_arrays(x, y):
    ans = x + y
    print(f"{jax.typeof(x)=!s}")
    print(f"{jax.typeof(y)=!s}")
    print(f"{jax.typeof(ans)=!s}")
    return ans


out = add_arrays(arg0, arg1)
print(out.sharding.spec, out.tolist()[3])

y = x.sum(0)
print(jax.typeof(y), y.tolist())

x = jax.device_put(jnp.arange(8 * 4.).reshape(8, 4), jax.P(None, 'X'))
y = jax.device_put(jnp.arange(4 * 16.).reshape(4, 16), jax.P('X', None))
try:
    jnp.dot(x, y)
except Exception as e:
    print("ERROR!")
    print(e)

z = jnp.dot(x, y, out_sharding=jax.P('X', None))
print(jax.typeof(z))
print(np.array_equal(np.asarray(z), np.arange(32.).reshape(8, 4) @ np.arange(64.).reshape(4, 16)))

a = jax.device_put(np.arange(16).reshape(4, 4), jax.P("X", None))
b = jax.device_put(np.arange(16).reshape(4, 4), jax.P(None, "X"))
try:
    a + b
except Exception as e:
    print("ERROR!")
    print(type(e).__name__, e)


@jax.jit
def f(x):
    y = jax.reshard(x, jax.P(None, 'Y'))
    print(jax.typeof(y))
    return y * 2


w = f(x)
print(jax.typeof(w), w.sharding.spec)
print(jax.make_jaxpr(f)(x))
g = jax.grad(lambda x: (f(x) ** 2).sum())(x)
print(jax.typeof(g), np.array_equal(np.asarray(g), 8 * np.arange(32.).reshape(8, 4)))
