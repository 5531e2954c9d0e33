# jax.random.choice, gamma and loggamma through Python's jax (JAX 0.11's
# signatures, keywords and errors; jax/_src/random/core.py at jax-v0.11.0).
# Their numbers are checked against a reference of JAX's algorithms in
# tests/js/random_choice_gamma.test.js; here what is printed is justified so:
# - the signature of choice is JAX's; the others take JAX's keywords;
# - exact properties: choice without replacement of the whole population is
#   a permutation of it; with p one-hot it always draws that element; with
#   replacement and no p it is JAX's randint(key, shape, 0, n) (JAX's code),
#   without replacement the first of permutation(key, n); shapes and dtypes
#   (a's dtype for an array a, int32 for an integer a);
# - statistics rounded to 1 decimal with at least 5 standard errors of
#   margin: gamma's mean is a (standard error sqrt(a / n)), and so is the
#   mean of its gradient dx/da (E[dx/da] = dE[x]/da = 1);
# - JAX's errors and messages (testChoiceShapeIsNotSequenceError, choice's
#   check_arraylike, _check_shape, the dtype check).
import inspect

import jax
import jax.numpy as jnp

k = jax.random.key(0)
print(inspect.signature(jax.random.choice))

# choice
s = jax.random.choice(k, 10, shape=(10,), replace=False)
print(s.shape, s.dtype, sorted(s.tolist()) == list(range(10)))
print(bool(jnp.all(jax.random.choice(k, 5, (100,), p=jnp.array([0.0, 0.0, 1.0, 0.0, 0.0])) == 2)))
print(bool(jnp.all(jax.random.choice(k, 7, (3, 2)) == jax.random.randint(k, (3, 2), 0, 7))))
print(bool(jnp.all(jax.random.choice(k, 7, (4,), replace=False) == jax.random.permutation(k, 7)[:4])))
x = jnp.arange(24.0).reshape(2, 3, 4)
c = jax.random.choice(k, x, shape=(5, 2), axis=2)
print(c.shape, c.dtype)
c = jax.random.choice(k, x, shape=(2,), replace=False, p=jnp.array([0.5, 0.3, 0.2]), axis=-2)
print(c.shape, c.dtype)
print(bool(jnp.all(jax.jit(lambda key: jax.random.choice(key, x, (3,), axis=1))(k) == jax.random.choice(k, x, (3,), axis=1))))
print(jax.random.choice(k, 5, ()).shape, jax.random.choice(k, 5, (0,)).shape)

# gamma and loggamma
g = jax.random.gamma(k, 2.0, shape=(20000,))
print(g.shape, g.dtype, round(float(jnp.mean(g)), 1), bool(jnp.all(g > 0)))
print(jax.random.gamma(key=k, a=jnp.array([0.2, 0.3]), shape=(3, 2), dtype=jnp.float32).shape)
lg = jax.random.loggamma(k, 0.5, (100,))
print(lg.dtype, bool(jnp.all(jnp.abs(jnp.exp(lg) - jax.random.gamma(k, 0.5, (100,))) <= 1e-6 + 1e-6 * jnp.exp(lg))))
grads = jax.grad(lambda a: jax.random.gamma(jax.random.key(1), a).sum())(jnp.full((4000,), 3.0))
print(grads.shape, round(float(jnp.mean(grads)), 1))


def error(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ":", e)


error(lambda: jax.random.choice(k, 5, 2))
error(lambda: jax.random.choice(k, [1, 2, 3], (2,)))
error(lambda: jax.random.choice(k, 5, (6,), replace=False))
error(lambda: jax.random.choice(k, 5, (2,), p=jnp.array([0.5, 0.5])))
error(lambda: jax.random.gamma(k, jnp.ones(2), (3,)))
error(lambda: jax.random.gamma(k, jnp.ones(2), (2, 1)))
error(lambda: jax.random.loggamma(k, 1.0, dtype=jnp.int32))
