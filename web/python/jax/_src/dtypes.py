"""The dtypes ShardLab has, as jax.numpy names them (jnp.float32, jnp.int32,
jnp.bool_): each is a scalar type usable wherever a dtype is, and calling
one makes an array of it, as in JAX."""

import _shardlab


class _ScalarMeta(type):
    def __repr__(cls):
        return f"<class 'jax.numpy.{cls.__name__}'>"

    def __eq__(cls, other):
        return isinstance(other, (_ScalarMeta, DType, str, type)) and name(other) == cls.dtype.name

    def __hash__(cls):
        return hash(cls.dtype.name)

    def __call__(cls, x):
        from . import api

        return api.asarray(x, dtype=cls)

    def __instancecheck__(cls, obj):
        # numpy's scalar of this dtype is one, as numpy's int32 scalars are jnp.int32's (JAX's are numpy's types)
        return getattr(type(obj), "_shardlab_dtype", None) == cls.dtype.name


class TypePromotionError(ValueError):
    """jax.dtypes.TypePromotionError: dtypes JAX's promotion cannot join (jax_numpy_dtype_promotion='strict')."""


TypePromotionError.__module__ = "jax.dtypes"  # where JAX exports it, as tracebacks name it


class DType:
    """A dtype object (x.dtype): compares equal to its scalar type and its name."""

    __slots__ = ("name",)

    def __init__(self, n):
        self.name = n

    def __eq__(self, other):
        try:
            return name(other) == self.name
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        # numpy quotes its own dtypes' names, not ml_dtypes' (bfloat16): dtype(bfloat16), as JAX prints it.
        return f"dtype({self.name})" if self.name == "bfloat16" else f"dtype('{self.name}')"

    def __str__(self):
        return self.name

    @property
    def itemsize(self):
        return _INFO[self.name]["itemsize"]

    @property
    def kind(self):
        # ml_dtypes' bfloat16 is numpy's 'V' (a void kind numpy does not know); the others numpy's own.
        return "V" if self.name == "bfloat16" else _INFO[self.name]["kind"]


# The dtypes ShardLab has, from the JS side's one list (web/lib/dtypes.js): name, short name, kind, itemsize.
_INFO = {d.name: {"short": d.short, "kind": d.kind, "itemsize": d.itemsize} for d in _shardlab.dtypes}
_SCALARS = {n: _ScalarMeta("bool_" if n == "bool" else n, (), {"dtype": DType(n)}) for n in _INFO}
float32, float16, bfloat16 = _SCALARS["float32"], _SCALARS["float16"], _SCALARS["bfloat16"]
int32, int16, int8 = _SCALARS["int32"], _SCALARS["int16"], _SCALARS["int8"]
uint32, uint16, uint8 = _SCALARS["uint32"], _SCALARS["uint16"], _SCALARS["uint8"]
bool_ = _SCALARS["bool"]

_BY_NAME = {n: t.dtype for n, t in _SCALARS.items()}
_PYTHON = {float: "float32", int: "int32", bool: "bool"}
_UNSUPPORTED = ("float64", "int64", "uint64", "complex64", "complex128")
# numpy's short codes for the dtypes here.
_ALIASES = {"bool_": "bool", "f32": "float32", "i32": "int32", "u32": "uint32", "f16": "float16", "bf16": "bfloat16",
            "half": "float16", "i8": "int8", "u8": "uint8", "i16": "int16", "u16": "uint16"}


def name(d):
    """The dtype name ('float32', 'bfloat16', 'int8', 'bool', ...) of a dtype-like: a scalar
    type, a dtype object, a name, or Python's float, int and bool."""
    if isinstance(d, DType):
        return d.name
    if isinstance(d, _ScalarMeta):
        return d.dtype.name
    if isinstance(d, type) and d in _PYTHON:
        return _PYTHON[d]
    host = getattr(d, "_shardlab_dtype", None)  # numpy's dtypes and scalar types, by name
    if isinstance(host, str):
        d = host
    if isinstance(d, str):
        n = _ALIASES.get(d, d)
        if n in _BY_NAME:
            return n
        if n in _UNSUPPORTED:
            raise TypeError(f"dtype {n} is not supported by ShardLab; the dtypes are {', '.join(_INFO)}")
    raise TypeError(f"{d!r} is not a dtype; use one of jnp.{', jnp.'.join(t.__name__ for t in _SCALARS.values())}")


class generic:
    """numpy's abstract scalar types as jax.numpy exports them (jnp.integer,
    jnp.floating, ...): the categories jnp.issubdtype tests."""


class number(generic):
    """Numbers."""


class bool_category(generic):
    """Booleans."""


class integer(number):
    """Integers."""


class signedinteger(integer):
    """Signed integers."""


class unsignedinteger(integer):
    """Unsigned integers."""


class inexact(number):
    """Floats and complex numbers."""


class floating(inexact):
    """Floats."""


class complexfloating(inexact):
    """Complex numbers."""


class extended(generic):
    """jax.dtypes.extended: the category of JAX's extended dtypes (typed PRNG keys)."""


class prng_key(extended):
    """jax.dtypes.prng_key: the category of typed PRNG keys' dtypes (key<fry>)."""


# Each dtype name's category, the narrowest class of numpy's hierarchy holding
# it: ShardLab's dtypes and those JAX has beyond them (issubdtype answers for those too).
_CATEGORY = {
    "bool": bool_category,
    **dict.fromkeys(("int8", "int16", "int32", "int64"), signedinteger),
    **dict.fromkeys(("uint8", "uint16", "uint32", "uint64"), unsignedinteger),
    **dict.fromkeys(("float16", "bfloat16", "float32", "float64"), floating),
    **dict.fromkeys(("complex64", "complex128"), complexfloating),
    "key<fry>": prng_key,
}


def _category_name(d):
    """The name of dtype-like d, including JAX's dtypes ShardLab does not have."""
    if getattr(d, "name", None) == "key<fry>":  # a typed key's dtype
        return "key<fry>"
    host = getattr(d, "_shardlab_dtype", None)
    if isinstance(d, str) or isinstance(host, str):
        n = host if isinstance(host, str) else d
        n = _ALIASES.get(n, n)
        if n in _CATEGORY:
            return n
    return name(d)


def issubdtype(arg1, arg2):
    """jnp.issubdtype(arg1, arg2): whether dtype arg1 is arg2 or in its category (jnp.integer, jnp.floating, ...)."""
    n1 = _category_name(arg1)
    if isinstance(arg2, type) and issubclass(arg2, generic):
        return issubclass(_CATEGORY[n1], arg2)
    if arg2 is bool_ or arg2 is bool:
        return n1 == "bool"
    return n1 == _category_name(arg2)


def is_dtype_like(d):
    """Whether `d` names a dtype (not a value)."""
    if isinstance(d, (DType, _ScalarMeta)) or (isinstance(d, type) and d in _PYTHON):
        return True
    # numpy's dtypes and scalar types, not its scalar values (np.float32(1.0) has a host array)
    return isinstance(getattr(d, "_shardlab_dtype", None), str) and not hasattr(d, "_shardlab_host_array")


def dtype(d):
    """jnp.dtype(d): the dtype object."""
    return _BY_NAME[name(d)]


def short_name(d):
    """A dtype as a jaxpr writes it: f32, bf16, i8, u32, bool, ..."""
    return _INFO[name(d)]["short"]


# Without x64, JAX holds each 64-bit dtype in its 32-bit kin.
_CANONICAL = {"float64": "float32", "int64": "int32", "uint64": "uint32"}


def canonicalize_dtype(d, allow_extended_dtype=False):
    """jax.dtypes.canonicalize_dtype: the dtype JAX holds `d` in without x64 (float64 as float32, int64 as int32)."""
    n = _category_name(d)
    return dtype(_CANONICAL.get(n, n))


def itemsize_bits(d):
    """jax.dtypes.itemsize_bits: the bits of one element (a bool's byte is 8)."""
    if d is None:
        raise ValueError("dtype cannot be None.")
    return dtype(d).itemsize * 8


def is_weakly_typed(x):
    """jax.dtypes.is_weakly_typed: whether x is weakly typed (a Python scalar, or an array computed from weak values only)."""
    if type(x) in (bool, int, float, complex):
        return True
    return bool(getattr(x, "weak_type", False))


def result_type_with_flag(*args, return_weak_type_flag=False):
    """jax.dtypes.result_type: the dtype JAX's promotion gives `args`; with the flag, also whether it is weak
    (every argument a weakly typed value, none a dtype)."""
    from .numpy import result_type

    out = result_type(*args)
    if not return_weak_type_flag:
        return out
    return out, all(not is_dtype_like(a) and is_weakly_typed(a) for a in args)
