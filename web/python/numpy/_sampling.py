"""numpy's Generator.choice, permutation and shuffle in ShardLab's numpy:
the same draws in the same order as numpy's (random_interval's masked
draws for shuffles, Lemire's for choice's indices, Floyd's algorithm or a
tail shuffle without replacement, a cumulative sum searched for p)."""

import bisect
import math
import operator

from . import _bounded, _dtypes
from ._ndarray import asarray, ndarray
from ._random_args import shape_of


def _axis(axis, ndim):
    """axis in [0, ndim), numpy's AxisError message (as a ValueError) otherwise."""
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _take(arr, indices, index_shape, axis):
    """arr's entries at `indices` (flat, of shape index_shape) along axis, as ndarray.take: a scalar when the
    result has no dimensions."""
    shape = arr.shape
    outer, n, inner = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])
    flat = [arr._flat[(o * n + i) * inner + k] for o in range(outer) for i in indices for k in range(inner)]
    out_shape = shape[:axis] + tuple(index_shape) + shape[axis + 1 :]
    if not out_shape:
        return _dtypes.scalar_of(arr.dtype.name, flat[0])
    return ndarray(flat, out_shape, arr.dtype)


def _kahan_sum(values):
    """numpy's kahan_sum: the probabilities' compensated sum that choice checks against 1."""
    if not values:
        return 0.0
    total, c = values[0], 0.0
    for v in values[1:]:
        y = v - c
        t = total + y
        c = (t - total) - y
        total = t
    return total


def _cdf(p):
    """numpy's p.cumsum() / its last entry."""
    out, total = [], 0.0
    for v in p:
        total += v
        out.append(total)
    return [v / total for v in out]


def _shuffle_int(bitgen, data, first):
    """numpy's _shuffle_int: Fisher-Yates over data[first:], last to first, by Lemire's bounded draws."""
    for i in range(len(data) - 1, first - 1, -1):
        j = _bounded.bounded64(bitgen, i)
        data[i], data[j] = data[j], data[i]


def _checked_p(p, pop_size):
    """p as a list of floats, after numpy's checks of it against a population of pop_size."""
    len(p)  # numpy takes len(p) first: a scalar p raises its TypeError
    atol = math.sqrt(2.220446049250313e-16)
    if isinstance(p, ndarray) and p.dtype.name == "float32":
        atol = max(atol, math.sqrt(1.1920928955078125e-07))  # a float32 p is checked to its own precision
    pa = asarray(p, "float64")
    if pa.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if pa.size != pop_size:
        raise ValueError("a and p must have same size")
    total = _kahan_sum(pa._flat)
    if total != total:
        raise ValueError("probabilities contain NaN")
    if any(v < 0 for v in pa._flat):
        raise ValueError("probabilities are not non-negative")
    if abs(total - 1.0) > atol:
        raise ValueError("probabilities do not sum to 1")
    return list(pa._flat)


def _without_replacement(gen, pop_size, n, p, shuffle):
    """n distinct indices of range(pop_size) as numpy draws them."""
    bitgen = gen.bit_generator
    if n > pop_size:
        raise ValueError("Cannot take a larger sample than population when replace is False")
    if p is not None:
        if sum(1 for v in p if v > 0) < n:
            raise ValueError("Fewer non-zero entries in p than size")
        p, found = list(p), []
        while len(found) < n:
            xs = gen.random((n - len(found),))._flat
            for i in found:
                p[i] = 0.0  # what is drawn already cannot be drawn again
            cdf = _cdf(p)
            # numpy keeps the new draws' distinct values in the order they first appear.
            for v in dict.fromkeys(bisect.bisect_right(cdf, x) for x in xs):
                found.append(v)
        return found
    if pop_size > 10000 and n > pop_size // (50 if shuffle else 20):
        # A large share of a large population: shuffle the tail of range(pop_size) and keep it.
        idx = list(range(pop_size))
        _shuffle_int(bitgen, idx, max(pop_size - n, 1))
        return idx[pop_size - n :]
    # Floyd's algorithm: each j draws from [0, j]; a value taken already yields j itself.
    taken, idx = set(), []
    for j in range(pop_size - n, pop_size):
        val = _bounded.bounded64(bitgen, j)
        pick = j if val in taken else val
        taken.add(pick)
        idx.append(pick)
    if shuffle:
        _shuffle_int(bitgen, idx, 1)
    return idx


def choice(gen, a, size=None, replace=True, p=None, axis=0, shuffle=True):
    """numpy's Generator.choice (see Generator.choice)."""
    arr = asarray(a)
    scalar = size is None
    shape = () if scalar else shape_of(size)
    n = math.prod(shape)
    if arr.ndim == 0:
        try:
            pop_size = operator.index(arr.item())
        except TypeError:
            raise ValueError(f"a must be a sequence or an integer, not {type(a)}") from None
        if pop_size <= 0 and n != 0:
            raise ValueError("a must be a positive integer unless no samples are taken")
    else:
        axis = _axis(axis, arr.ndim)
        pop_size = arr.shape[axis]
        if pop_size == 0 and n != 0:
            raise ValueError("a cannot be empty unless no samples are taken")
    if p is not None:
        p = _checked_p(p, pop_size)
    if replace and p is not None:
        cdf = _cdf(p)
        idx = [bisect.bisect_right(cdf, u) for u in gen.random(shape)._flat]
    elif replace:
        found = gen.integers(0, pop_size, size=shape)
        idx = list(found._flat)
    else:
        idx = _without_replacement(gen, pop_size, n, p, shuffle)
    if arr.ndim == 0:
        return idx[0] if scalar else ndarray(idx, shape, "int64")  # numpy's idx.item(0): a Python int
    if scalar:
        return _take(arr, idx, (), axis)
    if not shape:
        return ndarray([arr._flat[idx[0]]], (), arr.dtype) if arr.ndim == 1 else _take(arr, idx, (), axis)
    return _take(arr, idx, shape, axis)


def shuffle(gen, x, axis=0):
    """numpy's Generator.shuffle (see Generator.shuffle)."""
    n = len(x)
    bitgen = gen.bit_generator
    if isinstance(x, ndarray):
        axis = _axis(axis, x.ndim)
        if x.size == 0:
            return None
        shape = x.shape
        outer, size, inner = math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])
        flat = x._flat
        for i in range(size - 1, 0, -1):
            j = _bounded.interval(bitgen, i)
            if i != j:
                for o in range(outer):
                    a, b = (o * size + i) * inner, (o * size + j) * inner
                    flat[a : a + inner], flat[b : b + inner] = flat[b : b + inner], flat[a : a + inner]
        return None
    if axis != 0:
        raise NotImplementedError("Axis argument is only supported on ndarray objects")
    for i in range(n - 1, 0, -1):
        j = _bounded.interval(bitgen, i)
        x[i], x[j] = x[j], x[i]
    return None


def permutation(gen, x, axis=0):
    """numpy's Generator.permutation (see Generator.permutation)."""
    if isinstance(x, int):  # Python's ints and numpy's integer scalars
        arr = ndarray(list(range(x)), (max(int(x), 0),), "int64")
        shuffle(gen, arr)
        return arr
    arr = asarray(x)
    axis = _axis(axis, arr.ndim)
    if arr.ndim == 1:
        arr = arr.copy()
        shuffle(gen, arr)
        return arr
    idx = ndarray(list(range(arr.shape[axis])), (arr.shape[axis],), "int64")
    shuffle(gen, idx)
    return _take(arr, idx._flat, idx.shape, axis)
