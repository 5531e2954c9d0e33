# fails: schedule-traced, phase-chosen-in-program, cases
# message: turns a traced argument into a number \(float\(step\)
# The integers read as Python floats to do the arithmetic in Python: under jit they are abstract.
import math

import jax.numpy as jnp


def schedule_step(w, g, step, base_lr, warmup, total):
    s, a, t = float(step), float(warmup), float(total)
    warm = base_lr * s / a
    cosine = base_lr * 0.5 * (1 + math.cos(math.pi * (s - a) / (t - a)))
    lr = jnp.where(s < a, warm, cosine)
    return {"w": w - lr * g, "lr": lr}
