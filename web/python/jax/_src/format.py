"""Array text as JAX shows it (numpy's array2string): Array([1. , 2.5], dtype=float32)
for repr, [1.  2.5] for str. Formatting only: the values come from the devices."""

import struct

_EDGE = 3  # items shown at each end of a summarized axis
_THRESHOLD = 1000  # more elements than this are summarized, as numpy does


def _f32_repr(v):
    """The shortest decimal text that reads back as the same float32 (numpy's unique mode)."""
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    target = struct.unpack("f", struct.pack("f", v))[0]
    for p in range(1, 10):
        s = f"{target:.{p}g}"
        if struct.unpack("f", struct.pack("f", float(s)))[0] == target:
            return s
    return repr(target)


def _float_texts(values):
    finite = [abs(v) for v in values if v == v and abs(v) != float("inf")]
    nonzero = [v for v in finite if v != 0]
    big = max(finite, default=0.0)
    small = min(nonzero, default=0.0)
    scientific = big >= 1e16 or (nonzero and (small < 1e-4 or big / small > 1e3))
    if scientific:
        texts = []
        for v in values:
            s = _f32_repr(v)
            if s in ("nan", "inf", "-inf"):
                texts.append(s)
                continue
            mant, _, exp = f"{float(s):e}".partition("e")
            mant = mant.rstrip("0")
            texts.append(f"{mant}e{int(exp):+03d}")
        return texts
    texts = []
    for v in values:
        s = _f32_repr(v)
        if "e" in s:  # shortest text in exponent form: write it out positionally
            s = f"{float(s):f}".rstrip("0")
        elif s not in ("nan", "inf", "-inf") and "." not in s:
            s += "."
        texts.append(s)
    # Pad the fractions to one width, as numpy aligns the decimal points.
    frac = max((len(t.partition(".")[2]) for t in texts if "." in t), default=0)
    return [t + " " * (frac - len(t.partition(".")[2])) if "." in t else t for t in texts]


def _texts(values, dtype):
    if dtype == "bool":
        return [" True" if v else "False" for v in values]
    if dtype in ("int32", "uint32"):
        return [str(int(v)) for v in values]
    return _float_texts(values)


def array_text(values, shape, dtype, sep, prefix):
    """The nested-list text of flat row-major `values` of `shape`, elements
    separated by `sep` (', ' for repr, ' ' for str), continuation lines
    indented to follow `prefix`."""
    summarize = len(values) > _THRESHOLD
    texts = _texts(values, dtype)
    width = max((len(t) for t in texts), default=0)
    texts = [t.rjust(width) for t in texts]
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def build(dim, offset, indent):
        if dim == len(shape):
            return texts[offset]
        n = shape[dim]
        idx = list(range(n))
        if summarize and n > 2 * _EDGE:
            idx = list(range(_EDGE)) + [None] + list(range(n - _EDGE, n))
        parts = ["..." if i is None else build(dim + 1, offset + i * strides[dim], indent + " ") for i in idx]
        if dim == len(shape) - 1:
            return "[" + sep.join(parts) + "]"
        joiner = sep.rstrip() + "\n" * (len(shape) - dim - 1) + indent + " "
        return "[" + joiner.join(parts) + "]"

    return build(0, 0, " " * len(prefix))


def array_repr(values, shape, dtype):
    """repr of a concrete array: Array([...], dtype=float32)."""
    if not shape:
        return f"Array({_texts(values, dtype)[0].strip()}, dtype={dtype})"
    return f"Array({array_text(values, shape, dtype, ', ', 'Array(')}, dtype={dtype})"


def array_str(values, shape, dtype):
    """str of a concrete array: [1. 2. 3.]; a scalar as numpy's scalars print: 6.0, 3, True."""
    if not shape:
        v = values[0]
        if dtype == "bool":
            return str(bool(v))
        if dtype in ("int32", "uint32"):
            return str(int(v))
        s = _f32_repr(v)
        return s + ".0" if s.lstrip("-").isdigit() else s
    return array_text(values, shape, dtype, " ", "")
