# fails: custom-derivative-rule, cases
# message: has no custom_vjp or custom_jvp call\): round is flat almost everywhere.*jax\.custom_vjp
# Plain rounding with no estimator: the forward pass is right, but round's derivative is zero, so w never moves.
import jax
import jax.numpy as jnp


def ste_step(w, x, y, lr):
    def loss(w):
        return jnp.mean(jnp.square(x @ (jnp.round(4 * w) / 4) - y))

    value, grad = jax.value_and_grad(loss)(w)
    return {"w": w - lr * grad, "loss": value}
