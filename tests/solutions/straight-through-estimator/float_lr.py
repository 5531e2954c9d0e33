# fails: custom-derivative-rule, lr-traced, cases
# message: turns a traced value into a number \(float\(lr\) or lr\.item\(\)\)
# lr made a Python float: under jit it is abstract, so the trace stops.
import jax
import jax.numpy as jnp


@jax.custom_vjp
def quantize(w):
    return jnp.round(4 * w) / 4


quantize.defvjp(lambda w: (quantize(w), None), lambda _, g: (g,))


def ste_step(w, x, y, lr):
    step = float(lr)

    def loss(w):
        return jnp.mean(jnp.square(x @ quantize(w) - y))

    value, grad = jax.value_and_grad(loss)(w)
    return {"w": w - step * grad, "loss": value}
