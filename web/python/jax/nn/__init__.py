"""jax.nn: ShardLab's JS functions under JAX's names (jax/_src/nn.py), and
jax.nn.initializers (jax/_src/nn_initializers.py)."""

from .._src.nn import *  # noqa: F401, F403
from . import initializers  # noqa: F401
