"""jax.numpy's functions: ShardLab's JS `np` under JAX's names (the table in
jax/_src/table.py), with the ones Python shapes itself (nonzero's tuple,
where, the dtypes of Python scalars), its dtypes and array constructors."""

import builtins as _builtins
import math as _math

from . import table as _table
from .api import array, asarray
from .array import Array as ndarray
from .dtypes import bool_, dtype, float32, int32, uint32

_FUNCTIONS = _table.functions("numpy")
globals().update(_FUNCTIONS)
_arange, _full = arange, full  # noqa: F821 (from the table)
_nonzero, _where = nonzero, where  # noqa: F821 (from the table)



def nonzero(a, *, size=None, fill_value=None):
    """jnp.nonzero: a tuple of int32 arrays, one per dimension (size= is needed under jit)."""
    return tuple(_nonzero(a, size=size, fill_value=fill_value))


def where(condition, x=None, y=None, *, size=None, fill_value=None):
    """jnp.where(condition, x, y), or jnp.nonzero(condition) with one argument."""
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    return _where(condition, x, y)


def _python_dtype(*values):
    # JAX types Python scalars: a float makes float32, ints int32 (JS numbers cannot tell 4.0 from 4).
    # (Python's any and all: jnp.any and jnp.all shadow them here.)
    vs = [v for v in values if v is not None]
    if _builtins.any(isinstance(v, float) for v in vs):
        return float32
    if vs and _builtins.all(isinstance(v, int) and not isinstance(v, bool) for v in vs):
        return int32
    return None


def arange(start, stop=None, step=None, dtype=None):
    """jnp.arange: int32 for Python ints, float32 for floats (or `dtype`)."""
    return _arange(start, stop, step, dtype if dtype is not None else _python_dtype(start, stop, step))


def full(shape, fill_value, dtype=None):
    """jnp.full: the dtype of fill_value (a Python int makes int32), or `dtype`."""
    return _full(shape, fill_value, dtype if dtype is not None else _python_dtype(fill_value))


pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
newaxis = None

__all__ = sorted({*_FUNCTIONS, "nonzero", "where", "arange", "full", "array", "asarray", "ndarray", "bool_", "dtype", "float32", "int32", "uint32", "pi", "e", "inf", "nan", "newaxis"})
