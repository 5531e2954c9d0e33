"""Pytrees as JAX defines them: tuples, lists, dicts (in sorted key order),
None (a node with no children), namedtuples and registered classes are
nodes; everything else is a leaf. The binding flattens every argument and
result here, so the JS API only ever sees flat lists of leaves."""

import collections

# type -> (flatten(node) -> (children, aux), unflatten(aux, children) -> node)
_registry = {}


def register_pytree_node(nodetype, flatten_func, unflatten_func):
    """jax.tree_util.register_pytree_node."""
    _registry[nodetype] = (flatten_func, unflatten_func)


register_pytree_node(tuple, lambda t: (t, None), lambda _, c: tuple(c))
register_pytree_node(list, lambda t: (t, None), lambda _, c: list(c))
register_pytree_node(type(None), lambda _: ((), None), lambda _, c: None)


def _dict_flatten(d):
    keys = sorted(d)
    return [d[k] for k in keys], keys


register_pytree_node(dict, _dict_flatten, lambda keys, c: dict(zip(keys, c)))
register_pytree_node(
    collections.OrderedDict,
    lambda d: (list(d.values()), list(d)),
    lambda keys, c: collections.OrderedDict(zip(keys, c)),
)


def _node_of(x):
    if type(x) in _registry:
        return _registry[type(x)]
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # a namedtuple
        return (lambda t: (tuple(t), None), lambda _, c, cls=type(x): cls(*c))
    return None


class PyTreeDef:
    """The structure of a pytree: a node type, its aux data and children (None for a leaf)."""

    __slots__ = ("node", "aux", "children", "num_leaves")

    def __init__(self, node, aux, children):
        self.node = node
        self.aux = aux
        self.children = children
        self.num_leaves = 1 if children is None else sum(c.num_leaves for c in children)

    def __eq__(self, other):
        return (
            isinstance(other, PyTreeDef)
            and self.node == other.node
            and self.aux == other.aux
            and self.children == other.children
        )

    def __hash__(self):
        return hash((self.node, repr(self.aux), None if self.children is None else tuple(self.children)))

    def unflatten(self, leaves):
        """jax.tree_util.tree_unflatten(self, leaves)."""
        return tree_unflatten(self, leaves)

    def __repr__(self):
        return f"PyTreeDef({_describe(self)})"


_LEAF = PyTreeDef(None, None, None)


def _describe(d):
    if d.children is None:
        return "*"
    inner = ", ".join(_describe(c) for c in d.children)
    if d.node is tuple:
        return f"({inner}{',' if len(d.children) == 1 else ''})"
    if d.node is list:
        return f"[{inner}]"
    if d.node is dict:
        return "{" + ", ".join(f"{k!r}: {_describe(c)}" for k, c in zip(d.aux, d.children)) + "}"
    if d.node is type(None):
        return "None"
    name = getattr(d.node, "__name__", d.node)
    # As jaxlib's PyTreeDef prints them: a namedtuple by its fields, an
    # OrderedDict as a dict, any other registered class as CustomNode(name[aux], [children]).
    if isinstance(d.node, type) and issubclass(d.node, tuple) and hasattr(d.node, "_fields"):
        return f"{name}(" + ", ".join(f"{k}={_describe(c)}" for k, c in zip(d.node._fields, d.children)) + ")"
    if d.node is collections.OrderedDict:
        return "OrderedDict({" + ", ".join(f"{k!r}: {_describe(c)}" for k, c in zip(d.aux, d.children)) + "})"
    return f"CustomNode({name}[{d.aux!r}], [{inner}])"


def tree_flatten(tree, is_leaf=None):
    """jax.tree_util.tree_flatten: (leaves, treedef)."""
    leaves = []

    def walk(x):
        node = None if (is_leaf is not None and is_leaf(x)) else _node_of(x)
        if node is None:
            leaves.append(x)
            return _LEAF
        children, aux = node[0](x)
        return PyTreeDef(type(x), aux, [walk(c) for c in children])

    return leaves, walk(tree)


def tree_unflatten(treedef, leaves):
    """jax.tree_util.tree_unflatten."""
    it = iter(leaves)

    def build(d):
        if d.children is None:
            return next(it)
        node = _registry.get(d.node) or _node_of_type(d.node)
        return node[1](d.aux, [build(c) for c in d.children])

    out = build(treedef)
    return out


def _node_of_type(t):
    if issubclass(t, tuple) and hasattr(t, "_fields"):
        return (None, lambda _, c: t(*c))
    raise TypeError(f"tree_unflatten: {t} is not a registered pytree node")


def tree_leaves(tree, is_leaf=None):
    """jax.tree_util.tree_leaves."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    """jax.tree_util.tree_structure."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(f, tree, *rest, is_leaf=None):
    """jax.tree_util.tree_map: f over the leaves of `tree` and the matching parts of `rest` (each a tree with `tree`'s structure as a prefix: a leaf of `tree` may match a whole subtree)."""
    leaves, treedef = tree_flatten(tree, is_leaf)
    try:
        others = [flatten_up_to(treedef, r) for r in rest]
    except ValueError:
        # As JAX: say where `tree` stops being a prefix of the other tree, when it can.
        leaf = lambda p: (is_leaf is not None and is_leaf(p)) or _node_of(p) is None  # noqa: E731
        for r in rest:
            broadcast_prefix(tree, r, leaf, "tree_map tree")
        raise
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others)])


def flatten_up_to(treedef, tree):
    """The parts of `tree` at the leaves of `treedef` (JAX's PyTreeDef.flatten_up_to): `tree` must have
    treedef's nodes down to them; a ValueError as JAX words it names the first node that differs."""
    out = []

    def walk(d, x):
        if d.children is None:
            out.append(x)
            return
        node = _node_of(x)
        kind = d.node.__name__
        if node is None or type(x) is not d.node:
            raise ValueError(f"Expected {kind}, got {x!r}.")
        children, aux = node[0](x)
        if len(children) != len(d.children):
            raise ValueError(f"{kind.capitalize()} arity mismatch: {len(children)} != {len(d.children)}; {kind}: {x!r}.")
        if repr(aux) != repr(d.aux):
            raise ValueError(f"{kind.capitalize()} key mismatch; expected keys: {d.aux!r}; {kind}: {x!r}.")
        for c, sub in zip(children, d.children):
            walk(sub, c)

    walk(treedef, tree)
    return out


def broadcast_prefix(prefix, tree, is_prefix_leaf, what):
    """One prefix leaf per leaf of `tree`: each leaf of `prefix` (as
    is_prefix_leaf says) stands for the whole subtree at its place, as JAX's
    tree prefixes (in_specs, out_specs) do; `what` names it in errors."""
    out = []

    def fill(p, t, path):
        if is_prefix_leaf(p):
            out.extend([p] * tree_structure(t).num_leaves)
            return
        pnode, tnode = _node_of(p), _node_of(t)
        if pnode is None or tnode is None or type(p) is not type(t):
            raise ValueError(
                f"pytree structure error: different types at key path\n    {what}{path}\n"
                f"At that key path, the prefix pytree {what} has a subtree of type\n    {type(p)}\n"
                f"but at the same key path the full pytree has a subtree of different type\n    {type(t)}."
            )
        pc, paux = pnode[0](p)
        tc, taux = tnode[0](t)
        if len(pc) != len(tc) or paux != taux:
            raise ValueError(
                f"pytree structure error: different lengths of {type(t).__name__} at key path\n    {what}{path}\n"
                f"At that key path, the prefix pytree {what} has a subtree of type {type(t).__name__} of length "
                f"{len(pc)}, but the full pytree has a subtree of the same type but of length {len(tc)}."
            )
        keys = paux if isinstance(paux, list) else range(len(pc))
        for k, a, b in zip(keys, pc, tc):
            fill(a, b, f"{path}[{k!r}]")

    fill(prefix, tree, "")
    return out


def tree_reduce(function, tree, initializer=None, is_leaf=None):
    """jax.tree_util.tree_reduce."""
    import functools

    leaves = tree_leaves(tree, is_leaf)
    return functools.reduce(function, leaves) if initializer is None else functools.reduce(function, leaves, initializer)


def tree_all(tree, *, is_leaf=None):
    """jax.tree.all / tree_util.tree_all: whether every leaf is true."""
    return all(tree_leaves(tree, is_leaf))


def treedef_is_leaf(treedef):
    """jax.tree_util.treedef_is_leaf: whether the structure is a single leaf."""
    return treedef.children is None


def treedef_children(treedef):
    """jax.tree_util.treedef_children: the structures of the node's children."""
    return [] if treedef.children is None else list(treedef.children)


def treedef_tuple(treedefs):
    """jax.tree_util.treedef_tuple: the structure of a tuple of trees of the given structures."""
    return PyTreeDef(tuple, None, list(treedefs))


def tree_broadcast(prefix_tree, full_tree, is_leaf=None):
    """jax.tree.broadcast: prefix_tree with each leaf repeated over the subtree of full_tree it is a prefix of."""
    leaves, treedef = tree_flatten(prefix_tree, is_leaf)
    parts = flatten_up_to(treedef, full_tree)
    return tree_unflatten(treedef, [tree_map(lambda _, v=leaf: v, part) for leaf, part in zip(leaves, parts)])


def tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose):
    """jax.tree.transpose: a tree of outer structure of trees of inner structure, as an inner tree of outer trees
    (inner_treedef None: read from the first outer child)."""
    inners = flatten_up_to(outer_treedef, pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(inners[0])
    columns = [flatten_up_to(inner_treedef, part) for part in inners]
    return tree_unflatten(inner_treedef, [tree_unflatten(outer_treedef, list(col)) for col in zip(*columns)])
