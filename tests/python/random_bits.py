# jax.random and uint32 bit operations from Python (run by
# tests/js/python_scripts.test.js). The key and split values are JAX's:
# PRNGKey seeds as in JAX's test_prng_seeds_and_keys; split(PRNGKey(0)) and
# uniform(PRNGKey(0), (4,)) as JAX 0.11 gives them (partitionable threefry);
# fold_in(k, i) == split(k, n)[i] as JAX's test_threefry_split_fold_in_symmetry.
import jax
import jax.numpy as jnp

k = jax.random.PRNGKey(0)
print("PRNGKey", k.tolist(), jax.random.PRNGKey(-2).tolist(), k.dtype)
print("split", jax.random.split(k).tolist())
print("uniform", [round(v, 6) for v in jax.random.uniform(k, (4,)).tolist()])
k72 = jax.random.PRNGKey(72)
print("fold_in == split", all(jax.random.fold_in(k72, i).tolist() == s for i, s in enumerate(jax.random.split(k72, 3).tolist())))
print("randint in range", all(0 <= v < 8 for v in jax.random.randint(k, (100,), 0, 8).tolist()))
print("permutation", sorted(jax.random.permutation(k, 6).tolist()))
print("bernoulli", jax.random.bernoulli(k, 1.0, (3,)).tolist(), jax.random.bernoulli(k, 0.0, (3,)).tolist())
z = jax.random.normal(jax.random.PRNGKey(1), (4000,))
print("normal moments", abs(float(z.mean())) < 0.08, abs(float(z.var()) - 1) < 0.1)
t = jax.random.truncated_normal(k, -1.0, 1.0, (500,))
print("truncated", bool((t > -1).all()), bool((t < 1).all()))
print("categorical", jax.random.categorical(k, jnp.array([-1e9, 0.0, -1e9]), shape=(4,)).tolist())
key = jax.random.key(0)
print(repr(key))
a, b = jax.random.split(key)
print("typed", jax.random.key_data(b).tolist(), jax.jit(lambda kk: jax.random.normal(kk, (2,)))(key).tolist() == jax.random.normal(k, (2,)).tolist())
print("vmap", jax.vmap(lambda kk: jax.random.uniform(kk))(jax.random.split(k, 3)).shape)
x = jnp.array([0xF0, 7], dtype=jnp.uint32)
print("bits", (x & 0x0F).tolist(), (x >> 4).tolist(), (x << 28).tolist(), (~x).tolist(), x.dtype)
print("int shifts", (jnp.array([-16]) >> 2).tolist(), jnp.right_shift(jnp.array([-16]), 2).tolist(), (jnp.array([6]) ^ 3).tolist())
print(jax.make_jaxpr(lambda v: (v >> 1) | 1)(x))
# Python int bounds beyond int32 are JAX's OverflowError (jnp.asarray of them, without x64).
try:
    jax.random.randint(jax.random.PRNGKey(1701), (3,), -2147483648 - 1, 10)
except OverflowError as e:
    print("OverflowError:", e)
print("int32 range", jax.random.randint(jax.random.PRNGKey(1701), (2,), -2147483648, 2147483647).dtype)
