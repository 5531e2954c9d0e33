"""Argument handling shared by numpy.random's Generator methods in
ShardLab's numpy: sizes, dtypes, broadcasting of array arguments, and the
errors numpy raises for them (or, for what this subset lacks, an error
naming the method, the argument and what is provided)."""

import math
import operator

from . import _dtypes
from ._ndarray import asarray, ndarray


def shape_of(size):
    """numpy's np.empty(size) shape for size: an int or a sequence of ints (never None here)."""
    if isinstance(size, (tuple, list)):
        shape = tuple(operator.index(n) for n in size)
    elif hasattr(size, "__index__") and not isinstance(size, ndarray):
        shape = (operator.index(size),)
    elif isinstance(size, ndarray) and size.ndim == 1:
        shape = tuple(operator.index(n) for n in size._flat)
    else:
        raise TypeError(f"expected a sequence of integers or a single integer, got '{size}'")
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def dtype_name(method, dtype, allowed, described):
    """dtype's name when `allowed` has it; numpy's TypeError for a dtype numpy rejects too, and a TypeError
    naming the method and the subset's dtypes for one this numpy does not have."""
    try:
        name = _dtypes.name_of(dtype)
    except TypeError:
        shown = getattr(dtype, "__name__", dtype)
        raise TypeError(
            f"Generator.{method}: dtype {shown!r} is not in ShardLab's numpy subset; {method} draws {described}"
        ) from None
    if name not in allowed:
        raise TypeError(f"Unsupported dtype {_dtypes.dtype(name)!r} for {method}")
    return name


def no_out(method, out):
    """Raises for out= (numpy writes into a given array; this subset returns a new one)."""
    if out is not None:
        raise TypeError(
            f"Generator.{method}: out= is not in ShardLab's numpy subset; call {method}(size=...) and assign the "
            "array it returns"
        )


def broadcast(shapes):
    """The broadcast shape of `shapes`, with numpy's multi-iterator message when they do not broadcast."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for arg, s in enumerate(shapes):
        for axis, n in enumerate((1,) * (ndim - len(s)) + tuple(s)):
            if n != 1:
                if out[axis] not in (1, n):
                    first = next(i for i, t in enumerate(shapes) if ((1,) * (ndim - len(t)) + tuple(t))[axis] == out[axis])
                    raise ValueError(
                        "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                        f"arg {first} with shape {tuple(shapes[first])} and arg {arg} with shape {tuple(s)}."
                    )
                out[axis] = n
    return tuple(out)


def spread(arr, shape):
    """arr's elements (flat) broadcast to `shape`."""
    if arr.shape == shape:
        return list(arr._flat)
    pad = (1,) * (len(shape) - arr.ndim) + arr.shape
    strides, step = [], 1
    for n in reversed(pad):
        strides.append(0 if n == 1 else step)
        step *= n
    strides.reverse()
    out = [0] * math.prod(shape)
    for i in range(len(out)):
        pos, rest = 0, i
        for n, stride in zip(reversed(shape), reversed(strides)):
            pos += (rest % n) * stride
            rest //= n
        out[i] = arr._flat[pos]
    return out


def parameter_arrays(args, size):
    """The output shape and each argument's elements spread to it, for array arguments (numpy's broadcast path:
    size, if given, must be the broadcast of itself with the arguments)."""
    arrays = [a if isinstance(a, ndarray) else asarray(a) for a in args]
    if size is None:
        shape = broadcast([a.shape for a in arrays])
    else:
        shape = shape_of(size)
        joint = broadcast([shape] + [a.shape for a in arrays])
        if joint != shape:
            raise ValueError(f"Output size {shape} is not compatible with broadcast dimensions of inputs {joint}.")
    return shape, [spread(a, shape) for a in arrays]
