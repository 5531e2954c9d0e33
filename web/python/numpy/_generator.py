"""numpy.random.Generator and default_rng in ShardLab's numpy: numpy's
Generator over PCG64, drawing numpy's numbers bit for bit (random, uniform,
integers, standard_normal, normal here; choice, permutation and shuffle in
_sampling.py). Results are this subset's ndarrays, or for size=None the
scalar numpy returns (a Python float from the float methods, an np.int64
from integers)."""

import math

from . import _bounded, _dtypes, _sampling
from ._ndarray import asarray, ndarray
from ._pcg64 import PCG64
from ._random_args import dtype_name, no_out, parameter_arrays, shape_of
from ._ziggurat import standard_normal, standard_normal_f32

_FLOATS = ("float64", "float32")
# integers' dtypes in this subset and their ranges.
_INT_BOUNDS = {"int64": (-(2**63), 2**63 - 1), "int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1), "bool": (0, 1)}
_PROVIDED = "random, uniform, integers, standard_normal, normal, choice, permutation, shuffle, spawn and bit_generator"


def _non_negative(value, name):
    """numpy's CONS_NON_NEGATIVE: a negative value (its sign bit, so -0.0 too) but not NaN raises."""
    if value == value and math.copysign(1.0, value) < 0:
        raise ValueError(f"{name} < 0")


def _bounds_error(closed, low_is_zero):
    """numpy's message for an empty integers range: about high when low is 0, else about low and high."""
    if low_is_zero:
        return "high < 0" if closed else "high <= 0"
    return "low > high" if closed else "low >= high"


class Generator:
    """np.random.Generator(bit_generator): numpy's random Generator over a PCG64 bit generator, numpy's draws."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, PCG64):
            raise TypeError(
                "Generator: ShardLab's numpy subset has one bit generator, PCG64 (numpy's default); got "
                f"{type(bit_generator).__name__}"
            )
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        """The PCG64 bit generator this Generator draws from."""
        return self._bit_generator

    def __str__(self):
        return "Generator(PCG64)"

    def __repr__(self):
        return f"Generator(PCG64) at 0x{id(self):X}"

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"Generator.{name} is not in ShardLab's numpy subset; its Generator has {_PROVIDED}")

    def _floats(self, size, dtype, draw):
        """size (None: one Python float) draws of draw(n) -> list of n floats, as an array of dtype."""
        if size is None:
            return draw(1)[0]
        shape = shape_of(size)
        return ndarray(draw(math.prod(shape)), shape, dtype)

    def random(self, size=None, dtype="float64", out=None):
        """Uniform floats in [0, 1): 53 bits of a 64-bit draw for float64, 24 of a 32-bit one for float32."""
        no_out("random", out)
        name = dtype_name("random", dtype, _FLOATS, "float64 (the default) or float32")
        bg = self._bit_generator
        step = bg._next_double if name == "float64" else bg._next_float
        return self._floats(size, name, lambda n: [step() for _ in range(n)])

    def standard_normal(self, size=None, dtype="float64", out=None):
        """Standard normal floats by numpy's ziggurat (float64, or float32 from 32-bit draws)."""
        no_out("standard_normal", out)
        name = dtype_name("standard_normal", dtype, _FLOATS, "float64 (the default) or float32")
        sampler = standard_normal if name == "float64" else standard_normal_f32
        return self._floats(size, name, lambda n: sampler(self._bit_generator, n))

    def uniform(self, low=0.0, high=1.0, size=None):
        """Uniform floats in [low, high): low + (high - low) * random(); low and high broadcast."""
        step = self._bit_generator._next_double
        alow, ahigh = asarray(low, "float64"), asarray(high, "float64")
        if alow.ndim == 0 and ahigh.ndim == 0:
            lo = float(low)
            span = float(high) - lo
            if not math.isfinite(span):
                raise OverflowError("high - low range exceeds valid bounds")
            _non_negative(span, "high - low")
            return self._floats(size, "float64", lambda n: [lo + span * step() for _ in range(n)])
        spans = ahigh - alow
        if not all(math.isfinite(v) for v in spans._flat):
            raise OverflowError("Range exceeds valid bounds")
        for v in spans._flat:
            _non_negative(v, "high - low")
        shape, (los, spans) = parameter_arrays([alow, spans], size)
        return ndarray([lo + span * step() for lo, span in zip(los, spans)], shape, "float64")

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Normal floats: loc + scale * standard_normal(); loc and scale broadcast."""
        aloc, ascale = asarray(loc, "float64"), asarray(scale, "float64")
        if aloc.ndim == 0 and ascale.ndim == 0:
            mu, sigma = float(loc), float(scale)
            _non_negative(sigma, "scale")
            return self._floats(size, "float64", lambda n: [mu + sigma * z for z in standard_normal(self._bit_generator, n)])
        for v in ascale._flat:
            _non_negative(v, "scale")
        shape, (mus, sigmas) = parameter_arrays([aloc, ascale], size)
        zs = standard_normal(self._bit_generator, len(mus))
        return ndarray([mu + sigma * z for mu, sigma, z in zip(mus, sigmas, zs)], shape, "float64")

    def _int_drawer(self, name):
        """rng -> a uniform int in [0, rng] for dtype `name`, as numpy's bounded generator of that width."""
        bg = self._bit_generator
        if name == "bool":
            return _bounded.bool_drawer(bg)
        bounded = _bounded.bounded64 if name == "int64" else _bounded.bounded32
        return lambda rng: bounded(bg, rng)

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        """Uniform ints in [low, high) ([low, high] with endpoint=True; [0, low) without high) by Lemire's method,
        as numpy's; dtype int64 (the default), int32, uint32 or bool."""
        if high is None:
            low, high = 0, low
        name = dtype_name("integers", dtype, _INT_BOUNDS, "int64 (the default), int32, uint32 or bool")
        closed = bool(endpoint)
        lb, ub = _INT_BOUNDS[name]
        if size is not None and math.prod(shape_of(size)) == 0:
            return ndarray([], shape_of(size), name)
        # As objects, so Python ints stay exact (2**63, one above int64's top, bounds an int64 range).
        alow, ahigh = asarray(low, "object"), asarray(high, "object")
        lows = [int(v) for v in alow._flat]  # numpy casts float bounds to the dtype: truncation
        tops = [int(v) - (not closed) for v in ahigh._flat]  # the closed interval's top
        if any(v < lb for v in lows):
            raise ValueError(f"low is out of bounds for {name}")
        if any(v > ub for v in tops):
            raise ValueError(f"high is out of bounds for {name}")
        bounded = self._int_drawer(name)
        cast = bool if name == "bool" else int  # the element in the dtype's Python type

        def draw(lo, top):
            return cast(lo + bounded(top - lo))

        if alow.ndim == 0 and ahigh.ndim == 0:
            lo, top = lows[0], tops[0]
            if lo > top:
                raise ValueError(_bounds_error(closed, lo == 0))
            if size is None:
                value = draw(lo, top)
                if dtype is int or dtype is bool:  # numpy returns the Python type it was given
                    return dtype(value)
                return _dtypes.scalar_of(name, value)
            shape = shape_of(size)
            return ndarray([draw(lo, top) for _ in range(math.prod(shape))], shape, name)
        shape, (lows, tops) = parameter_arrays([ndarray(lows, alow.shape, "object"), ndarray(tops, ahigh.shape, "object")], size)
        if any(lo > top for lo, top in zip(lows, tops)):
            raise ValueError(_bounds_error(closed, not any(alow._flat)))
        return ndarray([draw(lo, top) for lo, top in zip(lows, tops)], shape, name)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Draws from a (an array's entries along axis, or range(a) for an int), with or without replacement,
        uniformly or with probabilities p, as numpy's."""
        return _sampling.choice(self, a, size, replace, p, axis, shuffle)

    def permutation(self, x, axis=0):
        """A shuffled copy of x along axis (of arange(x) for an int), as numpy's."""
        return _sampling.permutation(self, x, axis)

    def shuffle(self, x, axis=0):
        """Shuffles x (a list or an ndarray) in place along axis, as numpy's (Fisher-Yates, last to first)."""
        return _sampling.shuffle(self, x, axis)

    def spawn(self, n_children):
        """n_children new Generators seeded from this one's SeedSequence's spawned children (numpy 1.25's)."""
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]


def default_rng(seed=None):
    """np.random.default_rng(seed): a Generator over PCG64 seeded as numpy's (None: fresh entropy; an int or
    ints; a SeedSequence; a PCG64 is wrapped; a Generator is returned as it is)."""
    if isinstance(seed, PCG64):
        return Generator(seed)
    if isinstance(seed, Generator):
        return seed
    return Generator(PCG64(seed))
