# float16, bfloat16, int8, uint8, int16 and uint16 as JAX 0.11 has them: the
# scalar types and their dtypes' names, kinds and itemsizes, JAX's promotion
# (tests/dtypes_test.py's table without x64), values rounded to float16's 11
# and bfloat16's 8 significant bits (0.1 is 0.0999755859375 in float16,
# 3.14159 is 3.140625 in bfloat16) or wrapped to 8 and 16 bits after every
# operation, eagerly and under jit, conversions toward zero and wrapping,
# jaxprs printing f16/bf16/i8/u8, finfo and iinfo, sums promoting narrow
# integers, and a Python int wrapping into int8 as numpy's astype (JAX's
# _convert_element_type).
import jax
import jax.numpy as jnp
from jax import lax

for t in (jnp.float16, jnp.bfloat16, jnp.int8, jnp.uint8, jnp.int16, jnp.uint16):
    d = jnp.dtype(t)
    print(t, d, d.itemsize, jnp.zeros(3, t).nbytes, jnp.issubdtype(d, jnp.floating), jnp.issubdtype(d, jnp.signedinteger))
print(jnp.promote_types(jnp.int8, jnp.uint8), jnp.promote_types(jnp.bfloat16, jnp.float16), jnp.promote_types(jnp.uint16, jnp.int8))
print(jnp.result_type(jnp.int8, 1), jnp.result_type(jnp.uint8, 1.0), jnp.result_type(jnp.float16, 2.0))
h = jnp.array([0.1, 1.1, 2048.0], dtype=jnp.float16)
print(h.dtype, [float(v) for v in h], [float(v) for v in h + 1])
print([float(v) for v in jax.jit(lambda x: x * 1000 / 1000)(h)])
b = jnp.array([3.14159, 1.0], dtype=jnp.bfloat16)
print(b.dtype, [float(v) for v in b], [float(v) for v in b + 2 ** -8])
i = jnp.array([127, -128, -5], dtype=jnp.int8)
print(repr(i + 1), repr(i * 2), repr(i >> 1), repr(lax.shift_right_logical(i, jnp.int8(1))))
u = jnp.array([3, 0, 255], dtype=jnp.uint8)
print(repr(u - 5), repr(u + u), repr(~u))
print(repr(jnp.array([100.7, -1.5, 2.9]).astype(jnp.int8)), repr(jnp.array([40000, -1]).astype(jnp.uint16)))
print(repr(jnp.array([70000.0]).astype(jnp.float16)), repr(i.astype(jnp.float16) / 2), repr(i * 2.5))
print(jax.make_jaxpr(lambda x: x * 0.1 + 1)(h))
print(jax.make_jaxpr(lambda x, y: x + y)(i, u))
print(repr(jax.grad(lambda x: (x * x).sum())(jnp.array([1.5, 2.0], jnp.float16))))
print(repr(lax.bitcast_convert_type(jnp.array([1.0, -2.0], jnp.float16), jnp.uint16)))
f, b = jnp.finfo(jnp.float16), jnp.finfo(jnp.bfloat16)
print(f.bits, f.eps, f.max, f.tiny, f.smallest_subnormal, f.precision, b.eps, b.max, b.tiny, jnp.iinfo(jnp.int8), jnp.iinfo(jnp.uint16).max)
# sum, prod, cumsum and cumprod promote narrow integers (jnp's promote_integers): to int32, or uint32 when unsigned.
print(repr(jnp.sum(jnp.array([100, 100], jnp.int8))), repr(jnp.cumsum(jnp.array([200, 100], jnp.uint8))), repr(jnp.array([1, 2], jnp.int8) + 300))
