"""jax.pmap, as JAX 0.11 runs it: a shard_map over a 1-d mesh of the first n
devices (n the mapped axis's size), each device given its slice without the
mapped axis and its result stacked back along out_axes, jitted. A public
composition of jax.shard_map, jax.jit and jnp, like JAX's own pmap-as-shard_map."""

import functools

from . import pytree
from .api import _as_leaf, jit, shard_map
from .devices import devices as _devices
from .sharding import Mesh, PartitionSpec


def _is_axis(a):
    return a is None or (isinstance(a, int) and not isinstance(a, bool))


def pmap(fun=None, axis_name=None, *, in_axes=0, out_axes=0, static_broadcasted_argnums=(), devices=None, backend=None,
         axis_size=None, donate_argnums=()):
    """jax.pmap(fun, axis_name, in_axes=0, out_axes=0): fun on n devices, device i given slice i of each mapped
    argument; collectives over axis_name reach the n devices. static_broadcasted_argnums and devices= are not
    supported here (a clear error says so)."""
    if fun is None:
        return lambda f: pmap(f, axis_name, in_axes=in_axes, out_axes=out_axes, axis_size=axis_size)
    if static_broadcasted_argnums or devices is not None:
        raise NotImplementedError("pmap: static_broadcasted_argnums and devices= are not supported by ShardLab yet")
    name = axis_name if axis_name is not None else "_pmap"
    from . import numpy as jnp

    @functools.wraps(fun)
    def mapped(*args):
        leaves, treedef = pytree.tree_flatten(args)
        axes = pytree.broadcast_prefix(tuple(in_axes) if isinstance(in_axes, list) else in_axes, args, _is_axis, "pmap in_axes")
        leaves = [_as_leaf(x) for x in leaves]
        sizes = {x.shape[a] for x, a in zip(leaves, axes) if a is not None}
        if len(sizes) > 1:
            raise ValueError(f"pmap got inconsistent sizes for array axes to be mapped: {sorted(sizes)}")
        n = sizes.pop() if sizes else axis_size
        if n is None:
            raise ValueError("pmap requires at least one argument with a mapped axis, or axis_size=")
        available = len(_devices())
        if n > available:
            raise ValueError(
                f"compiling computation that requires {n} logical devices, but only {available} XLA devices are available "
                f"(num_replicas={n})"
            )
        # Each mapped leaf with its mapped axis first, split over the mesh's one axis.
        moved = [x if a is None else jnp.moveaxis(x, a, 0) for x, a in zip(leaves, axes)]
        key = (n, tuple(axes), treedef)
        if key not in compiled:
            compiled[key] = _compile(fun, name, n, axes, treedef)
        run, box = compiled[key]
        stacked = run(*moved)
        out_ax = pytree.broadcast_prefix(out_axes, box["structure"], _is_axis, "pmap out_axes")
        outs = [s if a in (0, None) else jnp.moveaxis(s, 0, a) for s, a in zip(stacked, out_ax)]
        outs = [s[0] if a is None else s for s, a in zip(outs, out_ax)]
        return pytree.tree_unflatten(box["tree"], outs)

    compiled = {}  # per device count, mapped axes and argument structure: the jitted program, as JAX caches it
    return mapped


def _compile(fun, name, n, axes, treedef):
    """The jitted shard_map running fun on n devices, and a box its trace fills with the output's structure."""
    from . import numpy as jnp

    box = {}

    def body(*parts):
        given = [p if a is None else p[0] for p, a in zip(parts, axes)]
        out = fun(*pytree.tree_unflatten(treedef, given))
        outs, box["tree"] = pytree.tree_flatten(out)
        box["structure"] = out  # its leaves are this trace's; only its structure is read later
        return tuple(jnp.expand_dims(jnp.asarray(o), 0) for o in outs)

    # Every output stacked along the mesh's axis (one spec, a prefix of any outputs). As pmap, no VMA
    # typing: a collective over an unmapped value sums its n copies.
    specs = tuple(PartitionSpec() if a is None else PartitionSpec(name) for a in axes)
    mesh = Mesh(_devices()[:n], (name,))
    return jit(shard_map(body, mesh=mesh, in_specs=specs, out_specs=PartitionSpec(name), check_vma=False)), box
