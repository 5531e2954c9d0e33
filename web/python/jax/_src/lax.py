"""jax.lax's functions: ShardLab's JS `lax` under JAX's names (the table in
jax/_src/table.py): the collectives of a shard_map body and the primitives
jax.numpy has no name for."""

import enum as _enum

from . import table as _table

_FUNCTIONS = _table.functions("lax")
globals().update(_FUNCTIONS)


_collective_psum = _FUNCTIONS["psum"]


def psum(x, axis_name, *, axis_index_groups=None):
    """jax.lax.psum(x, axis_name): the sum over the devices along the axes. A
    tree with no traced leaf is summed as JAX sums it, with no collective: each
    leaf times the axes' size, a Python scalar keeping its type (psum(1, 'i')
    is the int axis_size('i')). That case is decided here because a list of
    Python numbers reaches JS as array data, whose ints and floats it cannot tell apart."""
    from .array import Array
    from .pytree import tree_leaves, tree_map

    if axis_index_groups is not None:
        raise NotImplementedError("lax.psum: axis_index_groups is not supported by ShardLab")
    if any(isinstance(leaf, Array) and leaf._is_tracer() for leaf in tree_leaves(x)):
        return _collective_psum(x, axis_name)
    size = _FUNCTIONS["axis_size"](axis_name)
    return tree_map(lambda leaf: (int(leaf) if isinstance(leaf, bool) else leaf) * size, x)


_FUNCTIONS["psum"] = psum


class RoundingMethod(_enum.IntEnum):
    """jax.lax.RoundingMethod: how lax.round rounds halves (JAX's values)."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


from .control_flow import associative_scan, cond, fori_loop, map, scan, switch, while_loop  # noqa: E402, F401, A004
from .sharding import with_sharding_constraint  # noqa: E402, F401

__all__ = sorted({*_FUNCTIONS, "RoundingMethod", "associative_scan", "cond", "fori_loop", "map", "scan", "switch", "while_loop",
                  "with_sharding_constraint"})
