"""jax.numpy: the functions of ShardLab's JS `np`, under JAX's names, its
dtypes and array constructors (jax/_src/numpy.py)."""

from .._src.numpy import *  # noqa: F401, F403

from . import linalg  # noqa: F401, E402
