# jax.numpy's triangles, diagonals and rearrangements from Python (run by
# tests/js/python_scripts.test.js; the expected values are worked out by
# hand from m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]).
import jax
import jax.numpy as jnp

m = jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
print("tri", jnp.tri(2, 3, 1).tolist())
print("tril", jnp.tril(m).tolist())
print("triu", jnp.triu(m, 1).tolist())
print("identity", jnp.identity(2).tolist())
print("linspace", jnp.linspace(0.0, 1.0, 5).tolist(), jnp.linspace(0.0, 1.0, 4, endpoint=False).tolist())
print("diagonal", jnp.diagonal(m).tolist(), jnp.diagonal(m, 1).tolist(), jnp.diagonal(m, offset=-2).tolist())
print("trace", float(jnp.trace(m)), float(jnp.trace(m, 1)))
print("swapaxes", jnp.swapaxes(jnp.zeros((2, 3, 4)), 0, 2).shape, jnp.moveaxis(jnp.zeros((2, 3, 4)), 0, -1).shape)
print("stacks", jnp.hstack([jnp.array([1, 2]), jnp.array([3])]).tolist(), jnp.vstack([jnp.array([1, 2]), jnp.array([3, 4])]).tolist())
print("outer", jnp.outer(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0])).tolist(), "inner", float(jnp.inner(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]))))
print("grad trace", jax.grad(lambda x: jnp.trace(x))(m).tolist())
print("tile", jnp.tile(jnp.array([1, 2]), 2).tolist(), "repeat", jnp.repeat(jnp.array([[1, 2], [3, 4]]), 2, axis=1).tolist())
print("kron", jnp.kron(jnp.array([1, 10]), jnp.array([1, 2])).tolist(), "diag", jnp.diag(jnp.array([1, 2]), 1).tolist())
print("any", bool(jnp.any(jnp.array([0, 0, 3]))), "all", jnp.all(jnp.array([[1, 0], [2, 3]]), axis=1).tolist())
