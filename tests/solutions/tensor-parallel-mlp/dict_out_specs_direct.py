# A correct solution the checker once rejected: jax.shard_map called
# directly (no functools.partial) with dict out_specs, its dict result
# returned as it is (keys flatten sorted: hidden before out).
# passes
import jax
from jax.sharding import AxisType, PartitionSpec as P


def mlp(x, w1, b1, w2, b2):
    mesh = jax.make_mesh((8,), ("model",), axis_types=(AxisType.Auto,))

    def local(x, w1, b1, w2, b2):
        h = jax.nn.relu(x @ w1 + b1)
        return {"out": jax.lax.psum(h @ w2, "model") + b2, "hidden": h}

    specs = (P(), P(None, "model"), P("model"), P("model", None), P())
    return jax.shard_map(local, mesh=mesh, in_specs=specs, out_specs={"out": P(), "hidden": P(None, "model")})(x, w1, b1, w2, b2)
