"""jax.nn.initializers: JAX's initializers of neural network weights
(jax/_src/nn/initializers.py at JAX 0.11, consistent with Keras and Sonnet),
over jax.random and jax.numpy, with JAX's signatures, fans and formulas, so
that the same key gives the same weights. An initializer is called as
init(key, shape, dtype=float32, out_sharding=None).

Not here: complex dtypes (ShardLab has no complex numbers), out_sharding
(ShardLab's samplers place nothing), and the orthogonal initializers'
matrices, which need a QR decomposition (jax.random.orthogonal takes the Q
of jnp.linalg.qr of a normal matrix, its numbers those of the QR's
Householder algorithm): they raise NotImplementedError but for empty shapes."""

import math
import operator
import typing
from typing import Protocol

from . import numpy as jnp
from . import random

__all__ = [
    "Initializer",
    "constant",
    "delta_orthogonal",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "kaiming_normal",
    "kaiming_uniform",
    "lecun_normal",
    "lecun_uniform",
    "normal",
    "ones",
    "orthogonal",
    "truncated_normal",
    "uniform",
    "variance_scaling",
    "xavier_normal",
    "xavier_uniform",
    "zeros",
]

# The stddev of a standard normal truncated to (-2, 2), which variance_scaling divides out.
_TRUNCATED_STDDEV = 0.87962566103423978


@typing.runtime_checkable
class Initializer(Protocol):
    """What jax.nn.initializers' builders return: init(key, shape, dtype=None, out_sharding=None) -> Array."""

    def __call__(self, key, shape, dtype=None, out_sharding=None):
        raise NotImplementedError


def _default_dtype(dtype):
    """JAX's default float dtype (float32 without x64) where dtype is None."""
    return jnp.float32 if dtype is None else dtype


def _no_sharding(out_sharding, name):
    """ShardLab's samplers take no out_sharding: refuse one rather than ignore it."""
    if out_sharding is not None:
        raise NotImplementedError(f"jax.nn.initializers.{name}: out_sharding is not supported by ShardLab (its random samplers place nothing)")


def _canonicalize_shape(shape):
    """JAX's core.canonicalize_shape: an int is a 1-d shape, the rest a sequence of integer dimensions (its TypeError otherwise)."""
    if isinstance(shape, int):
        shape = (shape,)
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"Shapes must be 1D sequences of concrete values of integer type, got {shape}.") from None


def _real_only(dtype, name):
    """The complex branches of JAX's initializers (a disk, a truncated complex normal) have no counterpart here."""
    raise NotImplementedError(
        f"jax.nn.initializers.{name}: dtype {jnp.dtype(dtype)} is not a real floating dtype; "
        "JAX samples complex weights there, and ShardLab has no complex numbers"
    )


def zeros(key, shape, dtype=None, out_sharding=None):
    """An initializer of zeros (the key is ignored)."""
    _no_sharding(out_sharding, "zeros")
    return jnp.zeros(shape, _default_dtype(dtype))


def ones(key, shape, dtype=None, out_sharding=None):
    """An initializer of ones (the key is ignored)."""
    _no_sharding(out_sharding, "ones")
    return jnp.ones(shape, _default_dtype(dtype))


def constant(value, dtype=None):
    """Builds an initializer of arrays full of `value` (dtype: its default dtype)."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        _no_sharding(out_sharding, "constant")
        return jnp.full(shape, value, dtype=_default_dtype(dtype))

    return init


def uniform(scale=1e-2, dtype=None):
    """Builds an initializer of uniform values in [0, scale): uniform(key, shape) * scale."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        _no_sharding(out_sharding, "uniform")
        dtype = _default_dtype(dtype)
        return random.uniform(key, shape, dtype) * jnp.array(scale, dtype)

    return init


def normal(stddev=1e-2, dtype=None):
    """Builds an initializer of normal values of mean 0 and standard deviation stddev: normal(key, shape) * stddev."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        _no_sharding(out_sharding, "normal")
        dtype = _default_dtype(dtype)
        return random.normal(key, shape, dtype) * jnp.array(stddev, dtype)

    return init


def truncated_normal(stddev=1e-2, dtype=None, lower=-2.0, upper=2.0):
    """Builds an initializer of a standard normal truncated to (lower, upper), times stddev (no variance correction, as JAX)."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        _no_sharding(out_sharding, "truncated_normal")
        dtype = _default_dtype(dtype)
        return random.truncated_normal(key, lower, upper, shape, dtype) * jnp.array(stddev, dtype)

    return init


def _compute_fans(shape, in_axis=-2, out_axis=-1, batch_axis=()):
    """JAX's fans of a weights shape: fan_in = in_size * receptive field, fan_out = out_size * receptive field,
    the receptive field being the product of the axes not in in_axis, out_axis nor batch_axis (a convolution's kernel)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(
            f"Can't compute input and output sizes of a {len(shape)}-dimensional"
            " weights tensor with default in_axis. Must be at least 2D or specify"
            " in_axis explicitly."
        )
    in_size = shape[in_axis] if isinstance(in_axis, int) else math.prod([shape[i] for i in in_axis])
    out_size = shape[out_axis] if isinstance(out_axis, int) else math.prod([shape[i] for i in out_axis])
    batch_size = shape[batch_axis] if isinstance(batch_axis, int) else math.prod([shape[i] for i in batch_axis])
    receptive_field_size = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive_field_size, out_size * receptive_field_size


def variance_scaling(scale, mode, distribution, in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds an initializer of variance scale / n, n the fan mode picks ('fan_in', 'fan_out', 'fan_avg' (their mean),
    'fan_geo_avg' (their geometric mean)), drawn from 'truncated_normal' (at 2 stddevs), 'normal' or 'uniform'."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        _no_sharding(out_sharding, "variance_scaling")
        shape = _canonicalize_shape(shape)
        dtype = _default_dtype(dtype)
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis, batch_axis)
        if mode == "fan_in":
            denominator = fan_in
        elif mode == "fan_out":
            denominator = fan_out
        elif mode == "fan_avg":
            denominator = (fan_in + fan_out) / 2
        elif mode == "fan_geo_avg":
            denominator = (fan_in * fan_out) ** 0.5
        else:
            raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
        variance = jnp.array(scale / denominator, dtype=dtype)
        real = jnp.issubdtype(dtype, jnp.floating)
        if distribution == "truncated_normal":
            if not real:
                _real_only(dtype, "variance_scaling")
            # Truncation at 2 shrinks the stddev by _TRUNCATED_STDDEV: divide it out.
            stddev = jnp.sqrt(variance) / jnp.array(_TRUNCATED_STDDEV, dtype)
            return random.truncated_normal(key, -2, 2, shape, dtype) * stddev
        elif distribution == "normal":
            return random.normal(key, shape, dtype) * jnp.sqrt(variance)
        elif distribution == "uniform":
            if not real:
                _real_only(dtype, "variance_scaling")
            # U(-1, 1) has variance 1/3.
            return random.uniform(key, shape, dtype, -1) * jnp.sqrt(3 * variance)
        else:
            raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")

    return init


def glorot_uniform(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds a Glorot (Xavier) uniform initializer: variance_scaling(1.0, 'fan_avg', 'uniform')."""
    return variance_scaling(1.0, "fan_avg", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


xavier_uniform = glorot_uniform


def glorot_normal(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds a Glorot (Xavier) normal initializer: variance_scaling(1.0, 'fan_avg', 'truncated_normal')."""
    return variance_scaling(1.0, "fan_avg", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


xavier_normal = glorot_normal


def lecun_uniform(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds a LeCun uniform initializer: variance_scaling(1.0, 'fan_in', 'uniform')."""
    return variance_scaling(1.0, "fan_in", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


def lecun_normal(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds a LeCun normal initializer: variance_scaling(1.0, 'fan_in', 'truncated_normal')."""
    return variance_scaling(1.0, "fan_in", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


def he_uniform(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds a He (Kaiming) uniform initializer: variance_scaling(2.0, 'fan_in', 'uniform')."""
    return variance_scaling(2.0, "fan_in", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


kaiming_uniform = he_uniform


def he_normal(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None):
    """Builds a He (Kaiming) normal initializer: variance_scaling(2.0, 'fan_in', 'truncated_normal')."""
    return variance_scaling(2.0, "fan_in", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


kaiming_normal = he_normal


def orthogonal(scale=1.0, column_axis=-1, dtype=None):
    """Builds an initializer of (scaled) orthogonal matrices along `column_axis`: jax.random.orthogonal's, reshaped, as JAX's."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        if out_sharding is not None:
            raise NotImplementedError
        dtype = _default_dtype(dtype)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(dim == 0 for dim in shape):
            return jnp.zeros(shape, dtype=dtype)
        n_rows, n_cols = math.prod(shape) // shape[column_axis], shape[column_axis]
        q = random.orthogonal(key, n_rows, (), dtype, n_cols)
        rest = tuple(d for i, d in enumerate(shape) if i != column_axis % len(shape))
        q = jnp.moveaxis(jnp.reshape(q, rest + (shape[column_axis],)), -1, column_axis)
        return jnp.array(scale, dtype) * q

    return init


def delta_orthogonal(scale=1.0, column_axis=-1, dtype=None):
    """Builds an initializer of delta orthogonal convolution kernels (3-, 4- or 5-d): an orthogonal matrix at the kernel's center, zeros elsewhere."""

    def init(key, shape, dtype=dtype, out_sharding=None):
        if out_sharding is not None:
            raise NotImplementedError
        dtype = _default_dtype(dtype)
        if len(shape) not in [3, 4, 5]:
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho_init = orthogonal(scale=scale, column_axis=column_axis, dtype=dtype)
        ortho_matrix = ortho_init(key, shape[-2:])
        W = jnp.zeros(shape, dtype=dtype)
        center = tuple((k - 1) // 2 for k in shape[:-2])
        return W.at[center + (Ellipsis,)].set(ortho_matrix)

    return init
