"""jax.jit(f).lower(*args): the Lowered stage of JAX's ahead-of-time API,
over ShardLab's traced program: cost_analysis() counts its floating-point
operations as XLA's HloCostAnalysis counts them, and compile() gives the
Compiled stage. ShardLab has no StableHLO: as_text() is the jaxpr; the
Compiled stage's is the program that runs (partitioned into each device's
program where values are sharded over Explicit axes), and its
cost_analysis() is per device, with the bytes its collectives send."""

import functools
import math

# XLA's transcendental opcodes: counted apart from flops, one per element.
_TRANSCENDENTAL = {"exp", "exp2", "log", "log1p", "expm1", "tanh", "logistic", "sin", "cos", "tan", "asin", "acos", "atan",
                   "atan2", "sinh", "cosh", "sqrt", "rsqrt", "cbrt", "pow", "erf", "erf_inv"}
# Elementwise arithmetic, comparisons and selections: one flop per output element.
_ELEMENTWISE = {"add", "add_any", "sub", "mul", "div", "rem", "max", "min", "neg", "abs", "sign", "floor", "ceil", "round",
                "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "xor", "not", "select_n", "convert_element_type",
                "integer_pow", "square", "is_finite", "nextafter", "shift_left", "shift_right_logical",
                "shift_right_arithmetic", "clamp"}
# Data movement: no arithmetic.
_MOVES = {"reshape", "broadcast_in_dim", "transpose", "slice", "dynamic_slice", "dynamic_update_slice", "concatenate",
          "pad", "iota", "squeeze", "expand_dims", "rev", "copy", "copy_p", "stop_gradient", "pvary", "gather", "axis_index"}
_REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "argmax", "argmin"}


def _size(aval):
    return math.prod(aval.shape)


def _costs(jaxpr, totals, communication=frozenset()):
    """Adds the program's flops and transcendentals to `totals`; the primitives in `communication` (the collectives,
    whose bytes are counted apart) count none."""
    for e in jaxpr.eqns:
        name = e.primitive.name
        out = _size(e.outvars[0].aval) if e.outvars else 0
        if name == "dot_general":
            lhs_contract = e.params["dimension_numbers"][0]
            contracted = math.prod(e.invars[0].aval.shape[d] for d in lhs_contract)
            totals["flops"] += 2.0 * out * contracted
        elif name in _TRANSCENDENTAL:
            totals["transcendentals"] += out
        elif name in _ELEMENTWISE:
            totals["flops"] += out
        elif name in _REDUCTIONS:
            totals["flops"] += _size(e.invars[0].aval) - out
        elif name in ("jit", "pjit", "remat2", "custom_jvp_call", "custom_vjp_call", "shard_map") and "jaxpr" in e.params:
            _costs(e.params["jaxpr"].jaxpr, totals, communication)
        elif name not in _MOVES and name not in communication:
            raise NotImplementedError(f"cost_analysis: ShardLab has no cost rule for {name} (it counts arithmetic, "
                                      "matrix products, reductions and data movement)")


def _collectives(node, found):
    """Adds to `found` each collective equation of a program's JSON (marked so, with its traffic): (name, bytes the
    device sending most sends)."""
    if isinstance(node, dict):
        if node.get("collective"):
            found.append((node["primitive"], max(node.get("traffic", {}).get("sent", []), default=0)))
        for k, v in node.items():
            if k != "traffic":
                _collectives(v, found)
    elif isinstance(node, list):
        for v in node:
            _collectives(v, found)
    return found


class Traced:
    """A jitted function traced for its arguments: jax.jit(f).trace(*args), before lowering."""

    def __init__(self, jitted, args, kwargs):
        from .api import make_jaxpr

        self._jitted, self._args, self._kwargs = jitted, args, kwargs
        # The jitted function's own program (the jit equation is the caller's view of it), as JAX's;
        # static arguments given by name are bound first, those by position stay static.
        static_kw = {k: v for k, v in kwargs.items() if k in jitted._static_argnames}
        dynamic_kw = {k: v for k, v in kwargs.items() if k not in static_kw}
        fun = functools.partial(jitted._fun, **static_kw) if static_kw else jitted._fun
        positions = tuple(i for i in jitted._static_argnums if -len(args) <= i < len(args))
        self.jaxpr = make_jaxpr(fun, static_argnums=positions)(*args, **dynamic_kw)
        self.fun_name = getattr(jitted, "__name__", "fun")

    @property
    def out_info(self):
        """The outputs' types: a pytree of ShapeDtypeStructs."""
        from . import pytree
        from .abstract import ShapeDtypeStruct

        structs = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in self.jaxpr.out_avals]
        return pytree.tree_unflatten(self.jaxpr.out_tree, structs)

    def lower(self):
        """The Lowered stage for the same arguments."""
        return Lowered(self._jitted, self._args, self._kwargs)


class Lowered:
    """A jitted function lowered for its arguments: jax.jit(f).lower(*args)."""

    def __init__(self, jitted, args, kwargs):
        from .api import make_jaxpr

        self._jitted, self._args, self._kwargs = jitted, args, kwargs
        self._closed = make_jaxpr(jitted)(*args, **kwargs)

    def cost_analysis(self):
        """{'flops': ..., 'transcendentals': ...} of the program, as XLA's cost analysis counts them."""
        totals = {"flops": 0.0, "transcendentals": 0.0}
        _costs(self._closed.jaxpr, totals)
        return totals

    def as_text(self):
        """The program's text: its jaxpr (ShardLab lowers to no StableHLO)."""
        return str(self._closed)

    def compile(self):
        """The Compiled stage: the program that runs, callable on arguments of these types."""
        return Compiled(self._jitted, self._closed)


class Compiled:
    """jax.jit(f).lower(*args).compile(): callable on arguments of the lowered types."""

    def __init__(self, jitted, closed):
        self._jitted, self._closed = jitted, closed

    def as_text(self):
        """The program that runs, ShardLab's counterpart of the compiled HLO: where values are sharded over
        Explicit mesh axes, one shard_map whose body is each device's program, the collectives inserted."""
        return str(self._closed._js.compiledText())

    def cost_analysis(self):
        """Per device: {'flops', 'transcendentals'} as XLA counts them on the program that runs, and
        'bytes sent' (ShardLab's): what its collectives send, the most any one device sends in each."""
        from .jaxpr import Jaxpr

        data = self._closed._js.compiledJSON().to_py()
        collectives = _collectives(data, [])
        totals = {"flops": 0.0, "transcendentals": 0.0}
        _costs(Jaxpr(data, int(self._closed._js.numConsts)), totals, frozenset(name for name, _ in collectives))
        totals["bytes sent"] = float(sum(sent for _, sent in collectives))
        return totals

    def __call__(self, *args, **kwargs):
        return self._jitted(*args, **kwargs)
