"""jax.custom_jvp and jax.custom_vjp over the JS API's customJvp and
customVjp: Python owns the pytrees and the static (nondiff) arguments, JS
sees flat leaves. One JS custom function per argument structure and static
values, kept for the Python object's lifetime (the core calls its rules
whenever a derivative needs them, after the call that made them)."""

import functools
import inspect

from . import pytree
from .api import _Callback, _as_leaf, _flat_out, _js_leaves
from .js import call, from_js, js_list, sl, to_js_value


def _name(f, default):
    return getattr(f, "__name__", default)


class _Custom:
    """What custom_jvp and custom_vjp share: argument handling and the per-signature JS functions."""

    def __init__(self, fun, nondiff_argnums, nondiff_argnames):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.nondiff_argnames = tuple(nondiff_argnames)
        self._js = {}  # (statics, treedef) -> (JS function, callbacks, box)

    def _positional(self, args, kwargs):
        if not kwargs:
            return args
        try:
            bound = inspect.signature(self.fun).bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}: {e}") from None
        return bound.args

    def __call__(self, *args, **kwargs):
        args = self._positional(args, kwargs)
        n = len(args)
        names = list(inspect.signature(self.fun).parameters) if self.nondiff_argnames else []
        nondiff = sorted({i % n for i in self.nondiff_argnums if -n <= i < n} | {names.index(a) for a in self.nondiff_argnames if a in names})
        diff = [i for i in range(n) if i not in nondiff]
        statics = tuple((i, args[i]) for i in nondiff)
        flat = [pytree.tree_flatten(args[i]) for i in diff]
        key = (statics, tuple(t for _, t in flat))
        try:
            entry = self._js.get(key)
        except TypeError:
            raise ValueError(
                f"{self.__name__}: the arguments at nondiff_argnums must be hashable (Python scalars, strings, tuples)"
            ) from None
        if entry is None:
            entry = self._js[key] = self._make(statics, diff, [t for _, t in flat])
        js_fn, _, box = entry
        out = call(js_fn, *[_as_leaf(x) for ls, _ in flat for x in ls])
        return pytree.tree_unflatten(box["out"], [from_js(x) for x in out])

    def _rebuild(self, trees_of, statics, diff, leaves):
        """The full argument list: statics in their places, the rest rebuilt from `leaves`."""
        args = dict(statics)
        it = iter(leaves)
        for i, t in zip(diff, trees_of):
            args[i] = pytree.tree_unflatten(t, [next(it) for _ in range(t.num_leaves)])
        return [args[i] for i in range(len(args))]

    def _diff_trees(self, trees_of, leaves):
        """The differentiated arguments' trees, as a tuple, from flat leaves."""
        it = iter(leaves)
        return tuple(pytree.tree_unflatten(t, [next(it) for _ in range(t.num_leaves)]) for t in trees_of)

    def _fun_body(self, statics, diff, trees_of, box):
        def body(*js_leaves):
            out, box["out"] = _flat_out(self.fun(*self._rebuild(trees_of, statics, diff, [from_js(x) for x in js_leaves])))
            return out

        return body


class custom_jvp(_Custom):
    """jax.custom_jvp(fun, nondiff_argnums=(), nondiff_argnames=()), with defjvp and defjvps."""

    def __init__(self, fun, nondiff_argnums=(), nondiff_argnames=()):
        super().__init__(fun, nondiff_argnums, nondiff_argnames)
        self.jvp = None
        self.symbolic_zeros = False

    def defjvp(self, jvp, symbolic_zeros=False):
        """Sets the JVP rule jvp(*nondiff_args, primals, tangents) -> (primal_out, tangent_out); returns jvp."""
        if symbolic_zeros:
            raise NotImplementedError("defjvp: symbolic_zeros=True is not supported by ShardLab")
        self.jvp = jvp
        self._js.clear()
        return jvp

    def defjvps(self, *jvps):
        """One rule per argument, rule(tangent, primal_out, *primals), summed (None: no contribution)."""

        from . import numpy as jnp

        def jvp(primals, tangents):
            out = self(*primals)
            leaves, tree = pytree.tree_flatten(out)
            parts = [pytree.tree_leaves(r(t, out, *primals)) if r else None for r, t in zip(jvps, tangents)]
            given = [p for p in parts if p is not None] or [[jnp.zeros_like(x) for x in leaves]]
            total = [functools.reduce(jnp.add, [p[k] for p in given]) for k in range(len(leaves))]
            return out, pytree.tree_unflatten(tree, total)

        self.defjvp(jvp)

    def _make(self, statics, diff, trees_of):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {self.__name__} using defjvp.")
        box = {}
        fun_cb = _Callback(self._fun_body(statics, diff, trees_of, box))
        jvp, jvp_name = self.jvp, _name(self.jvp, "jvp")

        def rule(js_primals, js_tangents):
            primals = self._diff_trees(trees_of, [from_js(x) for x in js_primals])
            tangents = self._diff_trees(trees_of, [from_js(x) for x in js_tangents])
            r = jvp(*[v for _, v in statics], primals, tangents)
            if not isinstance(r, (tuple, list)) or len(r) != 2:
                raise TypeError(
                    f"Custom JVP rule {jvp_name} for function {self.__name__} must produce a pair (list or tuple of "
                    f"length two) representing primal and tangent outputs, but got {r}."
                )
            p, pt = pytree.tree_flatten(r[0])
            t, tt = pytree.tree_flatten(r[1])
            # Under grad the rule runs and the function never does (JAX's JVP trace): its output structure is the rule's.
            box.setdefault("out", pt)
            if pt != box["out"] or tt != box["out"]:
                raise TypeError(
                    f"Custom JVP rule {jvp_name} for function {self.__name__} must produce primal and tangent outputs "
                    f"with equal container (pytree) structures, equal to the function's output structure {box['out']}, "
                    f"but got {pt} and {tt} respectively."
                )
            return js_list([_js_leaves(p), _js_leaves(t)])

        rule_cb = _Callback(rule)
        js_fn = sl.customJvp(fun_cb.proxy, to_js_value({"name": self.__name__}))
        js_fn.defjvp(rule_cb.proxy, to_js_value({"name": jvp_name}))
        return js_fn, (fun_cb, rule_cb), box


class custom_vjp(_Custom):
    """jax.custom_vjp(fun, nondiff_argnums=(), nondiff_argnames=()), with defvjp."""

    def __init__(self, fun, nondiff_argnums=(), nondiff_argnames=()):
        super().__init__(fun, nondiff_argnums, nondiff_argnames)
        self.fwd = self.bwd = None

    def defvjp(self, fwd, bwd, symbolic_zeros=False, optimize_remat=False):
        """Sets fwd(*args) -> (out, residuals) and bwd(*nondiff_args, residuals, g) -> a cotangent per argument."""
        if symbolic_zeros:
            raise NotImplementedError("defvjp: symbolic_zeros=True is not supported by ShardLab")
        self.fwd, self.bwd = fwd, bwd
        self._js.clear()

    def _make(self, statics, diff, trees_of):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {self.__name__} using defvjp.")
        box, res_trees = {}, {}
        fun_cb = _Callback(self._fun_body(statics, diff, trees_of, box))
        fwd, bwd = self.fwd, self.bwd
        fwd_name, bwd_name = _name(fwd, "fwd"), _name(bwd, "bwd")

        def fwd_rule(*js_leaves):
            r = fwd(*self._rebuild(trees_of, statics, diff, [from_js(x) for x in js_leaves]))
            if not isinstance(r, (tuple, list)) or len(r) != 2:
                raise TypeError(
                    f"Custom VJP fwd rule {fwd_name} for function {self.__name__} must produce a pair (list or tuple of "
                    "length two) where the first element represents the primal output (equal to the output of the "
                    f"custom_vjp-decorated function {self.__name__}) and the second element represents residuals (i.e. "
                    "values stored from the forward pass for use on the backward pass), but instead the fwd rule "
                    f"output's type was {type(r)}."
                )
            out, out_tree = pytree.tree_flatten(r[0])
            if out_tree != box.setdefault("out", out_tree):
                raise TypeError(
                    f"Custom VJP fwd rule {fwd_name} for function {self.__name__} must produce a pair whose first "
                    f"element has the output structure of {self.__name__}, {box['out']}, but got {out_tree}."
                )
            res, res_tree = pytree.tree_flatten(r[1])
            res_trees[len(res)] = res_tree
            return js_list([_js_leaves(out), _js_leaves(res)])

        def bwd_rule(js_res, js_g):
            res = [from_js(x) for x in js_res]
            g = pytree.tree_unflatten(box["out"], [from_js(x) for x in js_g])
            r = bwd(*[v for _, v in statics], pytree.tree_unflatten(res_trees[len(res)], res), g)
            if not isinstance(r, (tuple, list)) or len(r) != len(trees_of):
                raise TypeError(
                    f"Custom VJP bwd rule must produce a tuple of length equal to the number of arguments to the "
                    f"primal function, but got bwd output of type {type(r)}"
                    + (f" and length {len(r)}" if isinstance(r, (tuple, list)) else "")
                    + f" for {len(trees_of)} arguments."
                )
            cts = []
            for j, (ct, t) in enumerate(zip(r, trees_of)):
                if ct is None:
                    cts += [None] * t.num_leaves
                    continue
                leaves, tree = pytree.tree_flatten(ct)
                if tree != t:
                    raise TypeError(
                        f"Custom VJP bwd rule {bwd_name} must produce an output with the same container (pytree) "
                        f"structure as the args tuple of the primal function; for argument {j} it gave {tree} for {t}."
                    )
                cts += [_as_leaf(x) for x in leaves]
            return js_list(cts)

        cbs = (fun_cb, _Callback(fwd_rule), _Callback(bwd_rule))
        js_fn = sl.customVjp(fun_cb.proxy, to_js_value({"name": self.__name__}))
        js_fn.defvjp(cbs[1].proxy, cbs[2].proxy, to_js_value({"fwdName": fwd_name, "bwdName": bwd_name}))
        return js_fn, cbs, box
