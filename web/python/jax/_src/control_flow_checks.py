"""The checks jax.lax's control flow makes of what it is given and what its
functions return, with JAX 0.11's messages: callables, cond's predicate and
switch's index, a loop body's carry (its pytree structure, then each
component's type, with the pcast hint for varying axes) and the outputs of
cond's and switch's branches. control_flow.py calls them while the JS API
traces each function, so they raise before the JS API's own checks."""

import functools
import inspect

from . import pytree
from .key_paths import equality_errors, equality_errors_pytreedef, keystr, tree_flatten_with_path


def check_callable(ok, message):
    """TypeError(message) unless ok."""
    if not ok:
        raise TypeError(message)


def aval_of(x):
    """The aval of a leaf a traced function returned (an array, a tracer, a Python or numpy scalar or an
    aval), read without emitting anything into the trace: a Python scalar is weakly typed, as in JAX."""
    from .abstract import ShapedArray
    from .api import asarray
    from .array import Array

    if isinstance(x, (Array, ShapedArray)):
        return x if isinstance(x, ShapedArray) else x.aval
    if type(x) in (bool, int, float):
        return ShapedArray((), {bool: "bool", int: "int32", float: "float32"}[type(x)], weak_type=type(x) is not bool)
    return asarray(x).aval


def _mismatch(a1, a2):
    """What makes two avals differ, as JAX's aval_mismatch_extra says it ('' when they match)."""
    parts = [m for m, differs in (("the dtypes do not match", a1.dtype != a2.dtype), ("the shapes do not match", a1.shape != a2.shape),
                                  ("the manual axis types do not match", set(a1.vma) != set(a2.vma))) if differs]
    if not parts:
        return ""
    return ", so " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1])


def _capitalize(s):
    return s[0].upper() + s[1:]


def _bullets(diffs, trailing_newline):
    """JAX's list of differences: '  * a;\\n' joined by newlines (carry) or '  * a;' (branches), the last with a period."""
    if len(diffs) == 1:
        return f"{_capitalize(diffs[0])}.\n"
    sep = ";\n" if trailing_newline else ";"
    return "\n".join(f"  * {d}{sep}" for d in diffs[:-1]) + ("" if trailing_newline else "\n") + f"  * {diffs[-1]}.\n"


def _pcast_hint(applications):
    if not applications:
        return ""
    if len(applications) == 1:
        hint = f"This might be fixed by {applications[0]}.\n"
    else:
        hint = "This might be fixed by:\n" + "\n".join(f"  * {d};\n" for d in applications[:-1]) + f"  * {applications[-1]}.\n"
    return hint + "See https://docs.jax.dev/en/latest/notebooks/shard_map.html#scan-vma for more information.\n\n"


def _varying_added(a_in, a_out):
    return tuple(a for a in a_out.vma if a not in a_in.vma)


def check_carry(name, body_fun, in_carry, out_carry):
    """JAX's check of a loop body's carry: `in_carry` and `out_carry` are the
    carry trees the body took and gave (leaves arrays, tracers or scalars). A
    weakly typed input component may change dtype (the loop promotes it)."""
    try:
        carry_name = list(inspect.signature(body_fun).parameters)[0]
    except (ValueError, TypeError, IndexError):
        carry_name = None

    def component(path):
        if carry_name:
            return f"the input carry component {carry_name}{keystr(path)}" if path else f"the input carry {carry_name}"
        return f"the input carry at path {keystr(path)}" if path else "the input carry"

    if pytree.tree_structure(in_carry) != pytree.tree_structure(out_carry):
        # Compared as JAX compares them, as trees of avals.
        diffs = [f"{component(p)} is a {t1} but the corresponding component of the carry output is a {t2}, so {why}"
                 for p, t1, t2, why in equality_errors(pytree.tree_map(aval_of, in_carry), pytree.tree_map(aval_of, out_carry))]
        if not diffs:
            return
        raise TypeError(
            f"{name} function carry input and carry output must have the same pytree structure, but they differ:\n\n"
            f"{_bullets(diffs, True)}\nRevise the function so that the carry output has the same pytree structure as the carry input."
        )
    paths = [p for p, _ in tree_flatten_with_path(in_carry)[0]]
    ins = [aval_of(x) for x in pytree.tree_leaves(in_carry)]
    outs = [aval_of(x) for x in pytree.tree_leaves(out_carry)]
    bad = [(p, a, b) for p, a, b in zip(paths, ins, outs) if _mismatch(a, b) and not (a.weak_type and a.shape == b.shape and set(a.vma) == set(b.vma))]
    if not bad:
        return
    diffs = [f"{component(p)} has type {a.str_short()} but the corresponding output carry component has type {b.str_short()}{_mismatch(a, b)}"
             for p, a, b in bad]
    hints = [f"applying `jax.lax.pcast(..., {_varying_added(a, b)}, to='varying')`, to the initial carry value corresponding to {component(p)}"
             for p, a, b in bad if _varying_added(a, b)]
    raise TypeError(
        f"{name} function carry input and carry output must have equal types, but they differ:\n\n{_bullets(diffs, True)}\n"
        f"{_pcast_hint(hints)}Revise the function so that all output types match the corresponding input types."
    )


def source_info(fun):
    """A function as JAX's messages name it: '<name> at <file>:<line>'."""
    while isinstance(fun, functools.partial):
        fun = fun.func
    fun = inspect.unwrap(fun)
    try:
        return f"{fun.__name__} at {fun.__code__.co_filename}:{fun.__code__.co_firstlineno}"
    except AttributeError:
        return str(fun)


def check_branches(api_name, name1, name2, f1, f2, out1, out2):
    """JAX's check that two branches' outputs (trees of arrays, tracers or scalars) have one structure and equal types."""
    tree1, tree2 = pytree.tree_structure(out1), pytree.tree_structure(out2)
    paths = [p for p, _ in tree_flatten_with_path(out1)[0]]
    component = lambda p: f" at path {keystr(p)}" if p else ""  # noqa: E731
    info = f"{name1} is {source_info(f1)}\n{name2} is {source_info(f2)}\n\n"
    if tree1 != tree2:
        diffs = [f"{name1} output{component(p)} is a {t1} but {name2} output{component(p)} is a {t2}, so {why}"
                 for p, t1, t2, why in equality_errors_pytreedef(tree1, tree2)]
        if not diffs:
            return
        differences = f"{diffs[0]}.\n" if len(diffs) == 1 else "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"
        raise TypeError(
            f"{api_name} branch outputs must have the same pytree structure, but they differ:\n\n{info}{differences}\n"
            f"Revise {name1} and/or {name2} so that they have the same pytree structure."
        )
    avals1 = [aval_of(x) for x in pytree.tree_leaves(out1)]
    avals2 = [aval_of(x) for x in pytree.tree_leaves(out2)]
    bad = [(p, a, b) for p, a, b in zip(paths, avals1, avals2) if _mismatch(a, b)]
    if not bad:
        return
    diffs = [f"the output of {name1}{component(p)} has type {a.str_short()} but the corresponding output of {name2} has type "
             f"{b.str_short()}{_mismatch(a, b)}" for p, a, b in bad]
    hints = [f"applying `jax.lax.pcast(..., {_varying_added(b2, a2)}, to='varying')` to the output of {n}{component(p)}"
             for p, a, b in bad for n, a2, b2 in ((name1, b, a), (name2, a, b)) if _varying_added(a2, b2) and set(a.vma) != set(b.vma)]
    raise TypeError(
        f"{api_name} branches must have equal output types but they differ.\n\n{info}{_bullets(diffs, False)}\n"
        f"{_pcast_hint(hints)}Revise {name1} and/or {name2} so that all output types match."
    )
