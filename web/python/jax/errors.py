"""jax.errors: the errors JAX raises while tracing, with JAX's messages (jax/_src/errors.py)."""

from ._src.errors import (  # noqa: F401
    JAXTypeError,
    ConcretizationTypeError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    TracerArrayConversionError,
    NonConcreteBooleanIndexError,
    UnexpectedTracerError,
    JaxRuntimeError,
)
