# Reference solution: one step of the average as the body of lax.scan.
import jax
import jax.numpy as jnp


def ema(xs, decay):
    def step(m, x):
        m = decay * m + (1 - decay) * x
        return m, m

    last, rest = jax.lax.scan(step, xs[0], xs[1:])
    return {"all": jnp.concatenate([xs[:1], rest]), "last": last}
