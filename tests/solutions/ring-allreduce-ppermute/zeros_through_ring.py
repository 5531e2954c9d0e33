# A decoy that data flow alone cannot see through: each step passes on the
# device's own row times zero, and the sum comes from an all_gather of x done
# in a second shard_map. The ppermutes' results change nothing.
# fails: ring-carries-the-rows, no-psum
# message: the result does not depend on what the ppermute steps bring
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


def ring_all_reduce(x):
    mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    ring = [(d, (d + 1) % 8) for d in range(8)]

    def body(row):
        everything = jax.lax.all_gather(row, "data", tiled=True)
        total = jnp.sum(everything, axis=0, keepdims=True)
        message = row * 0
        for _ in range(7):
            message = jax.lax.ppermute(message, "data", ring)
            total = total + message
        return total

    return {"out": jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)}
