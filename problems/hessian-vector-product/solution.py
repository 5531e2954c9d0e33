# Reference solution: forward-over-reverse, the jvp of the gradient in the direction v.
import jax
import jax.numpy as jnp


def hvp(w, x, y, v):
    def loss(w):
        return jnp.mean(jax.nn.softplus(-y * (x @ w)))

    grad, hv = jax.jvp(jax.grad(loss), (w,), (v,))
    return {"grad": grad, "hvp": hv}
