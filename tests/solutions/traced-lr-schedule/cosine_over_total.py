# fails: cases
# message: output 'w' differs
# The cosine phase measured from step 0 over total instead of from the end of the warmup over total - warmup.
import jax.numpy as jnp


def schedule_step(w, g, step, base_lr, warmup, total):
    warm = base_lr * step / warmup
    cosine = base_lr * 0.5 * (1 + jnp.cos(jnp.pi * step / total))
    lr = jnp.where(step < warmup, warm, cosine)
    return {"w": w - lr * g, "lr": lr}
