# fails: does-not-grow-with-B
# message: grows with the batch size \(\d+ equations at B=\d+ but \d+ at B=\d+\)
# A Python loop over the examples: the right numbers, but one copy of attention per example.
import jax
import jax.numpy as jnp


def attention(q, k, v):
    outs = []
    for b in range(q.shape[0]):
        logits = q[b] @ k[b].T / jnp.sqrt(q.shape[-1])
        outs.append(jax.nn.softmax(logits, axis=-1) @ v[b])
    return {"out": jnp.stack(outs)}
