// Python's format-spec mini-language for one number, as format(x, spec)
// writes a float, an int or a bool: [[fill]align][sign][z][#][0][width]
// [grouping][.precision][type]. jax.debug.print's `{x:.3f}` of a 0-d
// array formats its element this way (numpy's rule), wherever it prints.

import { OverflowError, ValueError } from '../../errors.js';
import { exponentialText, fixedText, floatRepr, generalText, nonFinite, trimmed } from './decimal_text.js';

const SPEC = /^(?:(.)?([<>=^]))?([-+ ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([A-Za-z%])?$/su;

/** The parts of a format spec, or a ValueError naming it. */
function parse(spec) {
  const m = SPEC.exec(spec);
  if (!m) throw new ValueError(`Invalid format specifier '${spec}'`);
  const [, fill, align, sign, z, alt, zero, width, grouping, precision, type] = m;
  return {
    fill: fill ?? (zero && !align ? '0' : ' '),
    align: align ?? (zero ? '=' : null),
    sign: sign ?? '-',
    z: Boolean(z),
    alt: Boolean(alt),
    width: width ? Number(width) : 0,
    grouping: grouping ?? '',
    precision: precision === undefined ? null : Number(precision),
    type: type ?? '',
  };
}

// Digits of an integer part grouped by `sep` every `every` digits.
const group = (digits, sep, every) => (sep ? digits.replace(new RegExp(`(?<=.)(?=(.{${every}})+$)`, 'g'), sep) : digits);

/** The body (no sign) of float `x` by `p` (parse's), and whether it is negative. */
function floatBody(x, p) {
  const named = nonFinite(Math.abs(x));
  const upper = 'EFG'.includes(p.type) && p.type !== '';
  const precision = p.precision ?? 6;
  let body;
  if (named) body = named + (p.type === '%' ? '%' : '');
  else if (p.type === '' && p.precision === null) body = floatRepr(Math.abs(x));
  else if (p.type === '') {
    // Like 'g', but exponential from exp ≥ precision - 1, and fixed notation keeps a fraction digit.
    const prec = Math.max(precision, 1);
    const exp = Number(exponentialText(Math.abs(x), prec - 1).split('e')[1]);
    const trim = (t) => trimmed(t, p.alt);
    if (exp < -4 || exp >= prec - 1) body = trim(exponentialText(Math.abs(x), prec - 1));
    else body = trim(fixedText(Math.abs(x), prec - 1 - exp)).replace(/^(\d+)$/, '$1.0');
  } else if ('eE'.includes(p.type)) body = exponentialText(Math.abs(x), precision);
  else if ('fF'.includes(p.type)) body = fixedText(Math.abs(x), precision);
  else if (p.type === '%') body = `${fixedText(Math.abs(x) * 100, precision)}%`;
  else body = generalText(Math.abs(x), precision, p.alt);
  if (p.alt && !named && !body.includes('.') && 'eEfF%'.includes(p.type) && p.type !== '') body = body.replace(/^(\d+)/, '$1.');
  if (upper) body = body.toUpperCase();
  const [whole, rest] = /^(\d+)(.*)$/s.exec(body)?.slice(1) ?? [body, ''];
  const grouped = named ? body : group(whole, p.grouping, 3) + rest;
  const negative = x < 0 || Object.is(x, -0);
  // 'z': a negative zero (after rounding) shown as zero.
  const zero = !named && !/[1-9]/.test(grouped.split(/[eE]/)[0]);
  return { body: grouped, negative: negative && !(p.z && zero) };
}

/** The body (no sign) of integer `n` by `p` (parse's), with its prefix (0x, 0b, 0o), and whether it is negative. */
function intBody(n, p) {
  if (p.precision !== null) throw new ValueError('Precision not allowed in integer format specifier');
  if (p.z) throw new ValueError("Negative zero coercion (z) not allowed in integer format specifier");
  const a = n < 0 ? -n : n;
  if (p.type === 'c' && (a < 0 || a >= 0x110000 || n < 0)) throw new OverflowError('%c arg not in range(0x110000)');
  if (p.type === 'c') return { body: String.fromCodePoint(Number(a)), negative: false, prefix: '' };
  const radix = { b: 2, o: 8, x: 16, X: 16 }[p.type] ?? 10;
  let digits = a.toString(radix);
  if (p.type === 'X') digits = digits.toUpperCase();
  const prefix = p.alt && radix !== 10 ? `0${p.type}` : '';
  return { body: group(digits, p.grouping, radix === 10 ? 3 : 4), negative: n < 0, prefix };
}

/**
 * format(value, spec) as Python writes a number: `kind` 'float', 'int' or
 * 'bool' (an int with a non-empty spec); an int with a float type formats as
 * a float. A spec Python refuses throws its ValueError.
 */
export function formatNumber(value, spec, kind) {
  if (kind === 'bool' && spec === '') return value ? 'True' : 'False';
  const p = parse(spec);
  const asFloat = kind === 'float' || (p.type !== '' && 'eEfFgG%'.includes(p.type));
  const known = asFloat ? 'eEfFgGn%' : 'bcdoxXn';
  if (p.type && !known.includes(p.type)) throw new ValueError(`Unknown format code '${p.type}' for object of type '${kind}'`);
  if (p.grouping && p.type !== '' && 'cn'.includes(p.type)) throw new ValueError(`Cannot specify '${p.grouping}' with '${p.type}'.`);
  const { body, negative, prefix = '' } = asFloat ? floatBody(Number(value), p) : intBody(typeof value === 'bigint' ? value : Math.trunc(Number(value)), p);
  const signText = negative ? '-' : p.sign === '+' ? '+' : p.sign === ' ' ? ' ' : '';
  const head = signText + prefix;
  const pad = Math.max(p.width - head.length - body.length, 0);
  const fill = p.fill.repeat(pad);
  switch (p.align ?? '>') {
    case '<':
      return head + body + fill;
    case '^':
      return p.fill.repeat(pad >> 1) + head + body + p.fill.repeat(pad - (pad >> 1));
    case '=':
      return head + fill + body;
    default:
      return fill + head + body;
  }
}
