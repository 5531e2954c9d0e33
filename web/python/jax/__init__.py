"""ShardLab's jax: JAX's Python API bound onto ShardLab's JS API, so the JAX
a learner writes here runs unchanged on JAX. docs/python.md lists what it
covers and every known difference."""

from . import errors, lax, nn, numpy, random, scipy, sharding, tree, tree_util  # noqa: F401
from . import experimental  # noqa: F401
from ._src.api import (  # noqa: F401
    device_put,
    grad,
    jit,
    jvp,
    make_jaxpr,
    shard_map,
    value_and_grad,
    vjp,
)
from ._src.vmap import hessian, jacfwd, jacrev, vmap  # noqa: F401
from ._src.custom import custom_jvp, custom_vjp  # noqa: F401
from ._src.array import Array  # noqa: F401
from ._src.js import call as _call
from ._src.js import from_js as _from_js
from ._src.js import sl as _sl
from .sharding import AxisType, Mesh, NamedSharding, PartitionSpec, _types

__version__ = "0.11.0"


class Device:
    """One of the devices (jax.devices())."""

    platform = "cpu"
    device_kind = "cpu"

    def __init__(self, i):
        self.id = i

    def __repr__(self):
        return f"CpuDevice(id={self.id})"

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("Device", self.id))


def device_count():
    """jax.device_count(): the number of devices (8 workers)."""
    return int(_sl.deviceCount())


def local_device_count():
    """jax.local_device_count()."""
    return device_count()


def devices(backend=None):
    """jax.devices(): the devices."""
    return [Device(i) for i in range(device_count())]


def make_mesh(axis_shapes, axis_names, axis_types=None, *, devices=None):
    """jax.make_mesh(axis_shapes, axis_names, axis_types): a mesh over the first
    prod(axis_shapes) devices. As in JAX 0.11 its axes are Explicit unless
    axis_types says otherwise."""
    if isinstance(axis_names, str):
        axis_names = (axis_names,)
    types = _types(axis_types, len(tuple(axis_shapes)), AxisType.Explicit)
    js_mesh = _call(_sl.makeMesh, list(axis_shapes), list(axis_names), {"axisTypes": [t.value for t in types]})
    return Mesh(None, tuple(axis_names), _js=js_mesh)


class ShapeDtypeStruct:
    """jax.ShapeDtypeStruct(shape, dtype): an abstract argument."""

    def __init__(self, shape, dtype, sharding=None):
        from ._src import dtypes

        self.shape = tuple(shape)
        self.dtype = dtypes.dtype(dtype)
        self.sharding = sharding

    def __js__(self):
        return _call(_sl.ShapeDtypeStruct.new, self.shape, self.dtype.name)

    def __repr__(self):
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name})"


def block_until_ready(x):
    """jax.block_until_ready(x): x (arrays are computed before they are returned)."""
    return x
