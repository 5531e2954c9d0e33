"""jax.dtypes: the dtype helpers JAX exports (issubdtype, result_type,
canonicalize_dtype, is_weakly_typed, finfo and iinfo as jax.numpy has them)."""

from ._src.dtypes import TypePromotionError, canonicalize_dtype, extended, is_weakly_typed, issubdtype, prng_key  # noqa: F401
from ._src.dtypes import result_type_with_flag as result_type  # noqa: F401
from ._src.numpy import finfo, iinfo  # noqa: F401
