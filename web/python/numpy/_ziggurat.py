"""numpy's standard normal draws (Generator.standard_normal): Marsaglia and
Tsang's ziggurat with 256 strips over 52-bit (float64) or 23-bit (float32)
draws, its tail and wedge paths, and numpy's tables, derived here as
numpy's generator script derives them rather than copied."""

import math

from ._libm import f32, log1p, log1pf

# numpy's constants (ziggurat_constants.h and the script that wrote its tables): the tail's start r, 1 / r,
# and each strip's area v.
_R = 3.6541528853610087963519472518
_INV_R = 0.27366123732975827203338247596
_V = 0.0049286732339746519
_R_F = f32(_R)
_INV_R_F = f32(_INV_R)


def _exp(x):
    """exp(x) correctly rounded to float64 (what the tables' libm computed but for one input, below)."""
    from decimal import Decimal, localcontext  # here, not at numpy's import: only the tables need it

    with localcontext() as context:
        context.prec = 40
        return float(Decimal(x).exp())


def _ln(x):
    """log(x) correctly rounded to float64."""
    from decimal import Decimal, localcontext

    with localcontext() as context:
        context.prec = 40
        return float(Decimal(x).ln())


def _strip_edges():
    """The strips' right edges x_255 = r, x_254, ..., x_1 and f(x) = exp(-x^2 / 2) at each, as numpy's script
    computed them in float64: x_{i-1} = sqrt(-2 log(f(x_i) + v / x_i)), from r down."""
    xs, fs = [_R], []
    for k in range(254):
        f = _exp(-0.5 * xs[-1] * xs[-1])
        if k == 217:
            # The script's libm rounded this one exp up: its exact value lies 0.002 ulp below the halfway point,
            # and numpy's tables (this edge and every one below it) carry that rounding.
            f += math.ulp(f)
        fs.append(f)
        xs.append(math.sqrt(-2.0 * _ln(f + _V / xs[-1])))
    fs.append(_exp(-0.5 * xs[-1] * xs[-1]))
    return xs[::-1], fs[::-1]


def _tables(scale):
    """(ki, wi, fi) for draws of `scale` = 2**52 or 2**23: the strip's acceptance bound in draw units, the
    draw's width multiplier and the density at the strip's edge; strip 0 is the base with the tail."""
    xs, fs = _strip_edges()
    xs, fs = [0.0] + xs, [1.0] + fs  # the top strip's left edge: x = 0, where f = 1
    base = _exp(-0.5 * _R * _R)
    ki = [round(_R * base / _V * scale)] + [round(xs[i - 1] / xs[i] * scale) for i in range(1, 256)]
    wi = [_V / base / scale] + [x / scale for x in xs[1:]]
    return ki, wi, fs


_CACHE = {}


def tables(dtype):
    """numpy's ziggurat tables for dtype 'float64' or 'float32' (float32's values rounded to float32)."""
    if dtype not in _CACHE:
        if dtype == "float64":
            _CACHE[dtype] = _tables(2.0**52)
        else:
            ki, wi, fi = _tables(2.0**23)
            _CACHE[dtype] = (ki, [f32(w) for w in wi], [f32(f) for f in fi])
    return _CACHE[dtype]


def standard_normal(bitgen, n):
    """n float64 standard normal draws from bitgen, as numpy's random_standard_normal."""
    ki, wi, fi = tables("float64")
    next64, next_double = bitgen._next64, bitgen._next_double
    out = []
    while len(out) < n:
        r = next64()
        idx = r & 0xFF
        r >>= 8
        rabs = (r >> 1) & 0x000FFFFFFFFFFFFF
        x = -(rabs * wi[idx]) if r & 1 else rabs * wi[idx]
        if rabs < ki[idx]:
            out.append(x)  # the rectangle's inside: 99.3% of draws
        elif idx == 0:
            # The tail beyond r: Marsaglia's exponential rejection; numpy's log1p(-u) avoids log(0).
            while True:
                xx = -_INV_R * log1p(-next_double())
                yy = -log1p(-next_double())
                if yy + yy > xx * xx:
                    out.append(-(_R + xx) if (rabs >> 8) & 1 else _R + xx)
                    break
        elif (fi[idx - 1] - fi[idx]) * next_double() + fi[idx] < math.exp(-0.5 * x * x):
            out.append(x)  # the wedge between the rectangle and the curve; a rejection draws afresh
    return out


def standard_normal_f32(bitgen, n):
    """n float32 standard normal draws (as Python floats) from bitgen, as numpy's random_standard_normal_f:
    one 32-bit draw each, float32 arithmetic."""
    ki, wi, fi = tables("float32")
    next32, next_float = bitgen._next32, bitgen._next_float
    out = []
    while len(out) < n:
        r = next32()
        idx = r & 0xFF
        rabs = (r >> 9) & 0x007FFFFF
        x = f32(rabs * wi[idx])
        if (r >> 8) & 1:
            x = -x
        if rabs < ki[idx]:
            out.append(x)
        elif idx == 0:
            while True:
                xx = f32(-_INV_R_F * log1pf(-next_float()))
                yy = -log1pf(-next_float())
                if yy + yy > f32(xx * xx):
                    out.append(-f32(_R_F + xx) if (rabs >> 8) & 1 else f32(_R_F + xx))
                    break
        elif f32(f32(f32(fi[idx - 1] - fi[idx]) * next_float()) + fi[idx]) < math.exp(-0.5 * x * x):
            out.append(x)  # numpy compares the float32 wedge against a float64 exp
    return out
