// Behaviours a JAX user relies on, each as JAX 0.11 has it (issue 20's
// fidelity list): grad of an int32 input is JAX's TypeError; pmean of int32
// is float32 and psum of bools counts them; a collective outside any mesh is
// JAX's "Found an unbound axis name" error (AxisNameError); a JS number returned from jit is a weak
// float32 whatever its value; a spec list of the wrong length says how many
// entries the structure has; vjp works eagerly and checks its cotangents as
// JAX; closed-over arrays print as constvars and integer powers as
// integer_pow; jit's shardings are honoured; shard_map's spec errors, a
// traced value used after its trace, typed keys in arithmetic and jacfwd's
// weak types are JAX 0.11's.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { np, lax, P } = sl;
beforeAll(() => sl.init());
const i32 = (v) => sl.array(v, { dtype: 'int32' });

describe('JAX fidelity', () => {
  test('grad of an int32 (or bool) input raises JAX TypeError; JS numbers are floats', async () => {
    const msg =
      'grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of np.inexact), but got int32. ' +
      'If you want to use Boolean- or integer-valued inputs, use vjp or set allow_int to True.';
    expect(() => sl.makeJaxpr(sl.grad((x) => np.sum(x)))(i32([1, 2]))).toThrow(msg);
    expect(() => sl.makeJaxpr(sl.valueAndGrad((x, y) => np.sum(np.multiply(x, y)), { argnums: [0, 1] }))(sl.array([1]), i32([2]))).toThrow(msg);
    expect(() => sl.makeJaxpr(sl.grad((x) => np.sum(np.where(x, 1, 0))))(sl.array([true]))).toThrow('but got bool.');
    // Only the differentiated arguments are checked; a JS number is a float32 argument.
    expect(await (await sl.grad((x, n) => np.multiply(x, n))(sl.array(2), i32(3))).item()).toBe(3);
    expect(await (await sl.grad((x) => np.multiply(x, x))(3)).item()).toBe(6);
  });

  test('pmean of int32 is float32 (true division) and psum of bools counts them, as JAX', async () => {
    const mesh = sl.makeMesh([8], ['i']);
    const run = (f, x) => sl.jit(sl.shardMap(f, { mesh, inSpecs: P('i'), outSpecs: P() }))(x);
    const m = await run((x) => lax.pmean(x, 'i'), i32([1, 2, 3, 4, 5, 6, 7, 9]));
    expect(m.dtype).toBe('float32');
    expect(await m.tolist()).toEqual([4.625]); // 37 / 8
    const c = await run((x) => lax.psum(np.greater(x, 4), 'i'), sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(c.dtype).toBe('int32');
    expect(await c.tolist()).toEqual([4]);
    expect(sl.makeJaxpr(sl.shardMap((x) => lax.psum(np.greater(x, 4), 'i'), { mesh, inSpecs: P('i'), outSpecs: P() }))(sl.array([1, 2, 3, 4, 5, 6, 7, 8])).toString()).toContain(
      // At column 10 the equation passes 80 columns: its parameters one per line, as JAX breaks them.
      'convert_element_type[\n            new_dtype=int32\n            weak_type=False\n          ] e',
    );
  });

  test("a collective outside any mesh is JAX 0.11's unbound axis name error", () => {
    const f = () => sl.makeJaxpr((x) => lax.psum(x, 'i'))(sl.array([1]));
    expect(f).toThrow(sl.AxisNameError);
    expect(f).toThrow('Found an unbound axis name: i. To fix this, please call psum under `jax.shard_map`.');
    expect(() => lax.axisSize('i')).toThrow(new sl.AxisNameError('unbound axis name: i'));
  });

  test('a JS number returned from jit is a weak float32, whatever its value', async () => {
    for (const v of [121, 2.5, -3]) {
      const y = await sl.jit(() => v)();
      expect(y.dtype).toBe('float32');
      expect(await y.item()).toBe(v);
    }
    expect(sl.makeJaxpr((x) => [x, 121])(sl.array(1)).toString()).toContain('in (a, 121.0:f32[])');
  });

  test('a spec list of the wrong length says how many entries the structure has', () => {
    const mesh = sl.makeMesh([8], ['i']);
    const f = sl.shardMap((x, y) => x, { mesh, inSpecs: [P('i')], outSpecs: P('i') });
    expect(() => sl.makeJaxpr(f)(sl.array(new Array(8).fill(1)), sl.array(new Array(8).fill(1)))).toThrow(
      'shardMap inSpecs: has 1 entry, but the structure [*, *] has 2; give one entry per element or one for a whole subtree',
    );
  });

  test('vjp works eagerly; a cotangent of the wrong structure, shape or dtype is JAX\'s error', async () => {
    const f = (x) => np.multiply(x, np.sin(x));
    const x = sl.array([0.5, 1.5]);
    const [y, back] = sl.vjp(f, x);
    expect(await y.tolist()).toEqual(await f(x).tolist());
    const [g] = back(sl.array([1, 10]));
    const want = [0.5, 1.5].map((v, i) => [1, 10][i] * (Math.sin(v) + v * Math.cos(v)));
    (await g.tolist()).forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(1e-5));
    expect(() => back(sl.array([1, 2, 3]))).toThrow(
      'Shape of cotangent input to vjp pullback function (3,) must be the same as the shape of corresponding primal input (2,).',
    );
    expect(() => back(sl.array([1, 2], { dtype: 'int32' }))).toThrow(
      'Type of cotangent input to vjp pullback function (int32) is not the expected tangent type (float32) of corresponding primal output with dtype float32.',
    );
    expect(() => back([sl.array([1, 2])])).toThrow('Tree structure of cotangent input [*], does not match structure of primal output *.');
  });

  test('printing as JAX: constvars for closed-over arrays, integer_pow for integer powers', () => {
    const c = sl.array([1, 2, 3]);
    expect(sl.makeJaxpr((x) => np.add(x, c))(c).toString()).toBe('{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = add b a in (c,) }');
    expect(sl.makeJaxpr((x) => np.power(x, 3))(c).toString()).toBe('{ lambda ; a:f32[3]. let b:f32[3] = integer_pow[y=3] a in (b,) }');
    expect(sl.makeJaxpr((x) => np.power(x, 0.5))(c).toString()).toContain('pow a 0.5:f32[]');
    const ints = sl.makeJaxpr((x) => np.power(x, 2))(sl.array([3], { dtype: 'int32' }));
    expect(ints.toString()).toContain('b:i32[1] = integer_pow[y=2] a');
    expect(() => np.power(sl.array([2], { dtype: 'int32' }), -1)).toThrow('np.power: integers cannot be raised to negative powers');
  });

  test('jit inShardings and outShardings place the arguments and results', async () => {
    const mesh = sl.makeMesh([8], ['i']);
    const out = await sl.jit((x) => np.multiply(x, 2), { outShardings: new sl.NamedSharding(mesh, P('i')) })(sl.array(new Array(8).fill(1)));
    expect(out.sharding.spec.toString()).toBe("P('i')");
    expect(await out.tolist()).toEqual(new Array(8).fill(2));
    const summed = await sl.jit((x) => np.sum(x), { inShardings: new sl.NamedSharding(mesh, P('i')) })(sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(await summed.item()).toBe(36);
    expect(sl.makeJaxpr(sl.jit((x) => x, { inShardings: new sl.NamedSharding(mesh, P('i')) }))(sl.array(new Array(8).fill(1))).toString()).toContain('shard_map');
  });

  test('a jitted function inside a trace is one jit equation, as JAX prints it; values, grad and vmap go through it', async () => {
    const inner = sl.jit(function affine(x) {
      return np.add(np.multiply(x, 2), 1);
    });
    const outer = (x) => np.sum(inner(np.sin(x)));
    expect(sl.makeJaxpr(outer)(sl.array([1, 2])).toString()).toBe(
      [
        '{ lambda ; a:f32[2]. let',
        '    b:f32[2] = sin a',
        '    c:f32[2] = jit[',
        '      name=affine',
        '      jaxpr={ lambda ; d:f32[2]. let',
        '          e:f32[2] = mul d 2.0:f32[]',
        '          f:f32[2] = add e 1.0:f32[]',
        '        in (f,) }',
        '    ] b',
        '    g:f32[] = reduce_sum[axes=(0,) out_sharding=None] c',
        '  in (g,) }',
      ].join('\n'),
    );
    const x = [0.5, 1.5];
    expect(Math.abs((await sl.jit(outer)(sl.array(x)).then((v) => v.item())) - x.reduce((s, v) => s + 2 * Math.sin(v) + 1, 0))).toBeLessThan(1e-5);
    const g = await (await sl.grad(outer)(sl.array(x))).tolist();
    g.forEach((v, i) => expect(Math.abs(v - 2 * Math.cos(x[i]))).toBeLessThan(1e-5));
    const batched = await (await sl.vmap(outer)(sl.array([x, x]))).tolist();
    expect(batched[0]).toBeCloseTo(batched[1], 6);
  });

  test("shard_map's spec errors are JAX 0.11's, with key paths; a set axis name and pvary outside a shard_map are refused as JAX", () => {
    const mesh = sl.makeMesh([4, 2], ['x', 'y']);
    const long = () => sl.shardMap((t) => t, { mesh, inSpecs: [{ w: P('x', 'y') }], outSpecs: P() })({ w: sl.array([1, 2]) });
    expect(long).toThrow(sl.ShardingError);
    expect(long).toThrow(/^shard_map applied to the function '<anonymous>' was given an in_specs entry which is too long[\s\S]*in_specs\[0\]\['w'\] is P\('x', 'y'\) which has length 2, but the passed args\[0\]\['w'\] has shape float32\[2\], which has rank 1 \(and 1 < 2\)/);
    const out = () => sl.makeJaxpr(sl.shardMap(() => ({ hi: np.zeros([]) }), { mesh, inSpecs: [], outSpecs: { hi: P('x') } }))();
    expect(out).toThrow(/out_specs\['hi'\] is P\('x',\) which has length 1, but <anonymous>\(\*args\)\['hi'\] has shape float32\[\], which has rank 0[\s\S]*For scalar values \(rank 0\), consider using an out_specs entry of `P\(\)`/);
    expect(() => sl.makeJaxpr(sl.shardMap((t) => lax.pcast(t, new Set(['x']), { to: 'varying' }), { mesh, inSpecs: P(), outSpecs: P() }))(sl.array([1]))).toThrow(
      new TypeError("lax.pcast: axis_name={'x'} must be a tuple or a str. Got {'x'}"),
    );
    expect(() => lax.pcast(sl.array([1]), 'x', { to: 'varying' })).toThrow(new sl.ValueError('lax.pcast: pvary should be called under jax.shard_map.'));
    expect(() => lax.psum(sl.array([1]), 'x')).toThrow(sl.AxisNameError);
  });

  test("a traced value used after its trace is JAX's UnexpectedTracerError; convert_element_type to the same type adds no equation", () => {
    let saved;
    sl.makeJaxpr((x) => (saved = x))(sl.array([1]));
    expect(() => sl.makeJaxpr(() => np.add(saved, 1))()).toThrow(sl.UnexpectedTracerError);
    expect(() => sl.makeJaxpr(() => np.add(saved, 1))()).toThrow(/^Encountered an unexpected tracer\./);
    const same = sl.makeJaxpr((x) => lax.convertElementType(lax.convertElementType(x, 'float32'), 'float32'))(sl.array([1, 2]));
    expect(same.toJSON().eqns).toHaveLength(0);
    const weak = sl.makeJaxpr((x) => lax.convertElementType(np.add(x, 1), 'int32'))(1);
    expect(weak.toJSON().eqns.map((e) => e.primitive)).toContain('convert_element_type'); // a weak int32 becomes strong
  });

  test('typed keys refuse arithmetic with JAX\'s TypeError; randint draws uint32 in [lo, hi)', async () => {
    const key = sl.random.key(123);
    expect(() => np.add(key, 1)).toThrow(new sl.ShapeError('add does not accept dtypes key<fry>, int32.'));
    expect(() => np.negative(key)).toThrow(new sl.ShapeError('neg does not accept dtype key<fry>.'));
    const u = sl.random.randint(sl.random.PRNGKey(0), [1000], 5, 10, 'uint32');
    expect(u.dtype).toBe('uint32');
    const values = await u.tolist();
    expect(values.every((v) => v >= 5 && v < 10)).toBe(true);
    expect(new Set(values).size).toBe(5);
    // Number bounds are Python ints, which JAX makes int32 arrays first: beyond int32 its OverflowError; uint32 arrays reach the top.
    expect(() => sl.random.randint(sl.random.PRNGKey(1), [4], 2 ** 32 - 4, 2 ** 32 - 1, 'uint32')).toThrow(
      new sl.OverflowError('Python int 4294967292 too large to convert to int32'),
    );
    const [lo, hi] = [sl.array(2 ** 32 - 4, { dtype: 'uint32' }), sl.array(2 ** 32 - 1, { dtype: 'uint32' })];
    const high = await sl.random.randint(sl.random.PRNGKey(1), [1000], lo, hi, 'uint32').tolist();
    expect(high.every((v) => v >= 2 ** 32 - 4 && v < 2 ** 32 - 1)).toBe(true);
  });

  test("jacfwd's and jacrev's blocks are weakly typed as JAX's (_possible_downcast): the output's, the input's", async () => {
    expect((await sl.jacfwd((x) => x)(1)).weakType).toBe(true);
    expect((await sl.jacrev((x) => np.multiply(x, 2))(1)).weakType).toBe(true);
    expect((await sl.jacfwd((x) => np.multiply(x, 2))(sl.array([1, 2]))).weakType).toBe(false);
  });

  test("all_gather(..., to='invarying') is JAX 0.11's all_gather_invariant: the whole array, invariant, whose transpose is each device's own block", async () => {
    const mesh = sl.makeMesh([4], ['x']);
    const f = sl.shardMap((a) => lax.allGather(a, 'x', { tiled: true, to: 'invarying' }), { mesh, inSpecs: P('x'), outSpecs: P() });
    const x = np.arange(8).astype('float32');
    const text = String(sl.makeJaxpr(f)(x));
    expect(text).toContain('f32[8] = all_gather_invariant[');
    expect(await (await sl.jit(f)(x)).tolist()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // d/dx sum(w * gathered) = w: each device takes its block of the cotangent.
    const w = [1, 2, 3, 4, 5, 6, 7, 8];
    const g = sl.jit(sl.grad((v) => np.sum(np.multiply(f(v), sl.array(w)))));
    expect(await (await g(x)).tolist()).toEqual(w);
    const stacked = sl.shardMap((a) => lax.allGather(a, 'x', { to: 'invarying' }), { mesh, inSpecs: P('x'), outSpecs: P() });
    expect(await (await sl.jit(sl.grad((v) => np.sum(np.multiply(stacked(v), sl.array([[1, 2], [3, 4], [5, 6], [7, 8]])))))(x)).tolist()).toEqual(w);
    expect(() => sl.makeJaxpr(sl.shardMap((a) => lax.allGather(a, 'x', { to: 'reduced' }), { mesh, inSpecs: P('x'), outSpecs: P('x') }))(x)).toThrow(
      /to='reduced' is not supported/,
    );
    // A varying out_specs P() is refused for all_gather, accepted for all_gather_invariant.
    expect(() => sl.makeJaxpr(sl.shardMap((a) => lax.allGather(a, 'x', { tiled: true }), { mesh, inSpecs: P('x'), outSpecs: P() }))(x)).toThrow(sl.VmaError);
  });
});
