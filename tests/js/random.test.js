// sl.random against JAX. Where the expected values come from:
//  - Random123's known-answer vectors for threefry2x32_20 (as JAX's
//    tests/random_test.py testThreefry2x32 checks them) validate the
//    reference block function written out below;
//  - JAX's test_prng_seeds_and_keys (random_test.py, jax_enable_x64 off)
//    gives PRNGKey's key for each seed;
//  - JAX's test_threefry_split_fold_in_symmetry (random_test.py, for the
//    partitionable threefry): fold_in(key, i) == split(key, 3)[i] for key 72;
//  - values recorded from JAX 0.11 (jax_threefry_partitionable on, the
//    default) and pinned in public code: split(PRNGKey(0)) and
//    uniform(PRNGKey(0), (4,));
//  - everything else against a reference written here from JAX's formulas
//    (prng.py, random.py) over the reference block function: bitwise for
//    bits, split, fold_in, uniform, randint, bernoulli and permutation; normal
//    within 2 float32 ulp of sqrt(2) erfinv(u) in float64, exponential and
//    gumbel within a few ulp of -log1p(-u) and -log(-log(u)).
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { threefry, refBits, refSplit, f32, refUniform, refRandint, erfinv } from './random_reference.js';

const { random, np } = sl;
beforeAll(() => sl.init());

const ulp = (v) => {
  const a = Math.abs(f32(v));
  const next = new Float32Array(Uint32Array.of(new Uint32Array(Float32Array.of(a).buffer)[0] + 1).buffer)[0];
  return next - a;
};

const list = async (x) => x.tolist();

test('the reference block function reproduces Random123\'s known answers', () => {
  expect(threefry(0, 0, 0, 0)).toEqual([0x6b200159, 0x99ba4efe]);
  expect(threefry(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff)).toEqual([0x1cb996fc, 0xbb002be7]);
  expect(threefry(0x13198a2e, 0x03707344, 0x243f6a88, 0x85a308d3)).toEqual([0xc4923a9c, 0x483df7a0]);
});

test("PRNGKey's key for each seed, as JAX's test_prng_seeds_and_keys (x64 off), eagerly and under jit", async () => {
  const table = [[0, [0, 0]], [1, [0, 1]], [-1, [0, 4294967295]], [-2, [0, 4294967294]], [2147483647 + 100, [0, 2147483747]], [-2147483648 - 100, [0, 2147483548]]];
  for (const [seed, key] of table) expect(await list(random.PRNGKey(seed)), String(seed)).toEqual(key);
  const jitted = sl.jit((s) => random.PRNGKey(s));
  expect(await list(await jitted(sl.array(-2, { dtype: 'int32' })))).toEqual([0, 4294967294]);
  expect(random.PRNGKey(3).dtype).toBe('uint32');
});

test('split, fold_in and bits: JAX 0.11 values, the fold_in/split symmetry, and the reference bit for bit', async () => {
  const k0 = random.PRNGKey(0);
  expect((await list(random.split(k0))).slice(0, 2)).toEqual([[1797259609, 2579123966], [928981903, 3453687069]]);
  const k72 = random.PRNGKey(72);
  const s = await list(random.split(k72, 3));
  for (let i = 0; i < 3; i++) expect(await list(random.foldIn(k72, i))).toEqual(s[i]);
  for (const seed of [0, 1, 42, 1701, -7]) {
    const key = await list(random.PRNGKey(seed));
    expect(await list(random.split(random.PRNGKey(seed), 5))).toEqual(refSplit(key, 5));
    expect(await list(random.bits(random.PRNGKey(seed), [2, 3]))).toEqual([refBits(key, 6).slice(0, 3), refBits(key, 6).slice(3)]);
    expect(await list(random.foldIn(random.PRNGKey(seed), 12345))).toEqual(threefry(key[0], key[1], 0, 12345));
  }
  expect((await list(random.split(k0, [2, 2])))[1][0]).toEqual(refSplit([0, 0], 4)[2]);
});

test('uniform: JAX 0.11 values, the reference bit for bit, minval/maxval, and its distribution', async () => {
  expect((await list(random.uniform(random.PRNGKey(0), [4]))).map(f32)).toEqual([0.9476670027, 0.9785798788, 0.3322914839, 0.4686684608].map(f32));
  for (const seed of [0, 3, 99]) {
    const key = await list(random.PRNGKey(seed));
    expect(await list(random.uniform(random.PRNGKey(seed), [7]))).toEqual(refUniform(key, 7));
    expect(await list(random.uniform(random.PRNGKey(seed), [7], 'float32', -2, 3.5))).toEqual(refUniform(key, 7, -2, 3.5));
  }
  const n = 20000;
  const u = await list(random.uniform(random.PRNGKey(5), [n]));
  const mean = u.reduce((a, b) => a + b, 0) / n;
  const variance = u.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
  expect(Math.abs(mean - 0.5)).toBeLessThan(0.01); // 5 sigma: sqrt(1/12 / n) = 0.002
  expect(Math.abs(variance - 1 / 12)).toBeLessThan(0.003);
  expect(Math.min(...u)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...u)).toBeLessThan(1);
});

test('randint bit for bit with the reference (including empty and negative ranges) and in range', async () => {
  for (const [lo, hi] of [[0, 8], [-5, 17], [3, 3], [10, 2], [-2147483648, 2147483647], [0, 1000003]]) {
    for (const seed of [0, 11]) {
      const key = await list(random.PRNGKey(seed));
      const got = (await list(random.randint(random.PRNGKey(seed), [3, 3], lo, hi))).flat();
      expect(got, `${lo}..${hi}`).toEqual(refRandint(key, 9, lo, hi));
    }
  }
  const draws = await list(random.randint(random.PRNGKey(2), [6000], 0, 6));
  const counts = [0, 0, 0, 0, 0, 0];
  for (const d of draws) counts[d]++;
  for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(160); // 5 sigma of a binomial(6000, 1/6)
  expect((await list(random.randint(random.PRNGKey(0), [3, 3], 0, 8))).flat().every((v) => v >= 0 && v < 8)).toBe(true);
});

test('normal: within 2 float32 ulp of sqrt(2) erfinv(u) in float64 from the same bits, and standard', async () => {
  const below = -0.9999999403953552; // nextafter(-1, 0) in float32
  for (const seed of [0, 1, 123]) {
    const key = await list(random.PRNGKey(seed));
    const u = refUniform(key, 64, below, 1);
    const got = await list(random.normal(random.PRNGKey(seed), [64]));
    got.forEach((g, i) => {
      const want = Math.SQRT2 * erfinv(u[i]);
      expect(Math.abs(g - want), `u=${u[i]}`).toBeLessThanOrEqual(2 * ulp(want));
    });
  }
  const n = 20000;
  const z = await list(random.normal(random.PRNGKey(9), [n]));
  const mean = z.reduce((a, b) => a + b, 0) / n;
  const variance = z.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
  expect(Math.abs(mean)).toBeLessThan(0.04); // 5 sigma: 1/sqrt(n) = 0.007
  expect(Math.abs(variance - 1)).toBeLessThan(0.05);
  expect(Math.abs(z.filter((v) => Math.abs(v) < 1).length / n - 0.6827)).toBeLessThan(0.017);
});

test("exponential and gumbel: JAX's formulas in float64 on the reference's uniform bits (within 4 float32 ulp), and their means", async () => {
  const tiny = 1.1754943508222875e-38;
  for (const seed of [0, 5]) {
    const key = await list(random.PRNGKey(seed));
    const e = await list(random.exponential(random.PRNGKey(seed), [64]));
    refUniform(key, 64, 0, 1).forEach((u, i) => expect(Math.abs(e[i] + Math.log1p(-u))).toBeLessThanOrEqual(4 * ulp(-Math.log1p(-u))));
    const g = await list(random.gumbel(random.PRNGKey(seed), [64]));
    refUniform(key, 64, tiny, 1).forEach((u, i) => {
      const want = -Math.log(-Math.log(u));
      expect(Math.abs(g[i] - want), `u=${u}`).toBeLessThanOrEqual(4 * ulp(want) + 4e-7 * Math.abs(1 / Math.log(u)));
    });
  }
  const n = 20000;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  expect(Math.abs(mean(await list(random.exponential(random.PRNGKey(3), [n]))) - 1)).toBeLessThan(0.04); // sd 1/sqrt(n) = 0.007
  expect(Math.abs(mean(await list(random.gumbel(random.PRNGKey(4), [n]))) - 0.5772156649)).toBeLessThan(0.05); // Euler's gamma; sd 0.009
  expect(() => random.gumbel(random.PRNGKey(0), [2], 'float32', 'high')).toThrow(/mode "high" is not supported/);
});

test('bernoulli, permutation, categorical and truncated_normal', async () => {
  const key = await list(random.PRNGKey(4));
  expect(await list(random.bernoulli(random.PRNGKey(4), 0.3, [50]))).toEqual(refUniform(key, 50).map((u) => u < f32(0.3)));
  // permutation: one round of sorting by the bits of split(key)[1] (arange's order), as JAX for small n
  const [, sub] = refSplit(key, 2);
  const keys = refBits(sub, 10);
  const order = Array.from({ length: 10 }, (_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b);
  expect(await list(random.permutation(random.PRNGKey(4), 10))).toEqual(order);
  const rows = sl.array([[1, 1], [2, 2], [3, 3]]);
  const shuffled = await list(random.permutation(random.PRNGKey(4), rows));
  expect(shuffled.map((r) => r[0]).sort()).toEqual([1, 2, 3]);
  // categorical: frequencies follow softmax(logits)
  const logits = [0, 1, 2];
  const draws = await list(random.categorical(random.PRNGKey(8), sl.array(logits), -1, [9000]));
  const p = logits.map((l) => Math.exp(l) / logits.reduce((a, b) => a + Math.exp(b), 0));
  for (let c = 0; c < 3; c++) expect(Math.abs(draws.filter((d) => d === c).length / 9000 - p[c])).toBeLessThan(0.025);
  expect(random.categorical(random.PRNGKey(8), sl.array([[0, 1], [1, 0]]), 1).shape).toEqual([2]);
  // truncated_normal: inside (lower, upper), symmetric bounds give mean ~0
  const t = await list(random.truncatedNormal(random.PRNGKey(3), -0.5, 1.5, [4000]));
  expect(Math.min(...t)).toBeGreaterThan(-0.5);
  expect(Math.max(...t)).toBeLessThan(1.5);
  const sym = await list(random.truncatedNormal(random.PRNGKey(3), -1, 1, [4000]));
  expect(Math.abs(sym.reduce((a, b) => a + b, 0) / 4000)).toBeLessThan(0.05);
});

test('typed keys: key() prints as JAX, goes through jit and vmap, and keyData unwraps it; results are deterministic', async () => {
  const k = random.key(0);
  expect(k.dtype).toBe('key<fry>');
  expect(k.shape).toEqual([]);
  expect(String(k)).toMatch(/^Array\(\(\), dtype=key<fry>\) overlaying:/);
  const ks = random.split(k, 3);
  expect(ks).toBeInstanceOf(random.KeyArray);
  expect(ks.shape).toEqual([3]);
  expect(await list(random.keyData(ks))).toEqual(await list(random.split(random.PRNGKey(0), 3)));
  const draw = sl.jit((key) => random.normal(key, [3]));
  const [a, b] = [await draw(k), await draw(k)];
  expect(await list(a)).toEqual(await list(b));
  expect(await list(a)).toEqual(await list(random.normal(random.PRNGKey(0), [3])));
  const perKey = await sl.vmap((key) => random.uniform(key))(random.split(random.PRNGKey(0), 4));
  const each = await Promise.all((await list(random.split(random.PRNGKey(0), 4))).map((kd) => list(random.uniform(sl.array(kd, { dtype: 'uint32' })))));
  expect(await list(perKey)).toEqual(each);
  expect(() => random.uniform(sl.array([1, 2]))).toThrow('random.uniform: key must be a single PRNG key: a uint32[2] array from PRNGKey or a typed key from key(); got float32[2]');
  // A batch of keys, as JAX words it: split accepts a single key.
  expect(() => random.split(random.split(random.PRNGKey(0)))).toThrow('split accepts a single key, but was given a key array of shape (2,) != (). Use jax.vmap for batching.');
  expect(() => random.foldIn(random.split(random.PRNGKey(0), 3), 1)).toThrow('fold_in accepts a single key, but was given a key array of shape (3,)');
  // wrap_key_data's impl= and dtype= name the one implementation; keys compare by their data
  const back = random.wrapKeyData(random.keyData(ks), { dtype: ks.dtype });
  expect(await list(back.equal(ks))).toEqual([true, true, true]);
  expect(await list(random.wrapKeyData(random.keyData(ks), { impl: 'threefry2x32' }).equal(random.split(random.key(1), 3)))).toEqual([false, false, false]);
  expect(() => random.wrapKeyData(random.keyData(k), { impl: 'rbg' })).toThrow("random.wrapKeyData: PRNG implementation 'rbg' is not available; ShardLab has 'threefry2x32' (key<fry>)");
  expect(() => random.wrapKeyData(random.keyData(k), { impl: 'threefry2x32', dtype: 'key<fry>' })).toThrow('random.wrapKeyData: cannot specify both `impl` and `dtype` arguments');
});

test('uint32 arrays and the bitwise functions', async () => {
  const x = sl.array([0xf0, 7, 0xffffffff], { dtype: 'uint32' });
  expect(await list(np.bitwiseAnd(x, 0x0f))).toEqual([0, 7, 15]);
  expect(await list(np.rightShift(x, 4))).toEqual([15, 0, 0x0fffffff]); // logical for uint32
  expect(await list(np.rightShift(sl.array([-16], { dtype: 'int32' }), 2))).toEqual([-4]); // arithmetic for int32
  expect(await list(np.leftShift(sl.array([1], { dtype: 'int32' }), 31))).toEqual([-2147483648]);
  expect(await list(np.bitwiseNot(sl.array([true, false])))).toEqual([false, true]);
  expect(await list(np.logicalXor([1, 0, 2], [0, 0, 3]))).toEqual([true, false, false]);
  expect(await list(np.add(x, 1))).toEqual([0xf1, 8, 0]); // a JS integer stays weak: uint32 wraps
  expect(await list(np.add(sl.array([1, 2], { dtype: 'int32' }), 3))).toEqual([4, 5]);
  expect(np.add(sl.array([1, 2], { dtype: 'int32' }), 3).dtype).toBe('int32'); // eagerly as under jit
  expect((await sl.jit((a) => np.add(a, 3))(sl.array([1], { dtype: 'int32' }))).dtype).toBe('int32'); // under jit alike
  // a JS number passed to a jitted function is a weak float32 (JS cannot tell 3 from 3.0)
  expect((await sl.jit((a, b) => np.add(a, b))(sl.array([1], { dtype: 'int32' }), 3)).dtype).toBe('float32');
  expect(await list(lax.bitcastConvertType(sl.array([1]), 'uint32'))).toEqual([0x3f800000]);
  expect(sl.makeJaxpr((a) => np.rightShift(a, 1))(x).toString()).toContain('shift_right_logical a 1:u32[]');
});
const { lax } = sl;
