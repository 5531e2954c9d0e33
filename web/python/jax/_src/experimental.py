"""jax.experimental's functions: the older shard_map, with check_rep (deprecated in JAX 0.8; use jax.shard_map)."""

import warnings

from .api import shard_map as _shard_map


def shard_map(f, mesh, in_specs, out_specs, check_rep=True, auto=frozenset()):
    """jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs, check_rep)."""
    warnings.warn(
        "jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map instead.", DeprecationWarning, stacklevel=2
    )
    if auto:
        raise NotImplementedError("shard_map: auto= is not supported (it was removed in JAX 0.8)")
    return _shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_rep)
