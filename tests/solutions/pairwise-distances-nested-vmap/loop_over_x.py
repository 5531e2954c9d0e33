# fails: does-not-grow-with-N-or-M
# message: grows with N \(\d+ equations at N=\d+, M=\d+ but \d+ at N=\d+, M=\d+\): a loop over the rows of x
# vmap over y's rows, but a Python loop over x's rows: the program grows with N (and only with N).
import jax
import jax.numpy as jnp


def pairwise(x, y):
    def dist(a, b):
        return jnp.sqrt(jnp.sum(jnp.square(a - b)))

    to_every_y = jax.vmap(dist, in_axes=(None, 0))
    return {"dist": jnp.stack([to_every_y(x[i], y) for i in range(x.shape[0])])}
