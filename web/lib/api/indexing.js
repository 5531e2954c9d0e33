// numpy indexing as JAX does it: x.at(...index).get() is x[index],
// .set(v) / .add(v) / ... are x.at[index].set(v) / ...; an index entry is an
// integer, sl.slice(start, stop, step), null (a new axis), '...' (the
// remaining axes), or an array of integers or booleans (advanced indexing).
// Only integers and slices (and traced int32 scalars): slice, dynamic_slice,
// squeeze and rev, as JAX's simple path. Anything else: one gather (or
// scatter) whose indices hold a column per indexed dimension: an advanced
// array, an integer, a strided slice's positions, a slice's start.

import { IndexError, NonConcreteBooleanIndexError, ShapeError, ValueError } from '../errors.js';
import { array, concreteValues, DArray, flatValues } from './core/array.js';
import { avalOf, broadcastShapes, describeValue, literalTracer, traced, traceFor } from './core/operands.js';
import { staticKey } from './core/op.js';
import { runEager } from './core/run.js';
import { currentTrace } from './core/state.js';
import { isTracer } from './core/tracer.js';
import { isNumericData } from './core/tree.js';
import { isFloat } from '../dtypes.js';
import { divide, onesLike, power, zerosLike } from './numpy/math.js';
import { selectWhere } from './numpy/helpers.js';

/** A slice start:stop:step of an index (null parts take numpy's defaults). */
export class Slice {
  constructor(start, stop, step) {
    for (const [what, v] of [['start', start], ['stop', stop], ['step', step]]) {
      if (v !== null && !Number.isInteger(v)) throw new ValueError(`slice: ${what} must be an integer or null, got ${describeValue(v)}`);
    }
    if (step === 0) throw new ValueError('slice: step cannot be zero');
    this.start = start;
    this.stop = stop;
    this.step = step;
  }
  toString() {
    const p = (v) => (v === null ? '' : String(v));
    return `${p(this.start)}:${p(this.stop)}${this.step === null ? '' : `:${p(this.step)}`}`;
  }
}

/** sl.slice(stop), sl.slice(start, stop) or sl.slice(start, stop, step): Python's slice, for x.at(...). */
export function slice(...args) {
  if (args.length === 0 || args.length > 3) throw new ValueError(`slice: takes 1 to 3 arguments (stop, or start, stop, step), got ${args.length}`);
  const norm = (v) => (v === undefined ? null : v);
  return args.length === 1 ? new Slice(null, norm(args[0]), null) : new Slice(norm(args[0]), norm(args[1]), norm(args[2]));
}

// Python's slice.indices(n): the start, step and number of elements of s over a dimension of size n.
function sliceRange(s, n) {
  const step = s.step ?? 1;
  const clampTo = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
  const lo = step > 0 ? 0 : -1;
  const hi = step > 0 ? n : n - 1;
  const at = (v, dflt) => (v === null ? dflt : clampTo(v < 0 ? v + n : v, lo, hi));
  const start = at(s.start, step > 0 ? 0 : n - 1);
  const stop = at(s.stop, step > 0 ? n : -1);
  const len = step > 0 ? Math.max(0, Math.ceil((stop - start) / step)) : Math.max(0, Math.ceil((start - stop) / -step));
  return { start, step, len };
}

// The entries of an index with every array entry moved to `arrays` (the
// operands of the eager program) and a description of the rest: the static
// skeleton that keys the eager cache. Concrete boolean masks become their
// integer positions (numpy's nonzero); traced ones are JAX's error.
function splitIndex(entries, fn) {
  const skeleton = [];
  const arrays = [];
  let position = 0;
  for (const e of entries) {
    if (e === null) skeleton.push({ kind: 'none' });
    else if (e === '...') skeleton.push({ kind: 'ellipsis' });
    else if (e instanceof Slice) skeleton.push({ kind: 'slice', start: e.start, stop: e.stop, step: e.step });
    else if (typeof e === 'number') {
      if (!Number.isInteger(e)) throw new ShapeError(`${fn}: indexer must have integer or boolean type, got indexer with type float32 at position ${position}, indexer value ${e}`);
      skeleton.push({ kind: 'int', value: e });
    } else if (typeof e === 'boolean') {
      throw new IndexError(`${fn}: a boolean scalar index (${e}) is not supported; use a boolean array or null`);
    } else if (isTracer(e) || e instanceof DArray || isNumericData(e) || ArrayBuffer.isView(e)) {
      const { dtype, shape } = avalOf(integral(e), fn);
      if (isFloat(dtype)) throw new ShapeError(`${fn}: indexer must have integer or boolean type, got indexer with type ${dtype} at position ${position}`);
      if (dtype === 'bool') {
        if (isTracer(e)) throw new NonConcreteBooleanIndexError(`Array boolean indices must be concrete; got bool[${shape.join(',')}]\n\nSee https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError`);
        for (const positions of nonzero(e, shape, fn)) {
          skeleton.push({ kind: 'array', k: arrays.length, mask: true });
          arrays.push(positions);
        }
      } else {
        skeleton.push({ kind: 'array', k: arrays.length });
        arrays.push(integral(e));
      }
    } else {
      throw new IndexError(`${fn}: index entries are integers, sl.slice(...), null, '...' or integer or boolean arrays; got ${describeValue(e)} at position ${position}`);
    }
    position++;
  }
  return { skeleton, arrays };
}

// JS data of integers as an int32 array (numpy reads a list of ints as
// integers; ShardLab's JS data is float32 by default); anything else as it is.
function integral(e) {
  if (isTracer(e) || e instanceof DArray || !isNumericData(e)) return e;
  const flat = flatValues(e);
  return flat.length && flat.every((v) => Number.isInteger(v)) ? array(e, { dtype: 'int32' }) : e;
}

// The positions of a concrete boolean mask's true entries: one int32 array per dimension.
function nonzero(mask, shape, fn) {
  const flat = concreteValues(mask, fn);
  if (flat.length !== shape.reduce((a, b) => a * b, 1)) throw new ShapeError(`${fn}: a boolean mask must be a rectangular array`);
  const out = shape.map(() => []);
  flat.forEach((v, k) => {
    if (!v) return;
    let rest = k;
    for (let d = shape.length - 1; d >= 0; d--) {
      out[d].push(rest % shape[d]);
      rest = Math.floor(rest / shape[d]);
    }
  });
  return out.map((positions) => Int32Array.from(positions));
}


// The index with '...' replaced by full slices and full slices appended for
// the dimensions it leaves out: one entry per dimension, plus the new axes.
function canonical(skeleton, rank, fn) {
  const ellipses = skeleton.filter((e) => e.kind === 'ellipsis').length;
  if (ellipses > 1) throw new IndexError(`${fn}: an index can only have a single ellipsis ('...')`);
  const used = skeleton.filter((e) => e.kind !== 'none' && e.kind !== 'ellipsis').length;
  if (used > rank) throw new IndexError(`${fn}: Too many indices: ${rank}-dimensional array indexed with ${used} regular indices.`);
  const full = () => ({ kind: 'slice', start: null, stop: null, step: null });
  const out = [];
  for (const e of skeleton) {
    if (e.kind === 'ellipsis') for (let i = 0; i < rank - used; i++) out.push(full());
    else out.push(e);
  }
  if (!ellipses) for (let i = used; i < rank; i++) out.push(full());
  return out;
}

// Runs `impl(t, x, arrays, ...rest)` in the current trace, or eagerly as a
// cached program keyed by the index skeleton and `statics`.
function withIndex(fn, x, entries, rest, statics, impl) {
  const { skeleton, arrays } = splitIndex(entries, fn);
  const body = (xv, ...dyn) => {
    const t = traceFor(fn);
    const values = dyn.slice(0, arrays.length).map((a) => traced(t, a, fn));
    return impl(t, traced(t, xv, fn), skeleton, values, ...dyn.slice(arrays.length));
  };
  if (currentTrace()) return body(x, ...arrays, ...rest);
  return runEager(`${fn}|${staticKey([skeleton, statics])}`, body, [x, ...arrays, ...rest]);
}

// i + n where i < 0 (numpy's negative indices), as JAX emits it: lt, add, select_n.
function normalized(t, i, n) {
  if (i._atom.literal !== undefined) return literalTracer(t, i._atom.literal < 0 ? i._atom.literal + n : i._atom.literal, 'int32');
  const neg = t.emit('lt', {}, [i.atomIn(t), literalTracer(t, 0, 'int32').atomIn(t)])[0];
  const shifted = t.emit('add', {}, [i.atomIn(t), literalTracer(t, n, 'int32').atomIn(t)])[0];
  return t.emit('select_n', {}, [neg, i, shifted].map((v) => v.atomIn(t)))[0];
}

const emit1 = (t, prim, params, xs) => t.emit(prim, params, xs.map((v) => v.atomIn(t)))[0];

/** x[index] with integers and slices only (and traced int32 scalars): JAX's simple path. */
function basicGet(t, x, idx, values) {
  const start = [];
  const limit = [];
  const strides = [];
  const squeezed = [];
  const reversed = [];
  const newAxes = [];
  const dynamic = [];
  let d = 0;
  let kept = 0; // the slices so far: the dimensions rev sees (before the new axes go in)
  idx.forEach((e, pos) => {
    if (e.kind === 'none') {
      newAxes.push(pos - squeezed.length);
      return;
    }
    const n = x.shape[d];
    if (e.kind === 'int') {
      const i = e.value < 0 ? e.value + n : e.value;
      start.push(i), limit.push(i + 1), strides.push(1), squeezed.push(d);
    } else if (e.kind === 'array') {
      start.push(0), limit.push(n), strides.push(1), squeezed.push(d);
      dynamic.push({ d, value: normalized(t, values[e.k], n) });
    } else {
      const { start: s, step, len } = sliceRange(e, n);
      const first = step > 0 ? s : s + (len - 1) * step; // the smallest element taken
      const stride = Math.abs(step);
      start.push(len ? first : 0), limit.push(len ? first + (len - 1) * stride + 1 : 0), strides.push(stride);
      if (step < 0 && len > 1) reversed.push(kept);
      kept++;
    }
    d++;
  });
  let y = x;
  if (start.some((s, k) => s !== 0 || limit[k] !== x.shape[k] || strides[k] !== 1)) {
    const st = strides.every((s) => s === 1) ? [] : strides;
    y = emit1(t, 'slice', { start_indices: start, limit_indices: limit, strides: st }, [y]);
  }
  if (dynamic.length) {
    const at = y.shape.map(() => literalTracer(t, 0, 'int32'));
    const sizes = [...y.shape];
    for (const { d: k, value } of dynamic) (at[k] = value), (sizes[k] = 1);
    y = emit1(t, 'dynamic_slice', { slice_sizes: sizes }, [y, ...at]);
  }
  if (squeezed.length) y = emit1(t, 'squeeze', { dimensions: squeezed }, [y]);
  if (reversed.length) y = emit1(t, 'rev', { dimensions: reversed }, [y]);
  if (newAxes.length) y = emit1(t, 'expand_dims', { dimensions: newAxes }, [y]);
  return y;
}

// How an index (canonical, no new axes) reads or writes an array of `shape`
// as one gather or scatter: the dimension numbers, the slice sizes and the
// indices, whose batch dimensions are the result's non-window dimensions in
// order (an advanced block, strided slices' positions).
function indexer(t, shape, idx, values) {
  const isAdvanced = (e) => e.kind === 'array' || (e.kind === 'int' && idx.some((f) => f.kind === 'array'));
  const advanced = idx.map((e, d) => (isAdvanced(e) ? d : -1)).filter((d) => d >= 0);
  const advShapes = advanced.map((d) => (idx[d].kind === 'array' ? values[idx[d].k].shape : []));
  const B = broadcastShapes(advShapes, 'index');
  const contiguous = advanced.every((d, k) => k === 0 || d === advanced[k - 1] + 1);
  const result = []; // per result dimension: {size, window: operand dim} or {size, batch: 'adv' or 'arange'}
  const columns = []; // {dim, value: (batchShape, batchPos) => int32 tracer of batchShape}
  const sliceSizes = [];
  let advAt = -1;
  const placeAdvanced = () => {
    advAt = result.length;
    for (const size of B) result.push({ size, batch: 'adv' });
  };
  if (advanced.length && !contiguous) placeAdvanced();
  idx.forEach((e, d) => {
    const n = shape[d];
    if (isAdvanced(e)) {
      if (advAt < 0) placeAdvanced();
      const v = e.kind === 'array' ? normalized(t, values[e.k], n) : literalTracer(t, e.value < 0 ? e.value + n : e.value, 'int32');
      columns.push({ dim: d, value: (bs, bp) => broadcastInto(t, v, bs, bp.slice(advAt + B.length - v.ndim, advAt + B.length)) });
      sliceSizes.push(1);
    } else if (e.kind === 'int') {
      const v = literalTracer(t, e.value < 0 ? e.value + n : e.value, 'int32');
      columns.push({ dim: d, value: (bs) => broadcastInto(t, v, bs, []) });
      sliceSizes.push(1);
    } else {
      const { start, step, len } = sliceRange(e, n);
      if (step === 1) {
        result.push({ size: len, window: d });
        sliceSizes.push(len);
        if (start !== 0 && len) columns.push({ dim: d, value: (bs) => broadcastInto(t, literalTracer(t, start, 'int32'), bs, []) });
      } else {
        const at = result.length;
        result.push({ size: len, batch: 'arange' });
        sliceSizes.push(1);
        columns.push({ dim: d, value: (bs, bp) => broadcastInto(t, arangeTracer(t, start, step, len), bs, [bp[at]]) });
      }
    }
  });
  // Batch dimensions of the indices: the result's non-window dimensions, in order.
  const batchPos = []; // result position -> batch dimension of the indices
  const batchShape = [];
  result.forEach((r) => {
    batchPos.push(r.window === undefined ? batchShape.length : -1);
    if (r.window === undefined) batchShape.push(r.size);
  });
  const cols = columns.map((c) => c.value(batchShape, batchPos));
  const indexShape = [...batchShape, cols.length];
  const expanded = cols.map((c) => emit1(t, 'broadcast_in_dim', { shape: [...batchShape, 1], broadcast_dimensions: batchShape.map((_, k) => k) }, [c]));
  const indices = expanded.length === 1 ? expanded[0] : expanded.length ? emit1(t, 'concatenate', { dimension: batchShape.length }, expanded) : emit1(t, 'broadcast_in_dim', { shape: indexShape, broadcast_dimensions: [] }, [literalTracer(t, 0, 'int32')]);
  const windows = result.map((r, p) => (r.window === undefined ? -1 : p)).filter((p) => p >= 0);
  const collapsed = idx.map((e, d) => (sliceSizes[d] === 1 && !result.some((r) => r.window === d) ? d : -1)).filter((d) => d >= 0);
  const dims = [windows, collapsed, columns.map((c) => c.dim), [], []];
  const plain = !idx.some((e) => e.kind === 'array');
  return { dims, sliceSizes, indices, resultShape: result.map((r) => r.size), plain };
}

// int32 tracer v broadcast into `shape`, its dimensions at `dims` (numpy's trailing alignment done by the caller).
function broadcastInto(t, v, shape, dims) {
  if (v.ndim === shape.length && v.shape.every((s, k) => s === shape[k])) return v;
  const keep = dims.filter((_, k) => v.shape[k] !== 1 || shape[dims[k]] === 1);
  const squeezed = keep.length === dims.length ? v : emit1(t, 'reshape', { new_sizes: v.shape.filter((s, k) => s !== 1 || shape[dims[k]] === 1) }, [v]);
  return emit1(t, 'broadcast_in_dim', { shape, broadcast_dimensions: keep }, [squeezed]);
}

// start, start + step, ... (len of them) as int32.
function arangeTracer(t, start, step, len) {
  let v = emit1(t, 'iota', { dtype: 'int32', shape: [len], dimension: 0 }, []);
  if (step !== 1) v = emit1(t, 'mul', {}, [v, literalTracer(t, step, 'int32')]);
  if (start !== 0) v = emit1(t, 'add', {}, [v, literalTracer(t, start, 'int32')]);
  return v;
}

const MODES = { clip: 'clip', fill: 'fill', drop: 'fill', promise_in_bounds: 'promise_in_bounds' };
/** The primitives' mode for an index mode (JAX's names; 'drop' is 'fill'), `dflt` when none; errors name `fn`. */
export function modeOf(mode, dflt, fn) {
  if (mode === undefined || mode === null) return dflt;
  if (!(mode in MODES)) throw new ValueError(`${fn}: mode ${describeValue(mode)} must be 'clip', 'fill', 'drop' or 'promise_in_bounds'`);
  return MODES[mode];
}

// The new axes of a canonical index (their positions in it), and the index over the operand with them inserted.
function withNewAxes(t, x, idx) {
  const axes = idx.map((e, p) => (e.kind === 'none' ? p : -1)).filter((p) => p >= 0);
  if (!axes.length) return { y: x, idx, axes };
  const y = emit1(t, 'expand_dims', { dimensions: axes }, [x]);
  return { y, idx: idx.map((e) => (e.kind === 'none' ? { kind: 'slice', start: null, stop: null, step: null } : e)), axes };
}

/** x[index] (x.at(...index).get(opts)): opts mode ('promise_in_bounds', 'clip', 'fill'), fillValue, uniqueIndices, indicesAreSorted. */
export function getItem(x, entries, opts = {}) {
  const fn = 'at.get';
  const mode = modeOf(opts.mode, 'promise_in_bounds', fn);
  const fill = opts.fillValue ?? NaN;
  return withIndex(fn, x, entries, [], [mode, fill, opts.uniqueIndices, opts.indicesAreSorted], (t, xv, skeleton, values) => {
    const idx = canonical(skeleton, xv.ndim, fn);
    let d = 0;
    const simple =
      opts.mode == null &&
      idx.every((e) => {
        if (e.kind === 'none') return true;
        const n = xv.shape[d++];
        if (e.kind === 'int') return e.value >= -n && e.value < n; // out of bounds: the gather clamps, as JAX
        if (e.kind === 'array') return values[e.k].ndim === 0 && !skeleton.some((f) => f.mask);
        return true;
      });
    if (simple) return basicGet(t, xv, idx, values);
    const { y, idx: full } = withNewAxes(t, xv, idx);
    const ix = indexer(t, y.shape, full, values);
    return emit1(
      t,
      'gather',
      {
        dimension_numbers: ix.dims,
        fill_value: mode === 'fill' ? fill : NaN,
        indices_are_sorted: Boolean(opts.indicesAreSorted) || ix.plain,
        mode,
        slice_sizes: ix.sliceSizes,
        unique_indices: Boolean(opts.uniqueIndices) || ix.plain,
      },
      [y, ix.indices],
    );
  });
}

const SCATTERS = { set: 'scatter', add: 'scatter-add', multiply: 'scatter-mul', min: 'scatter-min', max: 'scatter-max' };

/**
 * x.at[index].<how>(v): `how` is set, add, subtract, multiply, min or max;
 * v is broadcast to the shape of x[index] and converted to x's dtype;
 * out-of-bounds updates are dropped (mode 'fill'/'drop', the default) or
 * clamped ('clip'); duplicate indices all apply, in order.
 */
export function updateItem(how, x, entries, v, opts = {}) {
  const fn = `at.${how}`;
  const mode = modeOf(opts.mode, 'fill', fn);
  return withIndex(fn, x, entries, [v], [how, mode, opts.uniqueIndices, opts.indicesAreSorted], (t, xv, skeleton, values, vv) => {
    const idx = canonical(skeleton, xv.ndim, fn);
    const { y, idx: full, axes } = withNewAxes(t, xv, idx);
    const ix = indexer(t, y.shape, full, values);
    let u = traced(t, vv, fn);
    if (u.dtype !== xv.dtype) u = emit1(t, 'convert_element_type', { new_dtype: xv.dtype, weak_type: false }, [u]);
    broadcastShapes([u.shape, ix.resultShape], `${fn}: the values`);
    if (u.ndim !== ix.resultShape.length || u.shape.some((n, k) => n !== ix.resultShape[k])) {
      const r = ix.resultShape.length - u.ndim;
      u = emit1(t, 'broadcast_in_dim', { shape: ix.resultShape, broadcast_dimensions: u.shape.map((_, k) => k + r) }, [u]);
    }
    if (how === 'subtract') u = emit1(t, 'neg', {}, [u]);
    const prim = SCATTERS[how === 'subtract' ? 'add' : how];
    const params = {
      dimension_numbers: ix.dims,
      indices_are_sorted: Boolean(opts.indicesAreSorted) || ix.plain,
      mode,
      unique_indices: Boolean(opts.uniqueIndices) || ix.plain,
    };
    const z = emit1(t, prim, params, [y, ix.indices, u]);
    return axes.length ? emit1(t, 'squeeze', { dimensions: axes }, [z]) : z;
  });
}

/** sl.at(x, ...index): x.at(...index), for any array operand (JS data too). */
export function at(x, ...index) {
  return new IndexRef(x, index);
}

/** The reference x.at(...index) returns: JAX's x.at[index], whose methods read or update x at the index. */
export class IndexRef {
  constructor(x, entries) {
    this.array = x;
    this.entries = entries;
  }
  /** x[index]; opts {mode, fillValue, uniqueIndices, indicesAreSorted}. */
  get(opts) {
    return getItem(this.array, this.entries, opts);
  }
  /** x with x[index] = v. */
  set(v, opts) {
    return updateItem('set', this.array, this.entries, v, opts);
  }
  /** x with x[index] += v (duplicates accumulate). */
  add(v, opts) {
    return updateItem('add', this.array, this.entries, v, opts);
  }
  /** x with x[index] -= v. */
  subtract(v, opts) {
    return updateItem('subtract', this.array, this.entries, v, opts);
  }
  /** x with x[index] *= v. */
  multiply(v, opts) {
    return updateItem('multiply', this.array, this.entries, v, opts);
  }
  /** x with x[index] = minimum(x[index], v). */
  min(v, opts) {
    return updateItem('min', this.array, this.entries, v, opts);
  }
  /** x with x[index] = maximum(x[index], v). */
  max(v, opts) {
    return updateItem('max', this.array, this.entries, v, opts);
  }
  /** x with x[index] /= v: x divided by ones with v multiplied in at the index (as JAX's). */
  divide(v, opts) {
    return divide(this.array, updateItem('multiply', onesLike(this.array), this.entries, v, opts));
  }
  /** x with x[index] **= v: x to the power of ones with v multiplied in at the index (as JAX's). */
  power(v, opts) {
    return power(this.array, updateItem('multiply', onesLike(this.array), this.entries, v, opts));
  }
  /**
   * x with the unary f applied at the index: where(hit, f(x), x), `hit`
   * marking the elements the index names. f applies once to an element the
   * index names several times, where JAX's scatter_apply applies it once per
   * occurrence (the same for idempotent f).
   */
  apply(f, opts) {
    const hit = updateItem('set', zerosLike(this.array, 'bool'), this.entries, true, opts);
    return selectWhere(hit, f(this.array), this.array);
  }
}
