"""jax.nn's functions: ShardLab's JS functions under JAX's names (the table in jax/_src/table.py)."""

from . import table as _table

_FUNCTIONS = _table.functions("nn")
globals().update(_FUNCTIONS)
__all__ = sorted(_FUNCTIONS)
