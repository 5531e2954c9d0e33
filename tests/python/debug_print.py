# jax.debug.print and jax.debug.callback as a learner uses them to see values
# inside a sharded program: each device's block of arange(8) (device d holds
# [d]), in device order, then the psum each device holds (0 + ... + 7 = 28),
# under jit and eagerly; a callback's concrete values; formatting; a print in
# a scan body under grad and jvp, once per step.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))


def body(b):
    jax.debug.print("block {}", b)
    s = jax.lax.psum(b, "i")
    jax.debug.print("sum {s:.1f}", s=s[0])
    return s


f = jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P())
print(jax.jit(f)(jnp.arange(8.0)))
seen = []
jax.jit(lambda x: jax.debug.callback(lambda v: seen.append(v.tolist()), x * 2))(jnp.arange(3))
print(seen)


# Under grad and jvp a print in a scan body runs once per step, with the primal values (x = 2: 2, 2, 4),
# as JAX's does; f(x) = 6x + 4x, so its derivative is 10.
def f(x):
    def body(c, xi):
        jax.debug.print("c={} xi={}", c, xi)
        return c * xi, c

    c, ys = jax.lax.scan(body, x, jnp.array([1.0, 2.0, 3.0]))
    return c + ys.sum()


print(jax.grad(f)(2.0))
print(jax.jvp(f, (2.0,), (1.0,))[1])
