"""jax.random's functions: ShardLab's JS `random` (threefry2x32, bit for
bit as JAX's) under JAX's names (the table in jax/_src/table.py), and the
typed key arrays jax.random.key makes."""

from . import pytree as _pytree
from . import table as _table
from .array import Array as _Array
from .js import sl as _sl

_FUNCTIONS = _table.functions("random")
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

    def __getitem__(self, index):
        # The key dimension stays whole: after '...' it needs naming, else numpy leaves it be.
        index = index if isinstance(index, tuple) else (index,)
        if any(i is Ellipsis for i in index):
            index = index + (slice(None),)
        return PRNGKeyArray(_sl.random.wrapKeyData(_Array(self._js.data)[index]._js))

    def __eq__(self, other):
        return _Array(self._js.equal(other._js)) if isinstance(other, PRNGKeyArray) else NotImplemented

    def __ne__(self, other):
        return ~(self == other) if isinstance(other, PRNGKeyArray) else NotImplemented

    __hash__ = None  # as JAX's arrays: == is elementwise

    def __repr__(self):
        return f"Array({self.shape}, dtype=key<fry>) overlaying:\n{_Array(self._js.data)}"


# A pytree node over its data, so jit, vmap and grad see the uint32 array.
_pytree.register_pytree_node(
    PRNGKeyArray,
    lambda k: ([_Array(k._js.data)], None),
    lambda _, children: PRNGKeyArray(_sl.random.wrapKeyData(children[0]._js)),
)

__all__ = sorted([*_FUNCTIONS, "PRNGKeyArray"])
