# jnp.sort, argsort, einsum, linalg.norm, prod, cumprod, initial=, nonzero and
# one-argument where from Python (run by tests/js/python_scripts.test.js; the
# expected values are worked out by hand).
import jax
import jax.numpy as jnp

x = jnp.array([3.0, 1.0, 2.0, 1.0])
print("sort", jnp.sort(x).tolist(), jnp.argsort(x).tolist(), jnp.argsort(x, descending=True).tolist())
m = jnp.array([[1.0, 2.0], [3.0, 4.0]])
print("einsum", jnp.einsum("ij,jk->ik", m, m).tolist(), jnp.einsum("ii", m).item(), jnp.einsum("ij->j", m).tolist())
print("einsum batch", jnp.einsum("bi,bi->b", m, m).tolist(), jnp.einsum("i,j", jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0])).tolist())
print("einsum sublists", jnp.einsum(m, (0, 1), m, (1, 2), (0, 2)).tolist(), jnp.einsum(m, (0, 0)).item(), jnp.einsum(m, (..., 0), (...,)).tolist())
print("norm", jnp.linalg.norm(jnp.array([3.0, 4.0])).item(), jnp.linalg.norm(m, ord=1).item(), jnp.linalg.norm(m, ord=jnp.inf).item(), jnp.linalg.norm(m, axis=1).tolist()[1] ** 2)
print("prod", jnp.prod(m).item(), jnp.prod(m, axis=1).tolist(), jnp.cumprod(jnp.array([1, 2, 3, 4])).tolist())
print("initial", jnp.max(jnp.array([1.0, 2.0]), initial=5.0).item(), jnp.sum(jnp.array([1, 2]), initial=10).item())
print("any all", jnp.any(m > 3.0).item(), jnp.all(m > 0.0, axis=0).tolist())
print("nonzero", [a.tolist() for a in jnp.nonzero(jnp.array([[0, 1], [2, 0]]))], [a.tolist() for a in jnp.where(jnp.array([0, 5, 5]))])
print("jit nonzero", [a.tolist() for a in jax.jit(lambda v: jnp.nonzero(v, size=3, fill_value=-1))(jnp.array([0, 2, 0, 2]))])
print("grad prod", jax.grad(jnp.prod)(jnp.array([2.0, 0.0, 5.0])).tolist(), "grad sort", jax.grad(lambda v: jnp.sort(v)[-1])(x).tolist())
print(jax.make_jaxpr(lambda v: jnp.argsort(v))(x))
try:
    jax.jit(lambda v: jnp.where(v))(x)
except jax.errors.ConcretizationTypeError as e:
    print("ConcretizationTypeError", str(e).splitlines()[1])
