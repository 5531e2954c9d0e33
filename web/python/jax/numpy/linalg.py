"""jax.numpy.linalg: ShardLab's JS functions under JAX's names (jax/_src/linalg.py)."""

from .._src.linalg import *  # noqa: F401, F403
