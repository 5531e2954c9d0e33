"""jax.debug: seeing values from inside jit, shard_map, vmap and grad (jax/_src/debug.py)."""

from ._src.debug import callback, print  # noqa: F401, A004
