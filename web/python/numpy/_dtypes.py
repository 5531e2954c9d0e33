"""numpy's dtypes in ShardLab's numpy subset: float64, float32, int64, int32,
uint32, bool and object; each scalar type (np.float32) is usable wherever a
dtype is, and numpy's promotion between them (NEP 50: a Python scalar takes
the array's dtype when its kind allows)."""

import struct

_KINDS = {"bool": "b", "int32": "i", "int64": "i", "uint32": "u", "float32": "f", "float64": "f", "object": "O"}
_SIZES = {"bool": 1, "int32": 4, "int64": 8, "uint32": 4, "float32": 4, "float64": 8, "object": 8}


class dtype:
    """np.dtype(x): a dtype object; compares equal to its scalar type and its name."""

    __slots__ = ("name",)

    def __new__(cls, d):
        if isinstance(d, dtype):
            return d
        self = super().__new__(cls)
        self.name = name_of(d)
        return self

    @property
    def _shardlab_dtype(self):
        return self.name

    @property
    def kind(self):
        return _KINDS[self.name]

    @property
    def itemsize(self):
        return _SIZES[self.name]

    @property
    def type(self):
        return SCALARS[self.name]

    def __eq__(self, other):
        try:
            return name_of(other) == self.name
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"dtype('{self.name}')"

    def __str__(self):
        return self.name


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def _wrap(bits, signed):
    def cast(v):
        v = int(v) & ((1 << bits) - 1)
        return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v

    return cast


# Each dtype's conversion of a Python value to one of its elements.
CAST = {
    "float64": float,
    "float32": lambda v: _f32(float(v)),
    "int64": _wrap(64, True),
    "int32": _wrap(32, True),
    "uint32": _wrap(32, False),
    "bool": bool,
    "object": lambda v: v,
}


class _ScalarType(type):
    """The metaclass of numpy's scalar types: np.float32 == 'float32' == np.dtype('float32')."""

    def __eq__(cls, other):
        try:
            return name_of(other) == cls._shardlab_dtype
        except TypeError:
            return False

    def __hash__(cls):
        return hash(cls._shardlab_dtype)

    def __repr__(cls):
        return f"<class 'numpy.{cls.__name__}'>"


class _HostArray:
    """A scalar's _shardlab_host_array: ([value], (), dtype name), as a 0-d array's, for jax to convert.
    Only on instances: the scalar type itself is a dtype (np.float32), not a value."""

    def __get__(self, obj, cls):
        if obj is None:
            raise AttributeError("_shardlab_host_array")
        return [bool(obj) if cls._shardlab_dtype == "bool" else CAST[cls._shardlab_dtype](obj)], (), cls._shardlab_dtype


def _scalar_type(name, base, text):
    def __repr__(self):
        return f"np.{type(self).__name__}({text(self)})"

    def __new__(cls, value=0):
        return base.__new__(cls, CAST[name](value))

    return _ScalarType(
        "bool" if name == "bool" else name,
        (base,),
        {"_shardlab_dtype": name, "_shardlab_host_array": _HostArray(), "__new__": __new__, "__repr__": __repr__,
         "__str__": lambda self: text(self), "__slots__": ()},
    )


def _float_text(name):
    def text(v):
        from jax._src.format import array_str

        return array_str([float(v)], (), name)

    return text


float64 = _scalar_type("float64", float, _float_text("float64"))
float32 = _scalar_type("float32", float, _float_text("float32"))
int64 = _scalar_type("int64", int, lambda v: str(int(v)))
int32 = _scalar_type("int32", int, lambda v: str(int(v)))
uint32 = _scalar_type("uint32", int, lambda v: str(int(v)))


class bool_(metaclass=_ScalarType):
    """np.bool_: numpy's boolean scalar (np.True_ and np.False_)."""

    _shardlab_dtype = "bool"
    _shardlab_host_array = _HostArray()
    __slots__ = ("_v",)

    def __init__(self, value=False):
        self._v = bool(value)

    def __bool__(self):
        return self._v

    def __int__(self):
        return int(self._v)

    def __float__(self):
        return float(self._v)

    def __eq__(self, other):
        return self._v == bool(other)

    def __hash__(self):
        return hash(self._v)

    def __repr__(self):
        return f"np.{self._v}_"

    def __str__(self):
        return str(self._v)


object_ = _ScalarType("object_", (), {"_shardlab_dtype": "object"})
SCALARS = {"float64": float64, "float32": float32, "int64": int64, "int32": int32, "uint32": uint32, "bool": bool_, "object": object_}
_NAMES = {
    "float": "float64", "f8": "float64", "double": "float64", "f4": "float32", "single": "float32",
    "int": "int64", "i8": "int64", "i4": "int32", "u4": "uint32", "bool_": "bool", "?": "bool", "O": "object",
}
_PYTHON = {float: "float64", int: "int64", bool: "bool", object: "object"}


def name_of(d):
    """The dtype name of a dtype-like: a numpy dtype or scalar type, a name, Python's float, int, bool or object,
    or another library's dtype that names itself (jnp.float32)."""
    if isinstance(d, str):
        n = _NAMES.get(d, d)
        if n in _KINDS:
            return n
        raise TypeError(f"data type {d!r} is not in ShardLab's numpy subset; it has {', '.join(_KINDS)}")
    if isinstance(d, type) and d in _PYTHON:
        return _PYTHON[d]
    own = getattr(d, "_shardlab_dtype", None)
    if isinstance(own, str):
        return own
    other = getattr(getattr(d, "dtype", d), "name", None)  # jnp.float32, a jax array's dtype
    if isinstance(other, str) and other in _KINDS:
        return other
    raise TypeError(f"Cannot interpret {d!r} as a data type")


def scalar_of(name, v):
    """Element v of an array of dtype `name` as numpy returns it: np.float64(0.5), np.int64(3), np.True_."""
    return v if name == "object" else SCALARS[name](v)


def promote(a, b):
    """numpy's result dtype of two dtype names (NEP 50, for the dtypes here)."""
    if a == b:
        return a
    if "object" in (a, b):
        return "object"
    ka, kb = _KINDS[a], _KINDS[b]
    order = "biuf"
    if ka == kb:
        return a if _SIZES[a] >= _SIZES[b] else b
    if {ka, kb} == {"i", "u"}:
        return "int64"
    hi, lo = (a, b) if order.index(ka) > order.index(kb) else (b, a)
    if _KINDS[hi] == "f" and _SIZES[lo] >= 4 and _SIZES[hi] < 8 and _KINDS[lo] in "iu":
        return "float64"  # int32 + float32 is float64, as numpy's
    return hi


def of_python(v, array_dtype):
    """The dtype a Python scalar takes beside an array of `array_dtype` (NEP 50: weakly, within its kind)."""
    kind = "b" if isinstance(v, bool) else "i" if isinstance(v, int) else "f" if isinstance(v, float) else "O"
    if kind == "O":
        return "object"
    own = _KINDS[array_dtype]
    if own != "O" and "biuf".index(kind) <= "biuf".index(own):
        return array_dtype
    return {"b": "bool", "i": "int64", "f": "float64"}[kind]
