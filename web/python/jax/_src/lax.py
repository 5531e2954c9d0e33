"""jax.lax's functions: ShardLab's JS `lax` under JAX's names (the table in
jax/_src/table.py): the collectives of a shard_map body and the primitives
jax.numpy has no name for."""

import enum as _enum

from . import table as _table

_FUNCTIONS = _table.functions("lax")
globals().update(_FUNCTIONS)


class RoundingMethod(_enum.IntEnum):
    """jax.lax.RoundingMethod: how lax.round rounds halves (JAX's values)."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


from .control_flow import cond, fori_loop, scan, switch, while_loop  # noqa: E402, F401

__all__ = sorted({*_FUNCTIONS, "RoundingMethod", "cond", "fori_loop", "scan", "switch", "while_loop"})
