"""Registering classes as pytrees the ways jax.tree_util offers beside
register_pytree_node: a class with tree_flatten / tree_unflatten methods, a
dataclass by its fields, and Partial, a functools.partial whose arguments
are the tree's leaves."""

import dataclasses
import functools

from .pytree import register_pytree_node


def register_pytree_node_class(cls):
    """jax.tree_util.register_pytree_node_class: cls as a pytree node through its
    tree_flatten() method and tree_unflatten(aux, children) classmethod; returns cls (a decorator)."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_dataclass(nodetype, data_fields=None, meta_fields=None, drop_fields=()):
    """jax.tree_util.register_dataclass: a dataclass as a pytree node, its data_fields the children and
    its meta_fields the static part (by default from the dataclass's fields: static=True in a field's
    metadata makes it meta); drop_fields are left out of both. Returns nodetype (a decorator)."""
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError("register_dataclass: data_fields and meta_fields must both be specified when either is specified.")
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError("register_dataclass: data_fields and meta_fields are required when nodetype is not a dataclass.")
        fields = [f for f in dataclasses.fields(nodetype) if f.init and f.name not in drop_fields]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
    data_fields, meta_fields = list(data_fields), list(meta_fields)

    def flatten(x):
        return [getattr(x, f) for f in data_fields], tuple(getattr(x, f) for f in meta_fields)

    def unflatten(meta, children):
        return nodetype(**dict(zip(data_fields, children)), **dict(zip(meta_fields, meta)))

    register_pytree_node(nodetype, flatten, unflatten)
    return nodetype


class Partial(functools.partial):
    """jax.tree_util.Partial: a functools.partial that is a pytree: its positional and keyword
    arguments are the leaves, the function the static part, so it can be passed to and returned
    from jit-transformed functions."""


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, children: Partial(func, *children[0], **children[1]),
)
