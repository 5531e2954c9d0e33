"""jax.debug: print and callback, bound by hand onto the JS API's debug
(web/lib/api/debug.js): inside a trace the callback runs each time the
program runs, after the run, once per device of a shard_map body in device
order, once per example under vmap, with primal values under grad; outside
a trace, at once."""

import builtins
import re
import string

from . import pytree
from .api import _as_leaf, is_jax_value
from .js import bridge, call, callback as js_callback, from_js, js_list, sl


def callback(callback=None, *args, ordered=False, partitioned=False, **kwargs):
    """jax.debug.callback(callback, *args, ordered=False, **kwargs): callback(*args, **kwargs) with their values
    as concrete arrays (ShardLab's calls are in a fixed order whether or not `ordered` asks for it);
    jax.debug.callback(ordered=...)(callback, *args, **kwargs), JAX 0.11's two-call form, too."""
    return _two_call_form("debug_callback", _callback, callback, args, kwargs)


def _two_call_form(what, impl, first, args, kwargs):
    """impl(first, args, kwargs), or, with `first` left out, JAX 0.11's two-call form: a function taking it."""
    if first is not None:
        return impl(first, args, kwargs)
    if args or kwargs:
        raise TypeError(f"{what} received unexpected arguments in the two-call form")
    return lambda f, *a, **kw: impl(f, a, kw)


def _callback(fn, args, kwargs):
    if not callable(fn):
        raise TypeError(f"jax.debug.callback: the callback must be callable, got {fn!r}")
    leaves, treedef = pytree.tree_flatten((args, kwargs))
    # What is no array (a dtype, a string) stays here, static, as JAX keeps it.
    kept = {i: x for i, x in enumerate(leaves) if not is_jax_value(x)}
    sent = [i for i in range(len(leaves)) if i not in kept]

    def on_values(*values):
        given = dict(kept)
        given.update(zip(sent, (from_js(v) for v in values)))
        a, kw = pytree.tree_unflatten(treedef, [given[i] for i in range(len(leaves))])
        fn(*a, **kw)

    proxy = js_callback(on_values)
    if not call(sl.debug.callback, proxy, *[_as_leaf(leaves[i]) for i in sent]):
        proxy.destroy()  # called at once: no program keeps it


def print(fmt=None, *args, ordered=False, **kwargs):  # noqa: A001 (JAX's name)
    """jax.debug.print(fmt, *args, **kwargs): fmt.format(*args, **kwargs) with the values (each as its str),
    printed where jax.debug.callback would call its function; jax.debug.print(ordered=...)(fmt, ...) too."""
    return _two_call_form("debug_print", _print, fmt, args, kwargs)


def _print(fmt, args, kwargs):
    if not isinstance(fmt, str):
        raise TypeError(f"jax.debug.print: the format must be a string, got {fmt!r}")
    template, operands, used = _template(fmt, args, kwargs)
    unused = [k for k in kwargs if k not in used]
    if unused:
        raise ValueError(f"Unused keyword arguments to `jax.debug.print`: {unused}")
    write = js_callback(lambda text: builtins.print(text))
    if not call(bridge.printFormat, write, template, js_list(_as_leaf(x) for x in operands)):
        write.destroy()  # printed at once: no program keeps it


def _template(fmt, args, kwargs):
    """fmt as the JS side prints it (web/lib/api/core/debug_text.js): each field that names an array
    (after its attributes and indices, taken here, at the trace) numbered by its operand, every other
    value written in now, as str.format would; also the operands and the keyword names used."""
    formatter = string.Formatter()
    out, operands, used, numbering, auto = [], [], set(), None, 0
    for literal, field, spec, conversion in formatter.parse(fmt):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if field == "" or field[0] in ".[":
            if numbering == "manual":
                raise ValueError("cannot switch from manual field specification to automatic field numbering")
            numbering, field, auto = "auto", f"{auto}{field}", auto + 1
        elif field.split(".")[0].split("[")[0].isdigit():
            if numbering == "auto":
                raise ValueError("cannot switch from automatic field numbering to manual field specification")
            numbering = "manual"
        value, key = formatter.get_field(field, args, kwargs)
        used.add(key)
        if spec and "{" in spec:
            spec = formatter.vformat(spec, args, kwargs)
        if is_jax_value(value):
            operands.append(value)
            out.append("{" + str(len(operands) - 1) + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
        else:
            out.append(_tree_text(value, conversion, spec, formatter, operands))
    return "".join(out), operands, used


class _Slot:
    """An array leaf's place in a container's text, written as a marker that becomes its field."""

    def __init__(self, k):
        self.k = k

    def __repr__(self):
        return f"\x00{self.k}\x00"

    __str__ = __repr__


def _tree_text(value, conversion, spec, formatter, operands):
    """A value that is no array, as format() writes it now, escaped; each array leaf of it (a dict or list
    of arrays) a field of its own, printed as a container prints its items: by repr."""
    leaves, treedef = pytree.tree_flatten(value)
    slots = []
    for x in leaves:
        if is_jax_value(x) and not isinstance(x, (bool, int, float)):  # Python numbers print alike either way
            slots.append(_Slot(len(operands)))
            operands.append(x)
        else:
            slots.append(x)
    shown = pytree.tree_unflatten(treedef, slots) if any(isinstance(x, _Slot) for x in slots) else value
    text = format(formatter.convert_field(shown, conversion), spec)
    return re.sub("\x00(\\d+)\x00", lambda m: "{" + m.group(1) + "!r}", text.replace("{", "{{").replace("}", "}}"))


def visualize_array_sharding(arr, *, use_color=True, scale=1.0, min_width=9, max_width=80, color_map=None):
    """jax.debug.visualize_array_sharding(arr): prints the table of arr's blocks and the devices holding each,
    as JAX prints it on a terminal without colors (ShardLab draws no colors)."""
    builtins.print(call(sl.visualizeSharding, arr, {"scale": scale, "minWidth": min_width, "maxWidth": max_width}))


def visualize_sharding(shape, sharding, *, use_color=True, scale=1.0, min_width=9, max_width=80, color_map=None):
    """jax.debug.visualize_sharding(shape, sharding): the table of an array of `shape` laid out by `sharding`."""
    options = {"scale": scale, "minWidth": min_width, "maxWidth": max_width}
    builtins.print(call(sl.visualizeSharding, list(shape), sharding, options))
