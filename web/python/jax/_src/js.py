"""The JavaScript side: ShardLab's JS API (`sl`, from the `_shardlab` module
the host registers) and the conversions between Python and JS values. The
binding holds no math: every array operation is a call into `sl`."""

import js
from pyodide.ffi import JsException, JsProxy, create_proxy, jsnull, to_js

import _shardlab

from . import dtypes

sl = _shardlab.sl
bridge = _shardlab

UNDEFINED = object()
"""Passed for a JS parameter left out (JS's undefined: the function's default)."""


_PLAIN = (bool, int, float, str)


# A buffer's element format (struct's codes) -> the JS typed array holding it
# (whose type the JS API reads as its dtype), as JAX converts a buffer
# (numpy's dtype for it, canonicalized without x64: 8- and 16-bit ints kept,
# wider ones 32-bit; floats float32, as JS has no float16 array).
_BUFFER_ARRAYS = {"b": "Int8Array", "B": "Uint8Array", "h": "Int16Array", "H": "Uint16Array",
                  **dict.fromkeys("ilqn", "Int32Array"), **dict.fromkeys("ILQN", "Uint32Array"), **dict.fromkeys("efd", "Float32Array")}


def is_buffer(v):
    """Whether v is a Python buffer (array.array, memoryview, bytearray): data typed by its format."""
    return hasattr(v, "__buffer__") or isinstance(v, (memoryview, bytearray))


def _buffer_data(v):
    """A Python buffer (array.array, memoryview) as the JS typed array of its dtype."""
    view = memoryview(v)
    kind = view.format.lstrip("@=<>!")
    typed = _BUFFER_ARRAYS.get(kind)
    if typed is None or view.ndim != 1:
        raise TypeError(
            f"buffers of format {view.format!r} and {view.ndim} dimensions are not supported by ShardLab's jax; "
            "give a 1-d buffer of ints or floats (array.array('i' or 'f', ...)) or a list"
        )
    return getattr(js, typed).new(to_js(view.tolist()))


def to_js_value(v):
    """A Python value as the JS API takes it: arrays as themselves, None as
    null, tuples and lists as JS arrays, dicts as objects, dtypes by name, a
    float whose value is an integer as a WeakFloat (still a float in JS)."""
    t = type(v)
    if t is _array.Array:
        return v._js
    if t is float and v.is_integer():
        return sl.weakFloat(v)  # JS would type the number 2.0 as an int
    if t in _PLAIN:
        return v
    if isinstance(v, int):  # an int enum (lax.RoundingMethod) as its number
        return int(v)
    if v is UNDEFINED:
        return None  # pyodide passes None as undefined
    if v is None:
        return jsnull
    if v is Ellipsis:
        return "..."  # the JS API's spelling (einsum's sublists)
    if hasattr(v, "__js__"):  # PartitionSpec (a tuple), Mesh, NamedSharding, ShapeDtypeStruct
        return v.__js__()
    if hasattr(v, "_shardlab_host_array"):  # a numpy array: converted as JAX converts it
        from .api import asarray

        return asarray(v)._js
    if isinstance(v, (tuple, list)):
        if all(type(x) in _PLAIN for x in v):
            return to_js(list(v))  # numbers and names: one conversion
        return to_js([to_js_value(x) for x in v])
    if isinstance(v, JsProxy):
        return v
    if dtypes.is_dtype_like(v):
        return dtypes.name(v)
    if isinstance(v, dict):
        return js.Object.fromEntries(to_js([[str(k), to_js_value(x)] for k, x in v.items()]))
    if is_buffer(v):
        return _buffer_data(v)
    raise TypeError(f"{type(v).__name__} values are not supported by ShardLab's jax (got {v!r})")


def from_js(v):
    """A JS value as Python sees it: arrays and tracers wrapped as jax Arrays,
    JS arrays as lists, null as None."""
    if type(v) in _PLAIN or v is None:
        return v
    if v is jsnull:
        return None
    # JS answers for the rest (isinstance against Pyodide's proxy types is slow).
    if bridge.isArray(v):
        return _array.Array(v)
    if bridge.isKey(v):
        from . import random

        return random.PRNGKeyArray(v)
    if bridge.isJsArray(v):
        return [from_js(x) for x in v]
    return v


# JS error names (ShardLab's categories) -> the Python exception JAX raises for them.
def _python_error(name, message):
    from . import dtypes, errors

    cls = {
        "ValueError": ValueError,
        "AxisNameError": NameError,
        "UnexpectedTracerError": errors.UnexpectedTracerError,
        "TypePromotionError": dtypes.TypePromotionError,
        "OverflowError": OverflowError,
        "ShapeError": TypeError,
        "ShardingError": ValueError,
        "VmaError": ValueError,
        "ShardingTypeError": errors.ShardingTypeError,
        "ConcretizationError": errors.ConcretizationTypeError,
        "NonConcreteBooleanIndexError": errors.NonConcreteBooleanIndexError,
        "IndexError": IndexError,
        "DeviceError": errors.JaxRuntimeError,
        "ResourceError": errors.JaxRuntimeError,
        "CancelledError": errors.JaxRuntimeError,
        "TypeError": TypeError,
        "RangeError": ValueError,
        "NotImplementedError": NotImplementedError,
    }.get(name, RuntimeError)
    if cls in (errors.ConcretizationTypeError, errors.NonConcreteBooleanIndexError):
        err = cls.__new__(cls)
        Exception.__init__(err, message)
        return err
    return cls(message)


def call(f, *args):
    """Calls JS function `f` with Python arguments; a JS error becomes the Python exception JAX raises."""
    try:
        return f(*[to_js_value(a) for a in args])
    except JsException as e:
        raise _python_error(getattr(e, "name", "Error"), getattr(e, "message", str(e))) from None


def callback(f):
    """A JS-callable proxy of Python function `f` (the caller destroys it when done)."""
    return create_proxy(f)


def proxy(v):
    """A JS proxy of Python value `v` that outlives the call it is passed to (the caller destroys it when done)."""
    return create_proxy(v)


def js_list(values):
    """A JS array of Python values converted with to_js_value."""
    return to_js([to_js_value(v) for v in values])


# Last: array.py imports this module (a cycle Python resolves as long as
# Array is read at call time, never at import).
from . import array as _array  # noqa: E402
