"""The devices and the meshes over them (jax.devices, jax.make_mesh), and the
waiting jax's top level offers."""

import math

from .js import call, sl
from .sharding import AxisType, Mesh, _types


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
    return int(sl.deviceCount())


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
    js_mesh = call(sl.makeMesh, list(axis_shapes), list(axis_names), {"axisTypes": [t.value for t in types]})
    return Mesh(None, tuple(axis_names), _js=js_mesh)


def device_get(x):
    """jax.device_get(x): the tree x with each array brought to the host as a numpy array (other leaves as they are)."""
    import numpy

    from . import pytree
    from .array import Array

    return pytree.tree_map(lambda a: numpy.asarray(a) if isinstance(a, Array) else a, x)


def block_until_ready(x):
    """jax.block_until_ready(x): x (arrays are computed before they are returned)."""
    return x


def create_device_mesh(mesh_shape, devices=None, *, contiguous_submeshes=False, allow_split_physical_axes=False):
    """jax.experimental.mesh_utils.create_device_mesh: a numpy array of devices of shape `mesh_shape`
    (jax.devices() by default) for jax.sharding.Mesh; CPU devices have no topology to follow, so in order."""
    import numpy as np

    from . import devices as this_module  # the module: `devices` here is the argument

    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in shape):
        raise ValueError(f"`mesh_shape` passed to `create_device_mesh` should be a sequence of ints. Got {mesh_shape}")
    chosen = this_module.devices() if devices is None else devices
    chosen = chosen.ravel().tolist() if hasattr(chosen, "ravel") else list(chosen)
    if math.prod(shape) != len(chosen):
        raise ValueError(f"Number of devices {len(chosen)} must equal the product of mesh_shape {shape}")
    return np.array(chosen, dtype=object).reshape(shape)
