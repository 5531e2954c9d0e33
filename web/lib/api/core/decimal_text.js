// Floats as decimal text the way Python (and numpy) write them: from the
// float's exact binary value, rounded half to even at the digit asked for
// (JS's toFixed and toExponential round ties up: 0.125 to 2 places is
// Python's '0.12', JS's '0.13'), and the shortest digits that read back as
// the same float32, float16, bfloat16 or float64.

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/**
 * The exact decimal value of a finite |x|: {digits, point}, x = 0.digits ×
 * 10^point with no leading zero (digits '' for 0). Every double is m × 2^e,
 * and m × 2^-k = m × 5^k / 10^k, so the digits are an integer's.
 */
function exactDigits(x) {
  F64[0] = Math.abs(x);
  const bits = U64[0];
  const biased = Number(bits >> 52n);
  let m = bits & ((1n << 52n) - 1n);
  let e = biased - 1075;
  if (biased === 0) e = -1074;
  else m |= 1n << 52n;
  if (m === 0n) return { digits: '', point: 0 };
  const text = e >= 0 ? (m << BigInt(e)).toString() : (m * 5n ** BigInt(-e)).toString();
  const point = text.length + Math.min(e, 0);
  const digits = text.replace(/0+$/, '');
  return { digits, point };
}

/**
 * {digits, point} rounded half to even to the first `keep` digits (keep ≥ 0;
 * fewer digits come back unchanged). A carry past the first digit moves the point.
 */
function roundDigits({ digits, point }, keep) {
  if (digits.length <= keep) return { digits, point };
  if (keep < 0) return { digits: '', point };
  const next = digits.charCodeAt(keep) - 48;
  const rest = digits.slice(keep + 1);
  const last = keep > 0 ? digits.charCodeAt(keep - 1) - 48 : 0;
  const up = next > 5 || (next === 5 && (/[1-9]/.test(rest) || last % 2 === 1));
  let kept = digits.slice(0, keep);
  if (!up) return { digits: kept.replace(/0+$/, ''), point };
  let i = kept.length - 1;
  while (i >= 0 && kept[i] === '9') i--;
  if (i < 0) return { digits: '1', point: point + 1 };
  kept = kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) + 1);
  return { digits: kept, point };
}

const sign = (x) => (x < 0 || Object.is(x, -0) ? '-' : '');

/** The name Python writes a non-finite float by: nan, inf, -inf; null for a finite one. */
export function nonFinite(x) {
  if (Number.isNaN(x)) return 'nan';
  return x === Infinity ? 'inf' : x === -Infinity ? '-inf' : null;
}

/** Python's f'{x:.{places}f}': x with `places` fraction digits, rounded half to even. */
export function fixedText(x, places) {
  const named = nonFinite(x);
  if (named) return named;
  const exact = exactDigits(x);
  const { digits, point } = roundDigits(exact, Math.max(exact.point + places, -1));
  // The rounded value times 10^places, an integer, as digits.
  const scaled = (point + places > 0 ? digits.padEnd(point + places, '0') : '').padStart(places + 1, '0');
  const whole = scaled.slice(0, scaled.length - places);
  return `${sign(x)}${whole}${places > 0 ? `.${scaled.slice(whole.length)}` : ''}`;
}

/** {mantissa digits, exponent} of x rounded to `places` + 1 significant digits (for e and g formats). */
function scientificParts(x, places) {
  const exact = exactDigits(x);
  if (!exact.digits) return { digits: '0'.repeat(places + 1), exp: 0 };
  const { digits, point } = roundDigits(exact, places + 1);
  return { digits: digits.padEnd(places + 1, '0'), exp: point - 1 };
}

const expText = (exp) => `e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;

/** Python's f'{x:.{places}e}': one digit, `places` fraction digits, a signed exponent of at least two digits. */
export function exponentialText(x, places) {
  const named = nonFinite(x);
  if (named) return named;
  const { digits, exp } = scientificParts(x, places);
  return `${sign(x)}${digits[0]}${places > 0 ? `.${digits.slice(1)}` : ''}${expText(exp)}`;
}

/**
 * Python's f'{x:.{precision}g}' (alternate: '#g', keeping trailing zeros):
 * fixed notation when the exponent is from -4 to under the precision, else
 * exponential; trailing zeros and a bare point dropped.
 */
export function generalText(x, precision, alternate = false) {
  const named = nonFinite(x);
  if (named) return named;
  const p = Math.max(precision, 1);
  const { exp } = scientificParts(x, p - 1);
  return trimmed(exp >= -4 && exp < p ? fixedText(x, p - 1 - exp) : exponentialText(x, p - 1), alternate);
}

/** A %g-style text's trailing fraction zeros and bare point dropped (before any exponent), or, `alternate` ('#'), a point always there. */
export function trimmed(text, alternate = false) {
  if (alternate) return text.includes('.') ? text : text.replace(/(?=e|$)/, '.');
  return text.replace(/(\.\d*?)0+(?=e|$)/, '$1').replace(/\.(?=e|$)/, '');
}

/** Python's repr of a float: its shortest digits, positional from 1e-4 to under 1e16 (with '.0' when whole), else exponential. */
export function floatRepr(x) {
  const named = nonFinite(x);
  if (named) return named;
  if (x === 0) return `${sign(x)}0.0`;
  const [mant, e] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(e);
  if (exp < -4 || exp >= 16) return `${sign(x)}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}${expText(exp)}`;
  return `${sign(x)}${fixedText(Math.abs(x), Math.max(digits.length - 1 - exp, 1))}`;
}

/** A float16's value nearest x (ties to even), as a double; infinite beyond its range. */
function roundFloat16(x) {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Infinity;
  const exp = Math.max(Math.floor(Math.log2(a)), -14);
  let unit = 2 ** (exp - 10);
  if (a / unit >= 2048) unit *= 2; // log2 rounded up across a power of two
  const q = a / unit;
  let n = Math.floor(q);
  const r = q - n;
  if (r > 0.5 || (r === 0.5 && n % 2 === 1)) n += 1;
  return Math.sign(x) * n * unit;
}

/** x rounded to the float format of `dtype` (float32, float16, bfloat16; float64 as is), to nearest, ties to even. */
export function roundToDtype(x, dtype) {
  if (dtype === 'float64') return x;
  if (dtype === 'float16') return roundFloat16(x);
  F32[0] = x;
  if (dtype === 'bfloat16' && (U32[0] & 0x7fffffff) <= 0x7f800000) {
    const w = U32[0];
    U32[0] = (w + 0x7fff + ((w >>> 16) & 1)) & 0xffff0000;
  }
  return F32[0];
}

/** The shortest %g text that reads back as the same float of `dtype` (numpy's unique digits): '0.1', '1e-05', '3'. */
export function shortestText(x, dtype = 'float32') {
  const named = nonFinite(x);
  if (named) return named;
  if (dtype === 'float64') return floatRepr(x).replace(/\.0$/, '');
  const target = roundToDtype(x, dtype);
  for (let p = 1; p < 10; p++) {
    const s = generalText(target, p);
    if (roundToDtype(Number(s), dtype) === target) return s;
  }
  return floatRepr(target);
}
