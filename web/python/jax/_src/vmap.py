"""jax.vmap, jax.jacfwd, jax.jacrev and jax.hessian: Python owns the pytrees
(in_axes and out_axes are tree prefixes here, the Jacobians rebuilt per
argument); the JS API maps and differentiates the flat leaves."""

import functools

from . import pytree
from .api import _argnums, _as_leaf, _flat_out, _for_call, _unflatten_args, is_jax_value
from .array import Array
from .js import call, from_js, js_list, sl, to_js_value


def _is_axis(a):
    return a is None or (isinstance(a, int) and not isinstance(a, bool))


def _is_python_scalar(x):
    return type(x) in (bool, int, float)


def _check_sizes(fun, args, kwargs, leaves, axes, axis_size):
    """JAX's checks of the mapped axes before vmap traces: each in the rank of its argument, all of one size
    (and axis_size's), with JAX's messages naming each argument by its path."""
    import collections
    import inspect

    from .key_paths import keystr, tree_leaves_with_path

    shapes = [tuple(getattr(x, "shape", ())) if is_jax_value(x) else None for x in leaves]
    for x, a, shape in zip(leaves, axes, shapes):
        if a is not None and shape is not None and not -len(shape) <= a < len(shape):
            raise ValueError(f"vmap was requested to map its argument along axis {a}, which implies that its rank should be at "
                             f"least {a + 1 if a >= 0 else -a}, but is only {len(shape)} (its shape is {shape})")
    sizes = [None if a is None or shape is None else shape[a] for a, shape in zip(axes, shapes)]
    if len({s for s in sizes if s is not None} | ({axis_size} if axis_size is not None else set())) <= 1:
        return
    try:
        names = list(inspect.signature(fun).bind(*args, **kwargs).signature.parameters)
    except (TypeError, ValueError):
        names = None

    def arg_name(path):
        if path[0] == "kwargs":
            return f"kwargs{keystr(path[1])}"
        i = path[1][0].idx
        if names is None or i >= len(names):
            return f"args{keystr(path[1])}"
        return f"argument {names[i]}" + (keystr(path[1][1:]) if len(path[1]) > 1 else "")

    paths = [("args", p) for p, _ in tree_leaves_with_path(args)] + [("kwargs", p) for p, _ in tree_leaves_with_path(kwargs)]
    described = [f"{arg_name(p)} of type {str(x.aval) if isinstance(x, Array) else 'unknown'}" for p, x in zip(paths, leaves)]
    counts = collections.Counter(s for s in sizes if s is not None).most_common()
    first = {sz: sizes.index(sz) for sz, _ in counts}
    msg = ["vmap got inconsistent sizes for array axes to be mapped:\n"]
    if axis_size is not None:
        msg.append(f"  * the `axis_size` argument was {axis_size};\n")
    for k, (sz, ct) in enumerate(counts):
        i = first[sz]
        if ct == 1:
            msg.append(f"  * one axis had size {sz}: axis {axes[i]} of {described[i]};\n")
        elif k == 0:
            msg.append(f"  * most axes ({ct} of them) had size {sz}, e.g. axis {axes[i]} of {described[i]};\n")
        else:
            msg.append(f"  * some axes ({ct} of them) had size {sz}, e.g. axis {axes[i]} of {described[i]};\n")
    raise ValueError("".join(msg)[:-2])


def _flatten_axes(name, axes, tree):
    """One axis per leaf of tree from `axes`, a tree prefix of it, with JAX's error (api_util.flatten_axes)."""
    try:
        return pytree.broadcast_prefix(axes, tree, _is_axis, name)
    except ValueError as e:
        raise ValueError(f"{name} specification must be a tree prefix of the corresponding value; \n"
                         f"  Mismatch details (1 found):\n  {e}") from None


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    """jax.vmap(fun, in_axes, out_axes, axis_name=..., axis_size=...);
    keyword arguments are mapped along their axis 0, as in JAX; collectives
    in fun may name axis_name (a psum sums the batch)."""
    if spmd_axis_name is not None:
        raise NotImplementedError("vmap: spmd_axis_name (sharding the vmapped axis over a mesh) is not supported by ShardLab yet")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)  # as JAX: a list of per-argument axes is taken as the tuple
    if not (in_axes is None or type(in_axes) in (int, tuple)):
        raise TypeError("vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
                        f"arguments passed to the function, but got {in_axes}.")
    for what, axes in (("in_axes", in_axes), ("out_axes", out_axes)):
        if not all(type(a) is int for a in pytree.tree_leaves(axes)):
            raise TypeError(f"vmap {what} must be an int, None, or (nested) container with those types as leaves, but got {axes}.")

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments "
                f"passed to the function, but got len(in_axes)={len(in_axes)}, len(args)={len(args)}"
            )
        leaves, treedef = pytree.tree_flatten((args, kwargs))
        axes = _flatten_axes("vmap in_axes", in_axes, args) + [0] * len(pytree.tree_leaves(kwargs))
        # An unmapped Python scalar stays one, as in JAX: the function sees it
        # as it was given, and JS sees only the other leaves.
        _check_sizes(fun, args, kwargs, leaves, axes, axis_size)
        if axis_size is None and all(a is None for a in axes):
            if leaves:
                raise ValueError("vmap must have at least one non-None value in in_axes or axis_size must be specified")
            raise ValueError("vmap wrapped function must be passed at least one argument containing an array or axis_size "
                             f"must be specified, got empty *args={args} and **kwargs={kwargs}")
        # So is any other unmapped value that is not an array (a function, a string): JAX passes it through.
        kept = {i: x for i, (x, a) in enumerate(zip(leaves, axes)) if a is None and (_is_python_scalar(x) or not is_jax_value(x))}
        sent = [i for i in range(len(leaves)) if i not in kept]
        box = {}

        def body(*js_leaves):
            given = dict(kept)
            given.update(zip(sent, (from_js(x) for x in js_leaves)))
            a, kw = pytree.tree_unflatten(treedef, [given[i] for i in range(len(leaves))])
            result = fun(*a, **kw)
            outs, box["tree"] = pytree.tree_flatten(result)
            box["axes"] = _flatten_axes("vmap out_axes", out_axes, result)
            # An unmapped Python scalar returned is returned as it is (JAX's 8.0, not an array).
            box["kept"] = {i: x for i, (x, o) in enumerate(zip(outs, box["axes"])) if o is None and _is_python_scalar(x)}
            return _flat_out([x for i, x in enumerate(outs) if i not in box["kept"]])[0]

        def out_axes_of(_out):
            return js_list([o for i, o in enumerate(box["axes"]) if i not in box["kept"]])

        with _for_call(body) as fn, _for_call(out_axes_of) as out_axes_fn:
            options = {"inAxes": [axes[i] for i in sent], "outAxes": out_axes_fn, "axisSize": axis_size, "axisName": axis_name}
            res = iter(call(sl.vmap(fn, to_js_value(options)), *[_as_leaf(leaves[i]) for i in sent]))
        outs = [box["kept"][i] if i in box["kept"] else from_js(next(res)) for i in range(box["tree"].num_leaves)]
        return pytree.tree_unflatten(box["tree"], outs)

    return vmapped


def _jacobian(name, depth, fun, argnums, has_aux):
    """jax.<name>(fun, argnums, has_aux): the JS transformation over the
    differentiated arguments' leaves; per output leaf, `depth` nested lists
    over those leaves (2 for hessian) become per-argument trees."""

    @functools.wraps(fun)
    def jac(*args):
        nums, idx = _argnums(argnums, len(args), name)
        flat = [pytree.tree_flatten(a) for a in args]
        starts = [sum(len(f[0]) for f in flat[:i]) for i in range(len(args))]
        diff = [starts[i] + k for i in idx for k in range(len(flat[i][0]))]
        box = {}

        def body(*js_leaves):
            out = fun(*_unflatten_args(flat, [from_js(x) for x in js_leaves]))
            if not has_aux:
                result, box["tree"] = _flat_out(out)
                return result
            if not (isinstance(out, tuple) and len(out) == 2):
                raise TypeError(f"{name} with has_aux=True: the function must return a pair (output, aux)")
            result, box["tree"] = _flat_out(out[0])
            aux, box["aux"] = _flat_out(out[1])
            return js_list([result, aux])

        def per_argument(js_list_, level):
            """One list over the differentiated leaves (level 0: of arrays) as per-argument trees."""
            it = iter([from_js(x) if level == 0 else per_argument(x, level - 1) for x in js_list_])
            trees = [pytree.tree_unflatten(flat[i][1], [next(it) for _ in flat[i][0]]) for i in idx]
            return trees[0] if isinstance(argnums, int) else tuple(trees)

        leaves = [_as_leaf(x) for f in flat for x in f[0]]
        with _for_call(body) as fn:
            res = call(getattr(sl, name)(fn, to_js_value({"argnums": diff, "hasAux": bool(has_aux)})), *leaves)
        jacs = res[0] if has_aux else res
        out = pytree.tree_unflatten(box["tree"], [per_argument(v, depth - 1) for v in jacs])
        if has_aux:
            return out, pytree.tree_unflatten(box["aux"], [from_js(x) for x in res[1]])
        return out

    return jac


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """jax.jacfwd(fun, argnums, has_aux)."""
    if holomorphic:
        raise NotImplementedError("jacfwd: holomorphic=True (complex inputs) is not supported by ShardLab")
    return _jacobian("jacfwd", 1, fun, argnums, has_aux)


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """jax.jacrev(fun, argnums, has_aux)."""
    if holomorphic or allow_int:
        raise NotImplementedError("jacrev: holomorphic and allow_int are not supported by ShardLab")
    return _jacobian("jacrev", 1, fun, argnums, has_aux)




jacobian = jacrev
"""jax.jacobian: jacrev, as JAX defines it."""

def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """jax.hessian(fun, argnums, has_aux): jacfwd(jacrev(fun))."""
    if holomorphic:
        raise NotImplementedError("hessian: holomorphic=True (complex inputs) is not supported by ShardLab")
    return _jacobian("hessian", 2, fun, argnums, has_aux)
