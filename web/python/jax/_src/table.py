"""JAX's names bound onto ShardLab's JS API from the API manifest
(web/lib/api/manifest.js: MANIFEST, its lines as JS parsed them, one per
public function, the one home of these facts): each line bound from the table gives the jax module,
the JAX name, the JS function it calls, and JAX's parameters in JAX's order
in the manifest's notation (a caller may give any of them by position, in
that order, or by name); for a collective, pmean and pcast the core's
registry gives the parameters. The lines whose binding is written by
hand, or that have none in Python, are skipped here."""

import ast
import collections
import inspect
import re

from . import pytree
from .js import UNDEFINED, bridge, call, from_js, sl

_MISSING = object()


class _Param:
    __slots__ = ("name", "optional", "option", "kind", "variadic", "keyword_only", "js_name", "default_text")

    def __init__(self, text, option, keyword_only):
        self.option = option
        self.keyword_only = keyword_only
        self.variadic = text.startswith("*")
        text = text.lstrip("*")
        self.optional = "=" in text or option
        self.name, _, self.kind = text.split("=")[0].partition(":")
        self.default_text = text.split("=", 1)[1] if "=" in text else None
        # Its key in the JS options object: the JS API's one conversion of JAX's names (web/lib/names.js).
        self.js_name = str(bridge.camelCase(self.name)) if option else None


def _parse(params):
    out = []
    keyword_only = False
    for group, option in re.findall(r"\{([^}]*)\}|([^{},]+)", params):
        for p in (group or option).split(","):
            if p.strip() == "*":
                keyword_only = True
            elif p.strip():
                out.append(_Param(p.strip(), option=bool(group), keyword_only=keyword_only))
    return out


def _check_arraylike(name, values):
    """JAX's TypeError for a list or tuple given as an array operand of jax.numpy's `name`."""
    for i, v in enumerate(values):
        if isinstance(v, (list, tuple)):
            raise TypeError(f"{name} requires ndarray or scalar arguments, got {type(v)} at position {i}.")


def _js_function(path):
    obj = sl
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


_RESULT_TYPES = {}


def _result_type(named):
    """JAX's NamedTuple `named.name` with `named.fields` (SlogdetResult, SVDResult, ...), one class per name."""
    name = str(named.name)
    if name not in _RESULT_TYPES:
        _RESULT_TYPES[name] = collections.namedtuple(name, [str(f) for f in named.fields])
    return _RESULT_TYPES[name]


def _make(module, name, path, params_text, tuple_out=False, named=None):
    """The function jax.`module`.`name`, calling ShardLab's `path` with the
    parameters `params_text()` gives (read on the first call: a line the
    core's registry states is read from it once the runtime is up); with
    `tuple_out`, a list of results comes back as a tuple, as JAX returns it
    (the NamedTuple `named` when the manifest names one)."""
    qualname = f"jax.{module}.{name}"
    target = []  # the JS function, its parameters and its array operands' names, resolved on first call

    def fn(*args, **kwargs):
        if not target:
            params = _parse(params_text())
            # jax.numpy's array operands (the manifest's ARRAY_PARAMS), which JAX's check_arraylike guards.
            names = {str(n) for n in sl.manifest.ARRAY_PARAMS} if module == "numpy" else set()
            target.extend((_js_function(path), params, [p.name for p in params if not p.kind and p.name in names]))
        params, array_operands = target[1], target[2]
        bound = {}
        i = 0
        for p in params:
            if p.variadic:
                bound[p.name] = list(args[i:])
                i = len(args)
            elif i < len(args) and not p.keyword_only:
                bound[p.name] = args[i]
                i += 1
        if i < len(args):
            raise TypeError(f"{qualname}() takes {i} positional arguments but {len(args)} were given")
        for k, v in kwargs.items():
            p = next((p for p in params if p.name == k), None)
            if p is None:
                names = ", ".join(p.name for p in params)
                raise TypeError(f"{qualname}() got an unexpected keyword argument '{k}' (its arguments here: {names})")
            if k in bound:
                raise TypeError(f"{qualname}() got multiple values for argument '{k}'")
            bound[k] = v
        for p in params:
            if p.name not in bound and not p.optional:
                raise TypeError(f"{qualname}() missing required argument '{p.name}'")
        _check_arraylike(name, [bound[n] for n in array_operands if n in bound])
        tree = None
        positional, options = [], {}
        for p in params:
            v = bound.get(p.name, _MISSING)
            if p.name == "axis_name" and isinstance(v, (set, frozenset)):
                # A set has no order for the axes to follow (JS has no Python sets to tell apart).
                raise TypeError(f"{qualname}: axis_name={v!r} must be a tuple or a str. Got {v!r}")
            if p.kind == "tree" and v is not _MISSING:
                leaves, tree = pytree.tree_flatten(v)
                v = leaves
            elif p.kind == "seq" and isinstance(v, (list, tuple)):
                from .api import asarray

                v = [asarray(x) for x in v]  # each as JAX's asarray: a Python int a weak int32
            elif p.kind == "shape" and isinstance(v, int):
                v = (v,)
            if p.kind == "cast":
                if v is not _MISSING and v is not None:
                    positional[0] = from_js(call(sl.np.astype, positional[0], v))
                continue
            if p.option:
                if v is not _MISSING:
                    options[p.js_name] = v
            elif p.variadic:
                positional.extend(v)
            else:
                positional.append(v)
        # Parameters left out at the end are dropped, unless an options object follows them (it
        # goes last, after every positional parameter); one left out before a given one is JS's
        # undefined (its default).
        while positional and positional[-1] is _MISSING and not options:
            positional.pop()
        positional = [UNDEFINED if v is _MISSING else v for v in positional]
        if options:
            positional.append(options)
        out = from_js(call(target[0], *positional))
        if tuple_out and isinstance(out, list):
            out = _result_type(named)(*out) if named else tuple(out)
        return pytree.tree_unflatten(tree, out) if tree is not None else out

    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = f"{qualname}: ShardLab's {path}."
    return fn


def _signature(params_text):
    """JAX's signature of a function from its manifest parameters, for inspect (jit's static_argnames, help)."""
    P = inspect.Parameter
    out = []
    after_variadic = False
    for p in _parse(params_text):
        if p.variadic:
            kind = P.VAR_POSITIONAL
            after_variadic = True
        else:
            kind = P.KEYWORD_ONLY if p.keyword_only or after_variadic else P.POSITIONAL_OR_KEYWORD
        default = P.empty
        if p.optional and not p.variadic:
            text = p.default_text
            try:
                default = ast.literal_eval(text) if text is not None else None
            except (ValueError, SyntaxError):
                default = None  # a default the JS side computes (dtype=float32): None stands for it
        out.append(P(p.name, kind, default=default))
    try:
        return inspect.Signature(out)
    except ValueError:  # a required parameter after an optional one (numpy's own quirks): no signature
        return None


def functions(module):
    """The functions of jax.`module` ('numpy', 'lax', 'nn', 'scipy.special') the manifest binds from its table
    (its lines of parameters, and those whose parameters the core's registry states), by name."""
    out = {}
    for entry in sl.manifest.MANIFEST:
        if entry.module == module and entry.binding in ("table", "core"):
            # Read when first called: a core line's parameters come from the running engine's registry.
            fn = _make(module, str(entry.name), str(entry.js), lambda entry=entry: str(entry.params), bool(entry.tuple),
                       entry.named)
            signature = _signature(str(entry.params)) if entry.binding == "table" else None  # a core line's: once the engine runs
            if signature is not None:
                fn.__signature__ = signature
            out[str(entry.name)] = fn
    return out
