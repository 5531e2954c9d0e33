# Types without data, and the switches JAX has (issue 36): jax.eval_shape
# and ShapeDtypeStruct (JAX 0.11's repr: weak_type shown only when true),
# an array's aval (ShapedArray(float32[2,3]); str float32[2,3], ~ when weak),
# nbytes and itemsize at the dtype's size, jax.dtypes' helpers, finfo and
# iinfo with numpy's values (IEEE binary32; int32's two's complement), jax.config
# (x64 refused with the reason, an unknown option JAX's AttributeError) and
# jax.disable_jit (jax.disable_jit's docstring: the print sees the tracer
# under jit, the values without it; loops run as Python loops).
import jax
import jax.numpy as jnp
from jax import lax

x = jnp.ones((2, 3))
print(repr(x.aval), x.aval, jnp.float32(2).aval, x.nbytes, x.itemsize, jnp.ones(4, bool).nbytes)
# (2,3) @ (3,4) is (2,4); a sum is a scalar; jnp.array(1) of a Python int inside is weak int32.
print(jax.eval_shape(lambda a, b: (a @ b, jnp.sum(a)), x, jnp.ones((3, 4))))
print(jax.eval_shape(lambda: jnp.array(1)))
s = jax.ShapeDtypeStruct((5,), jnp.int32)
print(jax.eval_shape(lambda v: {"twice": v * 2, "mean": v.mean()}, s), s.size, s.ndim, len(s))
print(s == jax.ShapeDtypeStruct([5], "int32"), s == jax.ShapeDtypeStruct((5,), jnp.float32))
print(jax.ShapeDtypeStruct.like(2.5))
print(jax.dtypes.is_weakly_typed(jax.grad(lambda v: v)(1.0)), jax.dtypes.is_weakly_typed(x), jax.dtypes.is_weakly_typed(3))
print(jax.dtypes.canonicalize_dtype("float64"), jax.dtypes.canonicalize_dtype(jnp.int32), jax.dtypes.result_type(1, 2.0, return_weak_type_flag=True))
f = jnp.finfo(jnp.float32)
print(f)
print(repr(f.eps), repr(f.tiny), f.bits, f.precision, jnp.iinfo(jnp.int32), jnp.iinfo(jnp.uint32).max)
for bad in (lambda: jnp.finfo(jnp.int32), lambda: jnp.iinfo(jnp.float32)):
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
print(jax.config.jax_enable_x64, jax.config.read("jax_disable_jit"))
for name, value in (("jax_enable_x64", True), ("jax_not_an_option", 1), ("jax_num_cpu_devices", 4)):
    try:
        jax.config.update(name, value)
    except (AttributeError, NotImplementedError, ValueError) as e:
        print(type(e).__name__ + ":", e)


@jax.jit
def step(v):
    y = v * 2
    print("y is", y)
    return y + 3


print(step(jnp.array([1, 2, 3])))
with jax.disable_jit():
    print(step(jnp.array([1, 2, 3])), jax.config.jax_disable_jit)
    # Each body runs in Python and prints its concrete value: 0+0, 0+1, 1+2.
    print(lax.fori_loop(0, 3, lambda i, c: (print("carry", c), c + i)[1], 0))
    print(lax.cond(True, lambda v: v + 1, lambda v: v - 1, 1.0), lax.while_loop(lambda v: v < 5, lambda v: v + 2, 0))
    print(lax.scan(lambda c, v: (c + v, c * v), 0.0, jnp.arange(3.0)))
print(jax.config.jax_disable_jit)

# make_jaxpr's ClosedJaxpr read as JAX's objects: its equations' primitives
# and params, its avals, its closed-over constant (a constvar, printed first,
# with its value in .consts) and the literal 1.0 of f32.
c = jnp.arange(3.0)
closed = jax.make_jaxpr(lambda v, w: jnp.sin(v) * w + 1.0 + c)(jnp.ones(3), 2.0)
print(closed)
print([e.primitive.name for e in closed.eqns], closed.eqns[1].params, closed.eqns[3].invars)
print(closed.in_avals, closed.out_avals, closed.jaxpr.constvars, closed.consts, len(closed.jaxpr.eqns))

# jax.jit(f).trace(*args): the function's own program (as JAX's Traced.jaxpr), its outputs' types, and
# lower(); a Jaxpr prints as the ClosedJaxpr holding it.
traced = jax.jit(lambda x: (jnp.sin(x), x * 2)).trace(jnp.ones(3))
print(traced.jaxpr)
print(traced.out_info)
print(traced.lower().cost_analysis())
print(jax.make_jaxpr(lambda x: jnp.sin(x) * 2)(1.0).jaxpr)
# A static argument given by name is bound into the traced function.
print(jax.jit(lambda x, n: x * n, static_argnames=("n",)).trace(jnp.ones(2), n=3).jaxpr)
