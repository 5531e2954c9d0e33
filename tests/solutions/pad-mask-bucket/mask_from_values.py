# fails: lengths-traced, cases
# message: no comparison in the program reads lengths
# The mask taken from the values (nonzero means valid): it marks the real entries past each length valid too.
import jax.numpy as jnp


def masked_mean(x, lengths):
    L = x.shape[1]
    width = next(b for b in (8, 16, 32, 64) if b >= L)
    padded = jnp.pad(x, ((0, 0), (0, width - L)))
    mask = padded != 0
    mean = jnp.sum(jnp.where(mask, padded, 0.0), axis=1) / lengths
    return {"padded": padded, "mask": mask, "mean": mean}
