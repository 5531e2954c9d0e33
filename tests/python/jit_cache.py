# jax.jit's cache from Python (tests/js/python_scripts.test.js runs it with
# `shardlab run` and compares its output with jit_cache.expected). JAX's rule
# (jax.jit's docs, "Caching"): a function is traced again only for new
# argument shapes or dtypes, a new tree structure or new static arguments;
# each traced program gives back its own output structure.
import functools

import jax
import jax.numpy as jnp

traces = []


@functools.partial(jax.jit, static_argnums=1)
def f(x, mode):
    traces.append((x.shape, mode))
    if x.ndim == 1:
        return (x * 2, None) if mode == "pair" else {"v": x + 1}
    return [x.sum()]


a = f(jnp.ones(3), "pair")  # traced: (2, 2, 2), None
b = f(jnp.zeros(3), "pair")  # the same signature, no trace: (0, 0, 0), None
c = f(jnp.ones(3), "dict")  # a new static value, traced: {"v": (2, 2, 2)}
d = f(jnp.ones((2, 2)), "pair")  # a new shape, traced: [4]
e = f(jnp.ones(3) * 5, "pair")  # the first program again: its tuple, (10, 10, 10)
f(jnp.full(3, 5.0), "pair")  # a weakly typed array (a Python float's): a new signature, traced, as JAX keys on weak_type
print("traces", traces)
print("pair", type(a).__name__, a[0].tolist(), a[1], b[0].tolist(), type(e).__name__, e[0].tolist())
print("dict", sorted(c), c["v"].tolist())
print("list", type(d).__name__, float(d[0]))

# A new input structure is a new trace; the same structure is not.
seen = []


@jax.jit
def g(t):
    seen.append(jax.tree_util.tree_structure(t))
    return t["p"][0] + t["q"]


g({"p": (jnp.ones(2),), "q": jnp.ones(2)})
g({"p": (jnp.zeros(2),), "q": jnp.ones(2)})
print("structures", len(seen), g({"p": [jnp.ones(2)], "q": jnp.ones(2)}).tolist(), len(seen))

# A jitted function called inside grad, many times: x*x + x has derivative 2x + 1.
inner = jax.jit(lambda x: (x * x, {"k": x}))
print("grads", [float(jax.grad(lambda x: inner(x)[0] + inner(x)[1]["k"])(jnp.float32(i))) for i in range(200)][:4])

# A jit of a function wrapping another jit keeps its own function (JAX's
# test_jit_of_grad): d/dx x*x is 2x, so 3.0 at 1.5 and 2.0 at 1.0, not f's values.
square = jax.jit(lambda v: v * v)
dsquare = jax.jit(jax.grad(square))
print("jit of grad of jit", float(dsquare(1.5)), float(dsquare(1.0)), float(square(1.5)))
