# fails: stable-softmax, cases
# message: overflows to inf \(and inf/inf is NaN\)
# The softmax as exp(s) / sum(exp(s)) without subtracting the row maximum: exp overflows on the large logits.
import jax
import jax.numpy as jnp


def attention(q, k, v):
    def attend(q, k, v):
        w = jnp.exp(q @ k.T / jnp.sqrt(q.shape[-1]))
        return (w / w.sum(axis=-1, keepdims=True)) @ v

    return {"out": jax.vmap(attend)(q, k, v)}
