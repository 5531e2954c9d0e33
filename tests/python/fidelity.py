# JAX behaviours from Python (run by tests/js/python_scripts.test.js; each
# line is what JAX 0.11 does): vjp eagerly and its cotangent errors (0.11's
# _vjp_check_ct_avals: "unexpected JAX type"), constvars
# and integer_pow in printed programs, a nested jit as a jit equation,
# jit's shardings, NameError for a
# collective outside any mesh.
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

x = jnp.array([1.0, 2.0])
y, back = jax.vjp(lambda v: v * v, x)
print("vjp", y.tolist(), back(jnp.ones(2))[0].tolist())
for bad in (jnp.ones(3), jnp.ones(2, dtype=jnp.int32), (jnp.ones(2),)):
    try:
        back(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e))
c = jnp.array([1.0, 2.0, 3.0])
print(jax.make_jaxpr(lambda v: v + c)(c))
print(jax.make_jaxpr(lambda v: v ** 3)(c))


@jax.jit
def double(u):
    return u * 2


print(jax.make_jaxpr(lambda v: double(v) + 1)(c))
print("grad through a nested jit", jax.grad(lambda v: double(v).sum())(c).tolist())
mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Explicit,))
out = jax.jit(lambda v: v * 2, out_shardings=NamedSharding(mesh, P("i")))(jnp.arange(8.0))
print("out_shardings", out.sharding.spec, out.tolist()[:3])
try:
    jax.make_jaxpr(lambda v: jax.lax.psum(v, "i"))(x)
except NameError as e:
    print("NameError", e)
# Under jit a log of an exp or of a square root runs as XLA simplifies it (docs/faq.rst).
print("log(exp(100.))", float(jnp.log(jnp.exp(100.0))), float(jax.jit(lambda v: jnp.log(jnp.exp(v)))(100.0)))
# ones_like of a per-device value varies as it does (JAX 0.11's full_like pvary).
auto = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
print("ones_like varies", str(jax.make_jaxpr(jax.shard_map(jnp.ones_like, mesh=auto, in_specs=P("i"), out_specs=P("i")))(jnp.arange(8.0))))
