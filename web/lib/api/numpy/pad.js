// np.pad: an array grown along each axis by JAX's modes, each lowered as
// jnp.pad lowers it: 'constant' to lax.pad, the others axis by axis to
// slices, reversals and statistics of the array joined by concatenate.

import { ShapeError, ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { literalTracer, traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { asDtype, emitHere, sliceAlong } from './helpers.js';
import { flip } from './indexing.js';
import { linspace, repeat } from './matrices.js';
import { concatenate, max, mean, min, multiply, round, squeeze, subtract } from './math.js';
import { isInteger } from '../../dtypes.js';

const MODES = ['constant', 'edge', 'wrap', 'reflect', 'symmetric', 'linear_ramp', 'maximum', 'minimum', 'mean', 'empty'];
const STATS = { maximum: max, minimum: min, mean };

/**
 * np.pad(x, padWidth, {mode, constantValues, statLength, endValues,
 * reflectType}): x with padWidth[i] = [before, after] elements added along
 * axis i (one pair or one number for every axis), filled as `mode` says
 * (JAX's and numpy's: 'constant' by default, with constantValues).
 */
export const pad = defop('pad', 1, (x, padWidth, { mode = 'constant', constantValues = 0, statLength = null, endValues = 0, reflectType = 'even' } = {}) => {
  const v = traced(traceFor('pad'), x, 'np.pad');
  if (typeof mode !== 'string' || !MODES.includes(mode)) {
    throw new ValueError(`np.pad: mode ${quote(mode)} is not supported; give one of ${MODES.map((m) => `'${m}'`).join(', ')}`);
  }
  if (reflectType !== 'even' && reflectType !== 'odd') throw new ValueError(`np.pad: reflect_type is ${quote(reflectType)}; give 'even' or 'odd'`);
  const widths = pairs(padWidth, v.ndim, 'pad_width');
  if (widths.some((p) => p.some((w) => !Number.isInteger(w) || w < 0))) {
    throw new ValueError(`np.pad: pad_width ${quote(padWidth)} must hold non-negative integers`);
  }
  if (v.ndim === 0) return v;
  if (mode === 'constant') return padConstant(v, widths, constantValues);
  const stats = statLength === null || statLength === undefined ? null : pairs(statLength, v.ndim, 'stat_length');
  const ends = mode === 'linear_ramp' ? pairs(endValues, v.ndim, 'end_values') : null;
  let out = v;
  for (let axis = 0; axis < v.ndim; axis++) {
    const [before, after] = widths[axis];
    const n = out.shape[axis];
    if (n === 0 && (before || after) && mode !== 'empty') {
      throw new ValueError(`np.pad: can't extend empty axis ${axis} using modes other than 'constant' or 'empty'`);
    }
    if (n === 0 || mode === 'empty') {
      out = padConstant(out, widths.map((w, i) => (i === axis ? w : [0, 0])), 0);
    } else if (mode === 'edge') {
      out = concatenate([repeat(sliceAlong(out, axis, 0, 1), before, axis), out, repeat(sliceAlong(out, axis, n - 1, n), after, axis)], axis);
    } else if (mode === 'wrap') {
      out = wrapped(out, axis, before, after);
    } else if (mode === 'reflect' || mode === 'symmetric') {
      out = reflected(out, axis, before, after, mode, reflectType);
    } else if (mode === 'linear_ramp') {
      out = ramped(out, axis, before, after, ends[axis]);
    } else {
      out = padStat(out, axis, before, after, STATS[mode], stats?.[axis]);
    }
  }
  return out;
});

// `w` broadcast to one [before, after] pair per axis of a rank-`ndim` array,
// as JAX's _broadcast_to_pairs: a number, [number], [before, after], or a pair per axis.
function pairs(w, ndim, what) {
  const flat = (p) => (Array.isArray(p) ? p : [p]);
  if (!Array.isArray(w)) return Array.from({ length: ndim }, () => [w, w]);
  if (w.length === 1 && !Array.isArray(w[0])) return Array.from({ length: ndim }, () => [w[0], w[0]]);
  if (w.length === 2 && !Array.isArray(w[0]) && !Array.isArray(w[1])) return Array.from({ length: ndim }, () => [w[0], w[1]]);
  if (w.length === 1) return Array.from({ length: ndim }, () => pairOf(flat(w[0]), what));
  if (w.length !== ndim) throw new ShapeError(`np.pad: ${what} has ${w.length} entries for an array of rank ${ndim}; give one pair per axis, one pair, or one number`);
  return w.map((p) => pairOf(flat(p), what));
}
function pairOf(p, what) {
  if (p.length === 1) return [p[0], p[0]];
  if (p.length !== 2) throw new ShapeError(`np.pad: ${what} entry ${quote(p)} must be a number or a [before, after] pair`);
  return p;
}

// lax.pad per axis: one pad when the value is one for every side, else each
// axis's before and after with their own values.
function padConstant(v, widths, values) {
  const t = traceFor('pad');
  const padded = (x, config, value) => emitHere('pad', 'pad', { padding_config: config }, [x, literalTracer(t, value, x.dtype)]);
  if (!Array.isArray(values)) return padded(v, widths.map(([lo, hi]) => [lo, hi, 0]), values);
  const vals = pairs(values, v.ndim, 'constant_values');
  let out = v;
  widths.forEach(([lo, hi], axis) => {
    const config = (side) => widths.map((_, i) => (i === axis ? (side ? [0, hi, 0] : [lo, 0, 0]) : [0, 0, 0]));
    out = padded(padded(out, config(0), vals[axis][0]), config(1), vals[axis][1]);
  });
  return out;
}

// mode 'wrap': copies of v along `axis`, cut to the widths on each side.
function wrapped(v, axis, before, after) {
  const n = v.shape[axis];
  const parts = [];
  if (before % n) parts.push(sliceAlong(v, axis, n - (before % n), n));
  for (let k = 0; k < Math.floor(before / n) + Math.floor(after / n) + 1; k++) parts.push(v);
  if (after % n) parts.push(sliceAlong(v, axis, 0, after % n));
  return concatenate(parts, axis);
}

// modes 'reflect' (mirrored about the edge element) and 'symmetric' (the edge
// repeated): padding wider than the axis reflects the padded array again, as
// numpy; reflect_type 'odd' mirrors values through the edge, 2 * edge - x.
function reflected(v, axis, before, after, mode, reflectType) {
  const n = v.shape[axis];
  const offset = mode === 'reflect' && n > 1 ? 1 : 0;
  const side = (arr, padding, first) => {
    const size = arr.shape[axis];
    let edge = first ? sliceAlong(arr, axis, 0, 1) : sliceAlong(arr, axis, size - 1, size);
    let out = arr;
    while (padding > 0) {
      const cur = Math.min(padding, n - offset);
      padding -= cur;
      const len = out.shape[axis];
      const stop = mode === 'symmetric' || n === 1 ? len : len - 1;
      let x = flip(first ? sliceAlong(out, axis, offset, offset + cur) : sliceAlong(out, axis, len - cur - offset, stop), axis);
      if (reflectType === 'odd') {
        x = subtract(multiply(edge, 2), x);
        if (n > 1) edge = first ? sliceAlong(x, axis, 0, 1) : sliceAlong(x, axis, cur - 1, cur);
      }
      out = concatenate(first ? [x, out] : [out, x], axis);
    }
    return out;
  };
  return side(side(v, before, true), after, false);
}

// mode 'linear_ramp': from end values to the edge, endpoint excluded.
function ramped(v, axis, before, after, [startValue, endValue]) {
  const n = v.shape[axis];
  const ramp = (end, edge, num) => {
    const r = linspace(end, squeeze(edge, axis), num, { endpoint: false, dtype: v.dtype });
    return moveFirstTo(asDtype(r, v.dtype, v.weakType), axis);
  };
  const lo = ramp(startValue, sliceAlong(v, axis, 0, 1), before);
  const hi = flip(ramp(endValue, sliceAlong(v, axis, n - 1, n), after), axis);
  return concatenate([lo, v, hi], axis);
}

// The leading axis of r (linspace's) moved to `axis`.
function moveFirstTo(r, axis) {
  if (axis === 0) return r;
  const perm = r.shape.map((_, i) => i).slice(1);
  perm.splice(axis, 0, 0);
  return emitHere('pad', 'transpose', { permutation: perm }, [r]);
}

// modes 'maximum', 'minimum', 'mean': the statistic of the first and last
// statLength elements (all by default), rounded for integers as JAX's, repeated.
function padStat(v, axis, before, after, stat, lengths) {
  const n = v.shape[axis];
  const of = (part) => {
    let s = stat(part, { axis, keepdims: true });
    if (isInteger(v.dtype)) s = round(s);
    return asDtype(s, v.dtype, v.weakType);
  };
  let lo;
  let hi;
  if (!lengths) {
    lo = hi = of(v);
  } else {
    if (lengths[0] === 0 || lengths[1] === 0) throw new ValueError('np.pad: stat_length of 0 yields no value for padding');
    lo = of(sliceAlong(v, axis, 0, Math.min(lengths[0], n)));
    hi = of(sliceAlong(v, axis, n - Math.min(lengths[1], n), n));
  }
  return concatenate([repeat(lo, before, axis), v, repeat(hi, after, axis)], axis);
}
