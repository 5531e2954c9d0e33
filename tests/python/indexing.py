# Indexing and x.at[...] from Python as a JAX user writes them (run by
# tests/js/python_scripts.test.js; the expected values are worked out by hand
# from x = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] with numpy's rules:
# out-of-bounds gathers clamp, out-of-bounds updates are dropped).
import jax
import jax.numpy as jnp

x = jnp.arange(12).reshape(3, 4)
print("int", x[1].tolist(), x[-1, 2].item(), x[1][2].item())
print("slices", x[:, 1:3].tolist(), x[::2, ::-1].tolist(), x[1:, -2:].tolist())
print("none ellipsis", x[None].shape, x[..., None].shape, x[:, None, 1].shape, x[..., 0].tolist())
print("arrays", x[jnp.array([2, 0])].tolist(), x[jnp.array([0, 2]), jnp.array([1, 3])].tolist(), x[1, [0, 3]].tolist())
print("non-adjacent", x[[0, 2], :][:, [1, 1]].tolist(), jnp.arange(24).reshape(2, 3, 4)[[0, 1], :, [1, 2]].shape)
print("mask", x[x % 5 == 0].tolist(), "clamped", x[jnp.array([5, -7])].tolist())
print("iter", [row.sum().item() for row in x])
print("at set", x.at[0, 0].set(100).tolist()[0], x.at[:, 1].set(jnp.array([7, 8, 9])).tolist())
print("at add", jnp.zeros(4).at[jnp.array([1, 1, 3, 9])].add(1.0).tolist(), "mul", jnp.ones(3).at[1:].multiply(3.0).tolist())
print("at min max", jnp.array([5, 5, 5]).at[jnp.array([0, 0, 2])].min(jnp.array([3, 1, 9])).tolist(), jnp.array([5, 5, 5]).at[1].max(8).tolist())
print("at get", jnp.array([1.0, 2.0]).at[jnp.array([0, 3])].get(mode="fill", fill_value=-1.0).tolist(), "subtract", jnp.array([1, 2]).at[0].subtract(5).tolist())


@jax.jit
def pick(x, i):
    return x[i, i + 1]


print("jit", pick(x, 1).item(), pick(x, -2).item())
print("grad", jax.grad(lambda v: (v[jnp.array([0, 0, 2])] ** 2).sum())(jnp.array([1.0, 2.0, 3.0])).tolist())
print("vmap", jax.vmap(lambda i: x[i])(jnp.array([2, 0])).tolist())
print("take", jnp.take(jnp.array([10, 20, 30]), jnp.array([2, 0])).tolist(), jnp.take_along_axis(x, jnp.array([[3], [0], [1]]), axis=1).tolist())
print("flip", jnp.flip(jnp.array([1, 2, 3])).tolist(), jax.lax.rev(x, (0, 1))[0].tolist())
print(jax.make_jaxpr(lambda v, i: v[i])(jnp.zeros(3), 0))
try:
    jax.jit(lambda v: v[v > 0])(jnp.array([1.0, -1.0]))
except jax.errors.NonConcreteBooleanIndexError as e:
    print("NonConcreteBooleanIndexError", str(e).splitlines()[0])
try:
    x[0, 0, 0]
except IndexError as e:
    print("IndexError", e)
try:
    x[[0, 1]]
except TypeError as e:
    print("TypeError", str(e)[:60])
try:
    x[0] = 1
except TypeError as e:
    print("TypeError", str(e)[:70])
