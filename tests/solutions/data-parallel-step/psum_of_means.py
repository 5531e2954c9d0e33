# psum of the devices' mean gradients: 8 times the mean gradient (pcast is done).
# fails: mean-gradient, cases
# message: psum adds the 8 of them; average them with jax.lax.pmean
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
        mw, mb = jax.lax.psum((gw, gb), "data")
        ml = jax.lax.pmean(l, "data")
        return {"w": w - lr * mw, "b": b - lr * mb, "loss": ml}

    return jax.shard_map(local, mesh=mesh, in_specs=(P(), P(), P("data"), P("data")), out_specs=P())(w, b, x, y)
