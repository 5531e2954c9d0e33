# Autodiff and sharding, as docs.jax.dev's 301 page (docs/new_docs/301/
# sharding-ad.md at jax-v0.11.0) runs it: cotangent types are a function of
# primal types (a sharded primal's gradient is sharded alike, a replicated
# one's replicated), a contraction over a sharded dimension is summed as
# out_sharding says or left unreduced, a reshard to reduced is a free cast in
# the forward pass whose transpose is the backward pass's one psum, and fan-out
# cotangents add unreduced. (The page uses jnp.einsum's out_sharding, which
# ShardLab lacks yet: jnp.dot here.) Values worked out by hand below.
import jax
import jax.numpy as jnp

jax.set_mesh(jax.make_mesh((2,), ('X',)))  # explicit mode by default

x = jax.device_put(jnp.arange(8 * 4.).reshape(8, 4), jax.P('X', None))
w = jax.device_put(jnp.arange(4 * 2.).reshape(4, 2) / 10., jax.P(None, None))


def loss(w, x):
  return jnp.sum((x @ w) ** 2)


dw, dx = jax.grad(loss, argnums=(0, 1))(w, x)
print(jax.typeof(w), '->', jax.typeof(dw))  # float32[4,2] -> float32[4,2]
print(jax.typeof(x), '->', jax.typeof(dx))  # float32[8@X,4] -> float32[8@X,4]

a = jax.device_put(jnp.arange(4.).reshape(2, 2), jax.P(None, 'X'))
b = jax.device_put(jnp.arange(4., 8.).reshape(2, 2), jax.P('X', None))
print(jax.typeof(a), jax.typeof(b))
try:
  a @ b
except Exception as e:
  print(type(e).__name__, str(e).split('.')[0])
c = jnp.dot(a, b, out_sharding=jax.P(None, None))
print(jax.typeof(c))
print(c)  # [[0 1] [2 3]] @ [[4 5] [6 7]] = [[6 7] [26 31]]

w_ = jax.reshard(w, jax.P(None, None, reduced={'X'}))
print(jax.typeof(w_))  # float32[4,2]{R:X}


def loss2(w, x):
  w = jax.reshard(w, jax.P(None, None, reduced={'X'}))
  return jnp.sum((x @ w) ** 2)


grad2 = jax.jit(jax.grad(loss2))
print(grad2.trace(w, x).jaxpr)
# The same gradient, its one psum in the reshard's transpose.
print(bool(jnp.allclose(grad2(w, x), dw)), [s for s in ('psum', 'all_gather') if f'= {s}[' in grad2.lower(w, x).compile().as_text()])


def loss_fanout(w, x1, x2):
  w = jax.reshard(w, jax.P(None, None, reduced={'X'}))
  return jnp.sum(x1 @ w) + jnp.sum(x2 @ w)


x1 = jax.device_put(jnp.ones((8, 4)), jax.P('X', None))
x2 = jax.device_put(jnp.ones((8, 4)), jax.P('X', None))
fan = jax.jit(jax.grad(loss_fanout))
print(fan.trace(w, x1, x2).jaxpr)
# d/dw (sum(x1 w) + sum(x2 w)) = x1ᵀ1 + x2ᵀ1: every entry 8 + 8; one psum for both contributions.
print(fan(w, x1, x2), fan.lower(w, x1, x2).compile().as_text().count('= psum['))
# Only linear operations take unreduced values: inside jit (an array is never unreduced in ShardLab, where
# JAX's would hold its partial sums, so the page's eager example is written in a jit here).
try:
  jax.jit(lambda a, b: jnp.cos(jnp.dot(a, b, out_sharding=jax.P(None, None, unreduced={'X'}))))(a, b)
except Exception as e:
  print(type(e).__name__)
