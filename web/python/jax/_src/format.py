"""Array text as JAX shows it (numpy's array2string): Array([1. , 2.5], dtype=float32)
for repr, [1.  2.5] for str, under numpy's print options (jnp.printoptions).
Formatting only: the values come from the devices (or, for ShardLab's numpy,
the host, whose float64 elements print at float64's shortest digits)."""

import contextlib
import decimal
import math
import struct

# numpy's print options that apply here, with numpy's defaults: fraction digits at most,
# elements past which an array is summarized, items shown at each end then, columns, and
# whether small numbers stay positional (printed as 0 at the precision) instead of scientific.
_DEFAULTS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 75, "suppress": False}
_options = dict(_DEFAULTS)


def get_printoptions():
    """jnp.get_printoptions (numpy's): the print options in force."""
    return dict(_options)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None):
    """jnp.set_printoptions (numpy's): sets the given print options; the others keep their values."""
    given = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems, "linewidth": linewidth}
    for name, value in given.items():
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"set_printoptions: {name} must be a non-negative int, got {value!r}")
            _options[name] = value
    if suppress is not None:
        _options["suppress"] = bool(suppress)


@contextlib.contextmanager
def printoptions(**options):
    """jnp.printoptions (numpy's): the print options set for the `with` block, restored after it."""
    saved = dict(_options)
    try:
        set_printoptions(**options)
        yield get_printoptions()
    finally:
        _options.clear()
        _options.update(saved)


def _key(v):
    """v as a dict key that keeps -0.0 apart from 0.0 (which compare equal)."""
    return (v, math.copysign(1.0, v))


def _rounded(v, dtype):
    """v rounded to the float format of `dtype` (float32, float16 or bfloat16;
    a Python float holds it exactly), to nearest, ties to even; infinite beyond its range."""
    try:
        if dtype == "float16":
            return struct.unpack("e", struct.pack("e", v))[0]
        w = struct.unpack("I", struct.pack("f", v))[0]
    except OverflowError:
        return math.copysign(float("inf"), v)
    if dtype == "bfloat16" and (w & 0x7FFFFFFF) <= 0x7F800000:  # float32's top 16 bits, rounded
        w = (w + 0x7FFF + ((w >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("f", struct.pack("I", w))[0]


def _shortest(v, dtype="float32"):
    """The shortest decimal text that reads back as the same float of `dtype` (numpy's unique mode)."""
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if dtype == "float64":
        return _plain(repr(float(v)))
    target = _rounded(v, dtype)
    for p in range(1, 10):
        s = f"{target:.{p}g}"
        if _rounded(float(s), dtype) == target:
            return s
    return repr(target)


def _plain(text):
    """Python's repr of a float in %g form (no trailing '.0'), as the float32 search writes it."""
    return text[:-2] if text.endswith(".0") else text


def _scientific(text):
    """The decimal `text` in scientific notation with exactly its significant digits (none lost or added)."""
    digits = text.lstrip("-").partition("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return f"{float(text):.{max(len(digits), 1) - 1}e}"


def _float_texts(values, dtype="float32"):
    """numpy's FloatingFormat (floatmode 'maxprec', sign '-'): every element at
    the fewest digits that read back as its value, padded to the widest;
    scientific when the largest magnitude is 1e8 or more, the smallest nonzero
    under 1e-4, or their ratio over 1000, with as many fraction digits as the
    element needing most, an element needing fewer continued with its exact
    value's digits (numpy's min_digits: 9.53674316e-07, 2**-20, beside
    1.00016594e-04), where positional notation pads with spaces. The digits
    are the array's float format's (float32, float16, bfloat16), or float64's for a float64 array."""
    exact = float if dtype == "float64" else (lambda x: _rounded(x, dtype))
    finite = [v for v in values if v == v and abs(v) != float("inf")]
    nonzero = [abs(v) for v in finite if v != 0]
    big, small = max(nonzero, default=0.0), min(nonzero, default=0.0)
    precision, suppress = _options["precision"], _options["suppress"]
    scientific = bool(nonzero) and (big >= 1e8 or (not suppress and (small < 1e-4 or big / small > 1e3)))
    if scientific:
        parts = {}
        for v in finite:
            text = _scientific(_shortest(v, dtype))
            if len(text.partition("e")[0].partition(".")[2]) > precision:  # too many digits: rounded to the precision
                text = f"{v:.{precision}e}"
            mant, _, exp = text.partition("e")
            whole, _, frac = mant.partition(".")
            parts[_key(v)] = (whole, frac.rstrip("0"), int(exp))
        digits = max((len(f) for _, f, _ in parts.values()), default=0)
        exp_width = max((len(str(abs(e))) for _, _, e in parts.values()), default=2)
        left = max((len(w) for w, _, _ in parts.values()), default=1)
        right = 1 + digits + 2 + max(exp_width, 2)

        def text(v):
            whole, frac, exp = parts[_key(v)]
            if len(frac) < digits:  # the exact value's next digits
                whole, _, frac = f"{exact(v):.{digits}e}".partition("e")[0].partition(".")
            return f"{whole.rjust(left)}.{frac.ljust(digits, '0')}e{'-' if exp < 0 else '+'}{abs(exp):0{max(exp_width, 2)}d}"
    else:
        parts = {}
        for v in finite:
            s = _shortest(v, dtype)
            if "e" in s:  # shortest text in exponent form: write it out positionally
                s = f"{float(s):.{precision + 1}f}"
            if len(s.partition(".")[2]) > precision:  # too many digits: rounded to the precision
                s = f"{v:.{precision}f}"
            whole, _, frac = s.partition(".")
            frac = frac.rstrip("0")
            parts[_key(v)] = (whole, frac)
        left = max((len(w) for w, _ in parts.values()), default=1)
        digits = max((len(f) for _, f in parts.values()), default=0)
        right = 1 + digits

        def text(v):
            whole, frac = parts[_key(v)]
            return f"{whole.rjust(left)}.{frac.ljust(digits)}"
    if len(finite) < len(values):  # nan and inf take the width too, right-aligned
        left = max(left, 3 + any(v == float("-inf") for v in values) - right)
    out = []
    for v in values:
        if v != v or abs(v) == float("inf"):
            out.append(("nan" if v != v else "inf" if v > 0 else "-inf").rjust(left + right))
        else:
            out.append(text(v).rjust(left + right))
    return out


def _texts(values, dtype):
    if dtype == "bool":
        return [" True" if v else "False" for v in values]
    if "int" in dtype:
        return [str(int(v)) for v in values]
    if dtype == "object":
        return [str(v) for v in values]
    return _float_texts(values, dtype)


def array_text(values, shape, dtype, sep, prefix, suffix=""):
    """numpy's array2string of flat row-major `values` of `shape`: elements
    separated by `sep` (', ' for repr, ' ' for str), a row wrapped before it
    passes the linewidth (less `suffix`, the text that follows), continuation
    lines indented to follow `prefix`, an array of more elements than the
    threshold summarized by its first and last edgeitems on each axis."""
    summarize = len(values) > _options["threshold"]
    edge = _options["edgeitems"]
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def shown(dim):
        # The indices of axis `dim` printed: all, or the first and last 3 around None ("...").
        n = shape[dim]
        return list(range(edge)) + [None] + list(range(n - edge, n)) if summarize and n > 2 * edge else list(range(n))

    # The elements printed, formatted together (numpy formats a summarized array by its shown items alone).
    offsets = [0]
    for dim in range(len(shape)):
        offsets = [o + i * strides[dim] for o in offsets for i in shown(dim) if i is not None]
    formatted = _texts([values[o] for o in offsets], dtype)
    width = max((len(t) for t in formatted), default=0)
    texts = {o: t.rjust(width) for o, t in zip(offsets, formatted)}
    line_width = _options["linewidth"] - len(suffix)

    def extend(out, line, word, limit, indent):
        # numpy's _extendLine: wrap when the word would pass the limit, unless the line holds only its indent.
        if len(line) + len(word) > limit and len(line) > len(indent):
            out += line.rstrip() + "\n"
            line = indent
        return out, line + word

    def build(dim, offset, indent, room):
        if dim == len(shape):
            return texts[offset]
        idx = shown(dim)
        inner = indent + " "
        if dim == len(shape) - 1:
            out, line = "", indent
            limit = room - max(len(sep.rstrip()), 1)
            for k, i in enumerate(idx):
                word = "..." if i is None else build(dim + 1, offset + i * strides[dim], inner, room - 1)
                out, line = extend(out, line, word, limit, indent)
                if k < len(idx) - 1:
                    line += sep
            out += line
        else:
            joiner = sep.rstrip() + "\n" * (len(shape) - dim - 1)
            rows = [indent + ("..." if i is None else build(dim + 1, offset + i * strides[dim], inner, room - 1)) for i in idx]
            out = joiner.join(rows)
        return "[" + out[len(indent):] + "]"

    return build(0, 0, " " * (len(prefix) + 1), line_width)


def array_repr(values, shape, dtype, weak_type=False):
    """repr of a concrete array as JAX's Array.__repr__: Array([...], dtype=float32), an empty one with its
    shape, a weakly typed one with weak_type=True."""
    return _repr("Array", values, shape, dtype, f"dtype={dtype}, weak_type=True" if weak_type else f"dtype={dtype}", 0)


def numpy_repr(values, shape, dtype):
    """repr of a numpy array: array([...]), with dtype= unless numpy's default for its values (float64, int64, bool)."""
    shown = dtype not in ("float64", "int64", "bool") or 0 in shape
    return _repr("array", values, shape, dtype, f"dtype={dtype}" if shown else "", 1)


def _repr(name, values, shape, dtype, dtype_text, shapeless_rank):
    # numpy's array_repr: the elements after `name(`, then the dtype text on the
    # last line if it fits, else on a line of its own under the elements; an
    # empty array names its shape (numpy's not when 1-d: shapeless_rank 1).
    if 0 in shape:
        return f"{name}([], {dtype_text})" if len(shape) <= shapeless_rank else f"{name}([], shape={tuple(shape)}, {dtype_text})"
    prefix = f"{name}("
    text = array_text(values, shape, dtype, ", ", prefix, "," if dtype_text else ")") if shape else _texts(values, dtype)[0].strip()
    if not dtype_text:
        return f"{prefix}{text})"
    last = len(text) - text.rfind("\n") + 1
    gap = " " * len(prefix) if last + len(dtype_text) + 2 > _options["linewidth"] else " "
    return f"{prefix}{text},{gap}{dtype_text})"


def array_str(values, shape, dtype):
    """str of a concrete array: [1. 2. 3.]; a scalar as numpy's scalars print: 6.0, 3, True."""
    if not shape:
        v = values[0]
        if dtype == "bool":
            return str(bool(v))
        if "int" in dtype:
            return str(int(v))
        s = _shortest(v, dtype)
        if "e" in s and 1e-4 <= abs(float(s)) < 1e16:  # numpy writes a scalar in this range positionally: 20.0, not 2e+01
            s = format(decimal.Decimal(s), "f")
        return s + ".0" if s.lstrip("-").isdigit() else s
    return array_text(values, shape, dtype, " ", "")
