"""jax.nn: ShardLab's JS functions under JAX's names (jax/_src/nn.py)."""

from ._src.nn import *  # noqa: F401, F403
