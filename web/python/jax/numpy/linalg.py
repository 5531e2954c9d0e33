"""jax.numpy.linalg: ShardLab's JS functions under JAX's names (the table in jax/_src/table.py)."""

from .._src import table as _table

globals().update(_table.functions("numpy.linalg"))
