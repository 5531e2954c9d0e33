"""jax.random's functions: ShardLab's JS `random` (threefry2x32, bit for
bit as JAX's) under JAX's names (the table in jax/_src/table.py), and the
typed key arrays jax.random.key makes."""

from . import pytree as _pytree
from . import table as _table
from . import array as _array
from .array import Array as _Array
from .js import sl as _sl

_FUNCTIONS = _table.functions("random")


def _arraylike_checked(fn, names):
    """fn (a table function) refusing a list or tuple for the array arguments `names`, with JAX's check_arraylike TypeError."""
    signature = fn.__signature__

    def checked(*args, **kwargs):
        try:
            bound = signature.bind_partial(*args, **kwargs).arguments
        except TypeError:
            return fn(*args, **kwargs)  # the table function's own error for the arguments
        for name in names:
            if bound.get(name) is not None:
                _table._check_arraylike(fn.__name__, [bound[name]])
        return fn(*args, **kwargs)

    checked.__name__ = checked.__qualname__ = fn.__name__
    checked.__doc__ = fn.__doc__
    checked.__signature__ = signature
    return checked


# jax.random.choice takes a and p as arrays or scalars only (JAX's check_arraylike("choice", ...)): a list is a TypeError.
_FUNCTIONS["choice"] = _arraylike_checked(_FUNCTIONS["choice"], ["a", "p"])
globals().update(_FUNCTIONS)


class KeyDType:
    """A typed key's dtype, key<fry> (threefry2x32), a subdtype of jax.dtypes.prng_key."""

    name = "key<fry>"
    itemsize = 8  # two uint32 words

    def __eq__(self, other):
        return isinstance(other, KeyDType) or other == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __js__(self):
        return self.name


KEY_DTYPE = KeyDType()


class PRNGKeyArray:
    """A typed key array (jax.random.key): its data is key_data(k), uint32 of shape (*k.shape, 2)."""

    __slots__ = ("_js",)

    def __init__(self, js_value):
        self._js = js_value

    def __js__(self):
        return self._js

    @property
    def shape(self):
        """The shape of the array of keys."""
        return tuple(int(d) for d in self._js.shape)

    @property
    def ndim(self):
        """The number of dimensions."""
        return len(self.shape)

    @property
    def dtype(self):
        """key<fry>, as JAX names the threefry key type."""
        return KEY_DTYPE

    @property
    def size(self):
        """The number of keys."""
        n = 1
        for d in self.shape:
            n *= d
        return n

    def _with_data(self, f):
        """The keys whose data is f(data) (data: uint32 of shape (*shape, 2))."""
        return PRNGKeyArray(_sl.random.wrapKeyData(f(_Array(self._js.data))._js))

    def reshape(self, *shape):
        """The keys in another shape."""
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        return self._with_data(lambda d: d.reshape(*shape, 2))

    @property
    def T(self):
        """The array of keys transposed (each key's data kept whole)."""
        return self._with_data(lambda d: d.transpose(*reversed(range(self.ndim)), self.ndim))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def _data_index(self, index):
        """index into the keys as an index into their data: the key dimension stays whole
        (after '...' it needs naming, else numpy leaves it be)."""
        index = index if isinstance(index, tuple) else (index,)
        regular = [i for i in index if i is not None and i is not Ellipsis]
        if len(regular) > self.ndim:
            raise IndexError(f"Too many indices: {self.ndim}-dimensional array indexed with {len(regular)} regular indices.")
        return index + (slice(None),) if any(i is Ellipsis for i in index) else index

    def __getitem__(self, index):
        return self._with_data(lambda d: d[self._data_index(index)])

    @property
    def at(self):
        """keys.at[index].set(other_keys) / .get(): the functional updates of JAX's arrays, on keys."""
        return _array._IndexUpdateHelper(self, _KeyIndexRef)

    def __eq__(self, other):
        return _Array(self._js.equal(other._js)) if isinstance(other, PRNGKeyArray) else NotImplemented

    def __ne__(self, other):
        return ~(self == other) if isinstance(other, PRNGKeyArray) else NotImplemented

    __hash__ = None  # as JAX's arrays: == is elementwise

    # Arithmetic goes to jax.numpy, which refuses key dtypes with JAX's TypeError.
    def __add__(self, other):
        return _jnp().add(self, other)

    def __radd__(self, other):
        return _jnp().add(other, self)

    def __sub__(self, other):
        return _jnp().subtract(self, other)

    def __rsub__(self, other):
        return _jnp().subtract(other, self)

    def __mul__(self, other):
        return _jnp().multiply(self, other)

    def __rmul__(self, other):
        return _jnp().multiply(other, self)

    def __neg__(self):
        return _jnp().negative(self)

    def __repr__(self):
        return f"Array({self.shape}, dtype=key<fry>) overlaying:\n{_Array(self._js.data)}"


def _jnp():
    from . import numpy

    return numpy


class _KeyIndexRef:
    """keys.at[index]: set replaces the keys there by other keys (broadcast), get reads them."""

    __slots__ = ("_keys", "_index")

    def __init__(self, keys, index):
        self._keys, self._index = keys, index

    def get(self):
        return self._keys[self._index]

    def set(self, values):
        if not isinstance(values, PRNGKeyArray):
            raise TypeError(f"key array .at[].set takes key arrays, got {type(values).__name__}")
        index = self._keys._data_index(self._index)
        return self._keys._with_data(lambda d: d.at[index].set(_Array(values._js.data)))


_array.PublicArray.register(PRNGKeyArray)

# A pytree node over its data, so jit, vmap and grad see the uint32 array.
_pytree.register_pytree_node(
    PRNGKeyArray,
    lambda k: ([_Array(k._js.data)], None),
    lambda _, children: PRNGKeyArray(_sl.random.wrapKeyData(children[0]._js)),
)

__all__ = sorted([*_FUNCTIONS, "PRNGKeyArray"])
