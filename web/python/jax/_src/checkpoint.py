"""jax.checkpoint (jax.remat) and jax.checkpoint_policies: a function whose
derivatives recompute its intermediate values in the backward pass, but for
those its policy saves (ShardLab's JS `checkpoint`: one checkpoint equation
of its program inside a trace)."""

import functools
import types

from . import pytree
from .api import _flat_out, _for_call, _js_leaves
from .js import call, from_js, sl


def _policy(name, doc):
    """A policy of jax.checkpoint_policies: JAX's (prim, *args, **params) -> saveable, known to the core by `name`."""

    def policy(prim, *_, **params):
        if name == "everything_saveable":
            return True
        if getattr(prim, "name", prim) != "dot_general":
            return False
        return name == "dots_saveable" or not params.get("dimension_numbers", ((), ((), ())))[1][0]

    policy.__name__ = policy.__qualname__ = name
    policy.__doc__ = doc
    policy._shardlab_policy = name
    return policy


checkpoint_policies = types.SimpleNamespace(
    nothing_saveable=_policy("nothing_saveable", "Saves nothing: the backward pass recomputes every value it needs."),
    everything_saveable=_policy("everything_saveable", "Saves everything: no recomputation (as without checkpoint)."),
    dots_saveable=_policy("dots_saveable", "Saves the results of matrix products (dot_general); recomputes the rest."),
    dots_with_no_batch_dims_saveable=_policy(
        "dots_with_no_batch_dims_saveable", "Saves the results of matrix products without batch dimensions."
    ),
)
checkpoint_policies.checkpoint_dots = checkpoint_policies.dots_saveable
checkpoint_policies.checkpoint_dots_with_no_batch_dims = checkpoint_policies.dots_with_no_batch_dims_saveable


def _unsupported(name):
    def policy_maker(*args, **kwargs):
        raise NotImplementedError(
            f"jax.checkpoint_policies.{name} names values with jax.ad_checkpoint.checkpoint_name, which ShardLab does "
            "not have; use nothing_saveable, everything_saveable, dots_saveable or dots_with_no_batch_dims_saveable"
        )

    policy_maker.__name__ = name
    return policy_maker


for _name in ("save_only_these_names", "save_any_names_but_these", "save_and_offload_only_these_names",
              "save_from_both_policies"):
    setattr(checkpoint_policies, _name, _unsupported(_name))


def _policy_name(policy):
    if policy is None:
        return None
    name = getattr(policy, "_shardlab_policy", None)
    if name is None:
        raise NotImplementedError(
            f"jax.checkpoint: policy {policy!r} is not one ShardLab has; use None or jax.checkpoint_policies."
            "nothing_saveable, everything_saveable, dots_saveable or dots_with_no_batch_dims_saveable"
        )
    return name


def checkpoint(fun=None, *, prevent_cse=True, policy=None, static_argnums=()):
    """jax.checkpoint(fun, prevent_cse=True, policy=None, static_argnums=()): fun, whose derivatives
    recompute in the backward pass what `policy` does not save (None: nothing is saved)."""
    if fun is None:
        return functools.partial(checkpoint, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums)
    name = _policy_name(policy)
    statics = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        n = len(args)
        fixed = {i % n: args[i] for i in statics if -n <= i < n}
        leaves, treedef = pytree.tree_flatten(([a for i, a in enumerate(args) if i not in fixed], kwargs))
        box = {}

        def body(*js_leaves):
            dyn, kw = pytree.tree_unflatten(treedef, [from_js(x) for x in js_leaves])
            it = iter(dyn)
            out, box["tree"] = _flat_out(fun(*[fixed[i] if i in fixed else next(it) for i in range(n)], **kw))
            return out

        with _for_call(body) as f:
            checkpointed_js = call(sl.checkpoint, f, {"preventCse": prevent_cse, "policy": name})
            out = call(checkpointed_js, *_js_leaves(leaves))
        return pytree.tree_unflatten(box["tree"], [from_js(x) for x in out])

    return checkpointed


remat = checkpoint
