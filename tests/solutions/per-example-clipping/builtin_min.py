# fails: per-example-gradients, does-not-grow-with-B, max-norm-traced, cases
# message: compares traced values in Python \(the builtin min.*jnp\.minimum\(1\.0, max_norm / norm\) \(TracerBoolConversionError\)
# Python's builtin min on the factor: it asks whether max_norm / norm < 1, which a traced value cannot answer.
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, x, y, max_norm):
    def clipped(w, xi, yi):
        g = jax.grad(lambda w: jnp.square(xi @ w - yi))(w)
        norm = jnp.linalg.norm(g)
        return g * min(1.0, max_norm / norm), norm

    grads, norms = jax.vmap(clipped, in_axes=(None, 0, 0))(w, x, y)
    return {"grad": jnp.mean(grads, axis=0), "norms": norms}
