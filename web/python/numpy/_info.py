"""numpy's finfo and iinfo for the dtypes this numpy has, with numpy's values
and printing; jax.numpy's finfo and iinfo are these, as JAX's are numpy's."""

from ._dtypes import dtype as _dtype
from ._dtypes import float32, float64, name_of

# IEEE 754's binary32 and binary64: the numbers numpy's finfo derives, written out.
_FLOATS = {
    "float32": dict(bits=32, nmant=23, nexp=8, maxexp=128, minexp=-126, machep=-23, negep=-24, precision=6,
                    eps=1.1920928955078125e-07, epsneg=5.960464477539063e-08, max=3.4028234663852886e38,
                    tiny=1.1754943508222875e-38, smallest_subnormal=1.401298464324817e-45, resolution=1e-06),
    "float64": dict(bits=64, nmant=52, nexp=11, maxexp=1024, minexp=-1022, machep=-52, negep=-53, precision=15,
                    eps=2.220446049250313e-16, epsneg=1.1102230246251565e-16, max=1.7976931348623157e308,
                    tiny=2.2250738585072014e-308, smallest_subnormal=5e-324, resolution=1e-15),
}
_INTS = {"int32": (-(2**31), 2**31 - 1, 32), "uint32": (0, 2**32 - 1, 32), "int64": (-(2**63), 2**63 - 1, 64)}


class finfo:
    """numpy.finfo(dtype): the limits of a float dtype (float32, float64)."""

    def __init__(self, dtype):
        n = name_of(dtype)
        if n not in _FLOATS:
            raise ValueError(f"data type <class 'numpy.{n}'> not inexact")
        scalar = {"float32": float32, "float64": float64}[n]
        self.dtype = _dtype(n)
        for k, v in _FLOATS[n].items():
            setattr(self, k, scalar(v) if isinstance(v, float) else v)
        self.min = scalar(-float(self.max))
        self.smallest_normal = self.tiny
        self.iexp = self.nexp

    def __repr__(self):
        return f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, dtype={self.dtype.name})"


class iinfo:
    """numpy.iinfo(dtype): the limits of an integer dtype (int32, uint32, int64)."""

    def __init__(self, dtype):
        n = name_of(dtype)
        if n not in _INTS:
            raise ValueError(f"Invalid integer data type {_dtype(n).kind!r}.")
        self.min, self.max, self.bits = _INTS[n]
        self.dtype = _dtype(n)
        self.kind = "u" if n.startswith("u") else "i"

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"

