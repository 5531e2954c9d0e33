# fails: uses-while-loop, trip-count-is-iters, cases
# message: the loop count is read as a number \(range\(iters\) or int\(iters\)\)
# A Python for loop over range(iters): range needs an int, but under jit iters is abstract.
import jax.numpy as jnp


def spectral_norm(w, u0, iters):
    u = u0
    for _ in range(iters):
        v = w.T @ u
        v = v / jnp.linalg.norm(v)
        u = w @ v
        u = u / jnp.linalg.norm(u)
    return {"sigma": u @ w @ v, "u": u}
