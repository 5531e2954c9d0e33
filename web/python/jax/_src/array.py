"""jax.Array: a JS array or tracer seen from Python. Operators and methods
are jax.numpy's functions (the table); converting a traced value to a
Python bool, number or index raises JAX's errors, as JAX does."""

import abc
import builtins

from . import dtypes, format
from .js import bridge, call, callback, from_js, sl, to_js_value


def _np():
    from . import numpy

    return numpy


class Array:
    """A jax Array: concrete (on the devices) or traced (inside jit, grad, shard_map)."""

    __slots__ = ("_js", "__weakref__")
    __array_priority__ = 100

    def __init__(self, js_value):
        self._js = js_value

    # The type.

    @property
    def shape(self):
        """The shape, a tuple."""
        return tuple(int(d) for d in self._js.shape)

    @property
    def ndim(self):
        """The number of dimensions."""
        return int(self._js.ndim)

    @property
    def size(self):
        """The number of elements."""
        return int(self._js.size)

    @property
    def dtype(self):
        """The dtype (jnp.float32, jnp.int32 or jnp.bool_ compare equal to it)."""
        return dtypes.dtype(self._js.dtype)

    @property
    def weak_type(self):
        """Whether the array is weakly typed (a Python scalar's, or computed from weak values only)."""
        return bool(self._js.weakType)

    @property
    def aval(self):
        """The abstract value: a ShapedArray of the shape, dtype and weak type, and the Explicit mesh axes its
        dimensions are split over (jax.typeof prints float32[8@X,4]), a traced value's as its type says."""
        from .abstract import ShapedArray
        from .sharding import type_spec

        spec, unreduced, reduced = type_spec(self._js.typeSharding, len(self.shape))
        vma = [str(a) for a in self._js.vma] if self._is_tracer() else []
        return ShapedArray(self.shape, self.dtype, self.weak_type, vma, spec, unreduced, reduced)

    @property
    def itemsize(self):
        """The bytes of one element."""
        return self.dtype.itemsize

    @property
    def nbytes(self):
        """The bytes of all elements, at the dtype's size."""
        return self.size * self.itemsize

    def devices(self):
        """The set of devices holding a part of the array."""
        self._concrete("devices() method")
        return set(self.sharding.device_set)

    def __array_namespace__(self, *, api_version=None):
        """The array API namespace of the array: jax.numpy (the Python array API standard)."""
        return _np()

    @property
    def addressable_shards(self):
        """Each device's Shard of the array, in device order: its device, its index (a slice per
        dimension, slice(None) where the dimension is whole), its replica_id and its data."""
        from .devices import Device

        from .sharding import SingleDeviceSharding

        self._concrete("addressable_shards")
        if isinstance(self.sharding, SingleDeviceSharding):  # one shard, the whole array, as JAX's
            return [Shard(Device(0), (slice(None),) * self.ndim, 0, _np().asarray(self.tolist(), dtype=self.dtype))]
        shards, seen = [], []
        for s in self._js.addressableShards:
            bounds = [(int(a), int(b)) for a, b in s.index]
            index = tuple(slice(None) if (a, b) == (0, n) else slice(a, b) for (a, b), n in zip(bounds, self.shape))
            block = _np().asarray(s.data.to_py().tolist(), dtype=self.dtype).reshape(tuple(b - a for a, b in bounds))
            shards.append(Shard(Device(int(s.device)), index, seen.count(bounds), block))
            seen.append(bounds)
        return shards

    def addressable_data(self, index):
        """The data of the array's shard on device `index` (jax.Array.addressable_data)."""
        return self.addressable_shards[index].data

    def copy(self):
        """A copy of the array (an array is immutable, so a new handle on equal values)."""
        return _np().array(self, copy=True)

    @property
    def T(self):
        """The transpose."""
        return _np().transpose(self)

    @property
    def mT(self):
        """Each matrix of the stack transposed (jnp.matrix_transpose)."""
        return _np().matrix_transpose(self)

    @property
    def sharding(self):
        """The sharding of a concrete array: its NamedSharding, or a SingleDeviceSharding where it was placed on no mesh."""
        from .sharding import _sharding_of

        self._concrete("sharding")
        return _sharding_of(self._js.sharding)

    def _is_tracer(self):
        return bool(bridge.isTracer(self._js))

    # Conversions: JAX's errors on traced values.

    def _concrete(self, what):
        from . import errors

        if self._is_tracer():
            if what == "bool":
                raise errors.TracerBoolConversionError(self)
            if what == "index":
                raise errors.TracerIntegerConversionError(self)
            if what in ("float", "int", "complex"):
                raise errors.ConcretizationTypeError(
                    self,
                    f"The problem arose with the `{what}` function. If trying to convert the data type of a value, "
                    f"try using `x.astype({what})` or `jnp.array(x, {what})` instead.",
                )
            raise errors.ConcretizationTypeError(self, f"This occurred in the {what} of jax.Array")
        return self

    def _values(self):
        return self._concrete("data")._js.dataSync().to_py().tolist()

    def __bool__(self):
        if self.size == 0:
            raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.")
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        self._concrete("bool")
        return bool(self._values()[0])

    def __float__(self):
        self._scalar("float")
        return float(self._values()[0])

    def __int__(self):
        self._scalar("int")
        return int(self._values()[0])

    def __index__(self):
        # JAX checks the type before the value, so a traced int scalar is the tracer's error and any other array this one.
        if self.ndim != 0 or self.dtype.kind not in "iu":
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        self._concrete("index")
        return int(self._values()[0])

    def _scalar(self, what):
        if self.size != 1:
            raise TypeError(f"Only scalar arrays can be converted to Python scalars; got arr.ndim={self.ndim}")
        self._concrete(what)

    def item(self):
        """The single element as a Python scalar."""
        self._concrete("item() method")
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        v = self._values()[0]
        return bool(v) if self.dtype.name == "bool" else v

    def tolist(self):
        """The elements as nested Python lists."""
        values = self._values()
        if self.dtype.name == "bool":
            values = [bool(v) for v in values]

        def nest(dim, offset, stride):
            if dim == self.ndim:
                return values[offset]
            inner = stride // self.shape[dim] if self.shape[dim] else 0
            return [nest(dim + 1, offset + i * inner, inner) for i in range(self.shape[dim])]

        return nest(0, 0, self.size)

    def block_until_ready(self):
        """Returns the array (a blocking engine computes arrays before returning them)."""
        return self

    def __array__(self, *a, **k):
        from . import errors

        if self._is_tracer():
            raise errors.TracerArrayConversionError(self)
        raise TypeError("numpy is not available in ShardLab's Python; use x.tolist()")

    def __repr__(self):
        if self._is_tracer():
            # JAX 0.11's jit tracer: JitTracer(float32[3]), its aval as str prints it (~ when weak, {V:x} when varying).
            return f"JitTracer({self.aval})"
        return format.array_repr(self._concrete("data")._js.dataSync(), self.shape, self.dtype.name, self.weak_type)

    def __str__(self):
        if self._is_tracer():
            return repr(self)
        return format.array_str(self._concrete("data")._js.dataSync(), self.shape, self.dtype.name)

    def __format__(self, spec):
        # As JAX (numpy's rule): a 0-d array formats its element; others only as str, with an empty spec.
        if not spec:
            return str(self)
        if self.ndim == 0:
            self._concrete("format")
            return builtins.format(self.item(), spec)
        raise TypeError("unsupported format string passed to numpy.ndarray.__format__")

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __getitem__(self, index):
        return _IndexRef(self, index).get()

    def __setitem__(self, index, value):
        raise TypeError(
            f"'{type(self).__name__}' object does not support item assignment. JAX arrays are immutable. "
            "Instead of ``x[idx] = y``, use ``x = x.at[idx].set(y)`` or another .at[] method: "
            "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"
        )

    @property
    def at(self):
        """x.at[idx].get() / .set(v) / .add(v) / .subtract(v) / .multiply(v) / .min(v) / .max(v)."""
        return _IndexUpdateHelper(self)

    __hash__ = None

    # Methods (jax.numpy functions).

    def astype(self, dtype):
        """jnp.astype(self, dtype)."""
        return _np().astype(self, dtype)

    def reshape(self, *shape):
        """self reshaped: x.reshape(2, 3) or x.reshape((2, 3))."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _np().reshape(self, shape)

    def transpose(self, *axes):
        """self with its axes permuted (reversed by default)."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        return _np().transpose(self, axes or None)

    def sum(self, axis=None, keepdims=False):
        """jnp.sum(self, axis, keepdims=keepdims)."""
        return _np().sum(self, axis=axis, keepdims=keepdims)

    def mean(self, axis=None, keepdims=False):
        """jnp.mean(self, axis, keepdims=keepdims)."""
        return _np().mean(self, axis=axis, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        """jnp.max(self, axis, keepdims=keepdims)."""
        return _np().max(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        """jnp.min(self, axis, keepdims=keepdims)."""
        return _np().min(self, axis=axis, keepdims=keepdims)

    def var(self, axis=None, keepdims=False):
        """jnp.var(self, axis, keepdims=keepdims)."""
        return _np().var(self, axis=axis, keepdims=keepdims)

    def std(self, axis=None, ddof=0, keepdims=False):
        """jnp.std(self, axis, ddof=ddof, keepdims=keepdims)."""
        return _np().std(self, axis=axis, ddof=ddof, keepdims=keepdims)

    def prod(self, axis=None, keepdims=False):
        """jnp.prod(self, axis, keepdims=keepdims)."""
        return _np().prod(self, axis=axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        """jnp.any(self, axis, keepdims=keepdims)."""
        return _np().any(self, axis=axis, keepdims=keepdims)

    def all(self, axis=None, keepdims=False):
        """jnp.all(self, axis, keepdims=keepdims)."""
        return _np().all(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis=None, keepdims=False):
        """jnp.argmax(self, axis, keepdims=keepdims)."""
        return _np().argmax(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        """jnp.argmin(self, axis, keepdims=keepdims)."""
        return _np().argmin(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis=None):
        """jnp.cumsum(self, axis)."""
        return _np().cumsum(self, axis=axis)

    def sort(self, axis=-1):
        """jnp.sort(self, axis)."""
        return _np().sort(self, axis=axis)

    def argsort(self, axis=-1):
        """jnp.argsort(self, axis)."""
        return _np().argsort(self, axis=axis)

    def ravel(self):
        """The elements as a 1-d array."""
        return _np().reshape(self, (-1,))

    flatten = ravel

    def squeeze(self, axis=None):
        """jnp.squeeze(self, axis)."""
        return _np().squeeze(self, axis)

    def dot(self, other):
        """jnp.dot(self, other)."""
        return _np().dot(self, other)

    def swapaxes(self, axis1, axis2):
        """jnp.swapaxes(self, axis1, axis2)."""
        return _np().swapaxes(self, axis1, axis2)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        """jnp.diagonal(self, offset, axis1, axis2)."""
        return _np().diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1):
        """jnp.trace(self, offset, axis1, axis2)."""
        return _np().trace(self, offset, axis1, axis2)

    def round(self, decimals=0, out=None):
        """jnp.round(self, decimals)."""
        if out is not None:
            raise ValueError("The 'out' argument to jnp.ndarray.round is not supported.")
        return _np().round(self, decimals)

    def clip(self, min=None, max=None):
        """jnp.clip(self, min, max)."""
        return _np().clip(self, min, max)

    # Operators.

    def __add__(self, o):
        return _np().add(self, o)

    def __radd__(self, o):
        return _np().add(o, self)

    def __sub__(self, o):
        return _np().subtract(self, o)

    def __rsub__(self, o):
        return _np().subtract(o, self)

    def __mul__(self, o):
        return _np().multiply(self, o)

    def __rmul__(self, o):
        return _np().multiply(o, self)

    def __truediv__(self, o):
        return _np().divide(self, o)

    def __rtruediv__(self, o):
        return _np().divide(o, self)

    def __floordiv__(self, o):
        return _np().floor_divide(self, o)

    def __rfloordiv__(self, o):
        return _np().floor_divide(o, self)

    def __mod__(self, o):
        return _np().remainder(self, o)

    def __rmod__(self, o):
        return _np().remainder(o, self)

    def __pow__(self, o):
        return _np().power(self, o)

    def __rpow__(self, o):
        return _np().power(o, self)

    def __matmul__(self, o):
        return _np().matmul(self, o)

    def __rmatmul__(self, o):
        return _np().matmul(o, self)

    def __neg__(self):
        return _np().negative(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _np().abs(self)

    def __and__(self, o):
        return _np().bitwise_and(self, o)

    def __rand__(self, o):
        return _np().bitwise_and(o, self)

    def __or__(self, o):
        return _np().bitwise_or(self, o)

    def __ror__(self, o):
        return _np().bitwise_or(o, self)

    def __xor__(self, o):
        return _np().bitwise_xor(self, o)

    def __rxor__(self, o):
        return _np().bitwise_xor(o, self)

    def __invert__(self):
        return _np().bitwise_not(self)

    def __lshift__(self, o):
        return _np().left_shift(self, o)

    def __rlshift__(self, o):
        return _np().left_shift(o, self)

    def __rshift__(self, o):
        return _np().right_shift(self, o)

    def __rrshift__(self, o):
        return _np().right_shift(o, self)

    def __eq__(self, o):
        return _np().equal(self, o)

    def __ne__(self, o):
        return _np().not_equal(self, o)

    def __lt__(self, o):
        return _np().less(self, o)

    def __le__(self, o):
        return _np().less_equal(self, o)

    def __gt__(self, o):
        return _np().greater(self, o)

    def __ge__(self, o):
        return _np().greater_equal(self, o)


def _index_entries(index):
    """A numpy index as the JS API's x.at(...) entries: ints, slices (sl.slice), None, '...', arrays."""
    if isinstance(index, list):
        raise TypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; "
            "use `arr[array(seq)]` instead of `arr[seq]`. See https://github.com/jax-ml/jax/issues/4564 "
            "for more information."
        )
    entries = []
    for e in index if isinstance(index, tuple) else (index,):
        if e is Ellipsis:
            entries.append("...")
        elif isinstance(e, slice):
            entries.append(call(sl.slice, *(_static_int(v) for v in (e.start, e.stop, e.step))))
        elif e is None or isinstance(e, (bool, int, float, Array, list, tuple)):
            entries.append(e)
        elif hasattr(e, "_shardlab_host_array"):  # a numpy array or scalar: an index array, converted as JAX converts it
            from .api import asarray

            entries.append(asarray(e))
        elif hasattr(e, "__index__"):
            entries.append(e.__index__())
        else:
            raise TypeError(f"JAX does not support indexing with {type(e).__name__} values; got {e!r}")
    return entries


def _static_int(v):
    return v if v is None or isinstance(v, int) else v.__index__()


class PublicArray(abc.ABC):
    """jax.Array as users test it (isinstance): ShardLab's arrays and its typed key arrays, which
    are jax.Arrays in JAX too. Inside the package Array is the arrays' own class."""


PublicArray.register(Array)


class Shard:
    """jax.Shard: one device's part of an array."""

    __slots__ = ("device", "index", "replica_id", "data")

    def __init__(self, device, index, replica_id, data):
        self.device, self.index, self.replica_id, self.data = device, index, replica_id, data

    def __repr__(self):
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, data={self.data})"


class _IndexUpdateHelper:
    """x.at: indexed by x.at[idx] into a reference (`ref`: _IndexRef for arrays, another for key arrays)."""

    __slots__ = ("array", "ref")

    def __init__(self, array, ref=None):
        self.array = array
        self.ref = ref or _IndexRef

    def __getitem__(self, index):
        return self.ref(self.array, index)


class _IndexRef:
    """x.at[idx]: reads or functionally updates x at idx (JAX's _IndexUpdateRef)."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def _ref(self):
        return call(sl.at, self.array, *_index_entries(self.index))

    @staticmethod
    def _opts(mode, unique_indices, indices_are_sorted, **more):
        return {"mode": mode, "uniqueIndices": unique_indices, "indicesAreSorted": indices_are_sorted, **more}

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None, fill_value=None):
        """x[idx]; mode 'clip', 'fill' (fill_value, NaN by default for floats) or 'promise_in_bounds'."""
        return from_js(call(self._ref().get, self._opts(mode, unique_indices, indices_are_sorted, fillValue=fill_value)))

    def _update(self, how, values, indices_are_sorted, unique_indices, mode):
        return from_js(call(getattr(self._ref(), how), values, self._opts(mode, unique_indices, indices_are_sorted)))

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = values."""
        return self._update("set", values, indices_are_sorted, unique_indices, mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] += values (duplicate indices accumulate)."""
        return self._update("add", values, indices_are_sorted, unique_indices, mode)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] -= values."""
        return self._update("subtract", values, indices_are_sorted, unique_indices, mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] *= values."""
        return self._update("multiply", values, indices_are_sorted, unique_indices, mode)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = minimum(x[idx], values)."""
        return self._update("min", values, indices_are_sorted, unique_indices, mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] = maximum(x[idx], values)."""
        return self._update("max", values, indices_are_sorted, unique_indices, mode)

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] /= values (x divided by ones with values multiplied in at idx, as JAX's)."""
        return self._update("divide", values, indices_are_sorted, unique_indices, mode)

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with x[idx] **= values."""
        return self._update("power", values, indices_are_sorted, unique_indices, mode)

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """x with the unary func applied at idx (once per element: JAX applies it once per repeat of an index)."""
        fn = callback(lambda x: to_js_value(func(from_js(x))))
        try:
            return self._update("apply", fn, indices_are_sorted, unique_indices, mode)
        finally:
            fn.destroy()
