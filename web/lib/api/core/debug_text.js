// jax.debug.print's text: a format string in Python's syntax ('{0} and
// {1:.2f}', braces doubled for themselves) whose fields name the call's
// operands by number, each filled with its value as JAX's callback would
// (str of the array, `!r` its repr, a format spec for a 0-d array's element:
// numpy's rule). The format travels in the debug_callback equation
// (cpp/ir/primitives/debug.h), so whoever runs the program prints it: the
// learner's own runtime, or a judge running a sandbox's trace, where the
// format is untrusted text and the values are its own.

import { ValueError } from '../../errors.js';
import { arrayRepr, arrayStr } from './array_text.js';
import { formatNumber } from './python_format.js';
import { pyTuple } from './python_text.js';

const FIELD = /^(\d+)(?:!([rsa]))?(?::(.*))?$/s;

/**
 * The pieces of `fmt` (literal strings, and fields {index, conversion, spec}),
 * each field's index under `count`; with `auto`, '{}' numbers itself (JS's
 * debug.print), else every field has its number. A ValueError names what is wrong.
 */
export function parseFormat(fmt, count, { auto = false, what = 'jax.debug.print' } = {}) {
  const pieces = [];
  let text = '';
  let next = 0;
  let numbering = null; // 'auto' or 'manual', which Python keeps to one per format
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i];
    if ((c === '{' || c === '}') && fmt[i + 1] === c) {
      text += c;
      i++;
      continue;
    }
    if (c === '}') throw new ValueError(`${what}: Single '}' encountered in format string ${JSON.stringify(fmt)}`);
    if (c !== '{') {
      text += c;
      continue;
    }
    const end = fmt.indexOf('}', i);
    if (end < 0) throw new ValueError(`${what}: Single '{' encountered in format string ${JSON.stringify(fmt)}`);
    let body = fmt.slice(i + 1, end);
    if (body.includes('{')) throw new ValueError(`${what}: a format spec with a field of its own ({${body}}) is not supported; give the spec as text`);
    if (auto && /^(?:!|:|$)/.test(body)) {
      if (numbering === 'manual') throw new ValueError(`${what}: cannot switch from manual field specification to automatic field numbering`);
      numbering = 'auto';
      body = `${next++}${body}`;
    } else if (auto) {
      if (numbering === 'auto') throw new ValueError(`${what}: cannot switch from automatic field numbering to manual field specification`);
      numbering = 'manual';
    }
    const m = FIELD.exec(body);
    if (!m) throw new ValueError(`${what}: the field {${body}} of ${JSON.stringify(fmt)} names no argument by number`);
    const index = Number(m[1]);
    if (index >= count) throw new ValueError(`${what}: the format ${JSON.stringify(fmt)} names argument ${index}, but ${count} ${count === 1 ? 'was' : 'were'} given`);
    if (text) pieces.push(text);
    text = '';
    pieces.push({ index, conversion: m[2] ?? null, spec: m[3] ?? '' });
    i = end;
  }
  if (text) pieces.push(text);
  return pieces;
}

/** The pieces back as a format string whose fields are all numbered (what an equation keeps). */
export function templateOf(pieces) {
  return pieces
    .map((p) => (typeof p === 'string' ? p.replace(/[{}]/g, '$&$&') : `{${p.index}${p.conversion ? `!${p.conversion}` : ''}${p.spec ? `:${p.spec}` : ''}}`))
    .join('');
}

const kindOf = (dtype) => (dtype === 'bool' ? 'bool' : dtype.includes('int') ? 'int' : 'float');

/**
 * Checks each field against its operand's type where tracing meets it (so a
 * bad spec fails at the call, not in the run): a spec only on a 0-d array
 * (numpy's rule), and one Python's format() takes for its element;
 * `operands` are anything with a shape and a dtype (tracers, values).
 */
export function checkFields(pieces, operands, what = 'jax.debug.print') {
  for (const p of pieces) {
    if (typeof p === 'string' || !p.spec) continue;
    if (p.conversion) formatStr('', p.spec);
    else if (operands[p.index].shape.length > 0) throw new TypeError(`${what}: unsupported format string passed to numpy.ndarray.__format__ (the spec '${p.spec}' of an array of shape ${pyTuple(operands[p.index].shape)}: a spec formats a 0-d array's element)`);
    else formatNumber(0, p.spec, kindOf(operands[p.index].dtype));
  }
}

// Python's format(text, spec) of a string: [[fill]align][width][.precision][s], left-aligned.
function formatStr(text, spec) {
  const m = /^(?:(.)?([<>^]))?(\d+)?(?:\.(\d+))?s?$/su.exec(spec);
  if (!m) throw new ValueError(`Invalid format specifier '${spec}' for object of type 'str'`);
  const [, fill = ' ', align = '<', width = '0', precision] = m;
  const t = precision === undefined ? text : [...text].slice(0, Number(precision)).join('');
  const pad = Math.max(Number(width) - [...t].length, 0);
  if (align === '>') return fill.repeat(pad) + t;
  if (align === '^') return fill.repeat(pad >> 1) + t + fill.repeat(pad - (pad >> 1));
  return t + fill.repeat(pad);
}

/** One value ({data, shape, dtype}) as field `p` shows it. */
function fieldText(p, v) {
  if (p.conversion) return formatStr(p.conversion === 's' ? arrayStr(v.data, v.shape, v.dtype) : arrayRepr(v.data, v.shape, v.dtype), p.spec);
  if (!p.spec) return arrayStr(v.data, v.shape, v.dtype);
  if (v.shape.length > 0) throw new TypeError('unsupported format string passed to numpy.ndarray.__format__');
  return formatNumber(v.dtype === 'bool' ? Boolean(v.data[0]) : v.data[0], p.spec, kindOf(v.dtype));
}

/** A value that is no array (a JS number, boolean or string) as field `p` shows it: written into the format where it is called. */
export function staticText(p, v) {
  if (typeof v === 'number' && !p.conversion) return formatNumber(v, p.spec, Number.isInteger(v) ? 'int' : 'float');
  return formatStr(p.conversion === 'r' ? JSON.stringify(v) ?? String(v) : String(v), p.spec);
}

/** The text of `pieces` with the values ({data, shape, dtype}, by operand) filled in. */
export function formatText(pieces, values) {
  return pieces.map((p) => (typeof p === 'string' ? p : fieldText(p, values[p.index]))).join('');
}
