# fails: schedule-traced, phase-chosen-in-program, cases
# message: branches on the traced step \(an if on step < warmup\)
# A Python if on the traced step: right in eager code, but under jit the comparison has no value to branch on.
import jax.numpy as jnp


def schedule_step(w, g, step, base_lr, warmup, total):
    if step < warmup:
        lr = base_lr * step / warmup
    else:
        lr = base_lr * 0.5 * (1 + jnp.cos(jnp.pi * (step - warmup) / (total - warmup)))
    return {"w": w - lr * g, "lr": lr}
