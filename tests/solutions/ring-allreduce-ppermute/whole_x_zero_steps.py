# A decoy: every device gets the whole x (in_specs P()) and sums it itself;
# 7 ppermutes of zeros are added so that the ring's steps are "there".
# fails: ring-carries-the-rows
# message: receives x as f32\[8,\d+\], more than its own row
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def ring_all_reduce(x):
    mesh = jax.make_mesh((8,), ("data",))
    ring = [(d, (d + 1) % 8) for d in range(8)]

    def body(whole):
        total = jnp.sum(whole, axis=0, keepdims=True)
        message = jax.lax.pcast(jnp.zeros_like(total), "data", to="varying")
        for _ in range(7):
            message = jax.lax.ppermute(message, "data", ring)
            total = total + message
        return total

    return {"out": jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P("data"))(x)}
