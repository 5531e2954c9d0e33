# A jit over arrays sharded over Explicit axes is partitioned (JAX's SPMD
# partitioning, docs.jax.dev's 201 page): each device computes its blocks,
# and jit(f).lower(x).compile() shows the program that runs, one shard_map
# with the collectives the types need (ShardLab's counterpart of the
# compiled HLO), and its cost per device. Values worked out by hand below.
import jax
import jax.numpy as jnp

jax.set_mesh(jax.make_mesh((4, 2), ('X', 'Y')))  # explicit mode by default

x = jax.device_put(jnp.arange(8 * 4.).reshape(8, 4), jax.P('X', 'Y'))


@jax.jit
def column_norms(v):
  return jnp.sum(v * v, axis=0)


out = column_norms(x)
# Column c holds 4r + c for r < 8: sum of squares = 16*140 + 8*28*c + 8*c*c.
print(out, jax.typeof(out), out.sharding.spec)
compiled = column_norms.lower(x).compile()
print(compiled.as_text())
# Per device a [2,1] block: 2 products and 1 addition; the psum sends one float.
print(compiled.cost_analysis())

w = jax.device_put(jnp.ones((4, 2)), jax.P())
grad = jax.jit(jax.grad(lambda w, x: jnp.sum(x @ w)))
# d/dw sum(x @ w) = xᵀ 1: each row of the gradient is a column sum of x, 4*28 + 8*c.
print(grad(w, x), jax.typeof(grad(w, x)))
text = grad.lower(w, x).compile().as_text()
print([c for c in ('psum', 'all_gather', 'reduce_scatter', 'all_to_all') if f'= {c}[' in text])
