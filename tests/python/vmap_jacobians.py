# vmap, jacfwd, jacrev and hessian from Python (tests/js/python_scripts.test.js
# runs it with `shardlab run` and compares its output with
# vmap_jacobians.expected, whose values are worked out by hand in the comments).
import jax
import jax.numpy as jnp


def show(name, x):
    print(name, [round(v, 4) for v in jnp.reshape(x, (-1,)).tolist()])


x = jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
w = jnp.array([1.0, 0.0, -1.0])
# Row dot products: 1 - 3 = -2, 4 - 6 = -2.
show("vmap in_axes=(0, None)", jax.vmap(jnp.dot, in_axes=(0, None))(x, w))
# Column sums, mapped along axis 1: 5, 7, 9.
show("vmap in_axes=1", jax.vmap(jnp.sum, in_axes=1)(x))
# out_axes=1 transposes the stacked rows back: x * 2 as columns -> (3, 2).
y = jax.vmap(lambda r: r * 2, out_axes=1)(x)
print("vmap out_axes=1 shape", y.shape)
# Pairwise squared distances of [0, 1] and [0, 2, 3]: [[0, 4, 9], [1, 1, 4]].
d = jax.vmap(jax.vmap(lambda a, b: (a - b) ** 2, in_axes=(None, 0)), in_axes=(0, None))
show("nested vmap", d(jnp.array([0.0, 1.0]), jnp.array([0.0, 2.0, 3.0])))
# Per-example gradients of (x . v)^2 at v = w: 2 (x . w) x = -4 x.
show("vmap(grad)", jax.vmap(jax.grad(lambda v, r: jnp.dot(r, v) ** 2), in_axes=(None, 0))(w, x))
# d(v^2)/dv = diag(2v) at v = (1, 2).
v = jnp.array([1.0, 2.0])
show("jacfwd", jax.jacfwd(lambda a: a**2)(v))
show("jacrev", jax.jacrev(lambda a: a**2)(v))
# f(a, b) = a0 * b: df/da = [b, 0], df/db = a0 at a = (1, 2), b = 3.
ja, jb = jax.jacrev(lambda a, b: jnp.sum(a * jnp.array([1.0, 0.0])) * b, argnums=(0, 1))(v, 3.0)
show("jacrev argnums=(0, 1)", jnp.concatenate([ja, jnp.reshape(jb, (1,))]))
# Hessian of sum(v^3): diag(6 v) = [[6, 0], [0, 12]].
show("hessian", jax.hessian(lambda a: jnp.sum(a**3))(v))
# Pytrees: in_axes a prefix ({"w": None} for the whole dict of parameters), a dict out.
out = jax.vmap(lambda p, r: {"s": jnp.sum(p["w"] * r)}, in_axes=({"w": None}, 0))({"w": w}, x)
show("pytree in and out", out["s"])
# JAX's errors.
try:
    jax.vmap(lambda a, b: a + b)(jnp.ones(3), jnp.ones(2))
except ValueError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    jax.vmap(lambda a, b: a, in_axes=(0,))(x, x)
except ValueError as e:
    print(type(e).__name__, e)
try:
    jax.jacfwd(lambda a: a)(jnp.arange(3))
except ValueError as e:
    print(type(e).__name__, e)
# axis_name: collectives over the vmapped axis meet the batch's examples as
# devices: the column sums 12 15 18 21 (jax.vmap's docstring), column 0's
# values 0 4 8 less their mean 4, positions 0 1 2, and ppermute 0->1 1->2 2->0
# giving example 0 the 8 of example 2.
xs = jnp.arange(12.).reshape(3, 4)
print(jax.vmap(lambda x: jax.lax.psum(x, 'i'), axis_name='i')(xs)[0], jax.vmap(lambda x: x - jax.lax.pmean(x, 'i'), axis_name='i')(xs)[:, 0])
print(jax.vmap(lambda x: jax.lax.axis_index('i'), axis_name='i')(xs), jax.vmap(lambda x: jax.lax.ppermute(x, 'i', [(0, 1), (1, 2), (2, 0)]), axis_name='i')(xs)[:, 0])
try:
    jax.vmap(lambda x: jax.lax.psum_scatter(x, 'i'), axis_name='i')(jnp.ones((3, 3)))
except ValueError as e:
    print(type(e).__name__, e)
