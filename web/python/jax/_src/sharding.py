"""jax.sharding's classes: Mesh, PartitionSpec, NamedSharding and AxisType over the JS API."""

import enum
import math

from . import pytree
from .js import call, from_js, sl, to_js_value


class AxisType(enum.Enum):
    """How a mesh axis is sharded (JAX 0.11): jax.make_mesh makes Explicit axes by default."""

    Auto = "Auto"
    Explicit = "Explicit"
    Manual = "Manual"

    def __repr__(self):
        return self.name  # as JAX 0.11's: Mesh reprs show (Explicit,)


class PartitionSpec(tuple):
    """jax.sharding.PartitionSpec (P): per dimension, None, a mesh axis name or a tuple of them; `unreduced` and
    `reduced`, the mesh axes a value is unreduced (each device a partial sum) or reduced over (JAX 301)."""

    def __new__(cls, *entries, unreduced=frozenset(), reduced=frozenset()):
        for e in entries:
            if not (e is None or isinstance(e, str) or (isinstance(e, tuple) and all(isinstance(a, str) for a in e))):
                raise TypeError(f"PartitionSpec entries must be None, an axis name or a tuple of axis names; got {e!r}")
        for name, axes in (("unreduced", unreduced), ("reduced", reduced)):
            if isinstance(axes, str) or not all(isinstance(a, str) for a in axes):
                raise TypeError(f"PartitionSpec {name} must be a set of mesh axis names; got {axes!r}")
        spec = super().__new__(cls, entries)
        spec.unreduced, spec.reduced = frozenset(unreduced), frozenset(reduced)
        return spec

    def __repr__(self):
        # As JAX 0.11's: the entries as a tuple writes them, so one entry is P('i',); then the states as sets.
        parts = [tuple.__repr__(self)[1:-1]] if len(self) else []
        for name in ("unreduced", "reduced"):
            axes = getattr(self, name)
            if axes:
                parts.append(f"{name}={{{', '.join(repr(a) for a in sorted(axes))}}}")
        return "P(" + ", ".join(parts) + ")"

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, PartitionSpec):
            return tuple.__eq__(self, other) and (self.unreduced, self.reduced) == (other.unreduced, other.reduced)
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((tuple(self), self.unreduced, self.reduced))

    def __js__(self):
        entries = [to_js_value(e) for e in self]
        if self.unreduced or self.reduced:
            entries.append(to_js_value({"unreduced": sorted(self.unreduced), "reduced": sorted(self.reduced)}))
        return sl.P(*entries)


class Mesh:
    """jax.sharding.Mesh(devices, axis_names, axis_types=None): devices as a
    (nested) list of jax.devices(), in mesh order. Axis types default to Auto
    here, as JAX's Mesh does (jax.make_mesh defaults to Explicit)."""

    def __init__(self, devices, axis_names, axis_types=None, *, _js=None):
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        self.axis_names = tuple(axis_names)
        if _js is None:
            if hasattr(devices, "_shardlab_host_array"):  # numpy's array of devices: np.array(jax.devices()).reshape(2, 4)
                devices = devices.tolist()
            shape = _nested_shape(devices)
            if len(shape) != len(self.axis_names):
                raise ValueError(
                    "Mesh requires the ndim of its first argument (`devices`) to equal the length of its second argument "
                    f"(`axis_names`), but got devices.ndim == {len(shape)} and len(axis_names) == {len(self.axis_names)}."
                )
            flat = pytree.tree_leaves(devices)
            if [d.id for d in flat] != list(range(len(flat))):
                raise ValueError("Mesh: ShardLab meshes take the first devices in order (jax.devices()[:n])")
            types = _types(axis_types, len(shape), AxisType.Auto)
            _js = call(sl.makeMesh, list(shape), list(self.axis_names), {"axisTypes": [t.value for t in types]})
        self._js = _js
        self.axis_types = tuple(AxisType(t) for t in _js.axisTypes)

    @property
    def shape(self):
        """{axis name: size}."""
        return dict(zip(self.axis_names, (int(s) for s in self._js.axisSizes)))

    @property
    def axis_sizes(self):
        """The axis sizes."""
        return tuple(int(s) for s in self._js.axisSizes)

    @property
    def size(self):
        """The number of devices."""
        return int(self._js.size)

    @property
    def devices(self):
        """The devices, as nested lists in mesh order."""
        from . import devices as all_devices

        flat = all_devices()[: self.size]

        def nest(sizes, items):
            if len(sizes) == 1:
                return list(items)
            step = len(items) // sizes[0]
            return [nest(sizes[1:], items[i * step : (i + 1) * step]) for i in range(sizes[0])]

        return nest(list(self.axis_sizes), flat)

    def __js__(self):
        return self._js

    def __eq__(self, other):
        return isinstance(other, Mesh) and other._js.key == self._js.key and other.axis_types == self.axis_types

    def __hash__(self):
        return hash((str(self._js.key), self.axis_types))

    def __str__(self):
        """As JAX 0.11's str: Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit)), as NamedSharding shows it."""
        shape = ", ".join(f"'{n}': {s}" for n, s in self.shape.items())
        return f"Mesh({shape}, axis_types={self.axis_types!r})"

    def __repr__(self):
        """As JAX 0.11's repr: Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Explicit, Explicit))."""
        sizes = tuple(self.shape.values())
        return f"Mesh(axis_sizes={sizes!r}, axis_names={tuple(self.shape)!r}, axis_types={self.axis_types!r})"


def _nested_shape(devices):
    shape = []
    d = devices
    while isinstance(d, (list, tuple)):
        shape.append(len(d))
        d = d[0] if d else None
    return shape


def _types(axis_types, n, default):
    if axis_types is None:
        return (default,) * n
    if isinstance(axis_types, AxisType):
        axis_types = (axis_types,)
    axis_types = tuple(axis_types)
    if len(axis_types) != n or not all(isinstance(t, AxisType) for t in axis_types):
        raise ValueError(f"axis_types must be {n} jax.sharding.AxisType values, got {axis_types!r}")
    return axis_types


class NamedSharding:
    """jax.sharding.NamedSharding(mesh, spec)."""

    def __init__(self, mesh, spec=PartitionSpec()):
        if not isinstance(mesh, Mesh):
            raise TypeError(f"NamedSharding: mesh must be a jax.sharding.Mesh, got {type(mesh).__name__}")
        if not isinstance(spec, PartitionSpec):
            raise TypeError(f"NamedSharding: spec must be a PartitionSpec, got {spec!r}")
        self.mesh = mesh
        self.spec = spec

    @classmethod
    def _wrap(cls, js_sharding):
        m = js_sharding.mesh
        mesh = Mesh(None, tuple(m.axisNames), _js=m)
        spec = js_sharding.spec
        entries = [e if e is None or isinstance(e, str) else tuple(e) for e in map(from_js, spec.entries)]
        axes = lambda v: frozenset(str(a) for a in from_js(v))
        return cls(mesh, PartitionSpec(*entries, unreduced=axes(spec.unreduced), reduced=axes(spec.reduced)))

    @property
    def device_set(self):
        """The set of devices of the mesh."""
        from .devices import devices

        return set(devices()[: self.mesh.size])

    def __js__(self):
        return sl.NamedSharding.new(self.mesh._js, self.spec.__js__())

    def __eq__(self, other):
        return isinstance(other, NamedSharding) and other.mesh == self.mesh and other.spec == self.spec

    def __hash__(self):
        return hash((self.mesh, self.spec))

    def __repr__(self):
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec!r})"


class SingleDeviceSharding:
    """jax.sharding.SingleDeviceSharding(device, memory_kind=None): the sharding
    of an array placed on no mesh (made by jnp, or computed from such arrays),
    as JAX gives it for one on device 0. ShardLab keeps such an array on every
    device (its NamedSharding over Mesh('devices': 8) in the JS API), so any
    computation reads it where it runs, as JAX moves an uncommitted array."""

    def __init__(self, device, *, memory_kind=None):
        self._device = device
        self.memory_kind = memory_kind

    @property
    def device_set(self):
        """The one device."""
        return {self._device}

    @property
    def num_devices(self):
        return 1

    @property
    def is_fully_replicated(self):
        return True

    @property
    def is_fully_addressable(self):
        return True

    def devices_indices_map(self, global_shape):
        """The device's index into an array of `global_shape`: all of it."""
        return {self._device: (slice(None),) * len(global_shape)}

    def __eq__(self, other):
        return isinstance(other, SingleDeviceSharding) and (other._device, other.memory_kind) == (self._device, self.memory_kind)

    def __hash__(self):
        return hash((self._device, self.memory_kind))

    def __repr__(self):
        mem = "" if self.memory_kind is None else f", memory_kind={self.memory_kind}"
        return f"SingleDeviceSharding(device={self._device!r}{mem})"


def _sharding_of(js_sharding):
    """The Python sharding of a JS array's: a SingleDeviceSharding for the
    default placement (the JS API's Mesh('devices': n) unsplit, where every
    array not put elsewhere lives), else its NamedSharding."""
    m = js_sharding.mesh
    if tuple(m.axisNames) == ("devices",) and not list(js_sharding.spec.entries):
        from .devices import devices

        return SingleDeviceSharding(devices()[0], memory_kind="unpinned_host")
    return NamedSharding._wrap(js_sharding)


P = PartitionSpec


class set_mesh:  # noqa: N801 (JAX's name: a class used as a function and a context manager)
    """jax.set_mesh(mesh): sets the context mesh, against which a bare PartitionSpec is read
    (jax.device_put(x, P(...)), jax.shard_map without mesh=); as a global setter, or as a context
    manager that puts back the mesh before it on exit. Outside jax.jit only, as JAX's."""

    __slots__ = ("_handle",)

    def __init__(self, mesh):
        if mesh is not None and not isinstance(mesh, Mesh):
            raise ValueError(f"Expected mesh of type `jax.sharding.Mesh`. Got {type(mesh)}")
        self._handle = call(sl.setMesh, mesh._js if mesh is not None else None)

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        self._handle.restore()


def context_mesh():
    """The mesh jax.set_mesh set (a Mesh over the same JS mesh), or None."""
    js = sl.getAbstractMesh()
    if js.empty:
        return None
    return Mesh(None, tuple(js.axisNames), _js=sl.makeMesh(js.axisSizes, js.axisNames, {"axisTypes": js.axisTypes}))


class AbstractMesh:
    """jax.sharding.AbstractMesh: a mesh's axis sizes, names and types, without its devices."""

    def __init__(self, axis_sizes, axis_names, axis_types=None):
        self.axis_sizes = tuple(axis_sizes)
        self.axis_names = tuple(axis_names)
        self.axis_types = _types(axis_types, len(self.axis_sizes), AxisType.Auto)

    @property
    def empty(self):
        """Whether it has no axes (no mesh is set)."""
        return not self.axis_names

    @property
    def shape(self):
        """{axis name: size}."""
        return dict(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self):
        """The number of devices."""
        return math.prod(self.axis_sizes)

    def __eq__(self, other):
        return isinstance(other, AbstractMesh) and (self.axis_sizes, self.axis_names, self.axis_types) == (
            other.axis_sizes, other.axis_names, other.axis_types)

    def __hash__(self):
        return hash((self.axis_sizes, self.axis_names, self.axis_types))

    def __repr__(self):
        """As JAX 0.11's: AbstractMesh('X': 4, 'Y': 2, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None)."""
        return str(call(sl.AbstractMesh.new, list(self.axis_sizes), list(self.axis_names), [t.value for t in self.axis_types]))


def get_abstract_mesh():
    """jax.sharding.get_abstract_mesh(): the context mesh's axes (an empty AbstractMesh when none is set)."""
    js = sl.getAbstractMesh()
    return AbstractMesh(tuple(js.axisSizes), tuple(js.axisNames), tuple(AxisType(t) for t in js.axisTypes))


def type_spec(type_sharding, rank):
    """A traced value's type sharding (the JS typeSharding: null, or its dims and unreduced and reduced
    axes) as ShapedArray holds it: (spec, unreduced, reduced), spec entries None, a name or a tuple of names."""
    from .abstract import spec_entries

    if from_js(type_sharding) is None:
        return (), (), ()
    axes = lambda v: tuple(str(a) for a in from_js(v))
    return spec_entries([from_js(d) for d in from_js(type_sharding.dims)], rank), axes(type_sharding.unreduced), axes(type_sharding.reduced)


def with_sharding_constraint(x, shardings):
    """jax.lax.with_sharding_constraint(x, shardings): the arrays of pytree x laid out as `shardings` (a tree
    prefix of NamedShardings, or of PartitionSpecs on jax.set_mesh's mesh) says (the JS API's lax.withShardingConstraint)."""
    return _laid_out(sl.lax.withShardingConstraint, x, shardings, "with_sharding_constraint shardings")


def reshard(xs, out_shardings):
    """jax.reshard(xs, out_shardings): the arrays of pytree xs laid out as `out_shardings` says, on Explicit
    mesh axes only (the JS API's reshard)."""
    return _laid_out(sl.reshard, xs, out_shardings, "reshard out_shardings")


def _laid_out(fn, x, shardings, what):
    """fn (a JS layout function) on each array of pytree x with its sharding of the tree prefix `shardings`."""
    from .api import _as_leaf

    leaves, tree = pytree.tree_flatten(x)
    given = pytree.broadcast_prefix(shardings, x, lambda s: s is None or isinstance(s, (NamedSharding, PartitionSpec)), what)
    return pytree.tree_unflatten(tree, [from_js(call(fn, _as_leaf(leaf), s)) for leaf, s in zip(leaves, given)])
