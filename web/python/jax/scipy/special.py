"""jax.scipy.special: ShardLab's JS functions under JAX's names (jax/_src/special.py)."""

from .._src.special import *  # noqa: F401, F403
