"""jax.scipy: the parts ShardLab has (jax.scipy.special.logsumexp)."""

from . import special  # noqa: F401
