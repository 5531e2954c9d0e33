"""jax.numpy's functions: ShardLab's JS `np` under JAX's names (the table in
jax/_src/table.py), with the ones Python shapes itself (nonzero's tuple,
where), its dtypes, array constructors and print options."""

import math as _math

from . import table as _table
from .api import array, asarray
from .array import Array as ndarray
from .dtypes import bool_, dtype, float32, int32, uint32
from .format import get_printoptions, printoptions, set_printoptions

_FUNCTIONS = _table.functions("numpy")
globals().update(_FUNCTIONS)
_nonzero, _where = nonzero, where  # noqa: F821 (from the table)



def nonzero(a, *, size=None, fill_value=None):
    """jnp.nonzero: a tuple of int32 arrays, one per dimension (size= is needed under jit)."""
    return tuple(_nonzero(a, size=size, fill_value=fill_value))


def where(condition, x=None, y=None, *, size=None, fill_value=None):
    """jnp.where(condition, x, y), or jnp.nonzero(condition) with one argument."""
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    return _where(condition, x, y)


pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
newaxis = None

__all__ = sorted({*_FUNCTIONS, "nonzero", "where", "get_printoptions", "printoptions", "set_printoptions", "array", "asarray", "ndarray", "bool_", "dtype", "float32", "int32", "uint32", "pi", "e", "inf", "nan", "newaxis"})
