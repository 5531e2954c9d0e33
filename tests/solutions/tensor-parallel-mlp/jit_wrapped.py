# A correct solution the checker once rejected: the reference inside the
# learner's own jax.jit (the judge looks through it).
# passes
import jax
from jax.sharding import AxisType, PartitionSpec as P


@jax.jit
def mlp(x, w1, b1, w2, b2):
    mesh = jax.make_mesh((8,), ("model",), axis_types=(AxisType.Auto,))

    def local(x, w1, b1, w2):
        h = jax.nn.relu(x @ w1 + b1)
        return jax.lax.psum(h @ w2, "model"), h

    partial, hidden = jax.shard_map(
        local, mesh=mesh, in_specs=(P(), P(None, "model"), P("model"), P("model", None)), out_specs=(P(), P(None, "model"))
    )(x, w1, b1, w2)
    return {"out": partial + b2, "hidden": hidden}
