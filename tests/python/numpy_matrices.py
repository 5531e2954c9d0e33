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
# diagonal and trace of any rank, over the planes of axis1 and axis2 (numpy's
# rule: the other axes first, the diagonal last; the jnp.trace docstring's
# 2x2x2 example gives [6, 8] and, at offset 1, [2, 3]); swapaxes as a method;
# jax.P is PartitionSpec (JAX 0.11).
x = jnp.arange(8).reshape(2, 2, 2)
print("trace 3-d", jnp.trace(x).tolist(), jnp.trace(x, offset=1).tolist(), x.trace(axis1=1, axis2=2).tolist())
print("diagonal 3-d", jnp.diagonal(x, axis1=1, axis2=2).tolist(), jnp.diagonal(jnp.arange(24).reshape(2, 3, 4), 1, 2, 0).tolist())
print("swapaxes method", x.swapaxes(0, 2).tolist(), jax.P("i", None) == jax.sharding.PartitionSpec("i", None))
# repeat's counts may be a concrete array, read as JAX concretizes it (the
# jnp.repeat docstring: [[1, 1, 2], [3, 3, 4]] for counts [2, 1] on axis 1).
a = jnp.array([[1, 2], [3, 4]])
print("repeat by an array", jnp.repeat(a, jnp.array([2, 1]), axis=1).tolist(), jnp.repeat(a, jnp.array(2)).tolist())
