// jnp's polynomial functions on coefficient arrays (highest power first), as
// JAX writes them: polyval by Horner's rule, polyadd and polysub by adding
// into the trailing rows of the longer one, polyder and polyint by the
// falling products of the powers.

import { ValueError } from '../../errors.js';
import { defop } from '../core/op.js';
import { avalOf, broadcastShapes, resultType, traced, traceFor } from '../core/operands.js';
import { quote } from '../core/shape.js';
import { updateItem, Slice } from '../indexing.js';
import { asDtype, emitHere, sliceAlong, toInexact } from './helpers.js';
import { add, broadcastTo, concatenate, divide, multiply, negative, zerosLike } from './math.js';

const valueOf = (x, fn) => traced(traceFor(fn), x, fn);
// x and y promoted together.
function promoted(x, y, fn) {
  const { dtype, weak } = resultType([avalOf(x, fn), avalOf(y, fn)]);
  return [asDtype(valueOf(x, fn), dtype, weak), asDtype(valueOf(y, fn), dtype, weak)];
}
// Row i of v (its first axis dropped).
const row = (v, i) => emitHere('row', 'squeeze', { dimensions: [0] }, [sliceAlong(v, 0, i, i + 1)]);

/** jnp.polyval(p, x): p[0] x^(n-1) + ... + p[n-1], by Horner's rule (y = y * x + p[i]). */
export const polyval = defop('polyval', 2, (p, x) => {
  const [c, v] = promoted(p, x, 'np.polyval');
  if (c.ndim === 0) throw new ValueError('np.polyval: p must be an array of coefficients (at least 1-d), got a scalar');
  let y = broadcastTo(zerosLike(v), broadcastShapes([c.shape.slice(1), v.shape], 'np.polyval'));
  for (let i = 0; i < c.shape[0]; i++) y = add(multiply(y, v), row(c, i));
  return y;
});

// a1 + sign * a2, the shorter added into the trailing rows of the longer (its first axis aligned at the end).
function sumOf(a1, a2, fn, sign) {
  let [x, y] = promoted(a1, a2, fn);
  if (sign < 0) y = negative(y);
  const [long, short] = y.shape[0] <= x.shape[0] ? [x, y] : [y, x];
  return updateItem('add', long, [new Slice(-short.shape[0], null, null)], short);
}
/** jnp.polyadd(a1, a2): the sum of two polynomials. */
export const polyadd = defop('polyadd', 2, (a1, a2) => sumOf(a1, a2, 'np.polyadd', 1));
/** jnp.polysub(a1, a2): the difference of two polynomials. */
export const polysub = defop('polysub', 2, (a1, a2) => sumOf(a1, a2, 'np.polysub', -1));

// The m-fold falling products of the powers n-1, ..., 0 (a float32 constant vector).
function fallingProducts(powers, m) {
  return Array.from({ length: powers }, (_, i) => {
    let prod = 1;
    for (let j = 0; j < m; j++) prod *= Math.max(1, i - j);
    return prod;
  });
}

/** jnp.polyder(p, m): the m-th derivative's coefficients (float). */
export const polyder = defop('polyder', 1, (p, m = 1) => {
  if (!Number.isInteger(m) || m < 0) throw new ValueError(`np.polyder: order of derivative must be a non-negative integer, got ${quote(m)}`);
  const c = toInexact(valueOf(p, 'np.polyder'));
  if (m === 0) return c;
  const n = c.shape[0];
  if (m >= n) return sliceAlong(c, 0, 0, 0);
  // coefficient of x^(n-1-i) gains (n-1-i)(n-2-i)...(n-m-i)
  const coeff = Array.from({ length: n - m }, (_, i) => {
    let prod = 1;
    for (let j = 0; j < m; j++) prod *= n - 1 - i - j;
    return prod;
  });
  const kept = sliceAlong(c, 0, 0, n - m);
  return multiply(kept, constants(coeff));
});

/** jnp.polyint(p, m, k): the m-th antiderivative's coefficients, integration constants k (a scalar or m of them, 0 by default). */
export const polyint = (p, m = 1, k = null) => polyintOf(p, k ?? 0, m);
const polyintOf = defop('polyint', 2, (p, k, m) => {
  if (!Number.isInteger(m) || m < 0) throw new ValueError(`np.polyint: order of integral must be a non-negative integer, got ${quote(m)}`);
  const c = toInexact(valueOf(p, 'np.polyint'));
  let ks = toInexact(valueOf(k, 'np.polyint'));
  if (ks.ndim === 0) ks = broadcastTo(ks, [m]);
  else if (ks.ndim === 1 && ks.shape[0] === 1) ks = broadcastTo(row(ks, 0), [m]);
  if (ks.ndim !== 1 || ks.shape[0] !== m) throw new ValueError(`np.polyint: k must be a scalar or a rank-1 array of length 1 or m (${m}), got shape [${ks.shape}]`);
  if (m === 0) return c;
  const n = c.shape[0] + m;
  return divide(concatenate([c, ks]), constants(fallingProducts(n, m).reverse()));
});

// A float32 constant vector of the trace.
function constants(values) {
  return traced(traceFor('polynomial'), values, 'np.polynomial');
}
