# fails: trip-count-is-iters, cases
# message: the while loop does not depend on iters: it stops by a rule of its own
# Iterates until u stops changing: a while loop, but it ignores iters, so few-step cases get the converged vector.
import jax
import jax.numpy as jnp


def spectral_norm(w, u0, iters):
    def step(carry):
        u, v, _, k = carry
        v = w.T @ u
        v = v / jnp.linalg.norm(v)
        new = w @ v
        new = new / jnp.linalg.norm(new)
        return new, v, jnp.linalg.norm(new - u), k + 1

    def going(carry):
        _, _, change, k = carry
        return jnp.where(k < 1000, change, 0.0) > 1e-6  # at most 1000 steps

    init = (u0 / jnp.linalg.norm(u0), jnp.zeros(w.shape[1], w.dtype), jnp.float32(1.0), 0)
    u, v, _, _ = jax.lax.while_loop(going, step, init)
    return {"sigma": u @ w @ v, "u": u}
