# fails: pads-to-bucket, same-shape-in-bucket, cases
# message: traced at L=1 the program returns f32\[\d,1\] and bool\[\d,1\], but the width should be 8
# Pads to the next power of two: the same as the bucket above 8, but short rows get widths 1, 2 and 4.
import jax.numpy as jnp


def masked_mean(x, lengths):
    L = x.shape[1]
    width = 1 << (L - 1).bit_length()
    padded = jnp.pad(x, ((0, 0), (0, width - L)))
    mask = jnp.arange(width) < lengths[:, None]
    mean = jnp.sum(jnp.where(mask, padded, 0.0), axis=1) / lengths
    return {"padded": padded, "mask": mask, "mean": mean}
