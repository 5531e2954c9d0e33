# Ordinary JAX that crashed here (issue 35's findings), each line what JAX
# 0.11 gives for it, worked out from numpy's and JAX's documented rules:
# jnp.array of a range and of a list holding traced values (the jacfwd
# docstring's example), hstack/vstack/stack of lists or of one array (numpy
# iterates its first axis), jnp.dot's rule for a scalar and for 3-D
# operands, lax.select of scalars, format() of an array, array-valued
# linspace endpoints and full's fill_value, vjp and jvp with Python-scalar
# primals and cotangents, a fori_loop whose concrete jnp.int32 bound makes it
# a scan (so grad works), the sharding of an array whose spec holds None,
# and shard_map over a mesh smaller than the device count given an ordinary
# array (JAX moves an uncommitted array to the computation's devices).
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

print("range", jnp.array(range(5)).tolist(), jnp.array(range(5)).dtype)
# jacfwd(f)(x) for f(x) = [x0^2, x0*x1]: [[2 x0, 0], [x1, x0]] at (1, 2).
print("jacfwd of a list", jax.jacfwd(lambda x: jnp.array([x[0] ** 2, x[1] * x[0]]))(jnp.array([1.0, 2.0])).tolist())
print("grad of asarray", float(jax.grad(lambda x: jnp.asarray([x, 2 * x]).sum())(3.0)))
print("hstack", jnp.hstack([jnp.array([1, 2]), jnp.array([3])]).tolist())
print("vstack of an array", jnp.vstack(jnp.arange(6).reshape(2, 3)).tolist())
print("stack of an array", jnp.stack(jnp.arange(6).reshape(2, 3), axis=1).tolist())
print("concatenate of an array", jnp.concatenate(jnp.arange(6).reshape(2, 3)).tolist())
print("dot with a scalar", jnp.dot(jnp.arange(3.0), 2).tolist())
# numpy's dot: sum over a's last axis and b's second to last: (3,2,2) . (3,2,1) -> (3,2,3,1).
d = jnp.dot(jnp.arange(12.0).reshape(3, 2, 2), jnp.arange(6.0).reshape(3, 2, 1))
print("dot 3-D", d.shape, d[1, 0, 2, 0].tolist())  # a[1,0,:] = [4, 5], b[2,:,0] = [4, 5]: 41
try:
    jnp.dot(jnp.ones((2, 3)), jnp.ones((2, 3)))
except TypeError as e:
    print("dot mismatch TypeError")
print("select", lax.select(True, 1.5, 2.5).tolist(), lax.select_n(2, 1.5, 2.5, 3.5).tolist())
print("format", f"{jnp.float32(3.14159):.2f}", format(jnp.int32(7), "03d"), f"{jnp.arange(3)}")
try:
    format(jnp.arange(3), ".2f")
except TypeError as e:
    print("TypeError", e)
print("linspace of arrays", jnp.linspace(jnp.array([0.0, 1.0]), jnp.array([1.0, 2.0]), 3).tolist())
print("linspace no endpoint", jnp.linspace(jnp.array(0.0), 10.0, 4, endpoint=False).tolist())
print("full of an array", jnp.full((2, 2), jnp.array([1.0, 2.0])).tolist(), jnp.full((2,), jnp.array(3)).dtype)
print("full in jit", jax.jit(lambda v: jnp.full((2, 2), v))(jnp.array([5.0, 6.0])).tolist())
y, pullback = jax.vjp(lambda x: x * 2.0, 3.0)
print("vjp of a scalar", float(y), [float(c) for c in pullback(1.0)])
out, tan = jax.jvp(lambda x, w: x * w, (3.0, 2.0), (1.0, 0.0))
print("jvp of scalars", float(out), float(tan))
# fori_loop(0, 3, c -> c * x, 1) = x^3, whose derivative at 2 is 12.
print("fori_loop concrete bound", float(jax.grad(lambda x: lax.fori_loop(0, jnp.int32(3), lambda i, c: c * x, 1.0))(2.0)))
mesh = jax.make_mesh((4, 2), ("a", "b"))
x = jax.device_put(jnp.ones((4, 2)), NamedSharding(mesh, P(None, "b")))
print("sharding", tuple(x.sharding.spec))
for shape in ((4,), (2,)):
    small = jax.make_mesh(shape, ("i",), axis_types=(jax.sharding.AxisType.Auto,))
    f = jax.shard_map(lambda v: v * 2 + jax.lax.axis_index("i"), mesh=small, in_specs=P("i"), out_specs=P("i"))
    print("shard_map on", shape[0], "devices", f(jnp.arange(8.0)).tolist())
# static_argnames holds however the argument is passed, and static_argnums by
# keyword too (JAX infers each from the other through the signature: the
# jax.jit docstring's g gives [0, 1, 256, 6561] for n=3 passed by position).
@jax.jit(static_argnames=["n"])
def g(x, n):
    for _ in range(n):
        x = x**2
    return x
print("static by name, passed by position:", g(jnp.arange(4), 3).tolist(), g(jnp.arange(4), n=1).tolist())
h = jax.jit(lambda x, n: x * n if n > 1 else x, static_argnums=(1,))
print("static by position, passed by name:", h(jnp.arange(3), n=3).tolist())
# tree.map's other trees have the first's structure as a prefix (the
# jax.tree.map docstring), and a mismatch is JAX's ValueError.
print("tree.map prefix:", jax.tree.map(lambda x, y: [x] + y, [5, 6], [[7, 9], [1, 2]]))
for other in ([1, 2, 3], (1, 2)):
    try:
        jax.tree.map(lambda x, y: x, [1, 2], other)
    except ValueError as e:
        print("ValueError:", e)
