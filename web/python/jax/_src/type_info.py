"""jnp.finfo and jnp.iinfo for the dtypes ShardLab has beyond its numpy
subset (float16, bfloat16, int8, int16, uint8, uint16): each limit derived
from its format's definition, as numpy's and ml_dtypes' finfo state them
(float32, int32 and uint32 are numpy's own: web/python/numpy/_info.py).
The limits are Python numbers, where numpy gives scalars of the dtype."""

import math

from . import dtypes as _dtypes

# Each narrow float format: its mantissa bits and exponent bits (IEEE 754's
# binary16; bfloat16 is float32 with 16 mantissa bits fewer).
FLOAT_FORMATS = {"float16": (10, 5), "bfloat16": (7, 8)}
# Each narrow integer type: its bits and whether it is signed.
INT_TYPES = {"int8": (8, True), "int16": (16, True), "uint8": (8, False), "uint16": (16, False)}


class finfo:
    """The limits of a narrow float dtype: the largest value (2 - eps)·2^emax,
    the smallest normal 2^emin and subnormal 2^(emin - nmant), eps 2^-nmant,
    and numpy's decimal precision int(-log10(eps)) with resolution 10^-precision."""

    def __init__(self, name):
        nmant, nexp = FLOAT_FORMATS[name]
        self.dtype = _dtypes.dtype(name)
        self.bits = 1 + nexp + nmant
        self.nmant, self.nexp, self.iexp = nmant, nexp, nexp
        self.maxexp = 2 ** (nexp - 1)
        self.minexp = 2 - self.maxexp
        self.machep, self.negep = -nmant, -nmant - 1
        self.eps, self.epsneg = 2.0**-nmant, 2.0 ** (-nmant - 1)
        self.max = (2 - self.eps) * 2.0 ** (self.maxexp - 1)
        self.min = -self.max
        self.tiny = self.smallest_normal = 2.0**self.minexp
        self.smallest_subnormal = 2.0 ** (self.minexp - nmant)
        self.precision = int(-math.log10(self.eps))
        self.resolution = 10.0**-self.precision

    def __repr__(self):
        return f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, dtype={self.dtype.name})"


class iinfo:
    """The limits of a narrow integer dtype: -2^(bits-1)..2^(bits-1)-1 signed, 0..2^bits-1 unsigned."""

    def __init__(self, name):
        bits, signed = INT_TYPES[name]
        self.dtype = _dtypes.dtype(name)
        self.bits, self.kind = bits, "i" if signed else "u"
        self.min = -(2 ** (bits - 1)) if signed else 0
        self.max = 2 ** (bits - 1) - 1 if signed else 2**bits - 1

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"
