"""Pytree key paths as JAX names them (jax.tree_util's SequenceKey, DictKey,
GetAttrKey, FlattenedIndexKey; keystr; the *_with_path functions) and
equality_errors, which says how two pytrees' structures differ, for JAX's
error messages (a loop's carry, cond's branches)."""

from . import pytree


class _Key:
    """A key path entry: equal to another of its class with an equal key."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is type(self) and other.key == self.key

    def __hash__(self):
        return hash((type(self).__name__, self.key))


class SequenceKey(_Key):
    """A tuple's or list's child by index: str [0]."""

    __slots__ = ("idx",)

    def __init__(self, idx):
        self.idx = idx

    key = property(lambda self: self.idx)

    def __str__(self):
        return f"[{self.idx!r}]"

    def __repr__(self):
        return f"SequenceKey(idx={self.idx!r})"


class DictKey(_Key):
    """A dict's child by key: str ['a']."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __str__(self):
        return f"[{self.key!r}]"

    def __repr__(self):
        return f"DictKey(key={self.key!r})"


class GetAttrKey(_Key):
    """A namedtuple's child by field name: str .name."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    key = property(lambda self: self.name)

    def __str__(self):
        return f".{self.name}"

    def __repr__(self):
        return f"GetAttrKey(name={self.name!r})"


class FlattenedIndexKey(_Key):
    """A registered node's child by its position in the flattening: str [<flat index 0>]."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __str__(self):
        return f"[<flat index {self.key}>]"

    def __repr__(self):
        return f"FlattenedIndexKey(key={self.key!r})"


def _children_with_keys(x):
    """A node's (key, child) pairs and its metadata, or None for a leaf."""
    node = pytree._node_of(x)
    if node is None:
        return None
    children, aux = node[0](x)
    children = list(children)
    if isinstance(x, dict):
        keys = [DictKey(k) for k in aux]
    elif isinstance(x, tuple) and hasattr(x, "_fields"):
        keys = [GetAttrKey(f) for f in x._fields]
    elif isinstance(x, (tuple, list)):
        keys = [SequenceKey(i) for i in range(len(children))]
    else:
        keys = [FlattenedIndexKey(i) for i in range(len(children))]
    return list(zip(keys, children)), aux


def tree_flatten_with_path(tree, is_leaf=None):
    """jax.tree_util.tree_flatten_with_path: ([(key path, leaf)], treedef)."""
    out = []

    def walk(x, path):
        pairs = None if (is_leaf is not None and is_leaf(x)) else _children_with_keys(x)
        if pairs is None:
            out.append((path, x))
            return
        for k, c in pairs[0]:
            walk(c, (*path, k))

    walk(tree, ())
    return out, pytree.tree_structure(tree, is_leaf=is_leaf)


def tree_leaves_with_path(tree, is_leaf=None):
    """jax.tree_util.tree_leaves_with_path: [(key path, leaf)]."""
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(f, tree, *rest, is_leaf=None):
    """jax.tree_util.tree_map_with_path: f(path, leaf, *others' leaves) at each leaf."""
    pairs, treedef = tree_flatten_with_path(tree, is_leaf)
    others = [pytree.flatten_up_to(treedef, r) for r in rest]
    return treedef.unflatten([f(p, x, *(o[i] for o in others)) for i, (p, x) in enumerate(pairs)])


def keystr(keys, *, simple=False, separator=""):
    """jax.tree_util.keystr: a key path as text, ['a'][0] (simple: a/0 with separator='/')."""
    if simple:
        return separator.join(str(getattr(k, "key", k)) for k in keys)
    return separator.join(map(str, keys))


def equality_errors(tree1, tree2, is_leaf=None):
    """How two pytrees' structures differ, as JAX's tree_util.equality_errors:
    (key path, what tree1 has there, what tree2 has, why they differ)."""
    yield from _equality_errors((), tree1, tree2, is_leaf)


class _Leaf:
    """A leaf standing in for any (equality_errors_pytreedef): its type reads "pytree leaf"."""


def equality_errors_pytreedef(treedef1, treedef2):
    """equality_errors of two treedefs, each leaf described as a "pytree leaf"."""
    return equality_errors(treedef1.unflatten([_Leaf()] * treedef1.num_leaves), treedef2.unflatten([_Leaf()] * treedef2.num_leaves))


def _type_text(x):
    return "pytree leaf" if isinstance(x, _Leaf) else str(type(x))


def _equality_errors(path, t1, t2, is_leaf):
    leaf1 = (is_leaf is not None and is_leaf(t1)) or pytree._node_of(t1) is None
    leaf2 = (is_leaf is not None and is_leaf(t2)) or pytree._node_of(t2) is None
    if leaf1 and leaf2:
        return
    if type(t1) is not type(t2):
        yield path, _type_text(t1), _type_text(t2), "their Python types differ"
        return
    if isinstance(t1, (list, tuple)) and len(t1) != len(t2):
        yield path, f"{type(t1).__name__} of length {len(t1)}", f"{type(t2).__name__} of length {len(t2)}", "the lengths do not match"
        return
    (pairs1, meta1), (pairs2, meta2) = _children_with_keys(t1), _children_with_keys(t2)
    keys1, keys2 = [k for k, _ in pairs1], [k for k, _ in pairs2]
    if len(pairs1) != len(pairs2):
        diff = " ".join(repr(k.key) for k in set(keys1).symmetric_difference(keys2))
        plural = lambda n: "ren" if n > 1 else ""  # noqa: E731
        yield (path, f"{_type_text(t1)} with {len(pairs1)} child{plural(len(pairs1))}", f"{_type_text(t2)} with {len(pairs2)} child{plural(len(pairs2))}",
               "the numbers of children do not match" + (diff and f", with the symmetric difference of key sets: {{{diff}}}"))
        return
    if meta1 != meta2:
        meta = lambda m: tuple(m) if isinstance(m, list) else m  # noqa: E731
        yield path, f"{type(t1)} with pytree metadata {meta(meta1)}", f"{type(t2)} with pytree metadata {meta(meta2)}", "the pytree node metadata does not match"
        return
    for (k, c1), (_, c2) in zip(pairs1, pairs2):
        yield from _equality_errors((*path, k), c1, c2, is_leaf)
