# What a JAX 0.11 user reads off arrays and typed keys: each device's shard
# (device, index as slices with slice(None) for a whole dimension, replica_id,
# data), addressable_data, the array API namespace; typed keys are jax.Arrays
# that index, update (.at) and compare as arrays of keys and refuse arithmetic;
# make_jaxpr with static_argnums and return_shape; jax.dtypes.itemsize_bits.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
a = jax.device_put(jnp.arange(16.0).reshape(8, 2), NamedSharding(mesh, P("x")))
for s in a.addressable_shards[:3]:
    print(s.device.id, s.index, s.replica_id, s.data.tolist())
print(a.addressable_data(7).tolist())
print(a.__array_namespace__().cos(a[:, 0]).round(3).tolist())  # a[0] slices the sharded dimension: JAX's ShardingTypeError

key = jax.random.key(7)
keys = jax.random.split(key, 4)
print(isinstance(key, jax.Array), isinstance(jnp.ones(2), jax.Array), isinstance(3.0, jax.Array))
print(keys[1:3].shape, keys[None, 2].shape, (keys.at[1].set(key) == key).tolist())
for bad in (lambda: keys[0, 1], lambda: key * 2, lambda: 1 - key):
    try:
        bad()
    except (IndexError, TypeError) as e:
        print(type(e).__name__, e)

print(jax.make_jaxpr(lambda x, n: x * n, static_argnums=1)(jnp.ones(2), 3))
jaxpr, shapes = jax.make_jaxpr(lambda x: {"y": x.sum(), "z": x > 0}, return_shape=True)(jnp.ones(3))
print(len(jaxpr.eqns), shapes)
print(jax.dtypes.itemsize_bits(jnp.bool_), jax.dtypes.itemsize_bits(jnp.uint32))
# An array placed on no mesh has JAX's SingleDeviceSharding (device 0), one shard; a mesh's stays a NamedSharding.
from jax.sharding import SingleDeviceSharding

plain = jnp.arange(3.0)
print(plain.sharding, plain.sharding == SingleDeviceSharding(jax.devices()[0], memory_kind="unpinned_host"), plain.devices())
print([(s.device.id, s.index, s.data.tolist()) for s in (plain * 2).addressable_shards], type(a.sharding).__name__)
