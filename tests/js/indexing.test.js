// x.at(...index).get() / .set / .add / .subtract / .multiply / .min / .max
// and np.take, np.takeAlongAxis, np.flip against a reference written out
// here from numpy's indexing rules (result shape, placement of the advanced
// block, negative indices, JAX's clamped gathers and dropped scatters),
// eagerly and under jit; gradients (gather <-> scatter-add), vmap, the
// printed programs and the errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np } = sl;
beforeAll(() => sl.init());

// ---- the reference: numpy indexing by loops ----

const isArr = (e) => Array.isArray(e);
const shapeOf = (a) => (Array.isArray(a) ? [a.length, ...shapeOf(a[0])] : []);
const at = (a, idx) => idx.reduce((v, i) => v[i], a);
const bshape = (shapes) => {
  const r = Math.max(0, ...shapes.map((s) => s.length));
  return Array.from({ length: r }, (_, i) => Math.max(...shapes.map((s) => s[s.length - r + i] ?? 1)));
};
const bcastAt = (a, shape, coord) => {
  const s = shapeOf(a);
  return at(a, s.map((n, k) => (n === 1 ? 0 : coord[coord.length - s.length + k])));
};
const range = (start, stop, step) => {
  const out = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
  return out;
};
// Python's slice.indices -> the positions a slice takes from a dimension of size n.
function slicePositions({ start = null, stop = null, step = null }, n) {
  const st = step ?? 1;
  const norm = (v, dflt, lo, hi) => (v === null ? dflt : Math.min(Math.max(v < 0 ? v + n : v, lo), hi));
  return st > 0 ? range(norm(start, 0, 0, n), norm(stop, n, 0, n), st) : range(norm(start, n - 1, -1, n - 1), norm(stop, -1, -1, n - 1), st);
}
// For x of `shape` and an index (entries: int, {slice}, null, '...', nested int arrays):
// the result shape and, per result element (row-major), the source position (clamped).
function reference(shape, index) {
  const used = index.filter((e) => e !== null && e !== '...').length;
  const full = { slice: {} };
  let idx = [];
  for (const e of index) idx.push(...(e === '...' ? Array(shape.length - used).fill(full) : [e]));
  if (!index.includes('...')) while (idx.filter((e) => e !== null).length < shape.length) idx.push(full);
  const hasArr = idx.some(isArr);
  const adv = idx.map((e, p) => (isArr(e) || (hasArr && typeof e === 'number') ? p : -1)).filter((p) => p >= 0);
  const B = bshape(adv.map((p) => shapeOf(idx[p])));
  const contiguous = adv.every((p, k) => k === 0 || p === adv[k - 1] + 1);
  const parts = []; // result dims: {kind: 'slice', p, pos} | {kind: 'new'} | {kind: 'adv'}
  let d = 0;
  if (adv.length && !contiguous) parts.push({ kind: 'adv' });
  idx.forEach((e, p) => {
    if (e === null) return parts.push({ kind: 'new' });
    if (adv.includes(p)) {
      if (contiguous && p === adv[0]) parts.push({ kind: 'adv' });
    } else if (e.slice) parts.push({ kind: 'slice', p, pos: slicePositions(e.slice, shape[d]) });
    d++;
  });
  const outShape = parts.flatMap((q) => (q.kind === 'adv' ? B : q.kind === 'new' ? [1] : [q.pos.length]));
  const dimOf = []; // entry position -> operand dimension
  d = 0;
  idx.forEach((e, p) => (dimOf[p] = e === null ? -1 : d++));
  const sources = [];
  const total = outShape.reduce((a, b) => a * b, 1);
  for (let k = 0; k < total; k++) {
    let rest = k;
    const coord = outShape.map(() => 0);
    for (let i = outShape.length - 1; i >= 0; i--) (coord[i] = rest % outShape[i]), (rest = Math.floor(rest / outShape[i]));
    const src = shape.map(() => 0);
    let c = 0;
    let bcoord = [];
    for (const q of parts) {
      if (q.kind === 'adv') (bcoord = coord.slice(c, c + B.length)), (c += B.length);
      else if (q.kind === 'new') c++;
      else src[dimOf[q.p]] = q.pos[coord[c++]];
    }
    idx.forEach((e, p) => {
      if (typeof e === 'number' && !adv.includes(p)) src[dimOf[p]] = e < 0 ? e + shape[dimOf[p]] : e;
    });
    for (const p of adv) {
      const n = shape[dimOf[p]];
      const v = typeof idx[p] === 'number' ? idx[p] : bcastAt(idx[p], B, bcoord);
      src[dimOf[p]] = v < 0 ? v + n : v;
    }
    sources.push(src);
  }
  return { outShape, sources };
}
const nest = (flat, shape) => (shape.length === 0 ? flat[0] : Array.from({ length: shape[0] }, (_, i) => nest(flat.slice((i * flat.length) / shape[0], ((i + 1) * flat.length) / shape[0]), shape.slice(1))));
const clampSrc = (src, shape) => src.map((v, k) => Math.min(Math.max(v, 0), shape[k] - 1));
const inBounds = (src, shape) => src.every((v, k) => v >= 0 && v < shape[k]);

const SHAPE = [4, 5, 6];
const X = nest(Array.from({ length: 120 }, (_, i) => i), SHAPE);
const s = (...a) => ({ slice: { start: a[0] ?? null, stop: a[1] ?? null, step: a[2] ?? null } });
// The same index as x.at(...) entries.
const toEntries = (index) => index.map((e) => (e !== null && typeof e === 'object' && !Array.isArray(e) ? sl.slice(e.slice.start, e.slice.stop, e.slice.step) : e));

const CASES = [
  [1], [-1], [s(1, 3)], [s(null, null, -1)], [s(4, 0, -2)], ['...', 1], [null, 2, '...', null], [1, s(null, null, 2), -2],
  [[0, 2, 3]], [[0, 2], [1, 1]], [[0, 2], s(), [1, 4]], [s(1, 3), [[0], [2]], s(null, null, 2)], [2, [0, 4]], [[0, 2], 1],
  [[7, -9]], [[[0, 1], [2, 3]], null, [4]], [null, [1, 2], s(1, 3), 0], [3, 4, [5, 0, 6]],
];

test('x.at(...).get() follows numpy indexing (JAX clamps out of bounds), eagerly and under jit', async () => {
  const x = sl.array(X);
  for (const index of CASES) {
    const { outShape, sources } = reference(SHAPE, index);
    const want = nest(sources.map((src) => at(X, clampSrc(src, SHAPE))), outShape);
    const got = x.at(...toEntries(index)).get();
    expect(got.shape, JSON.stringify(index)).toEqual(outShape);
    expect(await got.tolist(), JSON.stringify(index)).toEqual(want);
    const jitted = await sl.jit((v) => v.at(...toEntries(index)).get())(x);
    expect(await jitted.tolist(), `jit ${JSON.stringify(index)}`).toEqual(want);
  }
});

test('traced indices: a scalar int32 is a dynamic_slice (negative counts from the end), an array a gather', async () => {
  const x = sl.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
  const row = sl.jit((v, i) => v.at(i).get());
  expect(await (await row(x, sl.array(-1, { dtype: 'int32' }))).tolist()).toEqual([7, 8, 9]);
  expect(await (await row(x, sl.array(1, { dtype: 'int32' }))).tolist()).toEqual([4, 5, 6]);
  expect(await (await row(x, sl.array([2, 0, -3], { dtype: 'int32' }))).tolist()).toEqual([[7, 8, 9], [1, 2, 3], [1, 2, 3]]);
  const jaxpr = sl.makeJaxpr((v, i) => v.at(i).get())(x, sl.array(0, { dtype: 'int32' }));
  expect(jaxpr.toString()).toBe(
    [
      '{ lambda ; a:f32[3,3] b:i32[]. let',
      '    c:bool[] = lt b 0:i32[]',
      '    d:i32[] = add b 3:i32[]',
      '    e:i32[] = select_n c b d',
      '    f:f32[1,3] = dynamic_slice[slice_sizes=(1, 3)] a e 0:i32[]',
      '    g:f32[3] = squeeze[dimensions=(0,)] f',
      '  in (g,) }',
    ].join('\n'),
  );
  const gathered = sl.makeJaxpr((v, i) => v.at(i, 0).get())(x, sl.array([1, 2], { dtype: 'int32' })).toString();
  // Its parameters pass 80 columns: one per line, as JAX breaks them.
  expect(gathered).toContain(
    [
      'gather[',
      '      dimension_numbers=GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1), operand_batching_dims=(), start_indices_batching_dims=())',
      '      fill_value=None',
      '      indices_are_sorted=False',
      '      mode=GatherScatterMode.PROMISE_IN_BOUNDS',
      '      slice_sizes=(1, 1)',
      '      unique_indices=False',
      '    ] a i',
    ].join('\n'),
  );
  expect(sl.makeJaxpr((v) => v.at(sl.slice(1, 3)).get())(x).toString()).toContain('slice[limit_indices=(3, 3) start_indices=(1, 0) strides=None] a');
  expect(sl.makeJaxpr((v) => v.at(sl.slice(null, null, -1)).get())(x).toString()).toContain('rev[dimensions=(0,)] a');
});

test("get's modes: fill gives NaN (or fillValue) out of bounds, clip clamps", async () => {
  const x = sl.array([10, 20, 30]);
  const idx = [[-4, 0, 2, 3]];
  expect(await x.at(...idx).get({ mode: 'fill' }).tolist()).toEqual([NaN, 10, 30, NaN]);
  expect(await x.at(...idx).get({ mode: 'fill', fillValue: -1 }).tolist()).toEqual([-1, 10, 30, -1]);
  expect(await x.at(...idx).get({ mode: 'clip' }).tolist()).toEqual([10, 10, 30, 30]);
  expect(await x.at(5).get().item()).toBe(30); // a static int out of bounds clamps, as JAX's gather
});

// The reference update: x at each result element's source (in row-major
// order, duplicates applied in turn) combined with v broadcast to the result.
function referenceUpdate(how, index, v) {
  const { outShape, sources } = reference(SHAPE, index);
  const flat = X.flat(2).slice();
  const vshape = shapeOf(v);
  sources.forEach((src, k) => {
    if (!inBounds(src, SHAPE)) return; // dropped
    let rest = k;
    const coord = outShape.map(() => 0);
    for (let i = outShape.length - 1; i >= 0; i--) (coord[i] = rest % outShape[i]), (rest = Math.floor(rest / outShape[i]));
    const u = vshape.length ? bcastAt(v, outShape, coord) : v;
    const p = (src[0] * 5 + src[1]) * 6 + src[2];
    flat[p] = { set: u, add: flat[p] + u, subtract: flat[p] - u, multiply: flat[p] * u, min: Math.min(flat[p], u), max: Math.max(flat[p], u) }[how];
  });
  return nest(flat, SHAPE);
}

test('x.at(...).set/add/subtract/multiply/min/max as numpy updates: duplicates all apply, out of bounds dropped', async () => {
  const x = sl.array(X);
  const updates = [
    [[1], 7],
    [[s(1, 3), 2], [[100], [200]]],
    [[[0, 2, 0], s(null, null, 2)], -1.5],
    [[[3, 9, -1]], 5],
    [[s(null, null, -1), 0, 0], [[1], [2], [3], [4]].flat()],
    [[null, 2, [1, 1, 4]], [[[3], [4], [5]]]],
    [['...', [5, 5]], 2],
  ];
  for (const [index, v] of updates) {
    for (const how of ['set', 'add', 'subtract', 'multiply', 'min', 'max']) {
      const want = referenceUpdate(how, index, v);
      const got = x.at(...toEntries(index))[how](v);
      expect(await got.tolist(), `${how} ${JSON.stringify(index)}`).toEqual(want);
      const jitted = await sl.jit((a, b) => a.at(...toEntries(index))[how](b))(x, sl.array(v));
      expect(await jitted.tolist(), `jit ${how} ${JSON.stringify(index)}`).toEqual(want);
    }
  }
  // clip mode: out-of-bounds updates land on the edge
  expect(await sl.array([0, 0, 0]).at([5, -7]).add(1, { mode: 'clip' }).tolist()).toEqual([1, 0, 1]);
  // int32 and bool arrays; values are converted to x's dtype
  expect(await sl.array([1, 2, 3], { dtype: 'int32' }).at(1).set(9.7).tolist()).toEqual([1, 9, 3]);
  expect(await sl.array([true, false]).at(1).set(true).tolist()).toEqual([true, true]);
});

test('gradients: a gather transposes to a scatter-add (duplicates accumulate), an update to a gather', async () => {
  const x = sl.array([1, 2, 3, 4]);
  const idx = sl.array([0, 2, 2, 9], { dtype: 'int32' }); // 9 is clamped to 3 by the gather, dropped by its transpose (as JAX)
  const g = await sl.grad((v) => np.sum(np.multiply(v.at(idx).get(), sl.array([1, 10, 100, 1000]))))(x);
  expect(await g.tolist()).toEqual([1, 0, 110, 0]);
  // the clip mode's transpose clamps too
  const gc = await sl.grad((v) => np.sum(v.at(idx).get({ mode: 'clip' })))(x);
  expect(await gc.tolist()).toEqual([1, 0, 2, 1]);
  // set: the overwritten entries get no gradient; the values get the rest (the last duplicate wins)
  const [gx, gv] = await sl.grad((v, u) => np.sum(np.multiply(v.at(sl.array([1, 1, 3], { dtype: 'int32' })).set(u), sl.array([1, 2, 3, 4]))), { argnums: [0, 1] })(x, sl.array([5, 6, 7]));
  expect(await gx.tolist()).toEqual([1, 0, 3, 0]);
  expect(await gv.tolist()).toEqual([0, 2, 4]);
  // add, multiply, max against central differences
  for (const how of ['add', 'multiply', 'max', 'min']) {
    const f = (v, u) => np.sum(np.square(v.at(sl.array([0, 3], { dtype: 'int32' }))[how](u, { uniqueIndices: true })));
    const [dx, du] = await sl.grad(f, { argnums: [0, 1] })(x, sl.array([0.5, 7]));
    const fd = async (which, k) => {
      const h = 1e-2;
      const bump = (arr, sgn) => arr.map((a, i) => (i === k ? a + sgn * h : a));
      const args = (sgn) => (which === 0 ? [sl.array(bump([1, 2, 3, 4], sgn)), sl.array([0.5, 7])] : [x, sl.array(bump([0.5, 7], sgn))]);
      return ((await f(...args(1)).item()) - (await f(...args(-1)).item())) / (2 * h);
    };
    for (let k = 0; k < 4; k++) close(await dx.tolist().then((l) => l[k]), await fd(0, k), `${how} d/dx[${k}]`, 5e-2);
    for (let k = 0; k < 2; k++) close(await du.tolist().then((l) => l[k]), await fd(1, k), `${how} d/du[${k}]`, 5e-2);
  }
});

test('vmap: per-example indices into a shared table, and per-example tables', async () => {
  const table = sl.array([[1, 2], [3, 4], [5, 6]]);
  const rows = sl.array([2, 0, 1, 2], { dtype: 'int32' });
  const got = await sl.vmap((i) => table.at(i).get())(rows);
  expect(await got.tolist()).toEqual([[5, 6], [1, 2], [3, 4], [5, 6]]);
  const tables = sl.array([[1, 2, 3], [4, 5, 6]]);
  const picks = await sl.vmap((t, i) => t.at(i).get())(tables, sl.array([[2, 2], [0, 1]], { dtype: 'int32' }));
  expect(await picks.tolist()).toEqual([[3, 3], [4, 5]]);
  const upd = await sl.vmap((t, i) => t.at(i).add(10))(tables, sl.array([0, 2], { dtype: 'int32' }));
  expect(await upd.tolist()).toEqual([[11, 2, 3], [4, 5, 16]]);
});

test('boolean masks: concrete ones select eagerly; traced ones are JAX\'s NonConcreteBooleanIndexError', async () => {
  const x = sl.array([[1, -2], [-3, 4]]);
  expect(await x.at([[true, false], [false, true]]).get().tolist()).toEqual([1, 4]);
  expect(await x.at([true, false]).get().tolist()).toEqual([[1, -2]]);
  expect(await x.at([[false, true], [true, false]]).set(0).tolist()).toEqual([[1, 0], [0, 4]]);
  await expect(sl.jit((v) => v.at(np.greater(v, 0)).get())(x)).rejects.toThrow(sl.NonConcreteBooleanIndexError);
  await expect(sl.jit((v) => v.at(np.greater(v, 0)).get())(x)).rejects.toThrow('Array boolean indices must be concrete; got bool[2,2]');
});

test('np.take, np.takeAlongAxis and np.flip', async () => {
  const a = sl.array([[1, 2, 3], [4, 5, 6]]);
  expect(await np.take(a, [0, 5, 6]).tolist()).toEqual([1, 6, NaN]); // flattened; mode 'fill' by default
  expect(await np.take(a, [2, 0], { axis: 1 }).tolist()).toEqual([[3, 1], [6, 4]]);
  expect(await np.take(a, [3], { axis: 0, mode: 'clip' }).tolist()).toEqual([[4, 5, 6]]);
  const order = sl.array([[2, 0, 1], [1, 1, 0]], { dtype: 'int32' });
  expect(await np.takeAlongAxis(a, order, 1).tolist()).toEqual([[3, 1, 2], [5, 5, 4]]);
  expect(await np.takeAlongAxis(a, sl.array([[1, 0, 1]], { dtype: 'int32' }), 0).tolist()).toEqual([[4, 2, 6]]);
  expect(await np.flip(a).tolist()).toEqual([[6, 5, 4], [3, 2, 1]]);
  expect(await np.flip(a, 1).tolist()).toEqual([[3, 2, 1], [6, 5, 4]]);
  const g = await sl.grad((v) => np.sum(np.multiply(np.flip(v), sl.array([1, 2, 3]))))(sl.array([0, 0, 0]));
  expect(await g.tolist()).toEqual([3, 2, 1]);
});

test('index errors name what is wrong', () => {
  const x = sl.array([[1, 2], [3, 4]]);
  expect(() => x.at(0, 1, 0).get()).toThrow(sl.IndexError);
  expect(() => x.at(0, 1, 0).get()).toThrow('at.get: Too many indices: 2-dimensional array indexed with 3 regular indices.');
  expect(() => x.at('...', '...').get()).toThrow("at.get: an index can only have a single ellipsis ('...')");
  expect(() => x.at(1.5).get()).toThrow('at.get: indexer must have integer or boolean type, got indexer with type float32 at position 0, indexer value 1.5');
  expect(() => x.at({}).get()).toThrow("at.get: index entries are integers, sl.slice(...), null, '...' or integer or boolean arrays; got an object (Object) at position 0");
  expect(() => sl.slice(0, 2, 0)).toThrow('slice: step cannot be zero');
  expect(() => x.at(0).get({ mode: 'wrap' })).toThrow("at.get: mode string wrap must be 'clip', 'fill', 'drop' or 'promise_in_bounds'");
  expect(() => x.at(0).set([1, 2, 3])).toThrow('at.set: the values: Incompatible shapes for broadcasting: shapes=[(3,), (2,)]');
});
