// numpy's bitwise and logical functions (re-exported by np.js): and, or,
// xor and not on integers and bools, the shifts, and the logical_* forms
// (operands converted to bool first, as jnp's).

import { ShapeError } from '../../errors.js';
import { elementwise, emitHere, truth } from './helpers.js';
import { defop } from '../core/op.js';
import { traced, traceFor } from '../core/operands.js';
import { isFloat, isUnsigned } from '../../dtypes.js';

function integral(fn, xs, { bools = true } = {}) {
  const vs = elementwise(fn, xs);
  const dt = vs[0].dtype;
  if (isFloat(dt) || (!bools && dt === 'bool')) {
    throw new ShapeError(`np.${fn}: needs ${bools ? 'integer or bool' : 'integer'} operands, got ${xs.map((x) => (x?.dtype ?? typeof x)).join(' and ')}`);
  }
  return vs;
}

const bitwise = (name, prim, opts) => defop(name, 2, (x, y) => emitHere(name, prim, {}, integral(name, [x, y], opts)));

/** x & y on integers (logical on bools). */
export const bitwiseAnd = bitwise('bitwiseAnd', 'and');
/** x | y. */
export const bitwiseOr = bitwise('bitwiseOr', 'or');
/** x ^ y. */
export const bitwiseXor = bitwise('bitwiseXor', 'xor');
/** x << y (integers; 0 for shifts of the dtype's bits or more). */
export const leftShift = bitwise('leftShift', 'shift_left', { bools: false });
/** x >> y: arithmetic for signed integers (the sign fills), logical for unsigned ones, as jnp.right_shift. */
export const rightShift = defop('rightShift', 2, (x, y) => {
  const [a, b] = integral('rightShift', [x, y], { bools: false });
  return emitHere('rightShift', isUnsigned(a.dtype) ? 'shift_right_logical' : 'shift_right_arithmetic', {}, [a, b]);
});
/** ~x on integers (not on bools). */
export const bitwiseNot = defop('bitwiseNot', 1, (x) => {
  const v = traced(traceFor('bitwiseNot'), x, 'np.bitwiseNot');
  if (isFloat(v.dtype)) throw new ShapeError(`np.bitwiseNot: needs an integer or bool operand, got ${v.aval}`);
  return emitHere('bitwiseNot', 'not', {}, [v]);
});
/** np.invert: bitwiseNot. */
export const invert = bitwiseNot;

const logical = (name, prim) =>
  defop(name, 2, (x, y) => {
    const t = traceFor(name);
    return emitHere(name, prim, {}, elementwise(name, [truth(traced(t, x, name)), truth(traced(t, y, name))]));
  });
/** Whether both are nonzero (bool). */
export const logicalAnd = logical('logicalAnd', 'and');
/** Whether either is nonzero (bool). */
export const logicalOr = logical('logicalOr', 'or');
/** Whether exactly one is nonzero (bool). */
export const logicalXor = logical('logicalXor', 'xor');
/** Whether x is zero (bool). */
export const logicalNot = defop('logicalNot', 1, (x) => emitHere('logicalNot', 'not', {}, [truth(traced(traceFor('logicalNot'), x, 'np.logicalNot'))]));
