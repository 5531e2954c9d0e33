"""jax.nn.initializers: JAX's weight initializers over jax.random (jax/_src/nn_initializers.py)."""

from .._src.nn_initializers import *  # noqa: F401, F403
