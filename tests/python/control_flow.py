# lax.cond, lax.switch, lax.scan, lax.fori_loop and lax.while_loop from Python
# (tests/js/python_scripts.test.js runs it with `shardlab run` and compares
# its output with control_flow.expected; the values are worked out in the comments).
import jax
import jax.numpy as jnp
from jax import lax


def show(name, x):
    print(name, [round(v, 4) for v in jnp.reshape(x, (-1,)).tolist()])


# JAX's test_cond: 2x + 1 for x >= 0, else 2; its derivative 2 or 0.
def f(x):
    return lax.cond(x >= 0.0, lambda xt, _: xt + x, lambda _, xf: xf - x, x + 1.0, x + 2.0)


print("cond", float(f(3.0)), float(f(-1.5)), float(jax.grad(f)(3.0)), float(jax.grad(f)(-1.5)))
# switch clamps: index -3 -> branch 0 (10 a), 7 -> branch 2 (-b), with a = 1, b = 3.
branches = [lambda p: {"y": p["a"] * 10.0}, lambda p: {"y": p["a"] + p["b"]}, lambda p: {"y": -p["b"]}]
print("switch", [float(lax.switch(i, branches, {"a": 1.0, "b": 3.0})["y"]) for i in (-3, 0, 1, 2, 7)])


# EMA as a scan: carries 0.1, -0.11, 0.201, 0.2309, 0.60781; d(final)/dx_i = 0.1 * 0.9^(4 - i).
def ema(xs):
    def step(c, x):
        n = 0.9 * c + 0.1 * x
        return n, n

    return lax.scan(step, 0.0, xs)


xs = jnp.array([1.0, -2.0, 3.0, 0.5, 4.0])
c, ys = ema(xs)
show("scan ys", ys)
show("scan grad", jax.grad(lambda v: ema(v)[0])(xs))
# vmap of the scan over two rows: the second is -1 times the first.
show("vmap(scan)", jax.vmap(lambda v: ema(v)[0])(jnp.stack([xs, -xs])))


# Power iteration: the spectral norm of [[2, 1], [1, 3]] is (5 + sqrt 5) / 2 = 3.618.
def spectral_norm(w):
    def step(i, u):
        wu = w @ u
        return wu / jnp.sqrt(jnp.sum(wu * wu))

    v = lax.fori_loop(0, 30, step, jnp.ones(2))
    return jnp.sqrt(jnp.sum((w @ v) ** 2))


print("spectral norm", round(float(spectral_norm(jnp.array([[2.0, 1.0], [1.0, 3.0]]))), 4))
# fori_loop summing i: 0 + 1 + ... + 9 = 45.
print("fori_loop", int(lax.fori_loop(0, 10, lambda i, s: s + i, 0)))
# while_loop: Newton's method for sqrt(2) until the step is below 1e-6 (a
# trip count known only as it runs), under jit; fori_loop with a traced bound.
def newton(a):
    def step(c):
        x, _ = c
        nx = 0.5 * (x + a / x)
        return nx, jnp.abs(nx - x)

    return lax.while_loop(lambda c: c[1] > 1e-6, step, (a, jnp.float32(1.0)))[0]


print("while_loop sqrt(2)", round(float(jax.jit(newton)(jnp.float32(2.0))), 5))
print("fori_loop traced bound", int(jax.jit(lambda n: lax.fori_loop(0, n, lambda i, s: s + i, 0))(jnp.int32(10))))
print("jvp of while_loop", [round(float(t), 4) for t in jax.jvp(newton, (jnp.float32(2.0),), (jnp.float32(1.0),))])
try:
    jax.grad(newton)(jnp.float32(2.0))
except ValueError as e:
    print("grad of while_loop:", str(e).split(".")[0])
print(jax.make_jaxpr(lambda n: lax.fori_loop(0, n, lambda i, v: v + i, 0))(5))
# Outputs that are all Python scalars (a carry (0, 0.0), a jitted constant)
# stay scalars: JS would read a list of numbers as one array of data.
n, h = lax.fori_loop(0, 3, lambda i, c: (c[0] + 1, c[1] + 0.5), (0, 0.0))
print("scalar outputs", int(n), float(h), n.shape, jax.jit(lambda x: 2.0)(jnp.ones(2)).shape)
# A scan of 20,000 steps runs as a loop over its body, and its gradient is a
# forward scan and a transposed (reverse) one: c = 0.5 c + 1 tends to 2; the
# final carry's derivative in the last x is 1, in the one before 0.5.
def halving(xs):
    return lax.scan(lambda c, x: (0.5 * c + x, None), 0.0, xs)[0]


long_xs = jnp.ones(20000)
print("long scan", float(halving(long_xs)), [float(g) for g in jax.grad(halving)(long_xs)[-2:]])
grad_text = str(jax.make_jaxpr(jax.grad(halving))(jnp.ones(3)))
print("scans in the gradient", grad_text.count("scan["), "reverse=True" in grad_text)
# Under vmap a while carry the body returns unchanged keeps its one value,
# unbatched (JAX's read-only carry optimization: out_axes=None works for it);
# the other carries run per example until each one's predicate fails.
def matpow_until(w, x, c_max):
    _, x, w = lax.while_loop(lambda v: v[0] < c_max, lambda v: (v[0] + 1, v[1] @ v[2], v[2]), (0, x, w))
    return w, x


w_, x_ = jax.vmap(matpow_until, in_axes=(None, 0, 0), out_axes=(None, 0))(jnp.ones((2, 2)), jnp.ones((4, 2)), jnp.arange(4))
print("read-only carry", w_.shape, x_[:, 0].tolist())  # x @ ones c times: 1, 2, 4, 8
# The gradient of a vmapped cond: each example's untaken branch sees its
# operands through stop_gradient, so sqrt's infinite slope at 0 in the branch
# an example does not take leaks no nan into its gradient (JAX's issue 1052).
safe_sqrt = lambda x: lax.cond(x < 1e-3, lambda _: 1e-3, lambda _: jnp.sqrt(x), ())
print("vmapped cond grad", jax.grad(lambda x: jax.vmap(safe_sqrt)(x).sum())(jnp.array([0.0, 4.0])).tolist())  # 0, 1/(2·2)
# associative_scan: JAX's docstring examples, a tree, and its gradient (d sum of prefix sums / d x_k = n - k).
print(repr(lax.associative_scan(jnp.add, jnp.arange(0, 4))), lax.associative_scan(jnp.add, jnp.arange(0, 4), reverse=True).tolist())
running = lax.associative_scan(lambda a, b: (a[0] + b[0], jnp.maximum(a[1], b[1])), (jnp.arange(5.0), jnp.array([3.0, 1.0, 4.0, 1.0, 5.0])))
print("running sum and max", running[0].tolist(), running[1].tolist())
print("associative_scan grad", jax.grad(lambda x: lax.associative_scan(jnp.add, x).sum())(jnp.ones(4)).tolist())
