# fails: cases
# message: output 'sigma' differs
# Normalizes only after the loop: the same directions in exact arithmetic, but (W W^T)^k u0 overflows float32.
import jax
import jax.numpy as jnp


def spectral_norm(w, u0, iters):
    def step(_, carry):
        u, _ = carry
        v = w.T @ u
        return w @ v, v

    u, v = jax.lax.fori_loop(0, iters, step, (u0, jnp.zeros(w.shape[1], w.dtype)))
    u = u / jnp.linalg.norm(u)
    v = v / jnp.linalg.norm(v)
    return {"sigma": u @ w @ v, "u": u}
