"""jax.tree_util: pytrees (tuples, lists, dicts, None, namedtuples and registered classes)."""

from ._src.pytree import (  # noqa: F401
    PyTreeDef,
    register_pytree_node,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
)


def tree_reduce(function, tree, initializer=None, is_leaf=None):
    """jax.tree_util.tree_reduce."""
    import functools

    leaves = tree_leaves(tree, is_leaf)
    return functools.reduce(function, leaves) if initializer is None else functools.reduce(function, leaves, initializer)
