# fails: no-hessian
# message: computes \d+ values of shape \(D, D\) \(f32\[\d+,\d+\]\).*jax\.jvp\(jax\.grad\(loss\), \(w,\), \(v,\)\)
# The whole Hessian with jax.hessian, then H @ v: the right numbers, but D x D values and D passes.
import jax
import jax.numpy as jnp


def hvp(w, x, y, v):
    def loss(w):
        return jnp.mean(jax.nn.softplus(-y * (x @ w)))

    H = jax.hessian(loss)(w)
    return {"grad": jax.grad(loss)(w), "hvp": H @ v}
