# Weak types as JAX 0.11 sets, propagates and prints them (its
# docs/type_promotion.rst and the weak_type rules of lax.py and slicing.py):
# a Python scalar's array is weak, an operation's result is weak when all its
# operands are (argmax and iota never; gather and dynamic_slice as their
# operand), promotion joins on the lattice (int32 with a weak float is a weak
# float32, a weak int with uint32 is uint32), jit, grad and loops keep the
# weak type, a weak argument meeting a strong array is converted
# (convert_element_type weak_type=False), astype is strong, and reprs show
# weak_type=True, tracers ~.
import jax
import jax.numpy as jnp
from jax import lax

print(repr(jnp.array(3.5)), repr(jnp.array(3)), repr(jnp.array(True)), repr(jnp.array([1, 2])))
print(repr(jnp.add(1.0, 2.0)), repr(jnp.int32(1) + 1.5), repr(jnp.arange(3) * 2))
print(repr(jnp.array([1, 2], dtype=jnp.uint32) + jnp.array(1)), repr(jnp.array(2.0).astype(jnp.float32)))
print(repr(jnp.less(1.0, 2.0)), repr(jnp.argmax(jnp.array([1.0, 3.0]))), repr(jnp.full((2,), 2.0)), repr(jnp.zeros_like(jnp.array(1.0))))
print(repr(jnp.array(5.0)[None][0]), repr(jnp.ones(3)[0]), jnp.array(1.5).weak_type, jnp.ones(2).weak_type)
print(repr(jax.jit(lambda x: x * 2)(3.0)), repr(jax.jit(lambda x: x * 2)(3)), repr(jax.jit(lambda: 1.0)()))
print(repr(jax.grad(lambda x: x * 2.0)(3.0)), repr(jax.grad(lambda x: x * 2.0)(jnp.float32(3.0))))
print(repr(lax.fori_loop(0, 3, lambda i, c: c + 1.0, 0.0)), repr(lax.fori_loop(0, 3, lambda i, c: c + jnp.float32(1), 0.0)))
print(jax.make_jaxpr(lambda x, y: x * y)(2.0, jnp.ones(3)))
print(jax.make_jaxpr(lambda x: x.astype(jnp.float32) + 1)(1.0))
jax.jit(lambda x: print(x) or x)(2.0)
jax.jit(lambda x: print(x + 1) or x)(jnp.arange(2))
