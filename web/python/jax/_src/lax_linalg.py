"""jax.lax.linalg's functions: ShardLab's JS lax.linalg under JAX's names (the table in jax/_src/table.py)."""

from . import table as _table

_FUNCTIONS = _table.functions("lax.linalg")
globals().update(_FUNCTIONS)
__all__ = sorted(_FUNCTIONS)
