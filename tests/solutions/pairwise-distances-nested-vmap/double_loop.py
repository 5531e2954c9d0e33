# fails: does-not-grow-with-N-or-M
# message: grows with N \(.*\) and with M
# Two Python loops over the points: the right numbers, but one copy of the distance per pair.
import jax.numpy as jnp


def pairwise(x, y):
    rows = []
    for i in range(x.shape[0]):
        rows.append(jnp.stack([jnp.sqrt(jnp.sum(jnp.square(x[i] - y[j]))) for j in range(y.shape[0])]))
    return {"dist": jnp.stack(rows)}
