"""numpy's functions in ShardLab's numpy subset: arrays made from lists,
ranges and fills, reshapes and joins, elementwise math, reductions and
comparisons of host data."""

import builtins
import math

from . import _dtypes
from ._ndarray import _axes, _broadcast, _expanded, asarray, ndarray


def array(object, dtype=None, copy=True):
    """np.array: an ndarray of nested lists, tuples, ranges, arrays (numpy's or jax's) or a scalar."""
    a = asarray(object, dtype)
    return a.copy() if copy and a is object else a


def _filled(shape, value, dtype):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if builtins.any(not isinstance(n, int) or n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed (shape {shape})")
    d = _dtypes.name_of(dtype)
    return ndarray([_dtypes.CAST[d](value)] * math.prod(shape), shape, d)


def zeros(shape, dtype=float):
    """np.zeros (float64 by default)."""
    return _filled(shape, 0, dtype)


def ones(shape, dtype=float):
    """np.ones (float64 by default)."""
    return _filled(shape, 1, dtype)


def empty(shape, dtype=float):
    """np.empty: here, zeros."""
    return _filled(shape, 0, dtype)


def full(shape, fill_value, dtype=None):
    """np.full: shape filled with fill_value (its dtype unless given)."""
    return _filled(shape, fill_value, dtype if dtype is not None else asarray(fill_value).dtype)


def zeros_like(a, dtype=None):
    """np.zeros_like."""
    a = asarray(a)
    return _filled(a.shape, 0, dtype or a.dtype)


def ones_like(a, dtype=None):
    """np.ones_like."""
    a = asarray(a)
    return _filled(a.shape, 1, dtype or a.dtype)


def full_like(a, fill_value, dtype=None):
    """np.full_like."""
    a = asarray(a)
    return _filled(a.shape, fill_value, dtype or a.dtype)


def arange(start, stop=None, step=1, dtype=None):
    """np.arange: start, start + step, ... before stop (int64 for ints, float64 if any bound is a float)."""
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    n = builtins.max(0, math.ceil((stop - start) / step))
    floats = builtins.any(isinstance(v, float) for v in (start, stop, step))
    d = _dtypes.name_of(dtype) if dtype is not None else "float64" if floats else "int64"
    return ndarray([_dtypes.CAST[d](start + i * step) for i in range(n)], (n,), d)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None):
    """np.linspace: num evenly spaced values from start (to stop with endpoint), numpy's way: start + i * step."""
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    step = (stop - start) / div if div > 0 else math.nan
    values = [start + i * step for i in range(num)] if div > 0 else [float(start)] * num
    if endpoint and num > 1:
        values[-1] = float(stop)
    d = _dtypes.name_of(dtype) if dtype is not None else "float64"
    out = ndarray([_dtypes.CAST[d](math.floor(v) if _dtypes._KINDS[d] in "iu" else v) for v in values], (num,), d)
    return (out, _dtypes.float64(step)) if retstep else out


def eye(N, M=None, k=0, dtype=float):
    """np.eye: ones on the k-th diagonal."""
    M = N if M is None else M
    d = _dtypes.name_of(dtype)
    return ndarray([_dtypes.CAST[d](1 if j - i == k else 0) for i in range(N) for j in range(M)], (N, M), d)


def identity(n, dtype=float):
    """np.identity."""
    return eye(n, dtype=dtype)


def reshape(a, shape, order="C"):
    """np.reshape."""
    return asarray(a).reshape(shape, order=order)


def transpose(a, axes=None):
    """np.transpose."""
    return asarray(a).transpose(*(axes or ()))


def ravel(a):
    """np.ravel."""
    return asarray(a).ravel()


def concatenate(arrays, axis=0):
    """np.concatenate along an existing axis."""
    xs = [asarray(x) for x in arrays]
    if not xs:
        raise ValueError("need at least one array to concatenate")
    d = xs[0].dtype.name
    for x in xs[1:]:
        d = _dtypes.promote(d, x.dtype.name)
    nd = xs[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _axes(axis, nd, "concatenate")[0]
    for x in xs:
        if x.ndim != nd or x.shape[:ax] + x.shape[ax + 1 :] != xs[0].shape[:ax] + xs[0].shape[ax + 1 :]:
            raise ValueError(f"all the input array dimensions except for the concatenation axis must match exactly, got {[x.shape for x in xs]}")
    outer = math.prod(xs[0].shape[:ax])
    flat = []
    for o in range(outer):
        for x in xs:
            block = math.prod(x.shape[ax:])
            flat.extend(_dtypes.CAST[d](v) for v in x._flat[o * block : (o + 1) * block])
    shape = list(xs[0].shape)
    shape[ax] = builtins.sum(x.shape[ax] for x in xs)
    return ndarray(flat, shape, d)


def stack(arrays, axis=0):
    """np.stack along a new axis."""
    xs = [asarray(x) for x in arrays]
    if not xs:
        raise ValueError("need at least one array to stack")
    ax = _axes(axis, xs[0].ndim + 1, "stack")[0]
    return concatenate([x.reshape(x.shape[:ax] + (1,) + x.shape[ax:]) for x in xs], ax)


def matmul(a, b):
    """np.matmul / a @ b of 1-d and 2-d arrays (float64 sums)."""
    x, y = asarray(a), asarray(b)
    if x.ndim == 0 or y.ndim == 0 or x.ndim > 2 or y.ndim > 2:
        raise ValueError(f"matmul: ShardLab's numpy multiplies 1-d and 2-d arrays; got shapes {x.shape} and {y.shape}")
    xm = x.reshape(1, -1) if x.ndim == 1 else x
    ym = y.reshape(-1, 1) if y.ndim == 1 else y
    n, k = xm.shape
    k2, m = ym.shape
    if k != k2:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0 (size {k2} is different from {k})")
    d = _dtypes.promote(x.dtype.name, y.dtype.name)
    flat = [_dtypes.CAST[d](math.fsum(xm._flat[i * k + t] * ym._flat[t * m + j] for t in range(k))) for i in range(n) for j in range(m)]
    shape = tuple(s for s, kept in zip((n, m), (x.ndim == 2, y.ndim == 2)) if kept)  # a 1-d operand's axis dropped
    return ndarray(flat, shape, d) if shape else _dtypes.scalar_of(d, flat[0])


dot = matmul


def _elementwise(fn, name):
    def f(x):
        a = asarray(x)
        d = a.dtype.name if a.dtype.kind == "f" else "float64"
        out = ndarray([_dtypes.CAST[d](fn(float(v))) for v in a._flat], a.shape, d)
        return out if out.shape else _dtypes.scalar_of(d, out._flat[0])

    f.__name__ = name
    f.__doc__ = f"np.{name}, elementwise (float64 for ints)."
    return f


def _safe(fn, bad):
    def g(v):
        try:
            return fn(v)
        except (ValueError, OverflowError):
            return bad(v)

    return g


sqrt = _elementwise(_safe(math.sqrt, lambda v: math.nan), "sqrt")
exp = _elementwise(_safe(math.exp, lambda v: math.inf), "exp")
log = _elementwise(_safe(lambda v: math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan), lambda v: math.nan), "log")
sin = _elementwise(math.sin, "sin")
cos = _elementwise(math.cos, "cos")
tanh = _elementwise(math.tanh, "tanh")


def abs(x):
    """np.abs."""
    return builtins.abs(asarray(x))


absolute = abs


def _reduction(name):
    def f(a, axis=None, **kwargs):
        return getattr(asarray(a), name)(axis=axis, **kwargs)

    f.__name__ = name
    f.__doc__ = f"np.{name} over `axis` (all by default)."
    return f


sum = _reduction("sum")
mean = _reduction("mean")
prod = _reduction("prod")
max = amax = _reduction("max")
min = amin = _reduction("min")
all = _reduction("all")
any = _reduction("any")


def maximum(x, y):
    """np.maximum, elementwise."""
    return asarray(x)._binary(y, lambda u, v: u if u >= v or u != u else v, "same")


def minimum(x, y):
    """np.minimum, elementwise."""
    return asarray(x)._binary(y, lambda u, v: u if u <= v or u != u else v, "same")


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """np.isclose: |a - b| <= atol + rtol * |b|, elementwise."""

    def close(u, v):
        if u != u or v != v:
            return equal_nan and u != u and v != v
        if math.isinf(u) or math.isinf(v):
            return u == v
        return builtins.abs(u - v) <= atol + rtol * builtins.abs(v)

    return asarray(a, float)._binary(asarray(b, float), close, "compare")


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """np.allclose: whether isclose holds everywhere."""
    return bool(isclose(a, b, rtol, atol, equal_nan).all())


def array_equal(a1, a2, equal_nan=False):
    """np.array_equal: same shape and elements."""
    x, y = asarray(a1), asarray(a2)
    if x.shape != y.shape:
        return False
    return builtins.all(u == v or (equal_nan and u != u and v != v) for u, v in zip(x._flat, y._flat))


def isscalar(element):
    """np.isscalar: whether element is a Python or numpy scalar (a 0-d array is not)."""
    return isinstance(element, (bool, int, float, complex, str, bytes, _dtypes.bool_))


def shape(a):
    """np.shape."""
    return asarray(a).shape


def ndim(a):
    """np.ndim."""
    return asarray(a).ndim


def size(a):
    """np.size."""
    return asarray(a).size


def broadcast_shapes(*shapes):
    """np.broadcast_shapes."""
    out = ()
    for s in shapes:
        out = _broadcast(out, tuple(s))
    return out


def broadcast_to(a, shape):
    """np.broadcast_to: a's elements repeated to `shape`."""
    x = asarray(a)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if _broadcast(x.shape, shape) != shape:
        raise ValueError(f"operands could not be broadcast together with remapped shapes {x.shape} and requested shape {shape}")
    return ndarray(_expanded(x, shape), shape, x.dtype)


def where(condition, x, y):
    """np.where(condition, x, y): x where condition holds, else y (broadcast)."""
    c = asarray(condition)
    a, b = asarray(x), asarray(y)
    shape = broadcast_shapes(c.shape, a.shape, b.shape)
    d = _dtypes.promote(a.dtype.name, b.dtype.name)
    flat = [_dtypes.CAST[d](u if k else v) for k, u, v in zip(_expanded(c, shape), _expanded(a, shape), _expanded(b, shape))]
    return ndarray(flat, shape, d)


def result_type(*xs):
    """np.result_type of arrays and dtypes."""
    d = None
    for x in xs:
        n = _dtypes.name_of(x) if not hasattr(x, "_shardlab_host_array") else x.dtype.name
        d = n if d is None else _dtypes.promote(d, n)
    return _dtypes.dtype(d)

