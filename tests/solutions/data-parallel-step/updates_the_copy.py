# The update is applied to the varying copy pcast made, not to w and b.
# fails: shard-map-splits-x, no-full-batch-in-body, reduces-over-data, mean-gradient, lr-traced, no-branch-on-traced, cases
# message: the returned b differs from device to device: it is computed from the varying copy
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


def step(w, b, x, y, lr):
    # Auto axes: shard_map splits the plain (unsharded) x and y itself.
    mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))

    def local(w, b, x, y):
        def loss(w, b):
            return jnp.sum(jnp.square(x @ w + b - y)) / x.shape[0]

        wv, bv = jax.lax.pcast((w, b), "data", to="varying")
        l, (gw, gb) = jax.value_and_grad(loss, argnums=(0, 1))(wv, bv)
        mw, mb, ml = jax.lax.pmean((gw, gb, l), "data")
        return {"w": wv - lr * mw, "b": bv - lr * mb, "loss": ml}

    return jax.shard_map(local, mesh=mesh, in_specs=(P(), P(), P("data"), P("data")), out_specs=P())(w, b, x, y)
