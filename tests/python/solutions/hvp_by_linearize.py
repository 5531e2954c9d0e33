# A learner's Hessian-vector product: linearize the gradient at w, apply it to v.
import jax
import jax.numpy as jnp


def hvp(w, x, y, v):
    def loss(w):
        return jnp.mean(jax.nn.softplus(-y * (x @ w)))

    grad, f_jvp = jax.linearize(jax.grad(loss), w)
    return {"grad": grad, "hvp": f_jvp(v)}
