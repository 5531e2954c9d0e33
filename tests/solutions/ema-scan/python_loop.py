# fails: uses-scan, does-not-grow-with-T
# message: grows with the number of steps \(\d+ equations at T=\d+ but \d+ at T=\d+\)
# A Python loop over the rows: the right numbers, but the program unrolls one step per row.
import jax.numpy as jnp


def ema(xs, decay):
    m = xs[0]
    rows = [m]
    for t in range(1, xs.shape[0]):
        m = decay * m + (1 - decay) * xs[t]
        rows.append(m)
    return {"all": jnp.stack(rows), "last": m}
