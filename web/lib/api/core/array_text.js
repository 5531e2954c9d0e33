// Array text as JAX shows it (numpy's array2string): Array([1. , 2.5],
// dtype=float32) for repr, [1.  2.5] for str, under numpy's print options
// (jnp.printoptions). Formatting only: the values are given (a device
// array's, or a host numpy array's, whose float64 elements print at
// float64's shortest digits). jax.debug.print and Python's arrays print
// through it.

import { exponentialText, fixedText, nonFinite, roundToDtype, shortestText } from './decimal_text.js';
import { pyTuple } from './python_text.js';

// numpy's print options that apply here, with numpy's defaults: fraction digits at most,
// elements past which an array is summarized, items shown at each end then, columns, and
// whether small numbers stay positional (printed as 0 at the precision) instead of scientific.
const DEFAULTS = Object.freeze({ precision: 8, threshold: 1000, edgeitems: 3, linewidth: 75, suppress: false });
let options = { ...DEFAULTS };

/** numpy's get_printoptions: the print options in force. */
export const getPrintOptions = () => ({ ...options });

/** numpy's set_printoptions: the given options (precision threshold edgeitems linewidth: non-negative ints; suppress) set, the others kept. */
export function setPrintOptions(given) {
  const next = { ...options };
  for (const name of ['precision', 'threshold', 'edgeitems', 'linewidth']) {
    const v = given[name];
    if (v === undefined || v === null) continue;
    if (!Number.isInteger(v) || v < 0) throw new TypeError(`set_printoptions: ${name} must be a non-negative int, got ${v}`);
    next[name] = v;
  }
  if (given.suppress !== undefined && given.suppress !== null) next.suppress = Boolean(given.suppress);
  options = next;
}

const finite = (v) => Number.isFinite(v);

// Python's f'{v:.{p}e}' split: whole digit, fraction digits with trailing zeros dropped, exponent.
function splitScientific(text) {
  const [mant, exp] = text.split('e');
  const [whole, frac = ''] = mant.split('.');
  return { whole, frac: frac.replace(/0+$/, ''), exp: Number(exp) };
}

/** `text` (a decimal) in scientific notation with exactly its significant digits. */
function scientific(text) {
  const digits = text.replace(/^-/, '').split('e')[0].replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return exponentialText(Number(text), Math.max(digits.length, 1) - 1);
}

/**
 * numpy's FloatingFormat (floatmode 'maxprec', sign '-'): every element at
 * the fewest digits that read back as its value, padded to the widest;
 * scientific when the largest magnitude is 1e8 or more, the smallest nonzero
 * under 1e-4, or their ratio over 1000, with as many fraction digits as the
 * element needing most, an element needing fewer continued with its exact
 * value's digits (numpy's min_digits), where positional notation pads with
 * spaces. The digits are the array's float format's.
 */
function floatTexts(values, dtype) {
  const exact = (v) => roundToDtype(v, dtype);
  const fin = values.filter(finite);
  const nonzero = fin.filter((v) => v !== 0).map(Math.abs);
  const big = nonzero.length ? Math.max(...nonzero) : 0;
  const small = nonzero.length ? Math.min(...nonzero) : 0;
  const { precision, suppress } = options;
  const sci = nonzero.length > 0 && (big >= 1e8 || (!suppress && (small < 1e-4 || big / small > 1e3)));
  const parts = new Map(); // Object.is keys keep -0 apart from 0
  const key = (v) => (Object.is(v, -0) ? '-0' : v);
  let left = 1;
  let digits = 0;
  let right;
  let text;
  if (sci) {
    let expWidth = 2;
    for (const v of fin) {
      let t = scientific(shortestText(v, dtype));
      if (t.split('e')[0].split('.')[1]?.length > precision) t = exponentialText(v, precision);
      const p = splitScientific(t);
      parts.set(key(v), p);
      digits = Math.max(digits, p.frac.length);
      expWidth = Math.max(expWidth, String(Math.abs(p.exp)).length);
      left = Math.max(left, p.whole.length);
    }
    if (!fin.length) left = 1;
    right = 1 + digits + 2 + expWidth;
    text = (v) => {
      let { whole, frac, exp } = parts.get(key(v));
      if (frac.length < digits) ({ whole, frac } = splitScientific(exponentialText(exact(v), digits)));
      return `${whole.padStart(left)}.${frac.padEnd(digits, '0')}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(expWidth, '0')}`;
    };
  } else {
    for (const v of fin) {
      let s = shortestText(v, dtype);
      if (s.includes('e')) s = fixedText(Number(s), precision + 1);
      if ((s.split('.')[1] ?? '').length > precision) s = fixedText(v, precision);
      const [whole, frac = ''] = s.split('.');
      const p = { whole, frac: frac.replace(/0+$/, '') };
      parts.set(key(v), p);
      left = Math.max(left, whole.length);
      digits = Math.max(digits, p.frac.length);
    }
    right = 1 + digits;
    text = (v) => {
      const { whole, frac } = parts.get(key(v));
      return `${whole.padStart(left)}.${frac.padEnd(digits)}`;
    };
  }
  if (fin.length < values.length) left = Math.max(left, 3 + (values.includes(-Infinity) ? 1 : 0) - right);
  return values.map((v) => (finite(v) ? text(v) : nonFinite(v)).padStart(left + right));
}

/** Each element's text, before the array's common padding. */
function elementTexts(values, dtype) {
  if (dtype === 'bool') return values.map((v) => (v ? ' True' : 'False'));
  if (dtype.includes('int')) return values.map((v) => String(typeof v === 'bigint' ? v : Math.trunc(Number(v))));
  if (dtype === 'object') return values.map(String);
  return floatTexts(values.map(Number), dtype);
}

/**
 * numpy's array2string of flat row-major `values` of `shape`: elements
 * separated by `sep` (', ' for repr, ' ' for str), a row wrapped before it
 * passes the linewidth (less `suffix`, the text that follows), continuation
 * lines indented to follow `prefix`, an array of more elements than the
 * threshold summarized by its first and last edgeitems on each axis.
 */
export function arrayText(values, shape, dtype, sep, prefix, suffix = '') {
  const summarize = values.length > options.threshold;
  const edge = options.edgeitems;
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  // The indices of axis `dim` printed: all, or the first and last edgeitems around null ("...").
  const shown = (dim) => {
    const n = shape[dim];
    const all = Array.from({ length: n }, (_, i) => i);
    return summarize && n > 2 * edge ? [...all.slice(0, edge), null, ...all.slice(n - edge)] : all;
  };
  // The elements printed, formatted together (numpy formats a summarized array by its shown items alone).
  let offsets = [0];
  for (let dim = 0; dim < shape.length; dim++) offsets = offsets.flatMap((o) => shown(dim).filter((i) => i !== null).map((i) => o + i * strides[dim]));
  const formatted = elementTexts(offsets.map((o) => values[o]), dtype);
  const width = Math.max(0, ...formatted.map((t) => t.length));
  const texts = new Map(offsets.map((o, k) => [o, formatted[k].padStart(width)]));
  const lineWidth = options.linewidth - suffix.length;

  const build = (dim, offset, indent, room) => {
    if (dim === shape.length) return texts.get(offset);
    const idx = shown(dim);
    const inner = `${indent} `;
    const item = (i) => (i === null ? '...' : build(dim + 1, offset + i * strides[dim], inner, room - 1));
    let out = '';
    if (dim === shape.length - 1) {
      let line = indent;
      const limit = room - Math.max(sep.trimEnd().length, 1);
      idx.forEach((i, k) => {
        const word = item(i);
        // numpy's _extendLine: wrap when the word would pass the limit, unless the line holds only its indent.
        if (line.length + word.length > limit && line.length > indent.length) {
          out += `${line.trimEnd()}\n`;
          line = indent;
        }
        line += word;
        if (k < idx.length - 1) line += sep;
      });
      out += line;
    } else {
      out = idx.map((i) => indent + item(i)).join(sep.trimEnd() + '\n'.repeat(shape.length - dim - 1));
    }
    return `[${out.slice(indent.length)}]`;
  };
  return build(0, 0, ' '.repeat(prefix.length + 1), lineWidth);
}

// numpy's array_repr: the elements after `name(`, then the dtype text on the
// last line if it fits, else on a line of its own under the elements; an
// empty array names its shape (numpy's not when 1-d: shapelessRank 1).
function reprText(name, values, shape, dtype, dtypeText, shapelessRank) {
  if (shape.includes(0)) {
    return shape.length <= shapelessRank ? `${name}([], ${dtypeText})` : `${name}([], shape=${pyTuple(shape)}, ${dtypeText})`;
  }
  const prefix = `${name}(`;
  const text = shape.length ? arrayText(values, shape, dtype, ', ', prefix, dtypeText ? ',' : ')') : elementTexts(values, dtype)[0].trim();
  if (!dtypeText) return `${prefix}${text})`;
  const last = text.length - text.lastIndexOf('\n') + 1;
  const gap = last + dtypeText.length + 2 > options.linewidth ? ' '.repeat(prefix.length) : ' ';
  return `${prefix}${text},${gap}${dtypeText})`;
}

/** repr of a concrete array as JAX's Array.__repr__: Array([...], dtype=float32), an empty one with its shape, a weakly typed one with weak_type=True. */
export function arrayRepr(values, shape, dtype, weakType = false) {
  return reprText('Array', Array.from(values), shape, dtype, weakType ? `dtype=${dtype}, weak_type=True` : `dtype=${dtype}`, 0);
}

/** repr of a numpy array: array([...]), with dtype= unless numpy's default for its values (float64, int64, bool). */
export function numpyRepr(values, shape, dtype) {
  const named = !['float64', 'int64', 'bool'].includes(dtype) || shape.includes(0);
  return reprText('array', Array.from(values), shape, dtype, named ? `dtype=${dtype}` : '', 1);
}

/** str of a concrete array: [1. 2. 3.]; a scalar as numpy's scalars print: 6.0, 3, True. */
export function arrayStr(values, shape, dtype) {
  const vals = Array.from(values);
  if (shape.length) return arrayText(vals, shape, dtype, ' ', '');
  const v = vals[0];
  if (dtype === 'bool') return v ? 'True' : 'False';
  if (dtype.includes('int') || dtype === 'object') return elementTexts([v], dtype)[0];
  // numpy writes a scalar positionally from 1e-4 to under 1e16 (its value in its dtype: float32's 1e-4 is
  // under), else in scientific notation, with exactly its shortest digits either way: 20.0, 1e-05.
  const a = Math.abs(roundToDtype(Number(v), dtype));
  let s = shortestText(Number(v), dtype);
  if (a !== 0 && Number.isFinite(a) && (a < 1e-4 || a >= 1e16)) s = scientific(s);
  else if (s.includes('e')) {
    const [mant, exp] = s.split('e');
    s = fixedText(Number(s), Math.max(mant.replace(/[-.]/g, '').length - 1 - Number(exp), 0));
  }
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}
