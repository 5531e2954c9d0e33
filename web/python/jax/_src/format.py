"""Array text as JAX shows it (numpy's array2string): Array([1. , 2.5], dtype=float32) for
repr, [1.  2.5] for str, under numpy's print options (jnp.printoptions). The binding of
web/lib/api/core/array_text.js, where the rules are (jax.debug.print's values print there
too); the values are a device array's (its JS elements) or a host numpy array's (a list)."""

import contextlib

import js
from pyodide.ffi import JsProxy, to_js

from .js import bridge

_text = bridge.arrayText


def get_printoptions():
    """jnp.get_printoptions (numpy's): the print options in force."""
    return _text.getPrintOptions().to_py()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None):
    """jnp.set_printoptions (numpy's): sets the given print options; the others keep their values."""
    for name, value in {"precision": precision, "threshold": threshold, "edgeitems": edgeitems, "linewidth": linewidth}.items():
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise ValueError(f"set_printoptions: {name} must be a non-negative int, got {value!r}")
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems, "linewidth": linewidth, "suppress": suppress}
    _text.setPrintOptions(to_js({k: v for k, v in given.items() if v is not None}, dict_converter=js.Object.fromEntries))


@contextlib.contextmanager
def printoptions(**options):
    """jnp.printoptions (numpy's): the print options set for the `with` block, restored after it."""
    saved = get_printoptions()
    try:
        set_printoptions(**options)
        yield get_printoptions()
    finally:
        set_printoptions(**saved)


def _values(values, dtype):
    # A device array's JS elements pass as they are; a host list to JS (an object array's elements as their str).
    if isinstance(values, JsProxy):
        return values
    return to_js([str(v) for v in values] if dtype == "object" else list(values))


def array_repr(values, shape, dtype, weak_type=False):
    """repr of a concrete array as JAX's Array.__repr__: Array([...], dtype=float32), an empty one with its
    shape, a weakly typed one with weak_type=True."""
    return _text.arrayRepr(_values(values, dtype), to_js(list(shape)), dtype, bool(weak_type))


def numpy_repr(values, shape, dtype):
    """repr of a numpy array: array([...]), with dtype= unless numpy's default for its values (float64, int64, bool)."""
    return _text.numpyRepr(_values(values, dtype), to_js(list(shape)), dtype)


def array_str(values, shape, dtype):
    """str of a concrete array: [1. 2. 3.]; a scalar as numpy's scalars print: 6.0, 3, True."""
    return _text.arrayStr(_values(values, dtype), to_js(list(shape)), dtype)
