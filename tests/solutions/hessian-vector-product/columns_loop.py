# fails: does-not-grow-with-D
# message: grows with the dimension \(\d+ equations at D=\d+ but \d+ at D=\d+\)
# The Hessian column by column (a jvp per basis vector), weighted by v's entries: no D x D value, but D passes.
import jax
import jax.numpy as jnp


def hvp(w, x, y, v):
    def loss(w):
        return jnp.mean(jax.nn.softplus(-y * (x @ w)))

    g = jax.grad(loss)
    hv = jnp.zeros_like(w)
    for i in range(w.shape[0]):
        e = jax.nn.one_hot(i, w.shape[0])
        _, column = jax.jvp(g, (w,), (e,))
        hv = hv + v[i] * column
    return {"grad": g(w), "hvp": hv}
