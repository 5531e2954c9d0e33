"""The libm functions numpy's normal draws call in their rare tail path,
reproduced as the reference numpy (Debian 12's, on glibc 2.36 and an x86-64
CPU with FMA) computes them: glibc's log1p (its FMA build) and log1pf,
fdlibm's algorithm. Pyodide's libm (musl) differs from glibc's log1p in the
last bit for about 0.1% of the inputs, and a correctly rounded log1pf from
glibc's for 7% of the float32 inputs numpy draws, so neither stands in.
Defined for -1 < x < 1, the range numpy uses (log1p(-u) for a uniform u)."""

import math
import struct

_pack_d, _unpack_d = struct.Struct("<d").pack, struct.Struct("<d").unpack
_pack_f, _unpack_f = struct.Struct("<f").pack, struct.Struct("<f").unpack
_pack_i, _unpack_i = struct.Struct("<i").pack, struct.Struct("<i").unpack
_pack_q, _unpack_q = struct.Struct("<q").pack, struct.Struct("<q").unpack


def _exact_fma(a, b, c):
    from fractions import Fraction  # only before Python 3.13; imported here to keep numpy's import light

    return float(Fraction(a) * Fraction(b) + Fraction(c))  # Fraction's float() rounds once, correctly


_fma = getattr(math, "fma", _exact_fma)  # a * b + c rounded once (math.fma is Python 3.13's)


def f32(x):
    """x rounded to float32 (as a Python float). One double operation then this rounding is the float32
    operation's result: double's 53 bits exceed 2 * 24 + 2, so the two roundings never differ from one."""
    return _unpack_f(_pack_f(x))[0]


def _fbits(x):
    return _unpack_i(_pack_f(x))[0]


def _ffrom(bits):
    return _unpack_f(_pack_i(bits))[0]


def _high(x):
    return _unpack_q(_pack_d(x))[0] >> 32


def _with_high(x, high):
    low = _unpack_q(_pack_d(x))[0] & 0xFFFFFFFF
    return _unpack_d(_pack_q(((high & 0xFFFFFFFF) << 32 | low) - ((high & 0x80000000) << 33)))[0]


# fdlibm's constants (as glibc's s_log1p.c spells them): ln 2 split in two, and the series' coefficients.
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
_LP = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
       1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01)


def log1p(x):
    """glibc 2.36's log1p(x) for -1 < x < 1, bit for bit, as its FMA build computes it (the one an x86-64 CPU
    with FMA runs: fused multiply-adds where GCC contracted fdlibm's a * b + c; a CPU without differs rarely)."""
    hx = _high(x)
    ax = hx & 0x7FFFFFFF
    k, c = 1, 0.0
    if hx < 0x3FDA827A:  # x < 0.41422
        if ax < 0x3E200000:  # |x| < 2**-29
            return x if ax < 0x3C900000 else _fma(-(x * x), 0.5, x)
        if hx > 0 or hx <= -0x402D413D:  # -0.2929 < x < 0.41422 (0xbfd2bec3 as a signed word)
            k, f, hu = 0, x, 1
    if k:
        u = 1.0 + x
        hu = _high(u)
        k = (hu >> 20) - 1023
        c = (1.0 - (u - x) if k > 0 else x - (u - 1.0)) / u  # what the rounding of 1 + x lost
        hu &= 0x000FFFFF
        if hu < 0x6A09E:
            u = _with_high(u, hu | 0x3FF00000)  # u normalized to [1, sqrt 2)
        else:
            k += 1
            u = _with_high(u, hu | 0x3FE00000)  # u / 2
            hu = (0x00100000 - hu) >> 2
        f = u - 1.0
    hfsq = 0.5 * f * f
    kf = float(k)
    if hu == 0:  # |f| < 2**-20
        if f == 0.0:
            return 0.0 if k == 0 else _fma(kf, _LN2_HI, _fma(kf, _LN2_LO, c))
        r = hfsq * _fma(-f, 0.66666666666666666, 1.0)
        return f - r if k == 0 else _fma(kf, _LN2_HI, -((r - _fma(kf, _LN2_LO, c)) - f))
    s = f / (2.0 + f)
    z = s * s
    z2 = z * z
    z4 = z2 * z2
    # fdlibm's series R1 + z2 R2 + z4 R3 + z6 R4, each pair fused as the FMA build fuses them.
    r = _fma(z, _LP[0], z2 * _fma(z, _LP[2], _LP[1]))
    r = _fma(z4, _fma(z, _LP[4], _LP[3]), r)
    r = _fma(z4 * z2, _fma(z, _LP[6], _LP[5]), r)
    t = s * (hfsq + r)
    if k == 0:
        return f - (hfsq - t)
    return _fma(kf, _LN2_HI, -((hfsq - (t + _fma(kf, _LN2_LO, c))) - f))


# fdlibm's float32 constants (glibc's s_log1pf.c), as float32 values.
_LN2_HI_F, _LN2_LO_F = f32(6.9313812256e-01), f32(9.0580006145e-06)
_LP_F = tuple(f32(v) for v in (6.6666668653e-01, 4.0000000596e-01, 2.8571429849e-01, 2.2222198546e-01,
                                1.8183572590e-01, 1.5313838422e-01, 1.4798198640e-01))
_TWO_THIRDS_F = f32(0.66666666666666666)


def log1pf(x):
    """glibc 2.36's log1pf(x) for a float32 x in (-1, 1), bit for bit: each float operation rounded to float32."""
    hx = _fbits(x)
    ax = hx & 0x7FFFFFFF
    k, c = 1, 0.0
    if hx < 0x3ED413D7:  # x < 0.41422
        if ax < 0x31000000:  # |x| < 2**-29
            return x if ax < 0x24800000 else f32(x - f32(f32(x * x) * 0.5))
        if hx > 0 or hx <= -0x416A09E1:  # -0.2929 < x < 0.41422 (0xbe95f61f as a signed word)
            k, f, hu = 0, x, 1
    if k:
        u = f32(1.0 + x)
        hu = _fbits(u)
        k = (hu >> 23) - 127
        c = f32((f32(1.0 - f32(u - x)) if k > 0 else f32(x - f32(u - 1.0))) / u)
        hu &= 0x007FFFFF
        if hu < 0x3504F7:
            u = _ffrom(hu | 0x3F800000)
        else:
            k += 1
            u = _ffrom(hu | 0x3F000000)
            hu = (0x00800000 - hu) >> 2
        f = f32(u - 1.0)
    hfsq = f32(f32(0.5 * f) * f)
    kf = float(k)
    if hu == 0:
        if f == 0.0:
            return 0.0 if k == 0 else f32(f32(kf * _LN2_HI_F) + f32(c + f32(kf * _LN2_LO_F)))
        r = f32(hfsq * f32(1.0 - f32(_TWO_THIRDS_F * f)))
        if k == 0:
            return f32(f - r)
        return f32(f32(kf * _LN2_HI_F) - f32(f32(r - f32(f32(kf * _LN2_LO_F) + c)) - f))
    s = f32(f / f32(2.0 + f))
    z = f32(s * s)
    r = _LP_F[6]
    for coefficient in reversed(_LP_F[:6]):  # Horner's rule, innermost first, as the C nests it
        r = f32(coefficient + f32(z * r))
    r = f32(z * r)
    if k == 0:
        return f32(f - f32(hfsq - f32(s * f32(hfsq + r))))
    return f32(f32(kf * _LN2_HI_F) - f32(f32(hfsq - f32(f32(s * f32(hfsq + r)) + f32(f32(kf * _LN2_LO_F) + c))) - f))
