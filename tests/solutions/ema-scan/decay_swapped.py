# fails: cases
# message: output 'all' differs
# The weights swapped (m_t = (1 - decay) m_{t-1} + decay x_t): a scan, but the wrong average.
import jax
import jax.numpy as jnp


def ema(xs, decay):
    def step(m, x):
        m = (1 - decay) * m + decay * x
        return m, m

    last, rest = jax.lax.scan(step, xs[0], xs[1:])
    return {"all": jnp.concatenate([xs[:1], rest]), "last": last}
