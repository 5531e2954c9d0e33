# Arrays print as JAX prints them: numpy's array2string (floatmode 'maxprec',
# linewidth 75) inside JAX's Array repr. Each expected line is what JAX 0.11
# with numpy prints: scientific when the largest magnitude is 1e8 or more,
# the smallest nonzero under 1e-4 or their ratio over 1000, every element with
# the digits of the one needing most (jnp.expm1's docstring:
# 1.0000500e-04 beside 1.0000005e-06); rows wrapped at 75 columns with the
# continuation under the first element; a summarized array formatted by the
# items it shows; an empty array with its shape; a short program on one line.
import jax
import jax.numpy as jnp

print(repr(jnp.array([1.00005e-4, 1.0000005e-6, 2e-10])))
print(repr(jnp.array([0.0, 0.0, 1.0, 3.4028235e38, 2.0, -3.4028235e38])))
print(repr(jnp.float32(3.4028235e38)), repr(jnp.float32(1e8)), repr(jnp.float32(1e7)))
print(repr(jnp.array([1.0, -2.5, jnp.nan, -jnp.inf])))
print(repr(jnp.arange(30.0)))
print(jnp.arange(30.0))
print(repr(jnp.arange(40)))
print(repr(jnp.arange(2000.0) + 0.5))
print(jnp.arange(3000.0).reshape(3, 1000))
print(repr(jnp.zeros((0, 3))))
print(repr(jnp.arange(24.0).reshape(2, 3, 4)))
print(jax.make_jaxpr(lambda x: jnp.sin(jnp.cos(x)))(3.0))
print(jax.make_jaxpr(lambda x: jnp.sin(jnp.cos(x)) * x + x / 2.0 - jnp.tanh(x))(3.0))
# numpy's print options (jnp.printoptions is numpy's): at most `precision`
# fraction digits (8 by default), suppress keeping small values positional,
# restored after the with block (the docstrings of jnp.cos and jnp.sinh).
x = jnp.array([0.785398, 1.5707964, 2.3561945, 2.6179938])
with jnp.printoptions(precision=3, suppress=True):
    print(jnp.cos(x))
    print(repr(jnp.array([[-3.6268604, 10.017875, 74.20321], [0.0, -1.1752012, 27.28992]])))
print(jnp.array([0.00012345678, 0.1]))
print(jnp.get_printoptions()["precision"], jnp.get_printoptions()["suppress"])
# A traced value prints as JAX 0.11's jit tracer (partial_eval.py's
# DynamicJaxprTracer._short_repr: JitTracer(aval)), with its varying axes in
# a shard_map body as JAX's avals print them.
jax.jit(lambda x: print("traced:", x, repr(x)) or x)(jnp.arange(3.0))
auto = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
jax.shard_map(lambda b: print("in shard_map:", b) or b, mesh=auto, in_specs=jax.P("i"), out_specs=jax.P("i"))(jnp.arange(8.0))
# A float32 scalar prints as numpy prints one: positionally from 1e-4 to 1e16 (20.0, 123456.0), else scientifically.
print(jnp.array(20.0), jnp.float32(123456.0), jnp.array(1e20), jnp.array(1e-5), jnp.array(-0.5))
