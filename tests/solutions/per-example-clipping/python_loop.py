# fails: does-not-grow-with-B
# message: grows with the batch \(\d+ equations at B=\d+ but \d+ at B=\d+\)
# A Python loop over the examples, one jax.grad each: the right numbers, but the program unrolls per example.
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, x, y, max_norm):
    def loss_i(w, xi, yi):
        return jnp.square(xi @ w - yi)

    grads = jnp.stack([jax.grad(loss_i)(w, x[i], y[i]) for i in range(x.shape[0])])
    norms = jnp.linalg.norm(grads, axis=1)
    factors = jnp.minimum(1.0, max_norm / norms)
    return {"grad": jnp.mean(grads * factors[:, None], axis=0), "norms": norms}
