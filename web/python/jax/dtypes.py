"""jax.dtypes: the dtype helpers JAX exports (issubdtype, result_type,
canonicalize_dtype, is_weakly_typed, itemsize_bits, finfo and iinfo as jax.numpy has them, bfloat16)."""

from ._src.dtypes import (  # noqa: F401
    TypePromotionError,
    bfloat16,
    canonicalize_dtype,
    extended,
    is_weakly_typed,
    issubdtype,
    itemsize_bits,
    prng_key,
)
from ._src.dtypes import result_type_with_flag as result_type  # noqa: F401
from ._src.numpy import finfo, iinfo  # noqa: F401
