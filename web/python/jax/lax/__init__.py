"""jax.lax: the collectives of a shard_map body and the primitives jax.numpy
has no name for (jax/_src/lax.py), and jax.lax.linalg (jax/_src/lax_linalg.py)."""

from .._src.lax import *  # noqa: F401, F403
from . import linalg  # noqa: F401
