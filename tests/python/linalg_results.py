# jnp.linalg's results as JAX returns them (NamedTuples with JAX's field
# names), on matrices whose factors are exact in float32, so the values are
# worked out by hand: diag(2, 3, 4) has det 24, inverse diag(1/2, 1/3, 1/4),
# eigenvalues 2, 3, 4 with the unit vectors; [[1, 2], [3, 4]] has det -2
# (JAX's docstring); a permutation matrix's det is its sign. Also jax.typeof
# and x.at[...].divide / power / apply (values by hand).
import jax
import jax.numpy as jnp

d = jnp.diag(jnp.array([2.0, 3.0, 4.0]))
print(jnp.linalg.det(d), jnp.linalg.inv(d).diagonal())
r = jnp.linalg.slogdet(jnp.array([[1.0, 2.0], [3.0, 4.0]]))
print(type(r).__name__, r._fields, r.sign, jnp.exp(r.logabsdet))
sign, logabsdet = jnp.linalg.slogdet(jnp.array([[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]))
print(sign, logabsdet)
e = jnp.linalg.eigh(d)
print(type(e).__name__, e.eigenvalues, jnp.abs(e.eigenvectors))
q = jnp.linalg.qr(d)
print(type(q).__name__, q._fields, jnp.abs(q.R))
u = jnp.linalg.svd(d)
print(type(u).__name__, u._fields, u.S)
print(jnp.linalg.solve(d, jnp.array([2.0, 3.0, 4.0])), jnp.linalg.matrix_rank(d), jnp.linalg.matrix_power(d, 2).diagonal())
print(jnp.linalg.cholesky(jnp.diag(jnp.array([4.0, 9.0]))))
# d det / d a = det * a^-T: for diag(2, 3, 4), diag(12, 8, 6)
print(jax.grad(jnp.linalg.det)(d).diagonal())
# jax.typeof: dtype, shape and weak type
print(jax.typeof(jnp.arange(3.0)), repr(jax.typeof(1.0)), repr(jax.typeof(jnp.int32(1))))
x = jnp.arange(5.0)
# The last: a repeated index applies f once here (11), where JAX's scatter_apply applies it per repeat (21):
# docs/python.md's known differences.
print(x.at[1:3].divide(2.0), x.at[2].power(3), x.at[::2].apply(jnp.negative), x.at[jnp.array([1, 1])].apply(lambda v: v + 10))
