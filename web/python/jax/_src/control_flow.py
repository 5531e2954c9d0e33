"""jax.lax.cond, switch, scan, fori_loop and while_loop over the JS API's
lax.cond, lax.switch, lax.scan, lax.foriLoop and lax.whileLoop: Python owns the pytrees (operands,
carries and outputs go to JS as flat lists of leaves); JS traces each
branch or body once, during the call."""

import contextlib

from . import pytree
from .api import _as_leaf, _flat_out, _for_call, _js_leaves
from .array import Array
from .config import jit_disabled
from .js import call, from_js, js_list, sl, to_js_value


def _eager(*values):
    """Whether control flow runs as Python here: under jax.disable_jit, with every value concrete (as JAX)."""
    return jit_disabled() and not any(isinstance(x, Array) and x._is_tracer() for v in values for x in pytree.tree_leaves(v))


def _branch_body(fun, treedef, box, mismatch):
    """A branch for JS: fun on the operands rebuilt from flat leaves; its
    output flattened (the first branch's structure is kept in box["tree"],
    a later one that differs is `mismatch(first, this)`'s TypeError)."""

    def body(*js_leaves):
        out, tree = _flat_out(fun(*pytree.tree_unflatten(treedef, [from_js(x) for x in js_leaves])))
        if "tree" in box and box["tree"] != tree:
            raise TypeError(mismatch(box["tree"], tree))
        box["tree"] = tree
        return out

    return body


def cond(pred, true_fun, false_fun, *operands):
    """jax.lax.cond(pred, true_fun, false_fun, *operands)."""
    if _eager(pred):
        return true_fun(*operands) if bool(pred) else false_fun(*operands)
    leaves, treedef = pytree.tree_flatten(operands)
    box = {}

    def mismatch(false_tree, true_tree):
        return f"true_fun and false_fun output must have same type structure, got {true_tree} and {false_tree}."

    with _for_call(_branch_body(true_fun, treedef, box, mismatch)) as t, _for_call(
        _branch_body(false_fun, treedef, box, mismatch)
    ) as f:
        out = call(sl.lax.cond, _as_leaf(pred), t, f, *[_as_leaf(x) for x in leaves])
    return pytree.tree_unflatten(box["tree"], [from_js(x) for x in out])


def switch(index, branches, *operands):
    """jax.lax.switch(index, branches, *operands): the index clamped to the branches."""
    branches = list(branches)
    if _eager(index):
        return branches[min(max(int(index), 0), len(branches) - 1)](*operands)
    leaves, treedef = pytree.tree_flatten(operands)
    box = {}

    def mismatch(first, other):
        return f"branch 0 and later branch outputs must have same type structure, got {first} and {other}."

    with contextlib.ExitStack() as stack:
        fns = [stack.enter_context(_for_call(_branch_body(b, treedef, box, mismatch))) for b in branches]
        out = call(sl.lax.switch, _as_leaf(index), js_list(fns), *[_as_leaf(x) for x in leaves])
    return pytree.tree_unflatten(box["tree"], [from_js(x) for x in out])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    """jax.lax.scan(f, init, xs, length, reverse): returns (carry, ys)."""
    if _eager(init, xs):
        return _python_scan(f, init, xs, length, reverse)
    init_leaves, init_tree = pytree.tree_flatten(init)
    xs_leaves, xs_tree = pytree.tree_flatten(xs)
    box = {}

    def body(js_carry, js_x):
        carry = pytree.tree_unflatten(init_tree, [from_js(v) for v in js_carry])
        x = pytree.tree_unflatten(xs_tree, [from_js(v) for v in js_x])
        out = f(carry, x)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError("scan body output must be a pair, got " + type(out).__name__)
        new_carry, new_tree = pytree.tree_flatten(out[0])
        if new_tree != init_tree:
            raise TypeError(
                "scan body function carry input and carry output must have the same pytree structure, but they "
                f"differ: the input carry is {init_tree} and the output carry is {new_tree}"
            )
        ys, box["ys"] = pytree.tree_flatten(out[1])
        return js_list([_js_leaves(new_carry), _js_leaves(ys)])

    with _for_call(body) as fn:
        res = call(sl.lax.scan, fn, _js_leaves(init_leaves), _js_leaves(xs_leaves), {"length": length, "reverse": bool(reverse)})
    carry = pytree.tree_unflatten(init_tree, [from_js(v) for v in res[0]])
    return carry, pytree.tree_unflatten(box["ys"], [from_js(v) for v in res[1]])


def _python_scan(f, init, xs, length, reverse):
    """scan as a Python loop (jax.disable_jit), its ys stacked as lax.scan stacks them."""
    from . import numpy as jnp

    leaves = pytree.tree_leaves(xs)
    n = length if length is not None else (leaves[0].shape[0] if leaves else None)
    if n is None:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    if n == 0:
        raise ValueError("zero-length scan is not supported in disable_jit() mode because the output type is unknown.")
    carry, ys = init, []
    for i in reversed(range(n)) if reverse else range(n):
        carry, y = f(carry, pytree.tree_map(lambda x: x[i], xs))
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, pytree.tree_map(lambda *y: jnp.stack(y), *ys) if ys else ys


def _index_array(i):
    """A loop index as fori_loop's body gets it under disable_jit: an int32 array."""
    from . import numpy as jnp

    return jnp.asarray(i, dtype="int32")


def _loop_body(fun, treedef, *args):
    """A loop body for JS: fun(*args, carry) on the carry rebuilt from flat
    leaves, its output flattened; a different structure is JAX's TypeError."""

    def body(*js):
        x = pytree.tree_unflatten(treedef, [from_js(v) for v in js[-1]])
        new, tree = pytree.tree_flatten(fun(*[from_js(a) for a in js[:-1]], x))
        if tree != treedef:
            raise TypeError(f"body_fun output and input must have identical types, got\n{tree} and {treedef}")
        return _js_leaves(new)

    return body


def _bound(b):
    """A fori_loop bound: an int when it is known while tracing (a Python int,
    or a concrete integer array, which JAX reads with int() too), else an array."""
    if isinstance(b, int) and not isinstance(b, bool):
        return b
    if isinstance(b, Array) and not b._is_tracer() and b.ndim == 0 and b.dtype.name == "int32":
        return int(b)
    return _as_leaf(b)


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """jax.lax.fori_loop(lower, upper, body_fun, init_val): a scan for integer
    bounds, a while_loop for traced ones (as JAX makes it)."""
    if _eager(lower, upper, init_val):
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(_index_array(i), val)
        return val
    leaves, treedef = pytree.tree_flatten(init_val)
    bounds = [_bound(b) for b in (lower, upper)]
    with _for_call(_loop_body(body_fun, treedef)) as fn:
        res = call(sl.lax.foriLoop, bounds[0], bounds[1], fn, _js_leaves(leaves))
    return pytree.tree_unflatten(treedef, [from_js(v) for v in res])


def while_loop(cond_fun, body_fun, init_val):
    """jax.lax.while_loop(cond_fun, body_fun, init_val)."""
    if _eager(init_val):
        from .api import asarray

        val = pytree.tree_map(asarray, init_val)
        while bool(cond_fun(val)):
            val = pytree.tree_map(asarray, body_fun(val))
        return val
    leaves, treedef = pytree.tree_flatten(init_val)

    def cond(js_x):
        return to_js_value(_as_leaf(cond_fun(pytree.tree_unflatten(treedef, [from_js(v) for v in js_x]))))

    with _for_call(cond) as c, _for_call(_loop_body(body_fun, treedef)) as b:
        res = call(sl.lax.whileLoop, c, b, _js_leaves(leaves))
    return pytree.tree_unflatten(treedef, [from_js(v) for v in res])
