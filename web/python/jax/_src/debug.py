"""jax.debug: print and callback, bound by hand onto the JS API's debug
(web/lib/api/debug.js): inside a trace the callback runs each time the
program runs, after the run, once per device of a shard_map body in device
order, once per example under vmap, with primal values under grad; outside
a trace, at once."""

import builtins
import string

from . import pytree
from .api import _as_leaf, is_jax_value
from .js import call, callback as js_callback, from_js, sl


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
    named = {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(fmt) if field}
    unused = [k for k in kwargs if k not in named]
    if unused:
        raise ValueError(f"Unused keyword arguments to `jax.debug.print`: {unused}")
    _callback(lambda *a, **kw: builtins.print(fmt.format(*a, **kw)), args, kwargs)


def visualize_array_sharding(arr, *, use_color=True, scale=1.0, min_width=9, max_width=80, color_map=None):
    """jax.debug.visualize_array_sharding(arr): prints the table of arr's blocks and the devices holding each,
    as JAX prints it on a terminal without colors (ShardLab draws no colors)."""
    builtins.print(call(sl.visualizeSharding, arr, {"scale": scale, "minWidth": min_width, "maxWidth": max_width}))


def visualize_sharding(shape, sharding, *, use_color=True, scale=1.0, min_width=9, max_width=80, color_map=None):
    """jax.debug.visualize_sharding(shape, sharding): the table of an array of `shape` laid out by `sharding`."""
    options = {"scale": scale, "minWidth": min_width, "maxWidth": max_width}
    builtins.print(call(sl.visualizeSharding, list(shape), sharding, options))
