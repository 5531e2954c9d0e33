"""jax.errors' classes: the errors JAX raises while tracing, with JAX's messages."""

_DOCS = "https://docs.jax.dev/en/latest/errors.html#jax.errors."


class JAXTypeError(TypeError):
    """Base of JAX's type errors about traced values."""


class JAXIndexError(IndexError):
    """Base of JAX's index errors (JAX's jax.errors.JAXIndexError)."""


class ConcretizationTypeError(JAXTypeError):
    """A traced (abstract) value was used where a concrete one is needed."""

    def __init__(self, tracer, context=""):
        super().__init__(
            "Abstract tracer value encountered where concrete value is expected: "
            f"{_repr(tracer)}\n{context}\nSee {_DOCS}ConcretizationTypeError"
        )


class TracerBoolConversionError(ConcretizationTypeError):
    """bool() of a traced value: `if tracer:` or `while tracer:`."""

    def __init__(self, tracer):
        JAXTypeError.__init__(
            self,
            f"Attempted boolean conversion of {_repr(tracer)}.\n"
            "The value is abstract while the function is traced (under jax.jit, jax.grad, jax.shard_map, ...): "
            "branch with jnp.where, jax.lax.select or jax.lax.cond instead, or make the value static.\n"
            f"See {_DOCS}TracerBoolConversionError",
        )


class TracerIntegerConversionError(JAXTypeError):
    """__index__ of a traced value (using it as a Python index)."""

    def __init__(self, tracer):
        super().__init__(
            f"The __index__() method was called on {_repr(tracer)}\nSee {_DOCS}TracerIntegerConversionError"
        )


class TracerArrayConversionError(JAXTypeError):
    """A traced value converted to a host array."""

    def __init__(self, tracer):
        super().__init__(
            f"The numpy.ndarray conversion method __array__() was called on {_repr(tracer)}\n"
            f"See {_DOCS}TracerArrayConversionError"
        )


class NonConcreteBooleanIndexError(JAXIndexError):
    """A boolean mask index that is traced: the result's shape would depend on its values."""


class ShardingTypeError(Exception):
    """JAX's core.ShardingTypeError: types whose shardings do not combine (an ambiguous contraction,
    conflicting broadcast shardings, a mesh axis named twice); out_sharding= or jax.reshard settles it."""


class UnexpectedTracerError(Exception):
    """A traced value used after the function that made it returned."""


class JaxRuntimeError(RuntimeError):
    """An error while the devices ran a program (a failing device, exhausted memory)."""


def _repr(tracer):
    return f"traced array with shape {tracer.dtype}[{','.join(map(str, tracer.shape))}]"


# Named by the module JAX users import them from (a traceback's last line says jax.errors.TracerBoolConversionError), as JAX does.
for _cls in (JAXTypeError, ConcretizationTypeError, TracerBoolConversionError, TracerIntegerConversionError, TracerArrayConversionError, NonConcreteBooleanIndexError, UnexpectedTracerError, JaxRuntimeError):
    _cls.__module__ = "jax.errors"
# JAX defines it in jax._src.core and exports it nowhere public: a traceback names it so.
ShardingTypeError.__module__ = "jax._src.core"
