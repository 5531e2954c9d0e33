"""jax.numpy's functions: ShardLab's JS `np` under JAX's names (the table in
jax/_src/table.py), with the ones Python shapes itself (nonzero's tuple,
where), its dtypes, array constructors and print options."""

import math as _math

from . import table as _table
from .api import array, asarray
from .array import Array as ndarray
from . import dtypes as _dtypes
from .dtypes import bool_, complexfloating, dtype, float32, floating, generic, inexact, int32, integer, issubdtype, number
from . import type_info as _type_info
from .dtypes import bfloat16, float16, int8, int16, signedinteger, uint8, uint16, uint32, unsignedinteger
from .js import call as _call
from .js import sl as _sl
from .format import get_printoptions, printoptions, set_printoptions

_FUNCTIONS = _table.functions("numpy")
globals().update(_FUNCTIONS)
_nonzero, _where, _pad = nonzero, where, pad  # noqa: F821 (from the table)



def nonzero(a, *, size=None, fill_value=None):
    """jnp.nonzero: a tuple of int32 arrays, one per dimension (size= is needed under jit)."""
    return tuple(_nonzero(a, size=size, fill_value=fill_value))


def where(condition, x=None, y=None, *, size=None, fill_value=None):
    """jnp.where(condition, x, y), or jnp.nonzero(condition) with one argument."""
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    return _where(condition, x, y)


def pad(array, pad_width, mode="constant", **kwargs):
    """jnp.pad(array, pad_width, mode, ...): the JS API's pad, or for a function `mode` JAX's: the array
    padded with zeros, then mode(vector, pad_width[axis], axis, kwargs) giving each 1-d slice along each
    axis in turn its padded values (it returns the new vector)."""
    if not callable(mode):
        return _pad(array, pad_width, mode, **kwargs)
    from .vmap import vmap

    x = asarray(array)
    widths = _pad_pairs(pad_width, x.ndim)
    out = _pad(x, widths)
    for axis in range(x.ndim):
        moved = moveaxis(out, axis, -1)  # noqa: F821 (from the table)
        rows = moved.reshape(-1, moved.shape[-1])
        rows = vmap(lambda v, w=widths[axis], a=axis: mode(v, w, a, kwargs))(rows)
        out = moveaxis(rows.reshape(moved.shape), -1, axis)  # noqa: F821
    return out


def _pad_pairs(pad_width, ndim):
    """pad_width as one (before, after) pair per axis, broadcast as numpy broadcasts it."""
    if isinstance(pad_width, int):
        return [(pad_width, pad_width)] * ndim
    entries = [tuple(e) if isinstance(e, (tuple, list)) else e for e in pad_width]
    if all(isinstance(e, int) for e in entries):
        pair = (entries[0], entries[-1]) if len(entries) in (1, 2) else None
        if pair is None:
            raise ValueError(f"jnp.pad: pad_width {pad_width!r} does not broadcast to ({ndim}, 2)")
        return [pair] * ndim
    pairs = [(e, e) if isinstance(e, int) else (e[0], e[-1]) for e in entries]
    return pairs * ndim if len(pairs) == 1 else pairs


def shape(a):
    """jnp.shape: the shape of an array or a Python scalar (())."""
    return tuple(a.shape) if hasattr(a, "shape") else tuple(asarray(a).shape)


def ndim(a):
    """jnp.ndim: the number of dimensions of an array or a Python scalar (0)."""
    return len(shape(a))


def size(a, axis=None):
    """jnp.size: the number of elements, or the product of the sizes along `axis` (an int or a tuple)."""
    dims = shape(a)
    axes = range(len(dims)) if axis is None else (axis,) if isinstance(axis, int) else axis
    return _math.prod(dims[i] for i in axes)


def isscalar(element):
    """jnp.isscalar: whether element is a scalar: a Python or numpy scalar, or a 0-d jax or numpy array."""
    if hasattr(element, "shape") and hasattr(element, "dtype"):
        return len(element.shape) == 0
    return isinstance(element, (bool, int, float, complex)) or type(type(element)).__name__ == "_ScalarType"


def _promotion_operand(a):
    """An argument of result_type as the JS API's resultType takes it: Python's int and float types are
    weak (as a Python scalar is, JAX's _weak_types), other dtype-likes their names, values themselves."""
    if a is int or a is float:
        return a(0)
    if a is None:
        return 0.0  # JAX's default float, weakly typed
    return _dtypes.name(a) if _dtypes.is_dtype_like(a) else a


def result_type(*args):
    """jnp.result_type: the dtype JAX's promotion gives dtypes, Python scalars and arrays."""
    return dtype(str(_call(_sl.np.resultType, *[_promotion_operand(a) for a in args])))


def promote_types(a, b):
    """jnp.promote_types(a, b): the dtype a binary operation casts dtypes a and b to (Python's int and float weak)."""
    for d in (a, b):
        if not (isinstance(d, str) or _dtypes.is_dtype_like(d)):
            raise TypeError(f"promote_types: {d!r} is not a dtype")
    return result_type(a, b)


# isdtype's kinds, over the dtypes ShardLab has.
_SIGNED, _UNSIGNED, _FLOATS = {"int8", "int16", "int32"}, {"uint8", "uint16", "uint32"}, {"bfloat16", "float16", "float32"}
_KINDS = {"bool": {"bool"}, "signed integer": _SIGNED, "unsigned integer": _UNSIGNED, "integral": _SIGNED | _UNSIGNED,
          "real floating": _FLOATS, "complex floating": set(), "numeric": _SIGNED | _UNSIGNED | _FLOATS}


def isdtype(dtype_, kind):
    """jnp.isdtype(dtype, kind): whether dtype is of `kind` (a name of the array API's kinds, a dtype, or a tuple of them)."""
    n = _dtypes.name(dtype_)
    options = set()
    for k in kind if isinstance(kind, tuple) else (kind,):
        if isinstance(k, str) and k in _KINDS:
            options |= _KINDS[k]
        elif _dtypes.is_dtype_like(k):
            options.add(_dtypes.name(k))
        elif isinstance(k, str):
            raise ValueError(f"Unrecognized kind={k!r} expected one of {list(_KINDS)}, or a compatible input for jnp.dtype()")
        else:
            raise TypeError(f"Expected kind to be a dtype, string, or tuple; got kind={k!r}")
    return n in options


def finfo(dtype):
    """jnp.finfo(dtype): numpy's finfo of a float dtype (JAX's are numpy's and ml_dtypes')."""
    import numpy

    n = _dtypes.name(dtype) if _dtypes.is_dtype_like(dtype) else dtype
    return _type_info.finfo(n) if n in _type_info.FLOAT_FORMATS else numpy.finfo(n)


def iinfo(dtype):
    """jnp.iinfo(dtype): numpy's iinfo of an integer dtype."""
    import numpy

    n = _dtypes.name(dtype) if _dtypes.is_dtype_like(dtype) else dtype
    return _type_info.iinfo(n) if n in _type_info.INT_TYPES else numpy.iinfo(n)


pi = _math.pi
e = _math.e
inf = float("inf")
nan = float("nan")
newaxis = None

__all__ = sorted({*_FUNCTIONS, "nonzero", "where", "shape", "ndim", "size", "isscalar", "result_type", "promote_types", "isdtype", "issubdtype", "finfo", "iinfo",
                  "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating", "complexfloating", "get_printoptions", "printoptions", "set_printoptions", "array", "asarray", "ndarray", "bool_", "dtype", "float32", "float16", "bfloat16", "int32", "int16", "int8", "uint32", "uint16", "uint8", "pi", "e", "inf", "nan", "newaxis"})
