"""Arrays by their type alone: jax.ShapeDtypeStruct (an abstract argument),
the ShapedArray an array's `aval` is, and jax.eval_shape, which traces a
function to learn its outputs' types without running it."""

import math

from . import dtypes, pytree
from .js import call, sl


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
    """An array's abstract value (x.aval): its shape, dtype, weak type, in a shard_map body the mesh axes it
    varies along, and its sharding over Explicit mesh axes; printed as JAX prints it."""

    __slots__ = ("shape", "dtype", "weak_type", "vma", "spec", "unreduced", "reduced")

    def __init__(self, shape, dtype, weak_type=False, vma=(), spec=(), unreduced=(), reduced=()):
        self.shape = tuple(shape)
        self.dtype = dtypes.dtype(dtype)
        self.weak_type = bool(weak_type)
        self.vma = tuple(vma)
        # Per dimension, the Explicit mesh axes it is split over (None, a name or a tuple of names), as
        # JAX's type holds a sharding; () when none is.
        self.spec = tuple(spec) if any(e is not None for e in spec) else ()
        # The Explicit mesh axes the value is unreduced (a sum of its shards) or reduced over.
        self.unreduced = tuple(unreduced)
        self.reduced = tuple(reduced)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))

    def _key(self):
        return (self.shape, self.dtype, self.weak_type, self.vma, self.spec, self.unreduced, self.reduced)

    def __eq__(self, other):
        return isinstance(other, ShapedArray) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def str_short(self, short_dtypes=False, mesh_axis_types=False):
        """float32[3,4] (f32[3,4] with short_dtypes), float32[8@X,4@(Y,Z)] where dimensions are split over
        Explicit mesh axes, then {V:x, U:y, R:z} when it varies along mesh axes or is unreduced or reduced
        over them, as JAX 0.11 prints a type."""
        dtype = dtypes.short_name(self.dtype) if short_dtypes else self.dtype.name
        group = lambda axes: axes[0] if len(axes) == 1 else f"({','.join(axes)})"
        states = [f"{k}:{group(axes)}" for k, axes in (("V", self.vma), ("U", self.unreduced), ("R", self.reduced)) if axes]
        spec = self.spec or (None,) * len(self.shape)
        dims = [f"{n}" if e is None else f"{n}@{e}" if isinstance(e, str) else f"{n}@({','.join(e)})" for n, e in zip(self.shape, spec)]
        return f"{dtype}[{','.join(dims)}]" + (f"{{{', '.join(states)}}}" if states else "")

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({self.str_short()}{weak})"

    def __str__(self):
        return ("~" if self.weak_type else "") + self.str_short()


def spec_entries(dims, rank):
    """A type's per-dimension mesh axes (lists, as the program JSON and the JS API hold them) as its spec's
    entries: None, a name, or a tuple of names; dimensions past the list are unsharded."""
    dims = [list(d) for d in dims] + [[]] * rank
    return tuple(None if not d else str(d[0]) if len(d) == 1 else tuple(str(a) for a in d) for d in dims[:rank])


def typeof(x):
    """jax.typeof(x): x's type, its ShapedArray (shape, dtype, weak type; in a shard_map body the axes it
    varies along); a Python scalar's is weakly typed, as JAX's."""
    from .control_flow_checks import aval_of

    return aval_of(x)


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
