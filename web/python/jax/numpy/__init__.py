"""jax.numpy: the functions of ShardLab's JS `np`, under JAX's names (the
table in jax/_src/table.py), its dtypes, and array constructors."""

import math as _math

from .._src import table as _table
from .._src.api import array, asarray
from .._src.array import Array as ndarray
from .._src.dtypes import bool_, dtype, float32, int32

globals().update(_table.functions("numpy"))

pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
newaxis = None


def floor_divide(x1, x2):
    """jnp.floor_divide (x // y): not in ShardLab's API yet."""
    raise NotImplementedError("jnp.floor_divide (//) is not supported by ShardLab yet")


def remainder(x1, x2):
    """jnp.remainder (x % y): not in ShardLab's API yet."""
    raise NotImplementedError("jnp.remainder (%) is not supported by ShardLab yet")


mod = remainder
