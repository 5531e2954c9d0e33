# numpy beside jax, as JAX code uses it: host arrays converted as JAX
# converts them (float64 to float32, int64 to int32), device lists shaped into
# a mesh, jax arrays read back into numpy, and jax.pmap over numpy data. The
# values are worked out by hand in the comments.
import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P

host = np.linspace(0, 2, 5)  # float64 on the host
dev = jnp.asarray(host)  # float32 on the devices: [0, 0.5, 1, 1.5, 2]
print(repr(dev))
print(repr(jnp.array(np.arange(3))), jnp.array(np.arange(3)).dtype)  # int64 -> int32
print(jax.jit(lambda v: v * 2)(np.arange(4)))  # [0 2 4 6]
print(repr(np.asarray(jnp.arange(3.0))))  # back to numpy, float32 kept
print(np.asarray(jnp.arange(3.0)) + np.arange(3))  # float32 + int64 -> float64: [0. 2. 4.]
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
print(dict(mesh.shape))  # {'data': 2, 'model': 4}
from jax.experimental import mesh_utils

grid = mesh_utils.create_device_mesh((4, 2))
print(grid.shape, [d.id for d in grid[1]], dict(Mesh(grid, ("a", "b")).shape))  # (4, 2) [2, 3] {'a': 4, 'b': 2}
sharded = jax.device_put(np.arange(8.0).reshape(2, 4), jax.sharding.NamedSharding(mesh, P("data", "model")))
print(sharded.sum())  # 0 + 1 + ... + 7 = 28.0
print(repr(jnp.ones(3) + np.arange(3)))  # a jax array answers numpy's operator: [1. 2. 3.]
print(jnp.zeros(2, dtype=np.float32).dtype, jnp.dtype(np.int32))  # numpy's scalar types name jax dtypes

# pmap over numpy data: device i gets row i
x = np.arange(16).reshape(4, 4)
print(jax.pmap(lambda r: jax.lax.psum(r, "i"), axis_name="i")(x))  # column sums 24 28 32 36, on each of 4 devices
print(jax.pmap(lambda r: r / jax.lax.psum(r, "i"), axis_name="i")(np.arange(4.0)))  # i / 6
print(jax.pmap(lambda r: jax.lax.axis_index("i") * r, axis_name="i")(np.ones(3)))  # [0. 1. 2.]
print(jax.pmap(lambda a, b: a + b, in_axes=(0, None))(np.arange(2), 10))  # [10 11]
print(jax.pmap(lambda c: c.sum(), in_axes=1)(np.ones((3, 2))))  # each column of 3 ones: [3. 3.]
try:
    jax.pmap(lambda r: r)(np.arange(9))
except ValueError as e:
    print("ValueError:", e)
