"""jax.dtypes: the dtype helpers JAX exports (issubdtype, result_type,
canonicalize_dtype, is_weakly_typed, finfo and iinfo as jax.numpy has them)."""

from ._src import dtypes as _dtypes
from ._src.dtypes import extended, issubdtype, prng_key  # noqa: F401
from ._src.numpy import finfo, iinfo  # noqa: F401

# Without x64, JAX holds each 64-bit dtype in its 32-bit kin.
_CANONICAL = {"float64": "float32", "int64": "int32", "uint64": "uint32"}


def canonicalize_dtype(dtype, allow_extended_dtype=False):
    """The dtype JAX holds `dtype` in without x64: float64 as float32, int64 as int32, uint64 as uint32."""
    n = _dtypes._category_name(dtype)
    return _dtypes.dtype(_CANONICAL.get(n, n))


def is_weakly_typed(x):
    """Whether x is weakly typed: a Python scalar, or an array computed from weak values only."""
    if type(x) in (bool, int, float, complex):
        return True
    return bool(getattr(x, "weak_type", False))


def result_type(*args, return_weak_type_flag=False):
    """The dtype JAX's promotion gives `args` (dtypes, Python scalars and arrays); with the flag, also whether it is weak."""
    from ._src import numpy

    out = numpy.result_type(*args)
    if not return_weak_type_flag:
        return out
    return out, all(is_weakly_typed(a) for a in args if not _dtypes.is_dtype_like(a)) and not any(_dtypes.is_dtype_like(a) for a in args)
