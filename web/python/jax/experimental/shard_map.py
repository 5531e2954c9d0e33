"""jax.experimental.shard_map: the older shard_map, with check_rep (deprecated in JAX 0.8; use jax.shard_map; jax/_src/experimental.py)."""

from .._src.experimental import shard_map  # noqa: F401
