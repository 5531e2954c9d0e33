# fails: cases
# message: output 'grad' differs
# The mean gradient clipped once instead of each example's: the per-example gradients exist, but the bound is applied to the wrong vector.
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, x, y, max_norm):
    def loss_i(w, xi, yi):
        return jnp.square(xi @ w - yi)

    grads = jax.vmap(jax.grad(loss_i), in_axes=(None, 0, 0))(w, x, y)
    norms = jnp.linalg.norm(grads, axis=1)
    mean = jnp.mean(grads, axis=0)
    return {"grad": mean * jnp.minimum(1.0, max_norm / jnp.linalg.norm(mean)), "norms": norms}
