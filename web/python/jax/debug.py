"""jax.debug: seeing values from inside jit, shard_map, vmap and grad (jax/_src/debug.py)."""

from ._src.debug import callback, print, visualize_array_sharding, visualize_sharding  # noqa: F401, A004
