"""ShardLab's numpy: a subset of numpy for the host data JAX code keeps
beside jax (Pyodide's numpy cannot be installed here: it is not on npm).
Arrays of float64, float32, int64, int32, uint32, bool and objects (a list of
jax.devices() reshaped into a mesh); made from lists, ranges, fills and jax
arrays; indexed by ints and slices; numpy's broadcasting, promotion,
reductions and printing; numpy.random's Generator (default_rng over PCG64)
drawing numpy's numbers bit for bit. A jax function given one converts it
as JAX does (float64 to float32, int64 to int32): host data, never part of
a traced program. A name outside the subset raises AttributeError naming
the subset (docs/python.md lists it)."""

from . import random, testing
from ._dtypes import bool_, dtype, float32, float64, int32, int64, object_, uint32
from ._functions import (
    abs, absolute, all, allclose, amax, amin, any, arange, array, array_equal, broadcast_shapes, broadcast_to,
    concatenate, cos, dot, empty, exp, eye, full, full_like, identity, isclose, isscalar, linspace, log, matmul, max, maximum,
    mean, min, minimum, ndim, ones, ones_like, prod, ravel, reshape, result_type, shape, sin, size, sqrt, stack, sum,
    tanh, transpose, where, zeros, zeros_like,
)
from ._info import finfo, iinfo  # noqa: F401
from ._ndarray import asarray, ndarray

__version__ = "2.0.0+shardlab.subset"
pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
nan = float("nan")
newaxis = None
True_ = bool_(True)
False_ = bool_(False)


def __getattr__(name):
    raise AttributeError(
        f"numpy.{name} is not in ShardLab's numpy, a subset for host data beside jax (arrays from lists and jax "
        "arrays, reshape, arange/zeros/ones/linspace, elementwise math, reductions, testing.assert_allclose); "
        f"use jax.numpy.{name} for arrays on the devices"
    )
