# A learner's tensor-parallel MLP: the weights constrained to their layouts with
# jax.lax.with_sharding_constraint before the shard_map that uses them.
import jax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


def mlp(x, w1, b1, w2, b2):
    mesh = jax.make_mesh((jax.device_count(),), ("model",), axis_types=(AxisType.Auto,))
    w1 = jax.lax.with_sharding_constraint(w1, NamedSharding(mesh, P(None, "model")))
    w2 = jax.lax.with_sharding_constraint(w2, NamedSharding(mesh, P("model", None)))

    def local(x, w1, b1, w2):
        h = jax.nn.relu(x @ w1 + b1)
        return jax.lax.psum(h @ w2, "model"), h

    out, hidden = jax.shard_map(
        local,
        mesh=mesh,
        in_specs=(P(), P(None, "model"), P("model"), P("model", None)),
        out_specs=(P(), P(None, "model")),
    )(x, w1, b1, w2)
    return {"out": out + b2, "hidden": hidden}
