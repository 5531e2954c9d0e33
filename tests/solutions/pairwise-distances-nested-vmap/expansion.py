# fails: accurate-for-close-points, cases
# message: cancellation of \|a\|\^2 \+ \|b\|\^2 - 2 a·b
# |a - b|^2 expanded as |a|^2 + |b|^2 - 2 a.b: no loop, but float32 cancellation spoils the distances of close points.
import jax.numpy as jnp


def pairwise(x, y):
    sq = jnp.sum(x * x, axis=1)[:, None] + jnp.sum(y * y, axis=1)[None, :] - 2 * x @ y.T
    return {"dist": jnp.sqrt(sq)}
