"""Arrays by their type alone: jax.ShapeDtypeStruct (an abstract argument),
the ShapedArray an array's `aval` is, and jax.eval_shape, which traces a
function to learn its outputs' types without running it."""

import math

from . import dtypes, pytree
from .js import call, sl


def _type_text(dtype, shape):
    """A type as a jaxpr writes it: f32[3,4]."""
    return f"{dtypes.short_name(dtype)}[{','.join(map(str, shape))}]"


class ShapeDtypeStruct:
    """jax.ShapeDtypeStruct(shape, dtype, *, sharding=None, weak_type=False): an array's shape and dtype without its data."""

    __slots__ = ("shape", "dtype", "sharding", "weak_type")

    def __init__(self, shape, dtype, *, sharding=None, weak_type=False):
        if dtype is None:
            raise ValueError("ShapeDtypeStruct: dtype must be specified.")
        object.__setattr__(self, "shape", tuple(shape))
        object.__setattr__(self, "dtype", dtypes.dtype(dtype))
        object.__setattr__(self, "sharding", sharding)
        object.__setattr__(self, "weak_type", bool(weak_type))

    def __setattr__(self, name, value):
        if getattr(self, name) == value:
            return
        raise RuntimeError(f"Cannot reassign attributes ({name}) of immutable ShapeDtypeStruct objects")

    size = property(lambda self: math.prod(self.shape))
    ndim = property(lambda self: len(self.shape))

    @classmethod
    def like(cls, x):
        """The ShapeDtypeStruct of an array (or of anything jnp.asarray takes)."""
        from .api import asarray

        a = asarray(x)
        return cls(a.shape, a.dtype, weak_type=a.weak_type)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __eq__(self, other):
        if not isinstance(other, ShapeDtypeStruct):
            return False
        return (self.shape, self.dtype, self.sharding, self.weak_type) == (other.shape, other.dtype, other.sharding, other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def __js__(self):
        return call(sl.ShapeDtypeStruct.new, self.shape, self.dtype.name)

    def __repr__(self):
        sharding = f", sharding={self.sharding}" if self.sharding is not None else ""
        weak = f", weak_type={self.weak_type}" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{sharding}{weak})"

    __str__ = __repr__


class ShapedArray:
    """An array's abstract value (x.aval): its shape, dtype and weak type, printed as JAX prints it."""

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, weak_type=False):
        self.shape = tuple(shape)
        self.dtype = dtypes.dtype(dtype)
        self.weak_type = bool(weak_type)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))

    def __eq__(self, other):
        return isinstance(other, ShapedArray) and (self.shape, self.dtype, self.weak_type) == (other.shape, other.dtype, other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def str_short(self):
        """f32[3,4], as a jaxpr writes the type."""
        return _type_text(self.dtype, self.shape)

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.dtype.name}[{','.join(map(str, self.shape))}]{weak})"

    def __str__(self):
        return ("~" if self.weak_type else "") + self.str_short()


def eval_shape(fun, *args, **kwargs):
    """jax.eval_shape(fun, *args, **kwargs): the ShapeDtypeStructs of fun's outputs, found by tracing it (nothing runs)."""
    from .api import make_jaxpr

    box = {}

    def traced(*a, **k):
        out = fun(*a, **k)
        box["out"] = pytree.tree_map(lambda x: ShapeDtypeStruct.like(x), out)
        return out

    make_jaxpr(traced)(*args, **kwargs)
    return box["out"]
