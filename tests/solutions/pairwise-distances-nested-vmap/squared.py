# fails: cases
# message: output 'dist' differs
# Squared distances: the square root is missing.
import jax
import jax.numpy as jnp


def pairwise(x, y):
    def dist(a, b):
        return jnp.sum(jnp.square(a - b))

    return {"dist": jax.vmap(jax.vmap(dist, in_axes=(None, 0)), in_axes=(0, None))(x, y)}
