"""jax.lax.linalg: the decompositions and the triangular solve (jax/_src/lax_linalg.py)."""

from .._src.lax_linalg import *  # noqa: F401, F403
