# fails: custom-derivative-rule
# message: has a stop_gradient but no custom_vjp or custom_jvp call on w.*jax\.custom_vjp
# The stop_gradient trick, w + stop_gradient(q(w) - w): the same numbers, but not the derivative rule the problem asks for.
import jax
import jax.numpy as jnp


def ste_step(w, x, y, lr):
    def loss(w):
        q = w + jax.lax.stop_gradient(jnp.round(4 * w) / 4 - w)
        return jnp.mean(jnp.square(x @ q - y))

    value, grad = jax.value_and_grad(loss)(w)
    return {"w": w - lr * grad, "loss": value}
