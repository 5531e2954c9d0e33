# A correct solution the checker once rejected: the shard_map's dict result,
# with dict out_specs, returned directly (its keys flatten sorted: hidden
# before out), b2 added inside after the psum.
# passes
import functools

import jax
from jax.sharding import AxisType, PartitionSpec as P


def mlp(x, w1, b1, w2, b2):
    mesh = jax.make_mesh((8,), ("model",), axis_types=(AxisType.Auto,))

    @functools.partial(
        jax.shard_map,
        mesh=mesh,
        in_specs=(P(), P(None, "model"), P("model"), P("model", None), P()),
        out_specs={"out": P(), "hidden": P(None, "model")},
    )
    def local(x, w1, b1, w2, b2):
        h = jax.nn.relu(x @ w1 + b1)
        return {"out": jax.lax.psum(h @ w2, "model") + b2, "hidden": h}

    return local(x, w1, b1, w2, b2)
