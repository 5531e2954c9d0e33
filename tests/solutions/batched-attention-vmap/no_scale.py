# fails: cases
# message: output 'out' differs
# The logits without the 1/sqrt(d) scale: a stable, batched softmax, but too sharp.
import jax
import jax.numpy as jnp


def attention(q, k, v):
    def attend(q, k, v):
        return jax.nn.softmax(q @ k.T, axis=-1) @ v

    return {"out": jax.vmap(attend)(q, k, v)}
