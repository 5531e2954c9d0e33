"""jax.lax's functions: ShardLab's JS `lax` under JAX's names (the table in
jax/_src/table.py): the collectives of a shard_map body and the primitives
jax.numpy has no name for."""

import enum as _enum

from . import table as _table

_FUNCTIONS = _table.functions("lax")
globals().update(_FUNCTIONS)


_collective_psum = _FUNCTIONS["psum"]


def psum(x, axis_name, *, axis_index_groups=None):
    """jax.lax.psum(x, axis_name): the sum over the devices along the axes. A
    tree with no traced leaf is summed as JAX sums it, with no collective: each
    leaf times the axes' size, a Python scalar keeping its type (psum(1, 'i')
    is the int axis_size('i')). That case is decided here because a list of
    Python numbers reaches JS as array data, whose ints and floats it cannot tell apart."""
    from .array import Array
    from .pytree import tree_leaves, tree_map

    if axis_index_groups is not None:
        raise NotImplementedError("lax.psum: axis_index_groups is not supported by ShardLab")
    if any(isinstance(leaf, Array) and leaf._is_tracer() for leaf in tree_leaves(x)):
        return _collective_psum(x, axis_name)
    size = _FUNCTIONS["axis_size"](axis_name)
    return tree_map(lambda leaf: (int(leaf) if isinstance(leaf, bool) else leaf) * size, x)


_FUNCTIONS["psum"] = psum


class RoundingMethod(_enum.IntEnum):
    """jax.lax.RoundingMethod: how lax.round rounds halves (JAX's values)."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def with_sharding_constraint(x, shardings):
    """jax.lax.with_sharding_constraint(x, shardings): the arrays of pytree x laid out as `shardings` (a
    tree prefix of NamedShardings, or of PartitionSpecs read against jax.set_mesh's mesh) says, as
    jax.device_put lays them out: at once outside jit, inside it an identity shard_map that splits
    the value (ShardLab has no partitioner to steer; the values are x's either way)."""
    from .api import device_put
    from .pytree import broadcast_prefix, tree_flatten, tree_unflatten
    from .sharding import NamedSharding, PartitionSpec, context_mesh

    leaves, tree = tree_flatten(x)
    given = broadcast_prefix(shardings, x, lambda s: s is None or isinstance(s, (NamedSharding, PartitionSpec)),
                             "with_sharding_constraint shardings")
    mesh = context_mesh()
    out = []
    for leaf, s in zip(leaves, given):
        if isinstance(s, PartitionSpec) or s is None:
            if mesh is None:
                raise RuntimeError(
                    "with_sharding_constraint requires a non-empty mesh in context if you are passing `PartitionSpec`s "
                    "to shardings. You can define a context mesh via `jax.set_mesh(mesh)`. Alternatively, provide "
                    "`Sharding`s to shardings and then the mesh context manager is not required.")
            s = NamedSharding(mesh, s if s is not None else PartitionSpec())
        elif not isinstance(s, NamedSharding):
            raise ValueError(f"One of with_sharding_constraint arguments got sharding {s} which is not allowed. "
                             "Please only pass `jax.sharding.Sharding` instances.")
        out.append(device_put(leaf, s))
    return tree_unflatten(tree, out)


from .control_flow import associative_scan, cond, fori_loop, map, scan, switch, while_loop  # noqa: E402, F401, A004

__all__ = sorted({*_FUNCTIONS, "RoundingMethod", "associative_scan", "cond", "fori_loop", "map", "scan", "switch", "while_loop",
                  "with_sharding_constraint"})
