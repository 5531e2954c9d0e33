// The script a playground starts with, per language: it prints, runs a jit
// with a shard_map on the 8 devices and shows a make_jaxpr.

/** The starting script of each language ('python', 'javascript'). */
export const EXAMPLES = {
  python: `import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

# 8 devices on one mesh axis; each holds 2 of the 16 numbers.
mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))


def block_sums(block):
    # Each device sums its own block; psum adds the 8 partial sums.
    return jax.lax.psum(jnp.sum(block), "x")


@jax.jit
def total(a):
    return jax.shard_map(block_sums, mesh=mesh, in_specs=P("x"), out_specs=P())(a)


a = jnp.arange(16.0)
print("a =", a)
print("total(a) =", total(a))
print(jax.make_jaxpr(lambda x: jnp.sin(x) * 2)(1.0))
`,
  javascript: `import * as sl from 'shardlab';
const { P, lax, np } = sl;

// 8 devices on one mesh axis; each holds 2 of the 16 numbers.
const mesh = sl.makeMesh([8], ['x']);

// Each device sums its own block; psum adds the 8 partial sums.
const blockSums = (block) => lax.psum(np.sum(block), 'x');
const total = sl.jit((a) => sl.shardMap(blockSums, { mesh, inSpecs: P('x'), outSpecs: P() })(a));

const a = np.arange(16).astype('float32');
console.log('a =', await a.data());
console.log('total(a) =', await (await total(a)).item());
console.log(String(sl.makeJaxpr((x) => np.sin(x).mul(2))(1.0)));
`,
};
