# jax.set_mesh, the context mesh (JAX 0.11, docs "Explicit sharding", the 201
# page): as a global setter and as a context manager; a bare PartitionSpec
# read against it by device_put and by a shard_map without mesh=; its axes
# from jax.sharding.get_abstract_mesh, printed as JAX prints an AbstractMesh;
# jax.typeof of a concrete array showing the Explicit axes of its type
# (float32[8@X,4@Y]; Auto axes are not part of the type); with_sharding_constraint
# and jax.reshard laying values out as device_put does; JAX's errors.
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

print(jax.sharding.get_abstract_mesh())  # none set: empty
try:
    jax.device_put(jnp.ones((8, 4)), P("X", "Y"))
except ValueError as e:
    print("ValueError:", e)

auto = jax.make_mesh((4, 2), ("X", "Y"), axis_types=(AxisType.Auto, AxisType.Auto))
with jax.set_mesh(auto):
    print(jax.sharding.get_abstract_mesh())
    x = jax.device_put(jnp.arange(32.0).reshape(8, 4), P("X", "Y"))
    print(x.sharding, jax.typeof(x))  # Auto axes: the type shows none
    # Each (X, Y) block is 2x2; psum over X adds the 4 row blocks: rows 0+2+4+6 and 1+3+5+7.
    f = jax.jit(jax.shard_map(lambda b: jax.lax.psum(b, "X"), in_specs=P("X", "Y"), out_specs=P(None, "Y")))
    print(f(x))
print(jax.sharding.get_abstract_mesh())  # restored on exit
try:
    jax.shard_map(lambda b: b, in_specs=P("X"), out_specs=P("X"))(jnp.ones(8))
except ValueError as e:
    print("ValueError:", e)

jax.set_mesh(jax.make_mesh((4, 2), ("X", "Y")))  # a global setter; jax.make_mesh's axes are Explicit
y = jax.device_put(jnp.ones((8, 4)), P("X", "Y"))
print(jax.typeof(y), y.aval.str_short(short_dtypes=True))
print(jax.typeof(jax.device_put(jnp.ones((8, 4)), P(("X", "Y")))), jax.typeof(jax.device_put(jnp.ones((8, 4)), P(None, "Y"))))
print(jax.typeof(jnp.ones(3)))  # placed on no mesh
mixed = jax.make_mesh((4, 2), ("X", "Y"), axis_types=(AxisType.Explicit, AxisType.Auto))
print(jax.typeof(jax.device_put(jnp.ones((8, 4)), jax.NamedSharding(mixed, P("X", "Y")))))
try:
    jax.jit(lambda v: jax.set_mesh(auto))(1.0)
except ValueError as e:
    print("ValueError:", e)
jax.set_mesh(None)
print(jax.sharding.get_abstract_mesh(), jax.sharding.AbstractMesh((2,), ("a",)))

# jax.lax.with_sharding_constraint lays values out as device_put does: a NamedSharding, or a
# PartitionSpec on the context mesh (none set: JAX's RuntimeError); values unchanged, in jit too.
z = jnp.arange(16.0).reshape(8, 2)
print(jax.lax.with_sharding_constraint(z, jax.NamedSharding(auto, P("X"))).sharding)
print(jax.jit(lambda v: jax.lax.with_sharding_constraint(v * 2, jax.NamedSharding(auto, P("X", "Y"))))(z).sum())  # 2 * 120
try:
    jax.lax.with_sharding_constraint(z, P("X"))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:72])
with jax.set_mesh(auto):
    print(jax.lax.with_sharding_constraint({"a": z}, P(None, "Y"))["a"].sharding.spec)

# jax.reshard (jax.sharding.reshard): Explicit axes only; a PartitionSpec needs a context mesh; None refused.
jax.set_mesh(None)
try:
    jax.reshard(z, P("X"))
except ValueError as e:
    print("ValueError:", str(e)[:60])
explicit = jax.make_mesh((4, 2), ("X", "Y"))
with jax.set_mesh(explicit):
    r = jax.reshard(z, P("X", "Y"))
    print(jax.typeof(r), r.sum(), jax.typeof(jax.sharding.reshard({"a": r}, P(None, "Y"))["a"]))
    print(jax.jit(lambda v: jax.reshard(v * 2, P("X")))(r).sum())  # 2 * 120
    try:
        jax.reshard(z, None)
    except ValueError as e:
        print("ValueError:", str(e)[:50])
with jax.set_mesh(auto):
    try:
        jax.reshard(z, P("X"))
    except ValueError as e:
        print("ValueError:", e)
