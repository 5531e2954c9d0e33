# fails: stable-softmax, cases
# message: the output holds NaN: .* underflows to 0 \(and 0/0 is NaN\)
# Subtracts the example's largest logit, not each row's: a row whose logits all lie far below it underflows to 0/0.
import jax
import jax.numpy as jnp


def attention(q, k, v):
    def attend(q, k, v):
        s = q @ k.T / jnp.sqrt(q.shape[-1])
        w = jnp.exp(s - s.max())
        return (w / w.sum(axis=-1, keepdims=True)) @ v

    return {"out": jax.vmap(attend)(q, k, v)}
