# Reference solution: 7 ring steps with ppermute and a running sum.
import jax
from jax.sharding import AxisType, PartitionSpec as P


def ring_all_reduce(x):
    mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    ring = [(d, (d + 1) % 8) for d in range(8)]

    def body(block):
        total = block
        message = block
        for _ in range(7):
            message = jax.lax.ppermute(message, "data", ring)
            total = total + message
        return {"out": total}

    return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs={"out": P("data")})(x)
