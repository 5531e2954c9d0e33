"""jax.random: ShardLab's JS `random` (threefry2x32, bit for bit as JAX's)
under JAX's names, and the typed key arrays jax.random.key makes
(jax/_src/random.py)."""

from ._src.random import *  # noqa: F401, F403
