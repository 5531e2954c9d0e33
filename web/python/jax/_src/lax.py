"""jax.lax's functions: ShardLab's JS `lax` under JAX's names (the table in
jax/_src/table.py): the collectives of a shard_map body and the primitives
jax.numpy has no name for."""

import enum as _enum

from . import table as _table

_FUNCTIONS = _table.functions("lax")
globals().update(_FUNCTIONS)


def dynamic_slice_in_dim(operand, start_index, slice_size, axis=0):
    """jax.lax.dynamic_slice_in_dim: dynamic_slice along one axis (0 elsewhere, the whole size)."""
    starts = [0] * operand.ndim
    sizes = list(operand.shape)
    starts[axis] = start_index
    sizes[axis] = slice_size
    return dynamic_slice(operand, starts, sizes)  # noqa: F821 (from the table)


class RoundingMethod(_enum.IntEnum):
    """jax.lax.RoundingMethod: how lax.round rounds halves (JAX's values)."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


from .control_flow import cond, fori_loop, scan, switch, while_loop  # noqa: E402, F401

__all__ = sorted({*_FUNCTIONS, "dynamic_slice_in_dim", "RoundingMethod", "cond", "fori_loop", "scan", "switch", "while_loop"})
