# fails: pads-to-bucket, same-shape-in-bucket, lengths-traced, cases
# message: turns the traced lengths into numbers \(int\(lengths\[i\]\)
# Each row's length read as a Python int to build the mask: under jit lengths is abstract, so the trace stops.
import jax.numpy as jnp


def masked_mean(x, lengths):
    B, L = x.shape
    width = next(b for b in (8, 16, 32, 64) if b >= L)
    padded = jnp.pad(x, ((0, 0), (0, width - L)))
    rows = []
    for i in range(B):
        n = int(lengths[i])
        rows.append(jnp.arange(width) < n)
    mask = jnp.stack(rows)
    mean = jnp.sum(jnp.where(mask, padded, 0.0), axis=1) / lengths
    return {"padded": padded, "mask": mask, "mean": mean}
