"""jax.tree_util: pytrees (tuples, lists, dicts, None, namedtuples and registered classes)."""

from ._src.pytree import (  # noqa: F401
    PyTreeDef,
    register_pytree_node,
    tree_all,
    tree_broadcast,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_reduce,
    tree_structure,
    tree_transpose,
    tree_unflatten,
    treedef_children,
    treedef_is_leaf,
    treedef_tuple,
)
from ._src.key_paths import (  # noqa: F401
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    SequenceKey,
    keystr,
    tree_flatten_with_path,
    tree_leaves_with_path,
    tree_map_with_path,
)
from ._src.tree_registration import Partial, register_dataclass, register_pytree_node_class  # noqa: F401, E402
