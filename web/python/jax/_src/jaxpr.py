"""What jax.make_jaxpr returns, read as JAX's objects: a ClosedJaxpr (printed
as JAX prints it) holding a Jaxpr of constvars, invars, equations and outvars,
each variable with its aval; built from the JS program's JSON form."""

from .abstract import ShapedArray, spec_entries


class Primitive:
    """An equation's primitive: its name (str gives it)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, Primitive) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return self.name


def _aval(a):
    shape = tuple(a["shape"])
    s = a.get("sharding") or {}
    return ShapedArray(shape, a["dtype"], a.get("weak_type", False), a.get("vma", ()), spec_entries(s.get("dims", ()), len(shape)),
                       s.get("unreduced", ()), s.get("reduced", ()))


class Var:
    """A variable of the program: its name as printed, and its aval."""

    __slots__ = ("name", "aval")

    def __init__(self, name, aval):
        self.name = name
        self.aval = aval

    def __repr__(self):
        return self.name


class Literal:
    """A constant written into an equation: its value and aval."""

    __slots__ = ("val", "aval")

    def __init__(self, val, aval):
        self.val = val
        self.aval = aval

    def __repr__(self):
        return f"{self.val}:{self.aval.str_short(short_dtypes=True)}"


def _atom(a):
    if "literal" not in a:
        return Var(a["name"], _aval(a["aval"]))
    aval = _aval(a["aval"])
    kind = float if aval.dtype.kind in "fV" else bool if aval.dtype.kind == "b" else int
    return Literal(kind(a["literal"]), aval)


def _nested(v):
    """A parameter as JAX holds it: a nested program's JSON as a ClosedJaxpr of no constants."""
    if isinstance(v, dict) and "eqns" in v and "invars" in v:
        return ClosedJaxpr(None, None, Jaxpr(v, 0))
    return v


class JaxprEqn:
    """One equation: primitive, params, invars (variables and literals) and outvars."""

    __slots__ = ("primitive", "params", "invars", "outvars")

    def __init__(self, e):
        self.primitive = Primitive(e["primitive"])
        # A nested program (a jit's, a loop's body) is a ClosedJaxpr, as in JAX's params.
        self.params = {k: _nested(v) for k, v in e.get("params", {}).items()}
        self.invars = [_atom(a) for a in e["inputs"]]
        self.outvars = [_atom(a) for a in e["outputs"]]

    def __repr__(self):
        outs = " ".join(f"{v}:{v.aval.str_short(short_dtypes=True)}" for v in self.outvars)
        return f"{outs} = {self.primitive} {' '.join(map(repr, self.invars))}"


class Jaxpr:
    """The program: constvars, invars, eqns and outvars, and the avals of its inputs and outputs."""

    def __init__(self, data, num_consts):
        invars = [_atom(v) for v in data["invars"]]
        split = len(invars) - num_consts
        self.invars, self.constvars = invars[:split], invars[split:]
        self.eqns = [JaxprEqn(e) for e in data["eqns"]]
        self.outvars = [_atom(v) for v in data["outvars"]]
        self._name_as_printed(invars)

    def _name_as_printed(self, invars):
        """The JSON names the variables in the program's order (inputs, constants last, then equations');
        the text prints the constants first: the same names, handed out in the text's order."""
        defined = [v for v in invars] + [v for e in self.eqns for v in e.outvars if isinstance(v, Var)]
        printed = self.constvars + self.invars + defined[len(invars):]
        rename = {old.name: new.name for old, new in zip(printed, defined) if old.name != "_"}
        for v in [*invars, *self.outvars, *(a for e in self.eqns for a in (*e.invars, *e.outvars))]:
            if isinstance(v, Var) and v.name in rename:
                v.name = rename[v.name]

    def __str__(self):
        # JAX prints a Jaxpr as the ClosedJaxpr holding it prints (its constants as constvars).
        closed = getattr(self, "_closed", None)
        return str(closed) if closed is not None else f"<jaxpr: {len(self.eqns)} equations>"

    __repr__ = __str__

    def pretty_print(self, **kwargs):
        """The printed program."""
        return str(self)

    @property
    def in_avals(self):
        return [v.aval for v in self.invars]

    @property
    def out_avals(self):
        return [v.aval for v in self.outvars]


class ClosedJaxpr:
    """What jax.make_jaxpr returns: a Jaxpr with its constants' values, printed as JAX prints the program."""

    def __init__(self, js_jaxpr, out_tree, jaxpr=None):
        from .js import from_js

        self._js = js_jaxpr
        self.out_tree = out_tree
        if jaxpr is not None:  # a nested program: its text is its parent's
            self.jaxpr, self.consts = jaxpr, []
            return
        self.jaxpr = Jaxpr(js_jaxpr.toJSON().to_py(), int(js_jaxpr.numConsts))
        self.jaxpr._closed = self
        consts = js_jaxpr.consts
        self.consts = [from_js(c) for c in consts] if consts is not None else None

    eqns = property(lambda self: self.jaxpr.eqns)
    in_avals = property(lambda self: self.jaxpr.in_avals)
    out_avals = property(lambda self: self.jaxpr.out_avals)
    literals = property(lambda self: self.consts)

    def __str__(self):
        if self._js is None:
            raise NotImplementedError("a nested program prints within the program holding it: print that one")
        return str(self._js.toString())

    def __repr__(self):
        return str(self) if self._js is not None else f"<nested jaxpr: {len(self.jaxpr.eqns)} equations>"

    def pretty_print(self, **kwargs):
        """The printed program."""
        return str(self)
