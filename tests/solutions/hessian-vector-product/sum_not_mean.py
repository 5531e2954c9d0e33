# fails: cases
# message: output 'grad' differs
# The loss summed over the examples instead of averaged: forward-over-reverse, but N times too large.
import jax
import jax.numpy as jnp


def hvp(w, x, y, v):
    def loss(w):
        return jnp.sum(jax.nn.softplus(-y * (x @ w)))

    grad, hv = jax.jvp(jax.grad(loss), (w,), (v,))
    return {"grad": grad, "hvp": hv}
