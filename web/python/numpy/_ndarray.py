"""numpy's ndarray in ShardLab's numpy subset: host data (a flat row-major
list, a shape and a dtype), with numpy's indexing by ints and slices,
broadcasting arithmetic and comparisons, reductions over axes, reshapes and
printing. What JAX code does with numpy on the host; a jax function given
one converts it as JAX does (float64 to float32, int64 to int32)."""

import itertools
import math
import operator

from . import _dtypes


def _shape_text(shape):
    """A shape as numpy's messages write it: (4,2), (4,)."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _strides(shape):
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return out[::-1]


def _broadcast(a, b):
    """numpy's broadcast shape of shapes a and b."""
    out = []
    for x, y in itertools.zip_longest(reversed(a), reversed(b), fillvalue=1):
        if x != y and 1 not in (x, y):
            raise ValueError(f"operands could not be broadcast together with shapes {_shape_text(a)} {_shape_text(b)} ")
        out.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(reversed(out))


def _expanded(arr, shape):
    """arr's elements broadcast to `shape`, flat."""
    if arr.shape == shape:
        return arr._flat
    pad = (1,) * (len(shape) - arr.ndim) + arr.shape
    strides = [0 if n == 1 else s for n, s in zip(pad, _strides(pad))]
    return [arr._flat[sum(i * s for i, s in zip(idx, strides))] for idx in itertools.product(*map(range, shape))]


def _axes(axis, ndim, fn):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in axes:
        if not isinstance(a, int) or not -ndim <= a < max(ndim, 1):
            raise ValueError(f"{fn}: axis {a} is out of bounds for array of dimension {ndim}")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out)))


class ndarray:
    """A numpy array of host data (ShardLab's numpy subset)."""

    __slots__ = ("_flat", "_shape", "_dtype")
    __array_priority__ = 0  # a jax Array beside it answers the operator, as with numpy's

    def __init__(self, flat, shape, dtype):
        self._flat = flat
        self._shape = tuple(shape)
        self._dtype = _dtypes.dtype(dtype)

    @property
    def _shardlab_host_array(self):
        """(flat elements, shape, dtype name): what jax reads to convert the array."""
        return self._flat, self._shape, self._dtype.name

    shape = property(lambda self: self._shape, doc="The shape.")
    dtype = property(lambda self: self._dtype, doc="The dtype.")
    ndim = property(lambda self: len(self._shape), doc="The number of dimensions.")
    size = property(lambda self: len(self._flat), doc="The number of elements.")
    itemsize = property(lambda self: self._dtype.itemsize, doc="The bytes of one element.")
    nbytes = property(lambda self: self.size * self._dtype.itemsize, doc="The bytes of the elements.")
    T = property(lambda self: self.transpose(), doc="The transpose.")

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tolist(self):
        """The elements as nested Python lists (a 0-d array's element itself)."""
        if not self._shape:
            return self._flat[0]

        def nest(flat, shape):
            if len(shape) == 1:
                return list(flat)
            step = len(flat) // shape[0] if shape[0] else 0
            return [nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]

        return nest([self._python(v) for v in self._flat], self._shape)

    def _python(self, v):
        return {"f": float, "i": int, "u": int, "b": bool}.get(self._dtype.kind, lambda x: x)(v)

    def item(self, *index):
        """One element as a Python scalar: the only one, or the one at a flat index or a full index."""
        if not index:
            if self.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return self._python(self._flat[0])
        if len(index) == 1 and isinstance(index[0], int):
            return self._python(self._flat[index[0]])
        return self._python(self._flat[self._positions(index if len(index) > 1 else index[0])[0][0]])

    def astype(self, dtype):
        """The elements converted to `dtype`."""
        d = _dtypes.name_of(dtype)
        return ndarray([_dtypes.CAST[d](v) for v in self._flat], self._shape, d)

    def copy(self):
        """A copy."""
        return ndarray(list(self._flat), self._shape, self._dtype)

    def reshape(self, *shape, order="C"):
        """The same elements in `shape` (one dimension may be -1)."""
        if order != "C":
            raise NotImplementedError("reshape: ShardLab's numpy has row-major (order='C') arrays only")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if shape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        known = math.prod(n for n in shape if n != -1)
        if -1 in shape:
            if known == 0 or self.size % known:
                raise ValueError(f"cannot reshape array of size {self.size} into shape {_shape_text(shape)}")
            shape = tuple(self.size // known if n == -1 else n for n in shape)
        if math.prod(shape) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {_shape_text(shape)}")
        return ndarray(self._flat, shape, self._dtype)

    def flatten(self):
        """A 1-d copy."""
        return ndarray(list(self._flat), (self.size,), self._dtype)

    ravel = flatten

    def transpose(self, *axes):
        """The axes permuted (reversed by default)."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        perm = axes or tuple(reversed(range(self.ndim)))
        if sorted(a % max(self.ndim, 1) for a in perm) != list(range(self.ndim)):
            raise ValueError("axes don't match array")
        perm = [a % self.ndim for a in perm]
        strides = _strides(self._shape)
        shape = tuple(self._shape[a] for a in perm)
        flat = [self._flat[sum(i * strides[a] for i, a in zip(idx, perm))] for idx in itertools.product(*map(range, shape))]
        return ndarray(flat, shape, self._dtype)

    # Indexing: ints, slices, Ellipsis and None, as numpy's basic indexing.

    def _positions(self, index):
        index = index if isinstance(index, tuple) else (index,)
        if any(i is Ellipsis for i in index):
            k = index.index(Ellipsis)
            rest = sum(1 for i in index if i is not None and i is not Ellipsis)
            index = index[:k] + (slice(None),) * (self.ndim - rest) + index[k + 1 :]
        if sum(1 for i in index if i is not None) > self.ndim:
            raise IndexError(f"too many indices for array: array is {self.ndim}-dimensional, but {len(index)} were indexed")
        per_dim, shape, dim = [], [], 0
        for i in index:
            if i is None:
                shape.append(1)
                continue
            n = self._shape[dim]
            if isinstance(i, slice):
                r = range(*i.indices(n))
                per_dim.append(list(r))
                shape.append(len(r))
            elif isinstance(i, int) or hasattr(i, "__index__"):
                i = operator.index(i)
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for axis {dim} with size {n}")
                per_dim.append([i % n])
            else:
                raise IndexError(
                    f"ShardLab's numpy indexes with ints, slices, ... and None; got {type(i).__name__} (use jax.numpy for array indices)"
                )
            dim += 1
        for n in self._shape[dim:]:
            per_dim.append(list(range(n)))
            shape.append(n)
        strides = _strides(self._shape)
        flat = [sum(i * s for i, s in zip(idx, strides)) for idx in itertools.product(*per_dim)]
        return flat, tuple(shape)

    def __getitem__(self, index):
        flat, shape = self._positions(index)
        if not shape and Ellipsis not in (index if isinstance(index, tuple) else (index,)):
            return _dtypes.scalar_of(self._dtype.name, self._flat[flat[0]])
        return ndarray([self._flat[p] for p in flat], shape, self._dtype)

    def __setitem__(self, index, value):
        flat, shape = self._positions(index)
        values = _expanded(asarray(value, self._dtype), shape)
        cast = _dtypes.CAST[self._dtype.name]
        for p, v in zip(flat, values):
            self._flat[p] = cast(v)

    # Arithmetic and comparisons, broadcast, with numpy's promotion.

    def _binary(self, other, op, kind, reflected=False):
        if hasattr(other, "__jax_array__") or hasattr(other, "_is_tracer"):
            return NotImplemented  # a jax Array answers (it converts this array)
        if isinstance(other, (bool, int, float)) and not isinstance(other, ndarray):
            d = _dtypes.of_python(other, self._dtype.name)
            b = ndarray([_dtypes.CAST[d](other)], (), d)
        else:
            b = asarray(other)
        x, y = (b, self) if reflected else (self, b)
        d = _dtypes.promote(x._dtype.name, y._dtype.name)
        if kind == "divide" and _dtypes._KINDS[d] in "biu":
            d = "float64"
        out = "bool" if kind == "compare" else d
        shape = _broadcast(x._shape, y._shape)
        cast = _dtypes.CAST[d]
        vals = [op(cast(u), cast(v)) for u, v in zip(_expanded(x, shape), _expanded(y, shape))]
        return ndarray([_dtypes.CAST[out](v) for v in vals], shape, out)

    def _unary(self, op, out=None):
        d = out or self._dtype.name
        return ndarray([_dtypes.CAST[d](op(v)) for v in self._flat], self._shape, d)

    def __neg__(self):
        return self._unary(operator.neg)

    def __pos__(self):
        return self.copy()

    def __abs__(self):
        return self._unary(abs)

    def __invert__(self):
        return self._unary(operator.not_ if self._dtype.name == "bool" else operator.invert)

    def __bool__(self):
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")
        return bool(self._flat[0])

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if _dtypes._KINDS[self._dtype.name] not in "iu" or self.size != 1:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self._flat[0])

    __hash__ = None

    # Reductions over `axis` (all by default).

    def _reduce(self, fn, axis, keepdims, dtype, name, empty=None):
        axes = _axes(axis, self.ndim, name)
        kept = [d for d in range(self.ndim) if d not in axes]
        groups = {}
        strides = _strides(self._shape)
        for idx in itertools.product(*map(range, self._shape)):
            key = tuple(idx[d] for d in kept)
            groups.setdefault(key, []).append(self._flat[sum(i * s for i, s in zip(idx, strides))])
        shape = tuple(self._shape[d] for d in kept)
        keys = list(itertools.product(*map(range, shape)))
        if any(not groups.get(k) for k in keys) and empty is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        flat = [_dtypes.CAST[dtype](fn(groups[k]) if groups.get(k) else empty) for k in keys]
        if keepdims:
            shape = tuple(1 if d in axes else n for d, n in enumerate(self._shape))
        if not shape:
            return _dtypes.scalar_of(dtype, flat[0])
        return ndarray(flat, shape, dtype)

    def _sum_dtype(self):
        k = _dtypes._KINDS[self._dtype.name]
        return "int64" if k in "bi" else "uint32" if k == "u" else self._dtype.name

    def sum(self, axis=None, dtype=None, keepdims=False):
        """The sum over `axis` (ints and bools sum as int64, as numpy's)."""
        d = _dtypes.name_of(dtype) if dtype is not None else self._sum_dtype()
        return self._reduce(lambda vs: math.fsum(vs) if d in ("float64", "float32") else sum(vs), axis, keepdims, d, "sum", 0)

    def prod(self, axis=None, dtype=None, keepdims=False):
        """The product over `axis`."""
        d = _dtypes.name_of(dtype) if dtype is not None else self._sum_dtype()
        return self._reduce(math.prod, axis, keepdims, d, "prod", 1)

    def mean(self, axis=None, dtype=None, keepdims=False):
        """The mean over `axis` (float64 for ints, as numpy's)."""
        d = _dtypes.name_of(dtype) if dtype is not None else ("float32" if self._dtype.name == "float32" else "float64")
        return self._reduce(lambda vs: math.fsum(vs) / len(vs), axis, keepdims, d, "mean", math.nan)

    def max(self, axis=None, keepdims=False):
        """The largest element over `axis`."""
        return self._reduce(max, axis, keepdims, self._dtype.name, "maximum")

    def min(self, axis=None, keepdims=False):
        """The smallest element over `axis`."""
        return self._reduce(min, axis, keepdims, self._dtype.name, "minimum")

    def all(self, axis=None, keepdims=False):
        """Whether every element over `axis` is true."""
        return self._reduce(all, axis, keepdims, "bool", "all", True)

    def any(self, axis=None, keepdims=False):
        """Whether some element over `axis` is true."""
        return self._reduce(any, axis, keepdims, "bool", "any", False)

    def argmax(self):
        """The flat index of the first largest element."""
        return _dtypes.int64(max(range(self.size), key=lambda i: (self._flat[i], -i)))

    def argmin(self):
        """The flat index of the first smallest element."""
        return _dtypes.int64(min(range(self.size), key=lambda i: (self._flat[i], i)))

    def __matmul__(self, other):
        from ._functions import matmul

        return matmul(self, other)

    def __rmatmul__(self, other):
        from ._functions import matmul

        return matmul(other, self)

    def __repr__(self):
        from jax._src.format import numpy_repr

        return numpy_repr(self._flat, self._shape, self._dtype.name)

    def __str__(self):
        from jax._src.format import array_str

        return array_str(self._flat, self._shape, self._dtype.name)


def _operator(op, kind="same"):
    return (lambda self, other: self._binary(other, op, kind)), (lambda self, other: self._binary(other, op, kind, True))


def _truediv(x, y):
    try:
        return x / y
    except ZeroDivisionError:
        return math.nan if x == 0 or x != x else math.copysign(math.inf, x) * math.copysign(1, y)


for _name, _op, _kind in [
    ("add", operator.add, "same"),
    ("sub", operator.sub, "same"),
    ("mul", operator.mul, "same"),
    ("truediv", _truediv, "divide"),
    ("floordiv", operator.floordiv, "same"),
    ("mod", operator.mod, "same"),
    ("pow", operator.pow, "same"),
    ("and", operator.and_, "same"),
    ("or", operator.or_, "same"),
    ("xor", operator.xor, "same"),
]:
    forward, backward = _operator(_op, _kind)
    setattr(ndarray, f"__{_name}__", forward)
    setattr(ndarray, f"__r{_name}__", backward)

for _name, _op in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge)]:
    setattr(ndarray, f"__{_name}__", _operator(_op, "compare")[0])


def _nested(obj):
    """(flat elements, shape) of nested lists, tuples and arrays; None when obj is no sequence."""
    if isinstance(obj, ndarray):
        return list(obj._flat), obj.shape
    host = _from_other_array(obj)
    if host is not None:
        return list(host._flat), host.shape
    if not isinstance(obj, (list, tuple, range)):
        return None
    parts = [_nested(x) for x in obj]
    if not parts:
        return [], (0,)
    if all(p is None for p in parts):
        return list(obj), (len(obj),)
    if any(p is None for p in parts) or len({p[1] for p in parts}) > 1:
        raise ValueError(
            "setting an array element with a sequence. The requested array has an inhomogeneous shape; "
            "give lists of equal lengths"
        )
    return [v for p in parts for v in p[0]], (len(obj), *parts[0][1])


def _from_other_array(obj):
    """A jax Array (anything with concrete .tolist(), .shape and a named .dtype) as an ndarray; else None."""
    if isinstance(obj, ndarray) or not all(hasattr(obj, a) for a in ("tolist", "shape", "dtype")):
        return None
    d = _dtypes.name_of(obj.dtype)
    values = obj.tolist()
    flat, shape = _nested(values) if isinstance(values, list) else ([values], ())
    return ndarray([_dtypes.CAST[d](v) for v in flat], tuple(obj.shape), d) if shape == tuple(obj.shape) else None


def _dtype_of_values(flat):
    if all(isinstance(v, (bool, _dtypes.bool_)) for v in flat):
        return "bool"
    if all(isinstance(v, (bool, int)) and not isinstance(v, float) for v in flat):
        return "int64"
    if all(isinstance(v, (bool, int, float)) for v in flat):
        return "float64"
    return "object"


def asarray(obj, dtype=None):
    """np.asarray: an ndarray of obj (itself when it is one of `dtype`)."""
    if isinstance(obj, ndarray) and (dtype is None or obj.dtype == dtype):
        return obj
    if isinstance(obj, ndarray):
        return obj.astype(dtype)
    other = _from_other_array(obj)
    if other is not None:
        return other if dtype is None else other.astype(dtype)
    nested = _nested(obj)
    if nested is None:
        flat, shape = [obj], ()
    else:
        flat, shape = nested
    own = {float: "float64", int: "int64", bool: "bool"}
    d = _dtypes.name_of(dtype) if dtype is not None else (
        own.get(type(obj), None) or getattr(obj, "_shardlab_dtype", None) or _dtype_of_values(flat)
    )
    if not flat and dtype is None:
        d = "float64"
    return ndarray([_dtypes.CAST[d](v) for v in flat], shape, d)
