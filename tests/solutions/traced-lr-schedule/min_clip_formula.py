# A correct schedule as one branch-free formula: the warmup ramp capped at 1
# times the cosine of the clipped progress through the cosine phase.
# passes
import jax.numpy as jnp


def schedule_step(w, g, step, base_lr, warmup, total):
    ramp = jnp.minimum(step / warmup, 1.0)
    progress = jnp.clip((step - warmup) / (total - warmup), 0.0, 1.0)
    lr = base_lr * ramp * 0.5 * (1 + jnp.cos(jnp.pi * progress))
    return {"w": w - lr * g, "lr": lr}
