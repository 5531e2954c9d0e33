# A decoy: a Python loop unrolled over the rows, padded to a constant number
# of equations inside a while_loop that never runs, beside a scan whose
# result nothing uses.
# fails: uses-scan, does-not-grow-with-T
# message: arranged differently
import jax
import jax.numpy as jnp


def ema(xs, decay):
    steps = xs.shape[0]
    m = xs[0]
    rows = [m]
    for t in range(1, steps):
        m = decay * m + (1 - decay) * xs[t]
        rows.append(m)
    every = jnp.stack(rows)

    def padding(c):
        for _ in range(1000 - 7 * steps):
            c = c + 0.0
        return c

    every = jax.lax.while_loop(lambda c: jnp.sum(c) != jnp.sum(c), padding, every)
    jax.lax.scan(lambda c, x: (decay * c + (1 - decay) * x, c), xs[0], xs[1:])
    return {"all": every, "last": every[-1]}
