"""JAX's transformations and array constructors over the JS API. Python owns
the pytrees: every argument and result is flattened here, so the JS side
only ever sees flat lists of leaves, and Python's structures (tuples, lists,
dicts, None) come back as they went in."""

import contextlib
import functools
import inspect
import weakref

from . import dtypes, pytree
from .array import Array
from .config import jit_disabled
from .js import UNDEFINED, bridge, call, callback, from_js, is_buffer, js_list, proxy, sl, to_js_value


def _as_leaf(x):
    """A leaf as the JS API takes it: arrays, Python floats (weakly typed
    f32[]) and bools (bool[]); a Python int becomes an int32 array, as JAX
    types it (a JS number would be float32)."""
    if not is_jax_value(x):
        raise TypeError(f"Argument '{x}' of type {type(x)} is not a valid JAX type")
    if (isinstance(x, int) and not isinstance(x, bool)) or hasattr(x, "_shardlab_host_array"):
        return asarray(x)  # a numpy array converts as JAX converts it
    return x


def is_jax_value(x):
    """Whether x is a value JAX takes as an array (asked without converting it, which would add to a trace):
    an array, a Python or numpy scalar, a numpy array, or an object the JS API takes (__js__)."""
    return isinstance(x, (Array, bool, int, float)) or hasattr(x, "_shardlab_host_array") or hasattr(x, "__js__")


def asarray(a, dtype=None):
    """jnp.asarray / jnp.array: an array from an array, a Python scalar or
    nested lists; the dtype follows JAX (ints int32, floats float32, bools bool)."""
    if isinstance(a, Array):
        return a if dtype is None or a.dtype == dtype else a.astype(dtype)
    host = getattr(a, "_shardlab_host_array", None)
    if host is not None:
        # A numpy array: its dtype as JAX canonicalizes it without x64 (float64 float32, int64 int32).
        flat, shape, kind = host
        own = {"float64": "float32", "int64": "int32"}.get(kind, kind)
        if own == "object":
            raise TypeError(f"asarray: a numpy array of objects (shape {shape}) is not a valid JAX array; give numbers")
        target = dtypes.name(dtype) if dtype is not None else own
        return from_js(call(sl.array, list(flat), {"dtype": target, "shape": list(shape)}))
    if isinstance(a, range):
        a = list(a)
    if isinstance(a, (list, tuple)) and any(isinstance(v, Array) for v in pytree.tree_leaves(a)):
        # A list holding arrays (traced ones too: jacfwd's docstring) is their stack, promoted as JAX does.
        rows = [asarray(v) if isinstance(v, (list, tuple)) else v for v in a]
        out = from_js(call(sl.np.stack, rows))
        return out if dtype is None else out.astype(dtype)
    if dtype is None and isinstance(a, int) and not isinstance(a, bool) and not -(2**31) <= a < 2**31:
        raise OverflowError(f"Python int {a} too large to convert to int32")  # as JAX without x64
    if dtype is None and isinstance(a, (int, float)) and not isinstance(a, bool):
        # A Python scalar's array is weakly typed, as JAX's (dtypes.is_weakly_typed).
        # An int or float subclass (an IntEnum member) converts as its base type.
        kind = int if isinstance(a, int) else float
        return from_js(call(sl.array, a, {"dtype": dtypes.name(kind), "weakType": True}))
    if dtype is None and is_buffer(a):
        return from_js(call(sl.array, a))  # the buffer's format gives the dtype (js.to_js_value)
    if dtype is None:
        leaves = pytree.tree_leaves(a)
        if leaves and all(isinstance(v, bool) for v in leaves):
            dtype = "bool"
        elif leaves and all(isinstance(v, int) and not isinstance(v, bool) for v in leaves):
            dtype = "int32"
        else:
            dtype = "float32"
    return from_js(call(sl.array, a, {"dtype": dtypes.name(dtype)}))


def array(object, dtype=None, copy=True):
    """jnp.array."""
    return asarray(object, dtype)


# A Python function handed to JS for a jitted function's lifetime.
class _Callback:
    def __init__(self, f):
        self.proxy = callback(f)
        weakref.finalize(self, self.proxy.destroy)


@contextlib.contextmanager
def _for_call(f):
    """A JS-callable proxy of f for the duration of one JS call (a transformation traces f there)."""
    proxy = callback(f)
    try:
        yield proxy
    finally:
        proxy.destroy()


def _js_leaves(values):
    """A JS list of leaves. JS reads a list of numbers as array data, so when
    every leaf is a Python scalar each goes as a 0-d array (emitted into the
    current trace, if any, rather than captured as a constant)."""
    if values and all(isinstance(x, (bool, int, float)) for x in values):
        return js_list([from_js(call(sl.np.full, (), x)) for x in values])  # weakly typed, as Python's scalars
    return js_list([_as_leaf(x) for x in values])


def _flat_out(out):
    leaves, tree = pytree.tree_flatten(out)
    return _js_leaves(leaves), tree


def _unflatten_args(flat, values):
    """Each positional argument's pytree, rebuilt from the flat `values`
    (`flat`: (leaves, treedef) per argument, as tree_flatten gave them)."""
    it = iter(values)
    return [pytree.tree_unflatten(t, [next(it) for _ in ls]) for ls, t in flat]


def _args_body(fun, flat, box):
    """A body for JS: fun on the arguments rebuilt from the JS leaves, its
    output flattened (the output's treedef goes in box["tree"])."""

    def body(*js_leaves):
        out, box["tree"] = _flat_out(fun(*_unflatten_args(flat, [from_js(x) for x in js_leaves])))
        return out

    return body


class _Jit:
    """A jitted function. The JS jit keeps the one cache of traced programs,
    keyed by the leaves' dtypes and shapes, and with each program the
    output's treedef (a PythonTree node, stored when traced, as JAX's jit
    stores its out tree); here are only what JS cannot see: the static
    arguments and the input's treedef, each pair with its own JS jit."""

    def __init__(self, fun, static_argnums, static_argnames, in_shardings=None, out_shardings=None):
        self._fun = fun
        self._in_shardings = in_shardings
        self._out_shardings = out_shardings
        self._static_argnums, self._static_argnames = _static_arguments(fun, static_argnums, static_argnames)
        # (static values, in-tree) -> (js jit, its callback, its output treedefs' proxies), shared by
        # every jit of the same function and options, as JAX's cache is: jax.jit(f)(x) twice traces once.
        self._jits = _shared_cache(fun, (self._static_argnums, self._static_argnames, id(in_shardings), id(out_shardings)))
        # Its name and docstring, not its __dict__: a function wrapping another jit (jax.grad(f) of a
        # jitted f) carries that jit's attributes, which would replace this one's own.
        functools.update_wrapper(self, fun, updated=())

    def __get__(self, obj, objtype=None):
        """A jitted function stored on a class is a method: its instance comes first (self)."""
        return self if obj is None else functools.partial(self, obj)

    def __call__(self, *args, **kwargs):
        if jit_disabled():
            return self._fun(*args, **kwargs)
        n = len(args)
        statics = tuple(sorted((i % n if n else i, args[i]) for i in self._static_argnums if -n <= i < n))
        static_kw = tuple(sorted((k, v) for k, v in kwargs.items() if k in self._static_argnames))
        dyn_args = tuple(a for i, a in enumerate(args) if not any(i == s for s, _ in statics))
        dyn_kw = {k: v for k, v in kwargs.items() if k not in self._static_argnames}
        leaves, treedef = pytree.tree_flatten((dyn_args, dyn_kw))
        # A static value keys the cache with its type too: 1, True and 1.0 are equal but trace apart, as in JAX.
        types = tuple(type(v) for _, v in statics + static_kw)
        key = (statics, static_kw, types, treedef)
        try:
            entry = self._jits.get(key)
        except TypeError:
            raise ValueError("jax.jit: static arguments must be hashable") from None
        if entry is None:
            entry = self._jit_for(statics, dict(static_kw), treedef)
            self._jits[key] = entry
        try:
            js_leaves = [_as_leaf(x) for x in leaves]
        except TypeError:
            bad = next(x for x in leaves if not is_jax_value(x))
            raise TypeError(
                f"Error interpreting argument to {self._fun} as an abstract array. The problematic value is of type "
                f"{type(bad)} and was passed to the function at path {_path_of(self._fun, args, kwargs, bad)}.\n"
                "This typically means that a jit-wrapped function was called with a non-array argument, and this "
                "argument was not marked as static using the static_argnums or static_argnames parameters of jax.jit."
            ) from None
        out = call(entry[0].dispatch, *js_leaves)
        return pytree.tree_unflatten(out.treedef, [from_js(x) for x in out.leaves])

    def _jit_for(self, statics, static_kw, treedef):
        """The JS jit of fun for these static arguments and this input structure."""
        trees = {}  # each output treedef's JS proxy, made once (a nested call traces again)

        def body(*js_leaves):
            dyn_args, dyn_kw = pytree.tree_unflatten(treedef, [from_js(x) for x in js_leaves])
            dyn = iter(dyn_args)
            positions = dict(statics)
            total = len(dyn_args) + len(positions)
            args = [positions[i] if i in positions else next(dyn) for i in range(total)]
            if self._in_shardings is not None:
                args = _placed(args, self._in_shardings, "in_shardings")
            result = self._fun(*args, **dyn_kw, **static_kw)
            _check_returned(self._fun, "jit", result)
            if self._out_shardings is not None:
                result = _placed(result, self._out_shardings, "out_shardings")
            out, tree = _flat_out(result)
            if tree not in trees:
                trees[tree] = proxy(tree)  # held by the JS cache's programs as long as this jit
            return bridge.PythonTree.new(out, trees[tree])

        cb = _Callback(body)
        weakref.finalize(cb, lambda: [p.destroy() for p in trees.values()])
        return sl.jit(cb.proxy, {"name": getattr(self._fun, "__name__", "fun")}), cb, trees

    def lower(self, *args, **kwargs):
        """jax.jit(f).lower(*args): the Lowered stage (stages.py)."""
        from .stages import Lowered

        return Lowered(self, args, kwargs)

    def trace(self, *args, **kwargs):
        """jax.jit(f).trace(*args): the Traced stage (its jaxpr and out_info; lower())."""
        from .stages import Traced

        return Traced(self, args, kwargs)


def _check_returned(fun, traced_for, result):
    """JAX's TypeError for a traced function returning something that is not a JAX type, naming the output's path."""
    from .control_flow_checks import source_info
    from .key_paths import keystr, tree_leaves_with_path

    for path, x in tree_leaves_with_path(result):
        if not is_jax_value(x):
            where = f" at output component {keystr(path)}" if path else ""
            raise TypeError(f"function {source_info(fun)} traced for {traced_for} returned a value of type {type(x)}{where}, "
                            "which is not a valid JAX type")


def _path_of(fun, args, kwargs, target):
    """Where `target` sits in fun's arguments, as JAX names an argument path: the parameter's name,
    then each index or key (x, x[0], params['w'])."""
    try:
        names = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        names = []

    def find(value, path):
        if value is target:
            return path
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
        for k, v in items:
            found = find(v, f"{path}[{k!r}]")
            if found:
                return found
        return None

    named = [(names[i] if i < len(names) else f"args[{i}]", a) for i, a in enumerate(args)] + list(kwargs.items())
    return next((p for n, a in named if (p := find(a, n))), "unknown")


_JIT_CACHES = weakref.WeakKeyDictionary()  # fun -> {options: the jit cache}


def _shared_cache(fun, options):
    """The jit cache of `fun` under `options` (static arguments, shardings), one per function while
    it lives; a function that cannot be weakly referenced or hashed gets a cache of its own."""
    try:
        return _JIT_CACHES.setdefault(fun, {}).setdefault(options, {})
    except TypeError:
        return {}


def _static_arguments(fun, argnums, argnames):
    """(static_argnums, static_argnames) as JAX infers them: given only one,
    the other comes from fun's signature (its positional-or-keyword
    parameters), so a static argument is static however it is passed."""
    given_nums, given_names = argnums is not None, argnames is not None
    argnums = () if argnums is None else (argnums,) if isinstance(argnums, int) else tuple(argnums)
    argnames = () if argnames is None else (argnames,) if isinstance(argnames, str) else tuple(argnames)
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):  # no signature (a builtin): nothing to infer
        return argnums, argnames
    _validate_static(params, argnums, argnames)
    either = [(i, p.name) for i, p in enumerate(params) if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    if not given_names:
        argnames = tuple(name for i, name in either if i in argnums)
    elif not given_nums:
        argnums = tuple(i for i, name in either if name in argnames)
    return argnums, argnames


def _validate_static(params, argnums, argnames):
    """JAX's checks of static_argnums and static_argnames against fun's parameters."""
    kinds = inspect.Parameter
    if not any(p.kind is kinds.VAR_POSITIONAL for p in params):
        positional = sum(p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD) for p in params)
        if argnums and (-min(argnums) > positional or max(argnums) >= positional):
            raise ValueError(f"Jitted function has static_argnums={argnums}, but only accepts {positional} positional arguments.")
    positional_only = {p.name for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.VAR_POSITIONAL)} & set(argnames)
    if positional_only:
        raise ValueError(f"Jitted function has invalid argnames {positional_only} in static_argnames. These are positional-only")
    if not any(p.kind is kinds.VAR_KEYWORD for p in params):
        unknown = set(argnames) - {p.name for p in params if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY)}
        if unknown:
            raise ValueError(f"Jitted function has invalid argnames {unknown} in static_argnames. Function does not take these args.")


def _placed(tree, shardings, what):
    """tree's arrays device_put as `shardings` says: one sharding for all, or one per element of a tuple or list."""
    from .sharding import NamedSharding

    if shardings is None or isinstance(shardings, NamedSharding):
        return device_put(tree, shardings)
    if isinstance(shardings, (tuple, list)) and isinstance(tree, (tuple, list)) and len(shardings) == len(tree):
        return type(tree)(_placed(x, s, what) for x, s in zip(tree, shardings))
    raise ValueError(
        f"jax.jit: {what} must be a NamedSharding, None, or a tuple of them with one entry per "
        f"{'argument' if what == 'in_shardings' else 'output'}; got {shardings!r}"
    )


def jit(fun=None, *, static_argnums=None, static_argnames=None, donate_argnums=(), in_shardings=None, out_shardings=None,
        **unsupported):
    """jax.jit(fun, static_argnums=..., static_argnames=..., in_shardings=..., out_shardings=...); a decorator too."""
    if unsupported:
        raise NotImplementedError(f"jax.jit: {', '.join(unsupported)} not supported by ShardLab yet")
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums, static_argnames=static_argnames,
                                 in_shardings=in_shardings, out_shardings=out_shardings)
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    return _Jit(fun, static_argnums, static_argnames, in_shardings, out_shardings)


def make_jaxpr(fun, static_argnums=(), axis_env=None, return_shape=False):
    """jax.make_jaxpr(fun, static_argnums, return_shape)(*args): the traced program (and, with
    return_shape, the tree of its outputs' ShapeDtypeStructs). Static arguments are passed to fun
    as they are, not traced."""
    if axis_env is not None:
        raise NotImplementedError("make_jaxpr: axis_env (pmap's axis environment) is not supported by ShardLab")
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def traced(*args, **kwargs):
        nums = set(_argnums(static, len(args), "make_jaxpr")[1]) if static else set()
        dynamic = [a for i, a in enumerate(args) if i not in nums]
        leaves, treedef = pytree.tree_flatten((dynamic, kwargs))
        box = {}

        def rebuild(dyn):
            it = iter(dyn)
            return [args[i] if i in nums else next(it) for i in range(len(args))]

        def body(*js_leaves):
            dyn, kw = pytree.tree_unflatten(treedef, [from_js(x) for x in js_leaves])
            out, box["tree"] = _flat_out(fun(*rebuild(dyn), **kw))
            return out

        from .abstract import ShapeDtypeStruct
        from .jaxpr import ClosedJaxpr

        with _for_call(body) as fn:
            js_jaxpr = call(sl.makeJaxpr(fn), *[_js_arg(x) for x in leaves])
        jaxpr = ClosedJaxpr(js_jaxpr, box.get("tree"))
        if not return_shape:
            return jaxpr
        shapes = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in jaxpr.out_avals]
        return jaxpr, pytree.tree_unflatten(box["tree"], shapes)

    return traced


def _js_arg(x):
    from .abstract import ShapeDtypeStruct

    return x if isinstance(x, ShapeDtypeStruct) else _as_leaf(x)


def _argnums(argnums, n, fn):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in nums:
        if not -n <= a < n:
            raise ValueError(f"{fn}: argnums {argnums} is out of range for a function of {n} positional arguments")
    return nums, [a % n for a in nums]


def value_and_grad(fun, argnums=0, has_aux=False):
    """jax.value_and_grad(fun, argnums, has_aux)."""

    @functools.wraps(fun)
    def vg(*args, **kwargs):
        most = argnums if isinstance(argnums, int) else max(argnums)
        if most >= len(args):
            raise TypeError(f"differentiating with respect to argnums={argnums} requires at least {most + 1} positional "
                            f"arguments to be passed by the caller, but got only {len(args)} positional arguments.")
        nums, idx = _argnums(argnums, len(args), "value_and_grad")
        flat = [pytree.tree_flatten(a) for a in args]
        starts = [sum(len(f[0]) for f in flat[:i]) for i in range(len(args))]
        every = [x for f in flat for x in f[0]]
        diff = [starts[i] + k for i in idx for k in range(len(flat[i][0]))]
        # A leaf not differentiated that is no JAX value (a function, as custom_jvp's nondiff
        # arguments take) stays here, closed over, as JAX's argnums_partial keeps it.
        differentiated = set(diff)
        kept = {i: x for i, x in enumerate(every) if i not in differentiated and not is_jax_value(x)}
        sent = [i for i in range(len(every)) if i not in kept]
        position = {i: k for k, i in enumerate(sent)}  # a leaf's place among those JS gets
        leaves = [_as_leaf(every[i]) for i in sent]
        box = {}

        def body(*js_leaves):
            given = dict(kept)
            given.update(zip(sent, (from_js(x) for x in js_leaves)))
            out = fun(*_unflatten_args(flat, [given[i] for i in range(len(every))]), **kwargs)
            if not has_aux:
                return _as_js_scalar_out(out)
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError("Gradient only defined for scalar-output functions with has_aux=True: the function must "
                                f"return a two-element tuple (value, aux), got {out!r}")
            aux, box["aux"] = _flat_out(out[1])
            return js_list([_as_js_scalar_out(out[0]), aux])

        with _for_call(body) as fn:
            res = call(sl.valueAndGrad(fn, to_js_value({"argnums": [position[i] for i in diff], "hasAux": bool(has_aux)})), *leaves)
        value, grads = res[0], [from_js(g) for g in res[1]]
        if has_aux:
            value = (from_js(value[0]), pytree.tree_unflatten(box["aux"], [from_js(x) for x in value[1]]))
        else:
            value = from_js(value)
        it = iter(grads)
        per_arg = [pytree.tree_unflatten(flat[i][1], [next(it) for _ in flat[i][0]]) for i in idx]
        return value, (per_arg[0] if isinstance(argnums, int) else tuple(per_arg))

    return vg


def _as_js_scalar_out(v):
    if not isinstance(v, (Array, float, int)):
        raise TypeError(f"Gradient only defined for scalar-output functions. Output was {v!r}.")
    if isinstance(v, Array) and v.shape != ():
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: {v.shape}.")
    return to_js_value(v)


def grad(fun, argnums=0, has_aux=False):
    """jax.grad(fun, argnums, has_aux)."""
    vg = value_and_grad(fun, argnums, has_aux)

    @functools.wraps(fun)
    def g(*args, **kwargs):
        value, grads = vg(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return g


_VJP_TOO_MANY_ARGS = """
The function returned by `jax.vjp` applied to {} was called with {} arguments,
but functions returned by `jax.vjp` must be called with a single argument
corresponding to the single value returned by the function being differentiated
(even if that returned value is a tuple or other container).

For example, if we have:

  def f(x):
    return (x, x)
  _, f_vjp = jax.vjp(f, 1.0)

the function `f` returns a single tuple as output, and so we call `f_vjp` with a
single tuple as its argument:

  x_bar, = f_vjp((2.0, 2.0))

If we instead call `f_vjp(2.0, 2.0)`, with the values 'splatted out' as
arguments rather than in a tuple, this error can arise.
"""


def linearize(fun, *primals):
    """jax.linearize(fun, *primals) -> (out, f_jvp): fun's value and its JVP at primals as a function of
    the tangents (one per primal). Each call of f_jvp computes the JVP at the primals again, where JAX
    runs a linearized program: the values are the same."""
    out = fun(*primals)

    def f_jvp(*tangents):
        if len(tangents) != len(primals):
            raise TypeError(f"linearized function called on tangents of {len(tangents)} arguments; expected {len(primals)}")
        return jvp(fun, primals, tangents)[1]

    return out, f_jvp


def linear_transpose(fun, *primals, reduce_axes=()):
    """jax.linear_transpose(fun, *primals): the transpose of fun, linear in its arguments (the primals give
    their shapes and dtypes: arrays or ShapeDtypeStructs); transposed(out_cotangent) returns a tuple of the
    primals' cotangents."""
    from .abstract import ShapeDtypeStruct

    if reduce_axes:
        raise NotImplementedError("linear_transpose: reduce_axes is not supported")
    leaves, in_tree = pytree.tree_flatten(primals)
    types = [{"shape": list(x.shape), "dtype": x.dtype.name} if isinstance(x, ShapeDtypeStruct) else _as_leaf(x)
             for x in leaves]

    def body(*js_leaves):
        out, _ = _flat_out(fun(*pytree.tree_unflatten(in_tree, [from_js(x) for x in js_leaves])))
        return out

    cb = _Callback(body)
    js_transposed = call(sl.linearTranspose, cb.proxy, *types)

    def transposed(out_cotangent):
        cts = call(js_transposed, _js_leaves(pytree.tree_leaves(out_cotangent)))
        return pytree.tree_unflatten(in_tree, [from_js(x) for x in cts])

    transposed._keep = cb  # the traced function lives as long as its transpose
    return transposed


def vjp(fun, *primals, has_aux=False):
    """jax.vjp(fun, *primals) -> (out, vjp_fn)."""
    if has_aux:
        raise NotImplementedError("jax.vjp: has_aux is not supported by ShardLab yet")
    flat = [pytree.tree_flatten(p) for p in primals]
    leaves = [_as_leaf(x) for f in flat for x in f[0]]
    box = {}
    # Kept while vjp_fn lives: called outside a trace, the pullback traces fun again when it runs.
    fn = _Callback(_args_body(fun, flat, box))
    res = call(sl.vjp, fn.proxy, *leaves)
    out = pytree.tree_unflatten(box["tree"], [from_js(x) for x in res[0]])
    js_vjp = res[1]

    def vjp_fn(cotangents, *extra):
        if extra:
            raise TypeError(_VJP_TOO_MANY_ARGS.format(getattr(fun, "__name__", fun), len(extra) + 1))
        ct_leaves, ct_tree = pytree.tree_flatten(cotangents)
        if ct_tree != box["tree"]:
            raise TypeError(
                f"Tree structure of cotangent input {ct_tree}, does not match structure of primal output {box['tree']}."
            )
        for ct, primal in zip(ct_leaves, pytree.tree_leaves(out)):
            got, want = asarray(ct).aval, asarray(primal).aval
            if (got.shape, got.dtype) != (want.shape, want.dtype):
                raise ValueError("unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got "
                                 f"{got.str_short()}, but expected {want.str_short()} because the corresponding output of the "
                                 f"differentiated function had JAX type {want.str_short()}")
        cts = list(call(js_vjp, _js_leaves(ct_leaves)))
        return tuple(_unflatten_args(flat, [from_js(x) for x in cts]))

    vjp_fn.callback = fn
    return out, vjp_fn


def jvp(fun, primals, tangents, has_aux=False):
    """jax.jvp(fun, primals, tangents, has_aux) -> (out, tangent_out), and aux with has_aux."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("primal and tangent arguments to jax.jvp must be tuples or lists; "
                        f"found {type(primals).__name__} and {type(tangents).__name__}.")
    primals_tree, tangents_tree = pytree.tree_structure(primals), pytree.tree_structure(tangents)
    if primals_tree != tangents_tree:
        raise TypeError("primal and tangent arguments to jax.jvp must have the same tree structure; primals have tree "
                        f"structure {primals_tree} whereas tangents have tree structure {tangents_tree}.")
    flat = [pytree.tree_flatten(p) for p in primals]
    tan_leaves = pytree.tree_leaves(tuple(tangents))
    for p, t in zip(pytree.tree_leaves(tuple(primals)), tan_leaves):
        p_shape, t_shape = tuple(getattr(asarray(p), "shape", ())), tuple(getattr(asarray(t), "shape", ()))
        if p_shape != t_shape:
            raise ValueError(f"jvp called with different primal and tangent shapes;Got primal shape {p_shape} and tangent shape as {t_shape}")
    box = {}
    # With has_aux, aux rides along as outputs whose tangents are dropped (one trace of fun).
    g = fun if not has_aux else lambda *a: _split_aux(fun(*a), box, "jvp")
    with _for_call(_args_body(g, flat, box)) as fn:
        res = call(sl.jvp, fn, _js_leaves([x for f in flat for x in f[0]]), _js_leaves(tan_leaves))
    out = pytree.tree_unflatten(box["tree"], [from_js(x) for x in res[0]])
    tan = pytree.tree_unflatten(box["tree"], [from_js(x) for x in res[1]])
    if not has_aux:
        return out, tan
    return out[0], tan[0], out[1]


def _split_aux(out, box, fn):
    """fun's (value, aux) under has_aux, checked as JAX checks it."""
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"{fn} with has_aux=True: the function must return a two-element tuple (value, aux), got {out!r}")
    return tuple(out)


def shard_map(f=None, /, *, out_specs, in_specs, mesh=None, axis_names=frozenset(), check_vma=True):
    """jax.shard_map(f, mesh=..., in_specs=..., out_specs=..., check_vma=...);
    usable as a decorator, with functools.partial or with f left out."""
    from .sharding import Mesh, PartitionSpec, context_mesh

    if f is None:
        return lambda g: shard_map(
            g, out_specs=out_specs, in_specs=in_specs, mesh=mesh, axis_names=axis_names, check_vma=check_vma
        )
    if mesh is not None and not isinstance(mesh, Mesh):
        raise TypeError(f"shard_map: mesh must be a jax.sharding.Mesh, got {type(mesh).__name__}")
    is_spec = lambda s: isinstance(s, PartitionSpec)  # noqa: E731
    # In in_specs, None (an entry or the whole) marks arguments passed to the body as they are, as in JAX.
    is_in_spec = lambda s: s is None or is_spec(s)  # noqa: E731

    @functools.wraps(f)
    def wrapped(*args):
        # Without mesh=, jax.set_mesh's, read at the call (as JAX's).
        m = mesh if mesh is not None else context_mesh()
        if m is None:
            raise ValueError("The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context")
        if axis_names and set(axis_names) != set(m.axis_names):
            raise NotImplementedError("shard_map: axis_names naming only some mesh axes is not supported by ShardLab yet")
        leaves, treedef = pytree.tree_flatten(args)
        specs = pytree.broadcast_prefix(in_specs, args, is_in_spec, "shard_map in_specs")
        mapped = [i for i, s in enumerate(specs) if s is not None]
        in_paths = _spec_paths(in_specs, args, is_in_spec, "shard_map in_specs")
        box = {}

        def body(*js_blocks):
            given = list(leaves)
            for i, x in zip(mapped, js_blocks):
                given[i] = from_js(x)
            out = f(*pytree.tree_unflatten(treedef, given))
            result, box["tree"] = _flat_out(out)
            box["specs"] = pytree.broadcast_prefix(out_specs, out, is_spec, "shard_map out_specs")
            for p in _spec_paths(out_specs, out, is_spec, "shard_map out_specs"):
                out_paths.push(to_js_value(p))  # filled in place: JS reads it after the body
            return result

        out_paths = js_list([])
        paths = {"in": [in_paths[i] for i in mapped], "out": out_paths}
        with _for_call(body) as fn, _for_call(lambda _out: js_list(box["specs"])) as out_specs_of:
            options = {"mesh": m, "inSpecs": [specs[i] for i in mapped], "outSpecs": out_specs_of, "checkVma": bool(check_vma),
                       "name": getattr(f, "__name__", str(f)), "paths": paths}
            res = call(sl.shardMap(fn, to_js_value(options)), *[_as_leaf(leaves[i]) for i in mapped])
        return pytree.tree_unflatten(box["tree"], [from_js(x) for x in res])

    return wrapped


def _spec_paths(specs, tree, is_spec, what):
    """Each leaf of tree with the key paths JAX's spec errors print: {'spec': of the spec it
    falls under (keystr), 'value': of the leaf itself}."""
    from .key_paths import keystr, tree_flatten_with_path

    pairs, spec_tree = tree_flatten_with_path(specs, is_leaf=is_spec)
    index = pytree.broadcast_prefix(pytree.tree_unflatten(spec_tree, list(range(len(pairs)))), tree,
                                    lambda x: isinstance(x, int), what)
    leaves, _ = tree_flatten_with_path(tree)
    return [{"spec": keystr(pairs[i][0]), "value": keystr(path)} for i, (path, _) in zip(index, leaves)]


def device_put(x, device=None):
    """jax.device_put(x, sharding): the arrays of pytree x placed as `sharding` says (a PartitionSpec on jax.set_mesh's mesh)."""
    from .sharding import NamedSharding, PartitionSpec, SingleDeviceSharding, context_mesh

    leaves, tree = pytree.tree_flatten(x)
    if isinstance(device, PartitionSpec):  # read against jax.set_mesh's mesh
        mesh = context_mesh()
        if mesh is None:
            raise ValueError("Please set a mesh via `jax.set_mesh` if a PartitionSpec is passed to device_put")
        device = NamedSharding(mesh, device)
    if device is not None and not isinstance(device, NamedSharding):
        if hasattr(device, "id") or isinstance(device, SingleDeviceSharding):  # every array is on every device already
            device = None
        else:
            raise TypeError(f"device_put: expected a NamedSharding or a Device, got {type(device).__name__}")
    out = [from_js(call(sl.devicePut, asarray(v) if not isinstance(v, Array) else v,
                        device if device is not None else UNDEFINED)) for v in leaves]
    return pytree.tree_unflatten(tree, out)
