# fails: schedule-traced, phase-chosen-in-program, cases
# message: turns a traced argument into a number \(float\(step\), int\(warmup\)
# The step read as a Python int to pick the phase in Python: under jit it is abstract.
import math

import jax.numpy as jnp


def schedule_step(w, g, step, base_lr, warmup, total):
    s = int(step)
    if s < warmup:
        lr = base_lr * s / warmup
    else:
        lr = base_lr * 0.5 * (1 + jnp.cos(math.pi * (s - warmup) / (total - warmup)))
    return {"w": w - lr * g, "lr": lr}
