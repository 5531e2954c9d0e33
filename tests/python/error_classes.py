# The exception classes JAX 0.11 raises for these mistakes (jax/_src/errors.py:
# NonConcreteBooleanIndexError is a JAXIndexError, an IndexError; numpy's
# squeeze raises ValueError; shapes that do not broadcast are lax's TypeError
# when their ranks match (tests/api_test.py test_binop_mismatch) and jnp's
# ValueError when rank promotion fails; an axis argument that is traced
# is a ConcretizationTypeError; shard_map's out_specs of the wrong rank a
# ValueError; a scan carry whose varying axes change a TypeError, as any
# carry type mismatch), and the messages say check_vma=False, as Python spells it.
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))


def raises(name, f):
    try:
        f()
        print(name, "no error")
    except Exception as e:
        print(name, type(e).__name__, "IndexError" if isinstance(e, IndexError) else "")
        return str(e)


raises("squeeze of a size-2 axis", lambda: jnp.squeeze(jnp.ones((2, 3)), 0))
raises("a traced axis", lambda: jax.jit(lambda x, a: jnp.sum(x, a))(jnp.ones((2, 3)), 0))
raises("a traced boolean mask", lambda: jax.jit(lambda x: x[x > 0])(jnp.ones(3)))
raises("shapes that do not broadcast", lambda: jnp.ones(3) + jnp.ones(4))
raises("shapes of two ranks that do not broadcast", lambda: jnp.ones((2, 3)) + jnp.ones(4))
raises("a reshape of the wrong size", lambda: jnp.ones(6).reshape(4, 2))
raises("out_specs of rank 2 for a rank-1 output", lambda: jax.shard_map(lambda x: x, mesh=mesh, in_specs=P("i"), out_specs=P("i", None))(jnp.arange(8.0)))
message = raises("a varying output under out_specs P()", lambda: jax.shard_map(lambda x: x, mesh=mesh, in_specs=P("i"), out_specs=P())(jnp.arange(8.0)))
print("  says check_vma=False:", "check_vma=False" in message)
carry = lambda x: jax.lax.scan(lambda c, _: (c + x, None), jnp.zeros(1), None, length=2)[0]
raises("a scan carry that becomes varying", lambda: jax.shard_map(carry, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(jnp.arange(8.0)))
# jax.numpy's array operands are arrays or scalars, not lists (JAX's check_arraylike).
raises("a list given to jnp.sum", lambda: jnp.sum([1, 2, 3]))
raises("a tuple given as the second operand of jnp.add", lambda: jnp.add(1.0, (2.0, 3.0)))
print("jnp.array of a list", jnp.sum(jnp.array([1, 2, 3])).tolist())
