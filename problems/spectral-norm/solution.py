# Reference solution: one step of the power iteration as the body of
# fori_loop, whose traced upper bound makes it a while loop.
import jax
import jax.numpy as jnp


def spectral_norm(w, u0, iters):
    def step(_, carry):
        u, _ = carry
        v = w.T @ u
        v = v / jnp.linalg.norm(v)
        u = w @ v
        u = u / jnp.linalg.norm(u)
        return u, v

    v0 = jnp.zeros(w.shape[1], w.dtype)  # replaced by the first step (iters >= 1)
    u, v = jax.lax.fori_loop(0, iters, step, (u0, v0))
    return {"sigma": u @ w @ v, "u": u}
