# Reference solution: attention for one example, mapped over the batch with jax.vmap.
import jax
import jax.numpy as jnp


def attention(q, k, v):
    def attend(q, k, v):
        logits = q @ k.T / jnp.sqrt(q.shape[-1])
        return jax.nn.softmax(logits, axis=-1) @ v

    return {"out": jax.vmap(attend)(q, k, v)}
