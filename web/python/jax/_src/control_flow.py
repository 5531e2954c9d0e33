"""jax.lax.cond, switch, scan, fori_loop and while_loop over the JS API's
lax.cond, lax.switch, lax.scan, lax.foriLoop and lax.whileLoop: Python owns the pytrees (operands,
carries and outputs go to JS as flat lists of leaves); JS traces each
branch or body once, during the call."""

import contextlib
from collections.abc import Sequence

from . import pytree
from .api import _as_leaf, _for_call, _js_leaves, is_jax_value
from .array import Array
from .config import jit_disabled
from .control_flow_checks import aval_of, check_branches, check_callable, check_carry
from .js import call, from_js, js_list, sl, to_js_value


def _eager(*values):
    """Whether control flow runs as Python here: under jax.disable_jit, with every value concrete (as JAX)."""
    return jit_disabled() and not any(isinstance(x, Array) and x._is_tracer() for v in values for x in pytree.tree_leaves(v))


def _branch_body(fun, treedef, box, index, check):
    """A branch for JS: fun on the operands rebuilt from flat leaves, its output
    flattened; the first branch traced is kept in box["first"] (its index and
    output avals), and each later one checked against it by check(first, this)."""

    def body(*js_leaves):
        leaves, tree = pytree.tree_flatten(fun(*pytree.tree_unflatten(treedef, [from_js(x) for x in js_leaves])))
        this = (index, pytree.tree_unflatten(tree, [aval_of(x) for x in leaves]))
        if "first" in box:
            check(box["first"], this)
        else:
            box["first"] = this
        box["tree"] = tree
        return _js_leaves(leaves)

    return body


def _shape_of(x):
    """np.shape of a predicate or index: an array's shape, a list's nesting, () for a scalar."""
    if isinstance(x, (list, tuple)):
        return (len(x), *(_shape_of(x[0]) if x else ()))
    return tuple(getattr(x, "shape", ()))


def _dtype_of(x):
    """The dtype of a predicate or index, or None when it is not an array or number (JAX's result_type fails)."""
    if is_jax_value(x):
        return aval_of(x).dtype
    return None


def _check_pred(pred):
    """cond's predicate as JAX checks it: a boolean or number scalar."""
    if pred is None:
        raise TypeError("cond predicate is None")
    if isinstance(pred, Sequence) or _shape_of(pred):
        raise TypeError(f"Pred must be a scalar, got {pred} of " + (f"type {type(pred)}" if isinstance(pred, Sequence) else f"shape {_shape_of(pred)}."))
    dtype = _dtype_of(pred)
    if dtype is None:
        raise TypeError(f"Pred type must be either boolean or number, got {pred}.")
    if dtype.kind not in "biuf":
        raise TypeError(f"Pred type must be either boolean or number, got {dtype}.")


def _check_index(index):
    """switch's index as JAX checks it: an integer scalar."""
    if _shape_of(index):
        raise TypeError(f"Branch index must be scalar, got {index} of shape {_shape_of(index)}.")
    dtype = _dtype_of(index)
    if dtype is None:
        raise TypeError(f"Index type must be an integer, got {index}.")
    if dtype.kind not in "iu":
        raise TypeError(f"Index type must be an integer, got {index} as {dtype}")


def cond(pred, true_fun, false_fun, *operands):
    """jax.lax.cond(pred, true_fun, false_fun, *operands)."""
    check_callable(callable(true_fun) and callable(false_fun), "lax.cond: true_fun and false_fun arguments should be callable.")
    _check_pred(pred)
    if _eager(pred):
        return true_fun(*operands) if bool(pred) else false_fun(*operands)
    leaves, treedef = pytree.tree_flatten(operands)
    box = {}

    def check(first, this):
        (_, out_true), (_, out_false) = sorted([first, this], key=lambda b: b[0])
        check_branches("cond", "true_fun", "false_fun", true_fun, false_fun, out_true, out_false)

    with _for_call(_branch_body(true_fun, treedef, box, 0, check)) as t, _for_call(_branch_body(false_fun, treedef, box, 1, check)) as f:
        out = call(sl.lax.cond, _as_leaf(pred), t, f, *[_as_leaf(x) for x in leaves])
    return pytree.tree_unflatten(box["tree"], [from_js(x) for x in out])


def switch(index, branches, *operands):
    """jax.lax.switch(index, branches, *operands): the index clamped to the branches."""
    branches = list(branches)  # first: a generator of branches is read once
    check_callable(all(callable(b) for b in branches), "lax.switch: branches argument should be a sequence of callables.")
    _check_index(index)
    if not branches:
        raise ValueError("Empty branch sequence")
    if len(branches) == 1:
        return branches[0](*operands)
    if _eager(index):
        return branches[min(max(int(index), 0), len(branches) - 1)](*operands)
    leaves, treedef = pytree.tree_flatten(operands)
    box = {}

    def check(first, this):
        (i, out_i), (j, out_j) = sorted([first, this], key=lambda b: b[0])
        check_branches("switch", f"branch {i}", f"branch{j}", branches[i], branches[j], out_i, out_j)

    with contextlib.ExitStack() as stack:
        fns = [stack.enter_context(_for_call(_branch_body(b, treedef, box, i, check))) for i, b in enumerate(branches)]
        out = call(sl.lax.switch, _as_leaf(index), js_list(fns), *[_as_leaf(x) for x in leaves])
    return pytree.tree_unflatten(box["tree"], [from_js(x) for x in out])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    """jax.lax.scan(f, init, xs, length, reverse): returns (carry, ys)."""
    check_callable(callable(f), "lax.scan: f argument should be a callable.")
    if length is not None:
        length = _concrete_length(length)
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
            raise TypeError(f"scan body output must be a pair, got {pytree.tree_map(aval_of, out)}.")
        check_carry("scan body", f, carry, out[0])
        ys, box["ys"] = pytree.tree_flatten(out[1])
        return js_list([_js_leaves(pytree.tree_leaves(out[0])), _js_leaves(ys)])

    with _for_call(body) as fn:
        res = call(sl.lax.scan, fn, _js_leaves(init_leaves), _js_leaves(xs_leaves), {"length": length, "reverse": bool(reverse)})
    carry = pytree.tree_unflatten(init_tree, [from_js(v) for v in res[0]])
    return carry, pytree.tree_unflatten(box["ys"], [from_js(v) for v in res[1]])


def associative_scan(fn, elems, reverse=False, axis=0):
    """jax.lax.associative_scan(fn, elems, reverse=False, axis=0): every prefix combination of the
    associative fn along `axis` of the arrays of tree elems, in O(log n) rounds (JS's lax.associativeScan)."""
    check_callable(callable(fn), "lax.associative_scan: fn argument should be callable.")
    leaves, tree = pytree.tree_flatten(elems)

    def combine(js_a, js_b):
        a = pytree.tree_unflatten(tree, [from_js(v) for v in js_a])
        b = pytree.tree_unflatten(tree, [from_js(v) for v in js_b])
        out, out_tree = pytree.tree_flatten(fn(a, b))
        if out_tree != tree:
            raise TypeError(f"lax.associative_scan: fn must return the structure of elems, {tree}, got {out_tree}")
        return _js_leaves(out)

    with _for_call(combine) as f:
        res = call(sl.lax.associativeScan, f, _js_leaves(leaves), {"reverse": bool(reverse), "axis": axis})
    return pytree.tree_unflatten(tree, [from_js(v) for v in res])


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


def _loop_body(fun, treedef, name):
    """A loop body for JS: fun(*args, carry) on the carry rebuilt from flat
    leaves (the leading JS arguments, such as fori_loop's index, passed
    before it), its output flattened after JAX's carry check (`name` names the loop)."""

    def body(*js):
        x = pytree.tree_unflatten(treedef, [from_js(v) for v in js[-1]])
        out = fun(*[from_js(a) for a in js[:-1]], x)
        check_carry(name, fun, x, out)
        return _js_leaves(pytree.tree_leaves(out))

    return body


def _concrete_length(length):
    """scan's length as JAX reads it: an int known while tracing."""
    from . import errors

    if isinstance(length, Array) and length._is_tracer():
        raise errors.ConcretizationTypeError(
            length, "The `length` argument to `scan` expects a concrete `int` value. For scan-like iteration with a "
            "dynamic length, use `while_loop` or `fori_loop`.")
    return int(length)


def _bound(b):
    """A fori_loop bound: an int when it is known while tracing (a Python int,
    or a concrete integer array, which JAX reads with int() too), else an array."""
    if isinstance(b, int) and not isinstance(b, bool):
        return b
    if isinstance(b, Array) and not b._is_tracer() and b.ndim == 0 and b.dtype.kind == "i":
        return int(b)
    return _as_leaf(b)


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """jax.lax.fori_loop(lower, upper, body_fun, init_val): a scan for integer
    bounds, a while_loop for traced ones (as JAX makes it)."""
    check_callable(callable(body_fun), "lax.fori_loop: body_fun argument should be callable.")
    if _eager(lower, upper, init_val):
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(_index_array(i), val)
        return val
    leaves, treedef = pytree.tree_flatten(init_val)
    bounds = [_bound(b) for b in (lower, upper)]
    static = all(isinstance(b, int) for b in bounds)
    if unroll is not None and unroll is not False and unroll != 1 and not static:
        raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are statically known.")
    # JAX makes it a scan for static bounds (a scan body's carry) and a while_loop's otherwise.
    with _for_call(_loop_body(body_fun, treedef, "scan body" if static else "while_loop body")) as fn:
        res = call(sl.lax.foriLoop, bounds[0], bounds[1], fn, _js_leaves(leaves))
    return pytree.tree_unflatten(treedef, [from_js(v) for v in res])


def while_loop(cond_fun, body_fun, init_val):
    """jax.lax.while_loop(cond_fun, body_fun, init_val)."""
    check_callable(callable(body_fun) and callable(cond_fun), "lax.while_loop: body_fun and cond_fun arguments should be callable.")
    if _eager(init_val):
        from .api import asarray

        val = pytree.tree_map(asarray, init_val)
        while bool(cond_fun(val)):
            val = pytree.tree_map(asarray, body_fun(val))
        return val
    leaves, treedef = pytree.tree_flatten(init_val)

    def cond(js_x):
        out = cond_fun(pytree.tree_unflatten(treedef, [from_js(v) for v in js_x]))
        leaves, tree = pytree.tree_flatten(out)
        if len(leaves) != 1 or tree != pytree.tree_structure(0):
            raise TypeError(f"cond_fun must return a boolean scalar, but got pytree {tree}.")
        aval = aval_of(leaves[0])
        if aval.shape != () or aval.dtype.name != "bool":
            raise TypeError(f"cond_fun must return a boolean scalar, but got output type(s) [{aval!r}].")
        return to_js_value(_as_leaf(out))

    with _for_call(cond) as c, _for_call(_loop_body(body_fun, treedef, "while_loop body")) as b:
        res = call(sl.lax.whileLoop, c, b, _js_leaves(leaves))
    return pytree.tree_unflatten(treedef, [from_js(v) for v in res])


def map(f, xs, *, batch_size=None):  # noqa: A001 (jax.lax.map's name)
    """jax.lax.map(f, xs, batch_size=None): f over the leading axis of xs as a scan; with batch_size,
    batch_size elements at a time under vmap, and the remainder by one vmap after the scan, as JAX does."""
    if batch_size is None:
        return scan(lambda _, x: ((), f(x)), (), xs)[1]
    from . import numpy as jnp
    from .vmap import vmap

    n = pytree.tree_leaves(xs)[0].shape[0]
    steps, rest = divmod(n, batch_size)
    batched = pytree.tree_map(lambda x: x[: steps * batch_size].reshape(steps, batch_size, *x.shape[1:]), xs) if steps else None
    remainder = pytree.tree_map(lambda x: x[steps * batch_size :], xs) if rest else None
    if batched is None:
        return vmap(f)(remainder)
    ys = pytree.tree_map(lambda y: y.reshape(-1, *y.shape[2:]), scan(lambda _, x: ((), vmap(f)(x)), (), batched)[1])
    if remainder is None:
        return ys
    return pytree.tree_map(lambda a, b: jnp.concatenate([a, b], axis=0), ys, vmap(f)(remainder))
